import type { Migration } from "kysely";
import * as m0001 from "./0001_init";

// Listed explicitly (not read from disk) so the bundled server build carries them.
export const migrations: Record<string, Migration> = {
  "0001_init": m0001,
};
