/**
 * Registers the example company (an upsert: safe to run again) and prints a new API key for it with
 * every scope, on the same database as the app (the SQLite file under .data/, or DATABASE_URL).
 *
 *   pnpm create-key
 *   HIREPORT_COMPANY_ID=acme HIREPORT_COMPANY_NAME="Acme Ltd" pnpm create-key
 */
import type { Scope } from "@hireport/core";
import { closeHireport, getHireport } from "../lib/hireport";

const ALL_SCOPES: Scope[] = ["jobs:read", "jobs:write", "applications:read", "applications:write"];

async function main(): Promise<void> {
  const companyId = process.env.HIREPORT_COMPANY_ID ?? "example-company";
  const companyName = process.env.HIREPORT_COMPANY_NAME ?? "Example Ltd";
  const { api, location } = await getHireport();
  try {
    await api.companies.upsert({ id: companyId, name: companyName });
    const { key, record } = await api.keys.create({
      companyId,
      name: process.env.HIREPORT_KEY_NAME ?? `example key ${new Date().toISOString()}`,
      scopes: ALL_SCOPES,
    });
    console.log(`Database: ${location}`);
    console.log(`Company: ${companyId} (${companyName})`);
    console.log(`Key id: ${record.id}`);
    console.log(`API key: ${key}`);
  } finally {
    await closeHireport();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
