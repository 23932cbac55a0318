/**
 * One careers server under test, in its own process: `careers-server.ts <kind>` listens on a free
 * loopback port and prints `READY <port>`. SIGTERM closes it.
 *
 * - `careers-hireport`: `createCareers` mounted with @hireport/fastify on @hireport/kysely (company
 *   resolution, the company's row, the job through `api.publicJobs`, the page, its ETag, a fresh form
 *   token, the security headers; `/jobs.json` reads the company's row only when its page is empty).
 * - `careers-bare`: hand-written Fastify routes that run the same queries through Kysely, read the
 *   rows with the Kysely store's generated mapping (`toJob`) and render the same page with the same
 *   parts (`defaultRenderers`, `jobView`, `jobPosting`, the form's `emptyApplyValues`, a jose form
 *   token), and the same `/jobs.json` (the same list query, the same JSON, the same cursor); no
 *   company resolution, no ETag, no CSP, nothing else.
 */
import {
  careersStyles,
  createCareers,
  defaultRenderers,
  jobPosting,
  jobView,
  publicJobJson,
  resolveTheme,
  scriptJson,
} from "@hireport/careers";
import { type CompanyRecord, createPublicApi, type JobRecord } from "@hireport/core";
import { CursorCodec, cursorScope, isPublicJob, publicJobUrl } from "@hireport/core/extend";
import { hireportFastify } from "@hireport/fastify";
import { kyselyFileStore, kyselyStorage } from "@hireport/kysely";
import Fastify from "fastify";
import { SignJWT } from "jose";
import { renderToString } from "preact-render-to-string";
// The apply form's empty values, one per field core declares with a `form`, as createCareers gives
// them: a new Application or candidate field on the form reaches the baseline's page with it.
// Not exported by the package, so imported by path.
import { emptyApplyValues } from "../../packages/careers/src/pages/apply-fields";
// The job row's mapping to its record, generated from JOB_FIELDS (`pnpm --filter @hireport/core
// generate`) and used by @hireport/kysely's store: the baseline reads rows with the same code, so a
// new Job field reaches it with the generator. Not exported by the package, so imported by path.
import { toJob } from "../../packages/kysely/src/stores/generated/job-rows";
import { CAREERS_COMPANY, CAREERS_PREFIX, CAREERS_SITE, PAGE_SIZE } from "./careers-common";
import { createDb, FILE_SECRET } from "./common";

const kind = process.argv[2];
const db = createDb(Number(process.env.BENCH_POOL_SIZE ?? 10));
const app = Fastify({ logger: false });

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A job row as Postgres returns it. */
type JobRow = Parameters<typeof toJob>[0];

/** The public-job rule as core applies it: the day is read only when a closing date could matter. */
const isPublic = (job: JobRecord) =>
  job.status === "active" && !job.hidden && (job.closingDate === null || isPublicJob(job, today()));

/** The public-job addresses, written out: UTC closing days, one site. */
const addresses = {
  url: (job: JobRecord) => (isPublic(job) ? publicJobUrl(job, CAREERS_SITE) : null),
  siteUrl: () => CAREERS_SITE,
  validThrough: (job: JobRecord) =>
    job.closingDate ? new Date(Date.parse(`${job.closingDate}T00:00:00.000Z`) + 86_400_000) : null,
};

async function companyRow(): Promise<CompanyRecord> {
  const row = await db
    .selectFrom(`${CAREERS_PREFIX}company` as never)
    .selectAll()
    .where("id" as never, "=", CAREERS_COMPANY as never)
    .executeTakeFirstOrThrow();
  const record = row as { id: string; name: string; created_at: Date };
  return { id: record.id, name: record.name, createdAt: record.created_at };
}

