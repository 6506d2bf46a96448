import { listAccounts } from "~/server/ads/accounts.server";
import { apiRoute } from "~/server/http/api-route.server";
import type { Route } from "./+types/accounts";

export const loader = apiRoute({}, async (_args: Route.LoaderArgs, { user }) => {
  const accounts = await listAccounts(user.id);
  return {
    accounts: accounts.map((a) => ({
      customerId: a.customer_id,
      name: a.name,
      currencyCode: a.currency_code,
      timeZone: a.time_zone,
      manager: a.manager === 1,
    })),
  };
});
