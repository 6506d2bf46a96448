// Data layer of the Google Ads API emulator: demo store, GAQL engine, data source.
// Nothing here imports from /app: to the product this is "the outside world".

export {
  createDemoStore,
  DEMO_USER_EMAIL,
  DEMO_MANAGER_CUSTOMER_ID,
  DEMO_RICH_CUSTOMER_ID,
  DEMO_SMALL_CUSTOMER_ID,
  DEMO_LARGE_CUSTOMER_ID,
  DEMO_LARGE_ACCOUNT_NAME,
  DEFAULT_DEMO_SEED,
  generationReports,
} from "./demo/generate";
export type { DemoScale, DemoStoreOptions, DemoGenerationReport } from "./demo/generate";
export { createAdsDataSource, queryBatches, StoreDataSource, PAGE_SIZE, STREAM_BATCH_SIZE } from "./gaql/datasource";
export { executeQuery, type QueryResult } from "./gaql/executor";
export { parseQuery } from "./gaql/parser";
export { AdsStore, Account, parseResourceName } from "./store/store";
export type { AccountFacts, StoreOptions, ResourceRef } from "./store/store";
export type * from "./store/types";
export type { AdsDataSource, QueryPage, QueryBatch, StreamingAdsDataSource, GoogleAdsErrorEntry } from "./contract";
export { GoogleAdsFailureError } from "./contract";
export { createMutateHandler, type MutateHandlerOptions, type MutateCall } from "./mutate/handler";
export { seedDemoChangeEvents, formatChangeDateTime } from "./mutate/change-events";
export { createFixtureStore, loadFixtureFile, parseFixture, parseFixtureJson, FixtureError } from "./fixture/load";
export type { Fixture, FixtureInput } from "./fixture/schema";
