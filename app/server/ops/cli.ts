import { reencryptTokens } from "../auth/google-connection.server";
import { closeDb, getDb, migrateToLatest } from "../db/db.server";
import { getConfig } from "../env.server";
import { errorMessage } from "../log.server";
import { backupSqlite, restoreSqlite } from "./backup.server";

/**
 * The operator's commands, with the server's configuration (the same
 * environment and DATA_DIR): `npm run backup [-- <file>]`,
 * `npm run restore -- <file>` (server stopped), `npm run rotate-key`.
 * Bundled as build/ops.js, so they run where the server runs (the Docker
 * image has no build tools).
 */
const [command, arg] = process.argv.slice(2);

async function main(): Promise<number> {
  const config = getConfig();
  switch (command) {
    case "backup": {
      const r = await backupSqlite(config, arg);
      console.log(`Backed up the database to ${r.file} (${r.bytes} bytes; integrity checked).`);
      if (r.secretsFile) console.log(`The generated secrets (the key of the Google tokens) are beside it: ${r.secretsFile}. Keep both, privately.`);
      return 0;
    }
    case "restore": {
      if (!arg) return usage();
      const r = restoreSqlite(config, arg);
      console.log(`Restored ${arg}${r.replaced ? `; the database it replaced is kept as ${r.replaced}` : ""}. Start the server again.`);
      return 0;
    }
    case "rotate-key": {
      await migrateToLatest(getDb());
      const r = await reencryptTokens();
      console.log(
        `Re-encrypted ${r.rewritten} of ${r.connections} Google connection(s) under key version ${config.ENCRYPTION_KEY_VERSION}. ` +
          "Once every instance runs with this ENCRYPTION_KEY, ENCRYPTION_OLD_KEYS may be removed.",
      );
      return 0;
    }
    default:
      return usage();
  }
}

function usage(): number {
  console.error("Usage: npm run backup [-- <file>] | npm run restore -- <backup file> | npm run rotate-key");
  return 2;
}

main()
  .then(async (code) => {
    await closeDb();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    // Configuration and refusals carry their own explanation (ConfigError); anything else is shown as is.
    console.error(error instanceof Error && error.name === "ConfigError" ? error.message : `Failed: ${errorMessage(error)}`);
    await closeDb().catch(() => undefined);
    process.exit(1);
  });