function bare(): void {
  const cursors = new CursorCodec(FILE_SECRET);
  const key = new TextEncoder().encode(`hireport-careers:${FILE_SECRET}`);

  app.get("/jobs/:id", async (request, reply) => {
    const { id } = request.params as { id: string };
    const company = await companyRow();
    const row = await db
      .selectFrom(`${CAREERS_PREFIX}job` as never)
      .selectAll()
      .where("id" as never, "=", id as never)
      .where("company_id" as never, "=", CAREERS_COMPANY as never)
      .executeTakeFirst();
    if (!row) return reply.code(404).send("not found");
    const job = toJob(row as JobRow);
    if (!isPublic(job)) return reply.code(410).send("gone");
    const theme = resolveTheme({}, company);
    const view = jobView(addresses, job, "");
    const token = await new SignJWT({ cid: company.id, t: Date.now() })
      .setProtectedHeader({ alg: "HS256" })
      .setAudience("hireport:careers-form")
      .setSubject(job.id)
      .setIssuedAt(Math.floor(Date.now() / 1000))
      .sign(key);
    const page = defaultRenderers.jobPage({
      site: {
        company,
        theme,
        styles: careersStyles(theme),
        siteUrl: CAREERS_SITE,
        links: {
          jobs: "/jobs",
          jobsJson: "/jobs.json",
          rss: "/feeds/jobs.rss",
          indeed: "/feeds/jobs.xml",
          sitemap: "/sitemap.xml",
        },
      },
      job: view,
      structuredData: scriptJson(jobPosting(view, theme, CAREERS_SITE)),
      form: {
        action: view.applyHref,
        formToken: token,
        values: emptyApplyValues(),
        errors: {},
        notices: [],
        privacyNoticeUrl: "/privacy",
        maxFileBytes: 10 * 1024 * 1024,
      },
    });
    return reply
      .type("text/html; charset=utf-8")
      .send(`<!doctype html>${typeof page === "string" ? page : renderToString(page)}`);
  });

  app.get("/jobs.json", async (_request, reply) => {
    const day = today();
    const rows = await db
      .selectFrom(`${CAREERS_PREFIX}job` as never)
      .selectAll()
      .where("company_id" as never, "=", CAREERS_COMPANY as never)
      .where("status" as never, "=", "active" as never)
      .where("hidden" as never, "=", false as never)
      .where((eb) => eb.or([eb("closing_date" as never, "is", null), eb("closing_date" as never, ">=", day as never)]))
      .orderBy("created_at" as never, "desc")
      .orderBy("id" as never, "desc")
      .limit(PAGE_SIZE + 1)
      .execute();
    const jobs = rows.map((row) => toJob(row as JobRow));
    const hasMore = jobs.length > PAGE_SIZE;
    const data = jobs.slice(0, PAGE_SIZE);
    const last = data.at(-1);
    const nextCursor =
      hasMore && last
        ? await cursors.encode(cursorScope("public_jobs", CAREERS_COMPANY, {}), { at: last.createdAt, id: last.id })
        : null;
    const body = {
      data: data.map((job) => publicJobJson(jobView(addresses, job, ""))),
      has_more: hasMore,
      next_cursor: nextCursor,
    };
    return reply.type("application/json; charset=utf-8").send(JSON.stringify(body));
  });
}

async function hireport(): Promise<void> {
  const storage = kyselyStorage({ db, tablePrefix: CAREERS_PREFIX });
  const api = createPublicApi({
    storage,
    fileStore: kyselyFileStore({ db, tablePrefix: CAREERS_PREFIX }),
    publicBaseUrl: CAREERS_SITE,
    fileTokenSecret: FILE_SECRET,
  });
  const careers = createCareers({
    api,
    resolveCompany: () => CAREERS_COMPANY,
    secret: FILE_SECRET,
    privacyNoticeUrl: "/privacy",
  });
  await app.register(hireportFastify, { api: careers });
}

async function main(): Promise<void> {
  if (kind === "careers-bare") bare();
  else if (kind === "careers-hireport") await hireport();
  else throw new Error(`unknown careers server kind ${kind}`);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  process.stdout.write(`READY ${typeof address === "object" && address ? address.port : 0}\n`);
  process.once("SIGTERM", () => {
    void app
      .close()
      .then(() => db.destroy())
      .finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
