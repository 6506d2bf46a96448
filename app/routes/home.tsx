import { redirect } from "react-router";
import { landingPath } from "~/server/agency/landing.server";
import { userContext } from "~/server/request-context.server";
import type { Route } from "./+types/home";

/** The address of the product: the accounts overview for someone with several client accounts, else the dashboard. */
export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  return redirect(await landingPath(user.id));
}
