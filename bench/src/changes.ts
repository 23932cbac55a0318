/**
 * The change detector's cost (`BENCH_ONLY=changes`): `api.changes` over declared tables holding
 * 100,000 jobs and 1,000,000 applications on Postgres, as a product's own tables would (its own
 * names, `timestamptz` change times with an index on `(updated_at, id)`).
 *
 * - At rest: Postgres CPU per minute (every `postgres` process, from /proc) with a pass every 5 s,
 *   against the same minute with no detector, in the same run; and the bench process's CPU.
 * - Per change: 1,000 applications moved and 1,000 jobs renamed by plain SQL, as the product's
 *   screens would, then one pass: Postgres and process CPU per change announced.
 */
import { createPublicApi } from "@hireport/core";
import { declaredDomain, kyselyStorage, migrateToLatest } from "@hireport/kysely";
import { type Kysely, sql } from "kysely";
import {
  allPostgresCpuMs,
  createDb,
  FILE_SECRET,
  fmt,
  loadAverage,
  log,
  processCpuMs,
  sleep,
  writeResultsSection,
} from "./common";

const PREFIX = "hireport_bench_chg_";
const JOBS = Number(process.env.BENCH_CHANGES_JOBS ?? 100_000);
const APPLICATIONS = Number(process.env.BENCH_CHANGES_APPLICATIONS ?? 1_000_000);
const REST_SECONDS = Number(process.env.BENCH_CHANGES_REST_SECONDS ?? 60);
const CHANGES = 1_000;
const COMPANIES = 100;

const t = { jobs: `${PREFIX}p_job`, apps: `${PREFIX}p_application` };

async function seed(db: Kysely<unknown>): Promise<void> {
  for (const table of [t.apps, t.jobs]) await sql`drop table if exists ${sql.table(table)}`.execute(db);
  await sql`create table ${sql.table(t.jobs)} (id varchar(64) collate "C" primary key, company_id varchar(64) not null,
    title text not null, status text not null, unlisted boolean not null, closes_on text, applications_count integer not null,
    data text not null, created_at timestamptz not null, updated_at timestamptz not null)`.execute(db);
  await sql`create table ${sql.table(t.apps)} (id varchar(64) collate "C" primary key, company_id varchar(64) not null,
    job_id varchar(64) collate "C" not null, stage text not null, name text not null, email text not null, email_key text not null,
    cv_file text, data text not null, applied_at timestamptz not null, updated_at timestamptz not null, erased_at timestamptz)`.execute(
    db,
  );
  // A year of history, the newest a minute ago.
  await sql`insert into ${sql.table(t.jobs)} select 'job_' || lpad(i::text, 9, '0'), 'co_' || (i % ${COMPANIES}), 'Job ' || i,
    'open', false, null, 10, '{}', now() - interval '1 minute' - (i || ' seconds')::interval * 300,
    now() - interval '1 minute' - (i || ' seconds')::interval * 300 from generate_series(1, ${JOBS}) as i`.execute(db);
  await sql`insert into ${sql.table(t.apps)} select 'app_' || lpad(i::text, 10, '0'), 'co_' || ((i / 10) % ${COMPANIES}),
    'job_' || lpad(((i / 10) % ${JOBS} + 1)::text, 9, '0'), 'new', 'Candidate ' || i, 'c' || i || '@example.com',
    'c' || i || '@example.com', null, '{}', now() - interval '1 minute' - (i || ' seconds')::interval * 30,
    now() - interval '1 minute' - (i || ' seconds')::interval * 30 from generate_series(1, ${APPLICATIONS}) as i`.execute(
    db,
  );
  await sql`create index ${sql.id(`${t.jobs}_changed`)} on ${sql.table(t.jobs)} (updated_at, id)`.execute(db);
  await sql`create index ${sql.id(`${t.apps}_changed`)} on ${sql.table(t.apps)} (updated_at, id)`.execute(db);
  await sql`create index ${sql.id(`${t.apps}_job`)} on ${sql.table(t.apps)} (job_id, applied_at)`.execute(db);
  await sql`analyze ${sql.table(t.jobs)}`.execute(db);
  await sql`analyze ${sql.table(t.apps)}`.execute(db);
}

