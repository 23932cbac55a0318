/**
 * The console's pages against their target ("console pages: p50 under 100 ms"): the usage
 * page over 30 days of 1,000,000 usage rows, and an endpoint's page over 100,000 deliveries, each a
 * real GET through @hireport/console mounted with @hireport/express, on the local Postgres.
 *
 *   BENCH_ONLY=console pnpm --filter @hireport/bench start
 *
 * Tables `hireport_bench_console_*`, seeded once and reused (company `bench-console`): the usage
 * rows are bulk-loaded with `generate_series` (spread evenly over the last 30 days from the time
 * of seeding) and their daily roll-up is computed from them with one `GROUP BY`, as
 * `usage.appendMany` would have kept it; the deliveries (every tenth failed) and one attempt each
 * likewise. Requests are sent one at a time (a person opening a page), after a warm-up.
 */
import type { AddressInfo } from "node:net";
import { createConsole } from "@hireport/console";
import { createPublicApi } from "@hireport/core";
import { hireportExpress } from "@hireport/express";
import { migrateToLatest } from "@hireport/kysely";
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import { createWebhookDispatcher } from "@hireport/webhooks";
import express from "express";
import { type Kysely, sql } from "kysely";
import { createDb, FILE_SECRET, fmt, loadAverage, log, median, writeResultsSection } from "./common";

const PREFIX = "hireport_bench_console_";
const COMPANY = "bench-console";
const USAGE_ROWS = Number(process.env.BENCH_CONSOLE_USAGE_ROWS ?? 1_000_000);
const DELIVERIES = Number(process.env.BENCH_CONSOLE_DELIVERIES ?? 100_000);
const REQUESTS = Number(process.env.BENCH_CONSOLE_REQUESTS ?? 200);
const WARMUP = 20;
const CHUNK = 100_000;

async function count(db: Kysely<unknown>, query: ReturnType<typeof sql<{ n: string | number }>>): Promise<number> {
  return Number((await query.execute(db)).rows[0]?.n ?? 0);
}

/** Seeds the usage rows and their roll-up, unless a previous run did. */
async function seedUsage(db: Kysely<unknown>): Promise<void> {
  const table = sql.table(`${PREFIX}usage`);
  const daily = sql.table(`${PREFIX}usage_daily`);
  const have = await count(db, sql`select count(*) as n from ${table} where company_id = ${COMPANY}`);
  if (have >= USAGE_ROWS) return;
  log(`seeding ${fmt(USAGE_ROWS)} usage rows over 30 days (once)`);
  await sql`delete from ${table} where company_id = ${COMPANY}`.execute(db);
  await sql`delete from ${daily} where company_id = ${COMPANY}`.execute(db);
  const seededAt = new Date().toISOString();
  for (let start = 1; start <= USAGE_ROWS; start += CHUNK) {
    const end = Math.min(USAGE_ROWS, start + CHUNK - 1);
    await sql`insert into ${table} (id, company_id, key_id, method, route, status, duration_ms, request_id, ip, created_at)
      select 'use_' || lpad(g::text, 10, '0'), ${COMPANY}, case when g % 3 = 0 then 'key_a' else 'key_b' end, 'GET',
        case when g % 4 = 0 then '/jobs/{id}' else '/jobs' end,
        case when g % 997 = 0 then 500 when g % 13 = 0 then 404 else 200 end,
        5 + (g % 50), 'req_' || g, '203.0.113.9',
        ${seededAt}::timestamptz - (g::double precision / ${USAGE_ROWS}) * interval '30 days'
      from generate_series(${start}::int, ${end}::int) as g`.execute(db);
    log(`  ${fmt(end)} usage rows`);
  }
  await sql`insert into ${daily} (company_id, day, status_class, requests)
    select company_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD'), status / 100, count(*)
    from ${table} where company_id = ${COMPANY} group by 1, 2, 3`.execute(db);
  await sql`vacuum analyze ${table}`.execute(db);
  await sql`vacuum analyze ${daily}`.execute(db);
}

