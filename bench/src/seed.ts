/**
 * The data of the API benchmarks, in hireport's own tables (prefix `hireport_bench_`), seeded once
 * and reused by later runs:
 * - company `bench-list`: 50 active jobs made through `api.jobs.create`, and 1,000,000 applications
 *   to them bulk-loaded by `INSERT … SELECT generate_series` in chunks (valid rows: ids, references,
 *   `applications_count` and the reference sequence kept exact; no outbox events, as for imported
 *   history), applied one second apart;
 * - company `bench-post`: 20 active jobs that POST /applications adds candidates to (its
 *   applications are deleted at the start of each run).
 * Every run makes new keys (the earlier ones are revoked) since a key is shown only once.
 */
import type { PublicApi } from "@hireport/core";
import { APPLICATION_FIELDS, CANDIDATE_FIELDS, type FieldSpec } from "@hireport/core/storage";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { log, TABLE_PREFIX } from "./common";

export const LIST_COMPANY = "bench-list";
export const POST_COMPANY = "bench-post";
/** One full page more than a million: the deep page starts after exactly 1,000,000 rows. */
export const DEEP_APPLICATIONS = 1_000_100;
const CHUNK = 50_000;
/** Applied time of application n is BASE + n seconds: the newest is the highest n. */
const BASE_TIME = "2025-01-01T00:00:00Z";

export interface Seeded {
  listKey: string;
  postKey: string;
  listJobCount: number;
  postJobIds: string[];
  applications: number;
}

const t = (name: string) => sql.table(`${TABLE_PREFIX}${name}`);

async function ensureJobs(api: PublicApi, companyId: string, count: number): Promise<string[]> {
  const existing = await api.jobs.list(companyId, { status: "all", limit: 100 });
  for (let i = existing.data.length; i < count; i++) {
    await api.jobs.create(companyId, {
      title: `Benchmark Engineer ${i + 1}`,
      description: "Builds and measures things. ".repeat(8),
      department: "Engineering",
      location: i % 2 === 0 ? "London" : "Remote",
      employment_type: "full_time",
      experience_level: "senior",
      salary_min: 60_000 + i * 100,
      salary_max: 90_000 + i * 100,
      salary_currency: "GBP",
      salary_period: "year",
      required_skills: ["typescript", "postgres", "node"],
      status: "active",
    });
  }
  const jobs = await api.jobs.list(companyId, { status: "all", limit: 100 });
  return jobs.data.map((job) => job.id).sort();
}

async function freshKey(api: PublicApi, companyId: string): Promise<string> {
  for (const key of await api.keys.list(companyId)) {
    if (key.revokedAt === null) await api.keys.revoke(companyId, key.id);
  }
  const { key } = await api.keys.create({
    companyId,
    name: "bench",
    scopes: ["jobs:read", "applications:write"],
  });
  return key;
}

