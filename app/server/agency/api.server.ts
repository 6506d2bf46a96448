import { InvalidError } from "../domain-errors.server";
import { accountsOverview, parseOverviewQuery } from "./overview.server";

/** GET /api/v1/accounts/overview: the page's data; a query value that does not parse is a 400, not a silent default. */
export async function overviewForApi(userId: string, url: URL) {
  const { query, ignored } = parseOverviewQuery(url.searchParams);
  if (ignored.length) throw new InvalidError(`Invalid ${ignored.join(", ")}`);
  const overview = await accountsOverview(userId, query);
  return { ...overview, sort: query.sort, dir: query.dir };
}
