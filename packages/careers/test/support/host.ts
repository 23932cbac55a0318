/**
 * A host app as the careers tests need it: the public API and the careers site on one SQLite file
 * (migrated by `@hireport/kysely`, CVs in `kyselyFileStore`), or on a database the test brings
 * (SQLite, Postgres or MariaDB, under its own table prefix), mounted by Express, Fastify or a
 * Next-style server of route handlers; one clock the test moves; three companies, one at the root
 * of the site and two under `/c/{slug}` (or named by the subdomain of the `Host` header).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ApiRequest,
  type Clock,
  type CreatePublicApiOptions,
  createPublicApi,
  type PublicApi,
} from "@hireport/core";
import type { EventRecord } from "@hireport/core/storage";
import { hireportExpress } from "@hireport/express";
import { hireportFastify } from "@hireport/fastify";
import { kyselyFileStore, migrateToLatest } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import { type NextHandlers, toNextHandlers } from "@hireport/next";
import type { WebhookStorage } from "@hireport/webhooks";
import SQLite from "better-sqlite3";
import express from "express";
import Fastify from "fastify";
import { Kysely, SqliteDialect } from "kysely";
import { startNextServer } from "../../../next/test/support/next-server";
import { type CareersOptions, createCareers, type HireportCareers } from "../../src/index";

export type Adapter = "express" | "fastify" | "next";

export const SECRET = "careers-test-secret-0123456789-abcdefghij";
export const START = new Date("2026-03-02T10:00:30.000Z");
export const COMPANIES = { acme: "co_acme", globex: "co_globex", initech: "co_initech" } as const;

export interface TestClock extends Clock {
  advance(ms: number): void;
  set(at: Date): void;
}

export function testClock(start = START): TestClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
    set: (at) => {
      now = at.getTime();
    },
  };
}

export interface TestHost {
  origin: string;
  api: PublicApi;
  /** The storage under the API (with the webhook store), to put rows as an older version wrote them. */
  storage: WebhookStorage;
  careers: HireportCareers;
  clock: TestClock;
  /** Every event of a company, oldest first. */
  events(companyId: string): Promise<EventRecord[]>;
  /** Stored files of a company (rows of the file table). */
  countFiles(companyId: string): Promise<number>;
  close(): Promise<void>;
}

/** Which company a request is for: `/c/{slug}` or a `{slug}.jobs.test` host name, else Acme at the root. */
function resolveCompany(request: ApiRequest) {
  const segment = /^\/c\/([a-z]+)(?:\/|$)/.exec(request.path);
  if (segment?.[1]) return { companyId: `co_${segment[1]}`, pathPrefix: `/c/${segment[1]}` };
  const headers = request.headers as Record<string, string | undefined> | Headers;
  const host =
    (typeof (headers as Headers).get === "function"
      ? (headers as Headers).get("host")
      : (headers as Record<string, string>).host) ?? "";
  const subdomain = /^([a-z]+)\.jobs\.test(?::\d+)?$/.exec(host);
  if (subdomain?.[1]) return subdomain[1] === "nobody" ? null : `co_${subdomain[1]}`;
  return COMPANIES.acme;
}

/** A database the test owns (it opens and closes it): the host migrates it and keeps hireport's tables under `tablePrefix`. */
export interface HostDatabase {
  db: Kysely<unknown>;
  tablePrefix: string;
}

export async function startHost(
  adapter: Adapter,
  overrides: Partial<CareersOptions> = {},
  database?: HostDatabase,
  apiOptions: Pick<CreatePublicApiOptions, "telemetry" | "onEvent"> = {},
): Promise<TestHost> {
  const dir = database ? null : mkdtempSync(join(tmpdir(), "hireport-careers-"));
  const db =
    database?.db ??
    new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(join(dir as string, "test.sqlite")) }) });
  const tablePrefix = database?.tablePrefix ?? "hireport_";
  const migration = await migrateToLatest(db, { tablePrefix });
  if (migration.error) throw migration.error;
  const storage = kyselyWebhookStorage({ db, tablePrefix });
  const fileStore = kyselyFileStore({ db, tablePrefix });
  const clock = testClock();
  let origin = "http://127.0.0.1";
  const api = createPublicApi({
    storage,
    fileStore,
    clock,
    publicBaseUrl: "https://careers.example.com",
    publicSiteUrl: (company) => (company.id === COMPANIES.acme ? origin : `${origin}/c/${company.id.slice(3)}`),
    fileTokenSecret: SECRET,
    logger: { warn: () => undefined, error: (message, details) => console.error(message, details) },
    usageFlushMs: 20,
    ...apiOptions,
  });
  await api.companies.upsert({ id: COMPANIES.acme, name: "Acme Ltd" });
  await api.companies.upsert({ id: COMPANIES.globex, name: "Globex" });
  await api.companies.upsert({ id: COMPANIES.initech, name: "Initech" });
  const careers = createCareers({
    api,
    resolveCompany,
    secret: SECRET,
    privacyNoticeUrl: "/privacy",
    clock,
    theme: (company) => ({ accentColor: company.id === COMPANIES.globex ? "#8a2be2" : "#2457c5" }),
    // Acme is a UK company; Globex and Initech name no country.
    defaultCountry: (company) => (company.id === COMPANIES.acme ? "GB" : null),
    logger: { warn: () => undefined, error: (message, details) => console.error(message, details) },
    ...overrides,
  });

  let close: () => Promise<void>;
  if (adapter === "express") {
    const app = express();
    app.set("trust proxy", false);
    app.use("/api/public/v1", hireportExpress(api));
    app.use(hireportExpress(careers));
    const server: Server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
  } else if (adapter === "fastify") {
    const app = Fastify();
    await app.register(hireportFastify, { api, prefix: "/api/public/v1" });
    await app.register(hireportFastify, { api: careers });
    await app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    close = () => app.close();
  } else {
    // app/api/public/v1/[...path]/route.ts and app/[[...path]]/route.ts
    const apiRoutes = toNextHandlers(api);
    const siteRoutes = toNextHandlers(careers);
    const server = await startNextServer(
      (path, method) => (path.startsWith("/api/public/v1") ? apiRoutes : siteRoutes)[method as keyof NextHandlers],
    );
    origin = server.origin;
    close = server.close;
  }

  return {
    storage,
    origin,
    api,
    careers,
    clock,
    events: async (companyId) => storage.events.list(companyId, { take: 1000 }),
    async countFiles(companyId) {
      const row = await db
        .selectFrom(`${tablePrefix}file` as never)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("company_id" as never, "=", companyId as never)
        .executeTakeFirstOrThrow();
      return Number((row as { n: number }).n);
    },
    async close() {
      await close();
      await api.close();
      if (dir === null) return;
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
