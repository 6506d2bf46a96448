import { takeTokenFromAddress } from "~/server/auth/token-handoff.server";
import { routeArgs } from "./route-args";

/**
 * A browser arriving at the address Google's callback sent it to
 * (`/dashboard?token=<one-time code>`): the root middleware's answer, a
 * redirect to the clean address that starts the session when the code is
 * live and bound to this browser's cookie.
 */
export async function arriveAt(url: string, cookieHeader: string): Promise<Response> {
  const request = new Request(url, { headers: { Cookie: cookieHeader } });
  try {
    await takeTokenFromAddress(routeArgs(request), async () => new Response(null));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error(`${url} was let through without a redirect`);
}
