import { z } from "zod";
import { RESOURCE_KIND_LABEL, CHANGE_STATUS_LABEL, diffFields } from "~/lib/change-fields";
import { parseDetailListQuery } from "~/lib/detail-query";
import { formatEnum } from "~/lib/format";
import { parseCampaignListQuery, parseDetailTab } from "~/lib/report-query";
import { getCampaignOverview, listDetailTab, MAX_DETAIL_PAGE_SIZE } from "./ads/detail-lists.server";
import { listCampaigns, MAX_PAGE_SIZE, type CampaignRow } from "./ads/reports.server";
import { HistoryQuery, listHistory, type HistoryItem } from "./changes/history.server";
import { csvResponse, metricCsvColumns, moneyUnits, toCsv, type CsvColumn } from "./csv.server";
import type { User } from "./db/schema";
import { activeAccountOf, notFound } from "./account-access.server";
import { pageRange } from "./report-range.server";
import { getSyncState } from "./ads/sync.server";
import { hiddenCampaignColumns } from "./campaign-columns.server";

// "Download CSV" of each table: the same address as the page (range, filters,
// sort), every page of it. The same parsers as the pages, so the file holds
// exactly the rows the person was looking at, in the same order.

const STATUS_FILTER = { all: "all", enabled: "ENABLED", paused: "PAUSED", removed: "REMOVED" } as const;

async function accountOrNotFound(user: User) {
  const account = await activeAccountOf(user);
  if (!account) notFound();
  return account;
}

export async function campaignsCsv(user: User, url: URL): Promise<Response> {
  const account = await accountOrNotFound(user);
  const { range } = pageRange(url, account);
  const { query } = parseCampaignListQuery(url.searchParams);
  const rows: CampaignRow[] = [];
  for (let page = 1; ; page++) {
    const list = await listCampaigns(account.customerId, range, {
      sort: query.sort,
      dir: query.dir,
      status: STATUS_FILTER[query.status],
      q: query.q || undefined,
      page,
      pageSize: MAX_PAGE_SIZE,
    });
    if (list.page !== page) break;
    rows.push(...list.rows);
    if (page * MAX_PAGE_SIZE >= list.total) break;
  }
  const currency = account.currencyCode;
  // The file holds the columns the table shows: the ones the person hid with "Columns" stay out.
  const hidden: readonly string[] = await hiddenCampaignColumns(user);
  const all: CsvColumn<CampaignRow>[] = [
    { header: "Campaign ID", value: (c) => c.id },
    { header: "Campaign", value: (c) => c.name },
    { key: "status", header: "Status", value: (c) => formatEnum(c.status) },
    { key: "channelType", header: "Type", value: (c) => formatEnum(c.channelType) },
    { key: "budget", header: `Daily budget (${currency})`, value: (c) => moneyUnits(c.budgetMicros) },
    { key: "biddingStrategyType", header: "Bidding", value: (c) => formatEnum(c.biddingStrategyType) },
    ...metricCsvColumns<CampaignRow>((c) => c.metrics, currency),
  ];
  const columns = all.filter((c) => c.key === undefined || !hidden.includes(c.key));
  return csvResponse(`campaigns-${account.customerId}-${range.from}-to-${range.to}.csv`, toCsv(columns, rows));
}

