/**
 * The two entry points of @hireport/kysely: the main one (`kyselyStorage`, a core `Storage`) loads
 * nothing of @hireport/webhooks, so that a host serving only the API need not install it; the
 * webhook store lives behind `@hireport/kysely/webhooks` (`kyselyWebhookStorage`). Loading the built
 * packages in a project without @hireport/webhooks is proved by the install matrix of
 * packages/published-tests; here, on the sources: no module the main entry reaches imports a value
 * from @hireport/webhooks, and each storage has exactly its stores.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createPublicApi } from "@hireport/core";
import { createWebhookDispatcher } from "@hireport/webhooks";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { kyselyStorage, migrateToLatest } from "../src/index";
import { kyselyWebhookStorage } from "../src/webhooks";
import * as make from "./helpers/records";

const src = fileURLToPath(new URL("../src/", import.meta.url));

/** The relative modules `file` imports, and whether it imports a value (not only types) of `specifier`. */
function importsOf(file: string, specifier: string): { modules: string[]; valueImport: boolean } {
  const text = readFileSync(file, "utf8");
  const modules: string[] = [];
  let valueImport = false;
  // `import … from "x"` and `export … from "x"`, over several lines; `import type` / `export type` are erased.
  for (const match of text.matchAll(/^(import|export)(\s+type)?\s[^;]*?from\s+"([^"]+)";/gms)) {
    const [, , typeOnly, from] = match;
    if (from === undefined) continue;
    if (from === specifier && typeOnly === undefined) {
      // `import { type A, type B } from "x"` is erased too; one name without `type` is a value import.
      const names = /\{([^}]*)\}/s.exec(match[0])?.[1] ?? "*";
      valueImport ||= names.split(",").some((name) => name.trim() !== "" && !name.trim().startsWith("type "));
    }
    if (from.startsWith(".")) modules.push(resolve(dirname(file), `${from}.ts`));
  }
  for (const match of text.matchAll(/import\(\s*"([^"]+)"\s*\)/g)) {
    if (match[1] === specifier) valueImport = true;
  }
  return { modules: modules.filter(existsSync), valueImport };
}

/** Every source module `entry` reaches through relative imports, and those that import a value of `specifier`. */
function valueImporters(entry: string, specifier: string): { reached: number; importers: string[] } {
  const seen = new Set<string>();
  const importers: string[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const { modules, valueImport } = importsOf(file, specifier);
    if (valueImport) importers.push(file.slice(src.length));
    queue.push(...modules);
  }
  return { reached: seen.size, importers };
}

describe("what each entry point loads", () => {
  it("the main entry reaches no module that imports a value from @hireport/webhooks", () => {
    const { reached, importers } = valueImporters(join(src, "index.ts"), "@hireport/webhooks");
    expect(reached).toBeGreaterThan(30); // the walk followed the imports
    expect(importers).toEqual([]);
  });

  it("the webhooks entry does (the webhook store's claims use its throttle arithmetic): the walk sees value imports", () => {
    const { importers } = valueImporters(join(src, "webhooks.ts"), "@hireport/webhooks");
    expect(importers).toContain("stores/webhook-claims.ts");
  });
});

describe("kyselyStorage and kyselyWebhookStorage", () => {
  let db: Kysely<unknown>;

  beforeEach(async () => {
    db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(":memory:") }) });
    const { error } = await migrateToLatest(db);
    expect(error).toBeUndefined();
  });
  afterEach(() => db.destroy());

  it("kyselyStorage has core's stores and no webhook store, in and out of its transactions", async () => {
    const storage = kyselyStorage({ db });
    expect("webhooks" in storage).toBe(false);
    expect(typeof storage.eventDeliveries.insertDeliveries).toBe("function");
    const inTransaction = await storage.transaction(async (tx) => Object.keys(tx).sort());
    expect(inTransaction).toContain("eventDeliveries");
    expect(inTransaction).not.toContain("webhooks");
  });

  it("kyselyWebhookStorage has the webhook store, which is also its eventDeliveries, in and out of its transactions", async () => {
    const storage = kyselyWebhookStorage({ db });
    expect(typeof storage.webhooks.claimDueDeliveries).toBe("function");
    expect(storage.eventDeliveries).toBe(storage.webhooks);
    const same = await storage.transaction(async (tx) => tx.eventDeliveries === tx.webhooks);
    expect(same).toBe(true);
  });

  it("an API on kyselyStorage writes the deliveries of an endpoint made through kyselyWebhookStorage", async () => {
    const withWebhooks = kyselyWebhookStorage({ db });
    const company = await make.addCompany(withWebhooks);
    const endpoint = make.endpoint(company.id, { events: ["job.created"] });
    await withWebhooks.webhooks.insertEndpoint(endpoint);

    const api = createPublicApi({
      storage: kyselyStorage({ db }),
      publicBaseUrl: "https://careers.example.com",
      fileTokenSecret: "a".repeat(32),
    });
    try {
      await api.jobs.create(company.id, { title: "Welder", location: "Leeds" });
      const deliveries = await withWebhooks.webhooks.listDeliveries({
        companyId: company.id,
        endpointId: endpoint.id,
        take: 10,
      });
      expect(deliveries.map((delivery) => delivery.status)).toEqual(["pending"]);
    } finally {
      await api.close();
    }
  });

  it("createWebhookDispatcher refuses kyselyStorage with a TypeError that names kyselyWebhookStorage", () => {
    const storage = kyselyStorage({ db });
    expect(() =>
      createWebhookDispatcher({
        storage: storage as unknown as Parameters<typeof createWebhookDispatcher>[0]["storage"],
      }),
    ).toThrow(/kyselyWebhookStorage of @hireport\/kysely\/webhooks/);
  });
});