const domain = declaredDomain({
  jobs: {
    table: t.jobs,
    company: "company_id",
    status: { column: "status", words: { open: "active", paused: "paused", closed: "closed", draft: "draft" } },
    applicationsCount: "applications_count",
    columns: {
      title: "title",
      hidden: "unlisted",
      closingDate: "closes_on",
      createdAt: "created_at",
      updatedAt: "updated_at",
    },
    extras: "data",
  },
  applications: {
    table: t.apps,
    company: "company_id",
    job: "job_id",
    stage: "stage",
    columns: { resumeFileId: "cv_file", appliedAt: "applied_at", updatedAt: "updated_at", erasedAt: "erased_at" },
    extras: "data",
    candidate: { columns: { name: "name", email: "email", emailNormalized: "email_key" } },
  },
  stageChanges: "hireport",
  notes: "hireport",
});

/** CPU (ms) of Postgres and of this process over `fn`. */
async function measure(fn: () => Promise<void>): Promise<{ pg: number; node: number }> {
  const pg0 = allPostgresCpuMs();
  const node0 = processCpuMs(process.pid);
  await fn();
  return { pg: allPostgresCpuMs() - pg0, node: processCpuMs(process.pid) - node0 };
}

export async function runChangesBench(): Promise<void> {
  const started = new Date();
  const load = loadAverage();
  const db = createDb(10);
  try {
    log(`changes: seeding ${JOBS} jobs and ${APPLICATIONS} applications`);
    const seeded = performance.now();
    await seed(db);
    log(`changes: seeded in ${fmt((performance.now() - seeded) / 1000, 1)} s`);
    const migration = await migrateToLatest(db, { tablePrefix: PREFIX });
    if (migration.error) throw migration.error;
    await sql`delete from ${sql.table(`${PREFIX}change_position`)}`.execute(db);
    const api = createPublicApi({
      // The product's tables are untyped here: names as plain strings.
      storage: kyselyStorage({
        db: db as Kysely<Record<string, Record<string, unknown>>>,
        tablePrefix: PREFIX,
        domain,
      }),
      publicBaseUrl: "https://jobs.example.com",
      fileTokenSecret: FILE_SECRET,
    });
    await api.changes.poll(); // the first pass starts the count
    await sleep(2_500);
    await api.changes.poll();

    const passes = REST_SECONDS / 5;
    const idle = await measure(() => sleep(REST_SECONDS * 1000));
    const polling = await measure(async () => {
      for (let i = 0; i < passes; i++) {
        await api.changes.poll();
        await sleep(5_000);
      }
    });
    const perMinute = (ms: number) => (ms * 60) / REST_SECONDS;
    log(`changes at rest: Postgres ${fmt(perMinute(polling.pg))} ms/min with passes, ${fmt(perMinute(idle.pg))} idle`);

    // The product's screens move 1,000 applications and rename 1,000 jobs.
    await sql`update ${sql.table(t.apps)} set stage = 'reviewed', updated_at = now()
      where id in (select id from ${sql.table(t.apps)} order by id limit ${CHANGES})`.execute(db);
    await sql`update ${sql.table(t.jobs)} set title = title || ' (edited)', updated_at = now()
      where id in (select id from ${sql.table(t.jobs)} order by id limit ${CHANGES})`.execute(db);
    await sleep(2_500);
    let announced = { jobs: 0, applications: 0 };
    const burst = await measure(async () => {
      announced = await api.changes.poll();
    });
    const events = announced.jobs + announced.applications;
    log(
      `changes: ${events} announced, Postgres ${fmt((burst.pg * 1000) / events)} µs and process ${fmt((burst.node * 1000) / events)} µs per change`,
    );
    await api.close();

    writeResultsSection(
      "changes",
      [
        "## The change detector (`src/changes.ts`, `BENCH_ONLY=changes`)",
        "",
        `Run ${started.toISOString()} (load average at start ${load}): \`api.changes\` over declared tables with ${JOBS.toLocaleString("en")} jobs and ${APPLICATIONS.toLocaleString("en")} applications on Postgres (indexes on \`(updated_at, id)\`), in the bench process. Indicative: the machine is shared.`,
        "",
        "| | Postgres CPU | Process CPU |",
        "| --- | --: | --: |",
        `| At rest, a pass every 5 s, per minute | ${fmt(perMinute(polling.pg))} ms | ${fmt(perMinute(polling.node))} ms |`,
        `| At rest, no detector, per minute (same run) | ${fmt(perMinute(idle.pg))} ms | ${fmt(perMinute(idle.node))} ms |`,
        `| Per change announced (${announced.applications} applications moved and ${announced.jobs} jobs renamed by SQL, one pass) | ${fmt((burst.pg * 1000) / Math.max(1, events))} µs | ${fmt((burst.node * 1000) / Math.max(1, events))} µs |`,
      ].join("\n"),
    );
  } finally {
    for (const table of [t.apps, t.jobs]) await sql`drop table if exists ${sql.table(table)}`.execute(db);
    await db.destroy();
  }
}