export async function campaignTabCsv(user: User, url: URL, campaignId: string): Promise<Response> {
  const account = await accountOrNotFound(user);
  if (!/^\d{1,19}$/.test(campaignId)) notFound();
  const { range } = pageRange(url, account);
  const overview = await getCampaignOverview(account.customerId, campaignId, range);
  if (!overview) notFound();
  const { tab } = parseDetailTab(url.searchParams);
  if (tab !== "adgroups") {
    // A first sync still importing (or having failed to import) this tab's performance: a file of zeros
    // would be taken for the real figures. 409 with the reason; the page offers no link meanwhile.
    const { detail } = await getSyncState(account.customerId);
    if (detail.status === "running" || detail.status === "failed") {
      return new Response(
        detail.status === "running"
          ? "Keyword, ad and search-term performance is still importing. Download this file again once the import is done.\n"
          : "Keyword, ad and search-term performance could not be imported. Sync now, then download this file again.\n",
        { status: 409, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } },
      );
    }
  }
  const { query } = parseDetailListQuery(url.searchParams, tab);
  const currency = account.currencyCode;
  const all = async <Row>(tabName: typeof tab) => {
    const out: Row[] = [];
    for (let page = 1; ; page++) {
      const { list } = await listDetailTab(tabName, account.customerId, campaignId, range, { ...query, page, pageSize: MAX_DETAIL_PAGE_SIZE });
      if (list.page !== page) break;
      out.push(...(list.rows as Row[]));
      if (page * MAX_DETAIL_PAGE_SIZE >= list.total) break;
    }
    return out;
  };
  const money = (micros: number | null) => moneyUnits(micros);
  let body: string;
  switch (tab) {
    case "adgroups": {
      type Row = { id: string; name: string; status: string; cpcBidMicros: number | null; metrics: CampaignRow["metrics"] };
      body = toCsv<Row>(
        [
          { header: "Ad group ID", value: (g) => g.id },
          { header: "Ad group", value: (g) => g.name },
          { header: "Status", value: (g) => formatEnum(g.status) },
          { header: `Default max. CPC (${currency})`, value: (g) => money(g.cpcBidMicros) },
          ...metricCsvColumns<Row>((g) => g.metrics, currency),
        ],
        await all<Row>(tab),
      );
      break;
    }
    case "keywords": {
      type Row = {
        adGroupId: string;
        adGroupName: string;
        criterionId: string;
        text: string;
        matchType: string;
        status: string;
        negative: boolean;
        cpcBidMicros: number | null;
        qualityScore: number | null;
        metrics: CampaignRow["metrics"];
      };
      body = toCsv<Row>(
        [
          { header: "Keyword", value: (k) => k.text },
          { header: "Match type", value: (k) => formatEnum(k.matchType) },
          { header: "Negative", value: (k) => (k.negative ? "Yes" : "No") },
          { header: "Ad group", value: (k) => k.adGroupName },
          { header: "Status", value: (k) => formatEnum(k.status) },
          { header: `Max. CPC (${currency})`, value: (k) => money(k.cpcBidMicros) },
          { header: "Quality score", value: (k) => k.qualityScore },
          ...metricCsvColumns<Row>((k) => k.metrics, currency),
          { header: "Ad group ID", value: (k) => k.adGroupId },
          { header: "Criterion ID", value: (k) => k.criterionId },
        ],
        await all<Row>(tab),
      );
      break;
    }
    case "ads": {
      type Row = {
        adGroupId: string;
        adGroupName: string;
        adId: string;
        type: string | null;
        status: string;
        adStrength?: string;
        headlines: Array<{ text: string }>;
        descriptions: Array<{ text: string }>;
        finalUrls: string[];
        metrics: CampaignRow["metrics"];
      };
      body = toCsv<Row>(
        [
          { header: "Ad ID", value: (a) => a.adId },
          { header: "Ad group", value: (a) => a.adGroupName },
          { header: "Type", value: (a) => formatEnum(a.type ?? "AD") },
          { header: "Status", value: (a) => formatEnum(a.status) },
          { header: "Ad strength", value: (a) => (a.adStrength ? formatEnum(a.adStrength) : null) },
          { header: "Headlines", value: (a) => a.headlines.map((h) => h.text).join(" | ") },
          { header: "Descriptions", value: (a) => a.descriptions.map((d) => d.text).join(" | ") },
          { header: "Final URL", value: (a) => a.finalUrls[0] ?? null },
          ...metricCsvColumns<Row>((a) => a.metrics, currency),
        ],
        await all<Row>(tab),
      );
      break;
    }
    case "searchterms": {
      type Row = { searchTerm: string; status: string; adGroupName: string; keywordText: string | null; metrics: CampaignRow["metrics"] };
      body = toCsv<Row>(
        [
          { header: "Search term", value: (t) => t.searchTerm },
          { header: "Added/Excluded", value: (t) => (t.status === "NONE" ? "None" : formatEnum(t.status)) },
          { header: "Ad group", value: (t) => t.adGroupName },
          { header: "Keyword", value: (t) => t.keywordText },
          ...metricCsvColumns<Row>((t) => t.metrics, currency),
        ],
        await all<Row>(tab),
      );
      break;
    }
  }
  return csvResponse(`campaign-${campaignId}-${tab}-${range.from}-to-${range.to}.csv`, body);
}

const HistoryCsvQuery = HistoryQuery.omit({ customerId: true, page: true });

export async function historyCsv(user: User, url: URL): Promise<Response> {
  const account = await accountOrNotFound(user);
  const raw = Object.fromEntries([...url.searchParams].filter(([k, v]) => v !== "" && k in HistoryCsvQuery.shape));
  const parsed = HistoryCsvQuery.safeParse(raw);
  if (!parsed.success) {
    return Response.json({ detail: `Invalid filter: ${parsed.error.issues[0].message}` }, { status: 400 });
  }
  const { items } = await listHistory(user.id, { ...(parsed.data as z.input<typeof HistoryCsvQuery>), customerId: account.customerId }, { allPages: true });
  const currency = account.currencyCode;
  const diff = (i: HistoryItem) => diffFields(i.before, i.after, currency);
  const columns: CsvColumn<HistoryItem>[] = [
    { header: "When (UTC)", value: (i) => i.at },
    { header: "Who", value: (i) => i.who },
    { header: "Made in", value: (i) => i.originLabel },
    { header: "What", value: (i) => i.label },
    { header: "Resource", value: (i) => RESOURCE_KIND_LABEL[i.resourceKind as keyof typeof RESOURCE_KIND_LABEL] ?? i.resourceKind },
    {
      header: "Before",
      value: (i) =>
        diff(i)
          .map((d) => `${d.field}: ${d.before ?? "—"}`)
          .join("; "),
    },
    {
      header: "After",
      value: (i) =>
        diff(i)
          .map((d) => `${d.field}: ${d.after ?? "—"}`)
          .join("; "),
    },
    { header: "Status", value: (i) => CHANGE_STATUS_LABEL[i.status as keyof typeof CHANGE_STATUS_LABEL] ?? i.status },
    { header: "Reverted", value: (i) => (i.revertedBy ? "Yes" : "No") },
    { header: "Error", value: (i) => i.error },
    { header: "Change set", value: (i) => i.changeSetTitle },
    { header: "Google resource", value: (i) => i.resourceName },
  ];
  return csvResponse(`history-${account.customerId}.csv`, toCsv(columns, items));
}