/** Seeds one endpoint with its deliveries and one attempt each, unless a previous run did; returns its id. */
async function seedDeliveries(db: Kysely<unknown>, endpointId: () => Promise<string>): Promise<string> {
  const deliveries = sql.table(`${PREFIX}webhook_delivery`);
  const attempts = sql.table(`${PREFIX}webhook_attempt`);
  const { rows } = await sql<{ endpoint_id: string; n: string }>`select endpoint_id, count(*) as n from ${deliveries}
    where company_id = ${COMPANY} group by endpoint_id`.execute(db);
  const seeded = rows.find((row) => Number(row.n) >= DELIVERIES);
  if (seeded) return seeded.endpoint_id;
  const id = await endpointId();
  log(`seeding ${fmt(DELIVERIES)} deliveries of one endpoint, one attempt each (once)`);
  await sql`insert into ${deliveries} (id, endpoint_id, company_id, event_id, event_type, status, attempts,
      next_attempt_at, lease_expires_at, lease_token, created_at, updated_at)
    select 'dlv_' || lpad(g::text, 10, '0'), ${id}, ${COMPANY}, 'evt_' || g, 'job.created',
      case when g % 10 = 0 then 'failed' else 'succeeded' end, 1, null, null, null,
      now() - g * interval '20 seconds', now() - g * interval '20 seconds'
    from generate_series(1, ${DELIVERIES}::int) as g`.execute(db);
  await sql`insert into ${attempts} (id, delivery_id, endpoint_id, attempted_at, status_code, duration_ms, response_body, error, succeeded)
    select 'att_' || d.id, d.id, d.endpoint_id, d.created_at,
      case when d.status = 'failed' then 500 else 200 end, 42, 'ok', null, d.status <> 'failed'
    from ${deliveries} as d where d.endpoint_id = ${id}`.execute(db);
  await sql`vacuum analyze ${deliveries}`.execute(db);
  await sql`vacuum analyze ${attempts}`.execute(db);
  return id;
}

interface Timing {
  page: string;
  p50: number;
  p95: number;
  bytes: number;
}

async function time(url: string, page: string): Promise<Timing> {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const started = performance.now();
    const response = await fetch(url);
    const body = await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
    bytes = body.byteLength;
    if (i >= WARMUP) samples.push(elapsed);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { page, p50: median(samples), p95: sorted[Math.floor(sorted.length * 0.95)] ?? Number.NaN, bytes };
}

export async function runConsoleBench(): Promise<void> {
  const db = createDb(10);
  const migration = await migrateToLatest(db, { tablePrefix: PREFIX });
  if (migration.error) throw migration.error;
  const storage = kyselyWebhookStorage({ db, tablePrefix: PREFIX });
  const dispatcher = createWebhookDispatcher({ storage, allowPrivateAddresses: true });
  const api = createPublicApi({ storage, publicBaseUrl: "https://careers.example.com", fileTokenSecret: FILE_SECRET });
  await api.companies.upsert({ id: COMPANY, name: "Console bench" });
  await seedUsage(db);
  const endpointId = await seedDeliveries(db, async () => {
    const { endpoint } = await dispatcher.endpoints.create({
      companyId: COMPANY,
      url: "http://127.0.0.1:9/hooks",
      events: ["job.created"],
    });
    return endpoint.id;
  });

  const consoleHandler = createConsole({
    api,
    dispatcher,
    basePath: "/settings/api",
    secret: FILE_SECRET,
    authorize: () => ({ companyId: COMPANY, role: "owner", actor: "bench" }),
  });
  const app = express();
  app.use("/settings/api", hireportExpress(consoleHandler));
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/settings/api`;
  const started = new Date();
  const load = loadAverage();
  try {
    const timings = [
      await time(`${base}/usage`, "usage (chart of 30 days + the 50 newest requests)"),
      await time(`${base}/usage?status=5xx`, "usage filtered to 5xx (0.1 % of the rows)"),
      await time(`${base}/usage?key=key_a&status=404`, "usage filtered by key and status 404"),
      await time(`${base}/webhooks/${endpointId}`, "endpoint page (25 newest deliveries with their attempts)"),
      await time(`${base}/webhooks/${endpointId}?status=failed`, "endpoint page, failed deliveries only"),
      await time(`${base}/keys`, "keys"),
    ];
    const table = timings
      .map((t) => `| ${t.page} | ${fmt(t.p50, 1)} | ${fmt(t.p95, 1)} | ${fmt(t.bytes / 1024, 0)} KiB |`)
      .join("\n");
    const markdown = `## Console pages

Run ${started.toISOString()} with \`BENCH_ONLY=console\` (${REQUESTS} sequential GETs per page after ${WARMUP} warm-up requests, one connection, the console mounted with @hireport/express in the bench process, Postgres on this machine; load average at start ${load}). Indicative: the machine is shared.

- Data: company \`${COMPANY}\` with ${fmt(USAGE_ROWS)} usage rows over 30 days (their daily roll-up: ${fmt(
      await count(
        db,
        sql`select count(*) as n from ${sql.table(`${PREFIX}usage_daily`)} where company_id = ${COMPANY}`,
      ),
    )} rows) and one endpoint with ${fmt(DELIVERIES)} deliveries, one attempt each.

| Page | p50 ms | p95 ms | size |
| --- | --- | --- | --- |
${table}

Target: p50 under 100 ms. The chart reads the roll-up (a few rows a day), never the usage rows; the request list is a keyset page of the \`(company_id, created_at, id)\` index; the endpoint page reads its 25 deliveries on \`(endpoint_id, created_at, id)\` and their attempts in one query.`;
    writeResultsSection("console", markdown);
    for (const t of timings) log(`${t.page}: p50 ${fmt(t.p50, 1)} ms, p95 ${fmt(t.p95, 1)} ms`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections?.();
    await api.close();
    await db.destroy();
  }
}