async function countApplications(db: Kysely<unknown>, companyId: string): Promise<number> {
  const { rows } = await sql<{
    n: string;
  }>`select count(*) as n from ${t("application")} where company_id = ${companyId}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The data of the bulk load, by column, as SQL of the row number `n`: what each application row
 * holds. Every other column of a declared field gets its default (`defaultColumns`).
 */
function loadedColumns(jobIds: readonly string[]): [column: string, value: RawBuilder<unknown>][] {
  const jobs = sql`${sql.val([...jobIds])}::text[]`;
  const at = sql`${BASE_TIME}::timestamptz + n * interval '1 second'`;
  return [
    ["id", sql`'app_b' || lpad(n::text, 25, '0')`],
    ["company_id", sql`${LIST_COMPANY}`],
    ["job_id", sql`(${jobs})[1 + (n % ${jobIds.length})]`],
    ["reference", sql`'APP-' || (1000 + n)`],
    ["candidate_name", sql`'Candidate ' || n`],
    ["candidate_email", sql`'Candidate.' || n || '@Example.com'`],
    ["candidate_phone", sql`'+44 20 7946 ' || lpad((n % 10000)::text, 4, '0')`],
    ["candidate_location", sql`case when n % 3 = 0 then 'Leeds' else 'London' end`],
    ["candidate_linkedin_url", sql`'https://www.linkedin.com/in/candidate-' || n`],
    ["candidate_current_title", sql`'Software Engineer'`],
    ["candidate_skills", sql`'["typescript","postgres"]'`],
    ["email_normalized", sql`'candidate.' || n || '@example.com'`],
    ["cover_letter", sql`'I would like to apply. ' || repeat('Experience with typed APIs. ', 4)`],
    ["resume_source_url", sql`null`],
    ["source", sql`'careers-site'`],
    ["consent", sql`true`],
    ["consent_at", at],
    ["stage", sql`(array['new','screening','interview','offer','rejected'])[1 + (n % 5)]`],
    ["ai_match", sql`n % 101`],
    ["overall_score", sql`null`],
    ["tags", sql`'[]'`],
    ["starred", sql`n % 17 = 0`],
    ["applied_at", at],
    ["updated_at", at],
    ["answers", sql`'[]'`],
    ["knocked_out", sql`false`],
  ];
}

/**
 * The columns of the declared fields (`CANDIDATE_FIELDS`, `APPLICATION_FIELDS`) the load does not
 * write, each at its field's default as stored: a column added since has no database default (the
 * stores write every column), so a new field needs nothing here. A nullable one stays null; a
 * required `timestamp` has no default, and its value goes in `loadedColumns`.
 */
function defaultColumns(loaded: ReadonlySet<string>): [column: string, value: RawBuilder<unknown>][] {
  const fields: FieldSpec[] = [...Object.values(CANDIDATE_FIELDS), ...Object.values(APPLICATION_FIELDS)];
  return fields
    .filter((spec) => !loaded.has(spec.column) && !spec.nullable)
    .map((spec) => {
      if (spec.default === undefined) throw new Error(`seed: the bulk load writes no value for ${spec.column}`);
      const stored = spec.kind === "list" || spec.kind === "json" ? JSON.stringify(spec.default) : spec.default;
      return [spec.column, sql.lit(stored)];
    });
}

async function bulkLoad(db: Kysely<unknown>, jobIds: readonly string[]): Promise<void> {
  let have = await countApplications(db, LIST_COMPANY);
  if (have >= DEEP_APPLICATIONS) {
    log(`seed: ${have.toLocaleString("en-US")} applications already there, reusing them`);
    return;
  }
  log(
    `seed: ${have.toLocaleString("en-US")} applications there, bulk-loading up to ${DEEP_APPLICATIONS.toLocaleString("en-US")} (first run only)`,
  );
  const loaded = loadedColumns(jobIds);
  const columns = [...loaded, ...defaultColumns(new Set(loaded.map(([column]) => column)))];
  const started = Date.now();
  const loadedBefore = have;
  // Rows are numbered from 1; a partial earlier load left rows 1..have (each chunk commits whole).
  while (have < DEEP_APPLICATIONS) {
    const from = have + 1;
    const to = Math.min(DEEP_APPLICATIONS, have + CHUNK);
    await sql`
      insert into ${t("application")} (${sql.join(columns.map(([column]) => sql.ref(column)))})
      select ${sql.join(columns.map(([, value]) => value))}
      from generate_series(${from}::int, ${to}::int) as n`.execute(db);
    have = to;
    // Rows per second over this run's load so far.
    const rate = (have - loadedBefore) / ((Date.now() - started) / 1000);
    log(
      `seed: ${have.toLocaleString("en-US")} / ${DEEP_APPLICATIONS.toLocaleString("en-US")} applications (${Math.round(rate).toLocaleString("en-US")}/s)`,
    );
  }
  // Keep the counters exact, as the API would have left them.
  await sql`
    update ${t("job")} as j set applications_count = c.n
    from (select job_id, count(*) as n from ${t("application")} where company_id = ${LIST_COMPANY} group by job_id) as c
    where j.id = c.job_id`.execute(db);
  await sql`
    insert into ${t("sequence")} (company_id, kind, value) values (${LIST_COMPANY}, 'application', ${DEEP_APPLICATIONS})
    on conflict (company_id, kind) do update set value = greatest(${t("sequence")}.value, excluded.value)`.execute(db);
  log("seed: analyze");
  await sql`analyze ${t("application")}`.execute(db);
  await sql`analyze ${t("job")}`.execute(db);
}

export async function seed(api: PublicApi, db: Kysely<unknown>): Promise<Seeded> {
  await api.companies.upsert({ id: LIST_COMPANY, name: "Bench List Ltd" });
  await api.companies.upsert({ id: POST_COMPANY, name: "Bench Post Ltd" });
  const listJobs = await ensureJobs(api, LIST_COMPANY, 50);
  const postJobIds = await ensureJobs(api, POST_COMPANY, 20);
  await bulkLoad(db, listJobs);
  // POSTs of earlier runs: start each run from the same state.
  await sql`delete from ${t("application")} where company_id = ${POST_COMPANY}`.execute(db);
  await sql`delete from ${t("event")} where company_id = ${POST_COMPANY}`.execute(db);
  await sql`delete from ${t("stage_change")} where company_id = ${POST_COMPANY}`.execute(db);
  await sql`update ${t("job")} set applications_count = 0 where company_id = ${POST_COMPANY}`.execute(db);
  // The usage log and rate-limit counters of earlier runs are not needed.
  await sql`delete from ${t("usage")}`.execute(db);
  await sql`delete from ${t("rate_limit")}`.execute(db);
  // What a production database's autovacuum would do (this machine runs Postgres with autovacuum
  // off): without it every run inherits the dead rows of the runs before (how many a day of runs
  // left: RESULTS.md, "Claims").
  for (const table of ["application", "event", "stage_change", "job", "usage", "rate_limit", "sequence", "api_key"]) {
    await sql`vacuum (analyze) ${t(table)}`.execute(db);
  }
  return {
    listKey: await freshKey(api, LIST_COMPANY),
    postKey: await freshKey(api, POST_COMPANY),
    listJobCount: listJobs.length,
    postJobIds,
    applications: await countApplications(db, LIST_COMPANY),
  };
}
