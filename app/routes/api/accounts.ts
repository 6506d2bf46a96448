import { data } from "react-router";
import { listAccounts } from "~/server/ads/accounts.server";
import { requireApiSession } from "~/server/http/api-auth.server";
import { apiError } from "~/server/http/errors.server";
import type { Route } from "./+types/accounts";

export async function loader({ request }: Route.LoaderArgs) {
  try {
    const { user } = await requireApiSession(request);
    const accounts = await listAccounts(user.id);
    return data({
      accounts: accounts.map((a) => ({
        customerId: a.customer_id,
        name: a.name,
        currencyCode: a.currency_code,
        timeZone: a.time_zone,
        manager: a.manager === 1,
      })),
    });
  } catch (error) {
    return apiError(error);
  }
}
