/**
 * Writes emulator/fixtures/engine-accounts.json from emulator/fixtures/engine.ts:
 *   npx tsx emulator/scripts/write-engine-fixtures.ts
 * Then `EMULATOR_FIXTURE=emulator/fixtures/engine-accounts.json npm run emulator`
 * serves the healthy account and one account per rule's plant.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { engineAccountsFixture } from "../fixtures/engine";

export const ENGINE_ACCOUNTS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/engine-accounts.json");

export function engineAccountsJson(): string {
  return `${JSON.stringify(engineAccountsFixture(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  fs.writeFileSync(ENGINE_ACCOUNTS_FILE, engineAccountsJson());
  console.log(`wrote ${path.relative(process.cwd(), ENGINE_ACCOUNTS_FILE)}`);
}
