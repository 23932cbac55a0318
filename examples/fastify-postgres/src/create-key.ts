/**
 * Registers the example company (an upsert: safe to run again) and prints a new API key for it with
 * every scope. Keys are shown once; only their hash is stored.
 *
 *   pnpm create-key                     # company "example-company"
 *   HIREPORT_COMPANY_ID=acme pnpm create-key
 */
import { createPublicApi, type Scope } from "@hireport/core";
import { kyselyStorage } from "@hireport/kysely";
import { createDb, env, loadConfig } from "./config";

const ALL_SCOPES: Scope[] = ["jobs:read", "jobs:write", "applications:read", "applications:write"];

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDb(config, 1);
  const storage = kyselyStorage({ db, tablePrefix: config.tablePrefix });
  // Host services only (no HTTP): the secret only signs CV links and cursors, unused here.
  const api = createPublicApi({
    storage,
    publicBaseUrl: env("PUBLIC_BASE_URL") ?? "http://localhost:3001",
    fileTokenSecret: env("HIREPORT_FILE_SECRET") ?? "x".repeat(32),
  });
  try {
    await api.companies.upsert({ id: config.companyId, name: config.companyName });
    const { key, record } = await api.keys.create({
      companyId: config.companyId,
      name: env("HIREPORT_KEY_NAME") ?? `example key ${new Date().toISOString()}`,
      scopes: ALL_SCOPES,
    });
    console.log(`Company: ${config.companyId} (${config.companyName})`);
    console.log(`Key id: ${record.id}`);
    console.log(`API key: ${key}`);
  } finally {
    await api.close();
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
