import type {
  Actor,
  ApplicationPatch,
  ApplicationRecord,
  ApplicationStage,
  ApplicationStore,
  InsertApplicationResult,
  InsertWithEventInput,
  InsertWithEventResult,
  NewApplication,
  NoteRecord,
  StageChangeRecord,
} from "@hireport/core";
import { type SelectQueryBuilder, sql, type Updateable } from "kysely";
import type { StoreContext } from "../context";
import type { ActorColumns, ApplicationTable, HireportDatabase, NoteTable, StageChangeTable } from "../schema";
import { fromDb, readBool, readJson, readNumber } from "../values";
import { eventRow } from "./events";
import { functionName, withFunction } from "./functions";
import { afterPosition } from "./keyset";

type ApplicationRow = ApplicationTable & { job_title: string };

export function toApplication(row: ApplicationRow): ApplicationRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    jobId: row.job_id,
    jobTitle: row.job_title,
    reference: row.reference,
    candidate: {
      name: row.candidate_name,
      email: row.candidate_email,
      phone: row.candidate_phone,
      location: row.candidate_location,
      linkedinUrl: row.candidate_linkedin_url,
      currentTitle: row.candidate_current_title,
      skills: readJson<string[]>(row.candidate_skills, []),
    },
    emailNormalized: row.email_normalized,
    coverLetter: row.cover_letter,
    resumeSourceUrl: row.resume_source_url,
    source: row.source,
    consent: readBool(row.consent),
    consentAt: fromDb(row.consent_at),
    stage: row.stage as ApplicationStage,
    aiMatch: readNumber(row.ai_match),
    overallScore: readNumber(row.overall_score),
    tags: readJson<string[]>(row.tags, []),
    starred: readBool(row.starred),
    appliedAt: fromDb(row.applied_at),
    updatedAt: fromDb(row.updated_at),
  };
}

function toActor(row: ActorColumns): Actor {
  return { type: row.actor_type as Actor["type"], id: row.actor_id, name: row.actor_name };
}

function toStageChange(row: StageChangeTable): StageChangeRecord {
  return {
    id: row.id,
    applicationId: row.application_id,
    companyId: row.company_id,
    fromStage: row.from_stage as ApplicationStage | null,
    toStage: row.to_stage as ApplicationStage,
    actor: toActor(row),
    createdAt: fromDb(row.created_at),
  };
}

function toNote(row: NoteTable): NoteRecord {
  return {
    id: row.id,
    applicationId: row.application_id,
    companyId: row.company_id,
    body: row.body,
    actor: toActor(row),
    createdAt: fromDb(row.created_at),
  };
}

/** The columns of an application row, as every dialect stores them. */
function applicationRow(ctx: StoreContext, record: NewApplication) {
  return {
    id: record.id,
    company_id: record.companyId,
    job_id: record.jobId,
    reference: record.reference,
    candidate_name: record.candidate.name,
    candidate_email: record.candidate.email,
    candidate_phone: record.candidate.phone,
    candidate_location: record.candidate.location,
    candidate_linkedin_url: record.candidate.linkedinUrl,
    candidate_current_title: record.candidate.currentTitle,
    candidate_skills: JSON.stringify(record.candidate.skills),
    email_normalized: record.emailNormalized,
    cover_letter: record.coverLetter,
    resume_source_url: record.resumeSourceUrl,
    source: record.source,
    consent: ctx.bool(record.consent),
    consent_at: ctx.toDb(record.consentAt),
    stage: record.stage,
    ai_match: record.aiMatch,
    overall_score: record.overallScore,
    tags: JSON.stringify(record.tags),
    starred: ctx.bool(record.starred),
    applied_at: ctx.toDb(record.appliedAt),
    updated_at: ctx.toDb(record.updatedAt),
  };
}

/** The columns of a stage-history row. */
function stageChangeRow(ctx: StoreContext, record: StageChangeRecord) {
  return {
    id: record.id,
    application_id: record.applicationId,
    company_id: record.companyId,
    from_stage: record.fromStage,
    to_stage: record.toStage,
    actor_type: record.actor.type,
    actor_id: record.actor.id,
    actor_name: record.actor.name,
    created_at: ctx.toDb(record.createdAt),
  };
}

/** Takes back the `applications_count + 1` of a refused insert. */
async function undoBump(ctx: StoreContext, jobId: string): Promise<void> {
  await ctx.db
    .updateTable(ctx.table("job"))
    .set({ applications_count: sql<number>`${sql.ref("applications_count")} - 1` })
    .where("id", "=", jobId)
    .execute();
}

/** `insert into {table} (columns) select $1, $2, …`: Postgres types each parameter by its column. */
function insertSelect(table: string, row: Record<string, unknown>) {
  const columns = Object.keys(row);
  return sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.id(column)))})
    select ${sql.join(columns.map((column) => sql`${row[column]}`))}`;
}

/**
 * Postgres: the duplicate check, the insert and the first stage-history entry in one statement
 * (`INSERT … SELECT … WHERE NOT EXISTS`, the history row inserted from its `RETURNING`), two
 * round trips fewer per POST. It runs after the statement that locked the job's row, so its
 * snapshot sees what an earlier insert for the job committed, as the separate check did. Only a
 * refused insert reads the existing id, in one more statement.
 */
async function insertInOneStatement(
  tx: StoreContext,
  row: ReturnType<typeof applicationRow>,
  duplicate: SelectQueryBuilder<HireportDatabase & { a: ApplicationTable }, "a", { id: string }>,
  stageChange: StageChangeRecord | undefined,
  jobTitle: string | undefined,
): Promise<InsertApplicationResult> {
  const stage = stageChange ? stageChangeRow(tx, stageChange) : undefined;
  const { rows } = await sql<{ id: string }>`
    with inserted as (
      ${insertSelect(tx.table("application"), row)} where not exists (${duplicate}) returning id
    )${stage ? sql`, history as (${insertSelect(tx.table("stage_change"), stage)} from inserted)` : sql``}
    select id from inserted`.execute(tx.db);
  if (rows.length === 0) {
    const existingId = (await duplicate.executeTakeFirst())?.id;
    if (existingId === undefined) throw new Error("An application refused as a duplicate has no earlier application.");
    await undoBump(tx, row.job_id);
    return { inserted: false, existingId };
  }
  return {
    inserted: true,
    ...(jobTitle === undefined ? {} : { jobTitle }),
    ...(stage ? { stageChangeStored: true } : {}),
  };
}

/**
 * Postgres: a new application with its first stage change, its event and the event's deliveries,
 * in one call of `{prefix}create_application` (migration 0003), which is its own transaction when
 * called outside one: no `BEGIN` and `COMMIT` round trips, and plans kept per connection.
 */
async function insertWithEvent(ctx: StoreContext, input: InsertWithEventInput): Promise<InsertWithEventResult> {
  const { rows } = await withFunction(ctx, "create_application", () =>
    sql<{ outcome: string; existing_id: string | null }>`select outcome, existing_id from ${sql.id(
      functionName(ctx, "create_application"),
    )}(
      ${JSON.stringify(applicationRow(ctx, input.record))}::jsonb,
      ${JSON.stringify(stageChangeRow(ctx, input.initialStageChange))}::jsonb,
      ${JSON.stringify(eventRow(ctx, input.event))}::jsonb,
      ${input.jobTitle}::text,
      ${ctx.toDb(input.duplicateSince)}::timestamptz
    )`.execute(ctx.db),
  );
  const row = rows[0];
  if (row?.outcome === "inserted") return { outcome: "inserted" };
  if (row?.outcome === "job_changed") return { outcome: "job_changed" };
  if (row?.outcome === "duplicate" && row.existing_id !== null)
    return { outcome: "duplicate", existingId: row.existing_id };
  throw new Error(`hireport: create_application answered ${JSON.stringify(row ?? null)}.`);
}

export function createApplicationStore(ctx: StoreContext): ApplicationStore {
  /** Applications with their job's title, joined: one query whatever the number of rows. */
  const selectApplications = () =>
    ctx.db
      .selectFrom(ctx.tableAs("application", "a"))
      .innerJoin(ctx.tableAs("job", "j"), "j.id", "a.job_id")
      .select(ctx.columns("application", "a"))
      .select("j.title as job_title");

  const get: ApplicationStore["get"] = async (companyId, id, options) => {
    let query = selectApplications().where("a.id", "=", id).where("a.company_id", "=", companyId);
    if (options?.lock && ctx.dialect !== "sqlite") {
      query = ctx.dialect === "postgres" ? query.forUpdate("a") : query.forUpdate();
    }
    const row = await query.$castTo<ApplicationRow>().executeTakeFirst();
    return row ? toApplication(row) : null;
  };

  return {
    ...(ctx.dialect === "postgres"
      ? { insertWithEvent: (input: InsertWithEventInput) => insertWithEvent(ctx, input) }
      : {}),

    insertUnlessDuplicate: (record, options) =>
      ctx.atomic(async (tx) => {
        const jobs = tx.table("job");
        // Counting first locks the job's row (a write lock on SQLite): identical inserts for one
        // job queue here, and the duplicate check below sees what the one before committed.
        const bumpJob = tx.db
          .updateTable(jobs)
          .set({ applications_count: sql<number>`${sql.ref("applications_count")} + 1` })
          .where("id", "=", record.jobId)
          .where("company_id", "=", record.companyId);
        // Postgres and SQLite return the job's title with the lock: core needs no read-back.
        let jobTitle: string | undefined;
        if (tx.returning) {
          const row = await bumpJob.returning("title").executeTakeFirst();
          if (!row) throw new Error(`No job ${record.jobId} in company ${record.companyId} to add an application to.`);
          jobTitle = row.title;
        } else if ((await bumpJob.executeTakeFirst()).numUpdatedRows === 0n) {
          throw new Error(`No job ${record.jobId} in company ${record.companyId} to add an application to.`);
        }
        // No `company_id` condition: the job, just checked to be the company's, names the company
        // already. With one, the planner may walk the `(company_id, applied_at)` index instead of
        // the duplicate index and read every application of the company in the window (it does
        // when its statistics still think the company has none): one POST then costs more the
        // more the company receives.
        let duplicate = tx.db
          .selectFrom(tx.tableAs("application", "a"))
          .select("a.id")
          .where("a.job_id", "=", record.jobId)
          .where("a.email_normalized", "=", record.emailNormalized)
          .where("a.applied_at", ">=", tx.toDb(options.duplicateSince))
          .orderBy("a.applied_at", "desc")
          .limit(1);
        // MySQL's plain reads use the transaction's snapshot; a locking read sees the latest rows.
        if (tx.dialect === "mysql") duplicate = duplicate.forUpdate();
        const row = applicationRow(tx, record);
        if (tx.dialect === "postgres") {
          return insertInOneStatement(tx, row, duplicate, options.initialStageChange, jobTitle);
        }
        const existing = await duplicate.executeTakeFirst();
        if (existing) {
          await undoBump(tx, record.jobId);
          return { inserted: false as const, existingId: existing.id };
        }
        await tx.db.insertInto(tx.table("application")).values(row).execute();
        return jobTitle === undefined ? { inserted: true as const } : { inserted: true as const, jobTitle };
      }),

    get,

    async update(companyId, id, patch: ApplicationPatch) {
      const set: Updateable<ApplicationTable> = { updated_at: ctx.toDb(patch.updatedAt) };
      if (patch.stage !== undefined) set.stage = patch.stage;
      if (patch.tags !== undefined) set.tags = JSON.stringify(patch.tags);
      if (patch.starred !== undefined) set.starred = ctx.bool(patch.starred);
      if (patch.overallScore !== undefined) set.overall_score = patch.overallScore;
      await ctx.db
        .updateTable(ctx.table("application"))
        .set(set)
        .where("id", "=", id)
        .where("company_id", "=", companyId)
        .execute();
      return get(companyId, id);
    },

    async list(query) {
      let select = selectApplications().where("a.company_id", "=", query.companyId);
      if (query.jobId !== undefined) select = select.where("a.job_id", "=", query.jobId);
      if (query.stage !== undefined) select = select.where("a.stage", "=", query.stage);
      if (query.updatedSince) select = select.where("a.updated_at", ">=", ctx.toDb(query.updatedSince));
      const after = query.after;
      if (after) select = select.where((eb) => afterPosition(ctx, eb, "a.applied_at", "a.id", after));
      // With `updated_since` (and no job or stage) the optimizer chooses between the page-order
      // index and the `(company_id, updated_at)` one (few rows changed since the last sync).
      const index =
        query.updatedSince && query.jobId === undefined && query.stage === undefined
          ? null
          : query.jobId !== undefined
            ? "company_job_applied"
            : query.stage !== undefined
              ? "company_stage_applied"
              : "company_applied";
      const rows = await ctx.list(
        select
          .orderBy("a.applied_at", "desc")
          .orderBy("a.id", "desc")
          .limit(Math.max(0, query.take))
          .$castTo<ApplicationRow>(),
        "application",
        "a",
        index,
      );
      return rows.map(toApplication);
    },

    async addStageChange(record) {
      await ctx.db.insertInto(ctx.table("stage_change")).values(stageChangeRow(ctx, record)).execute();
    },

    async listStageChanges(companyId, applicationId) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("stage_change", "s"))
        .select(ctx.columns("stage_change", "s"))
        .where("s.application_id", "=", applicationId)
        .where("s.company_id", "=", companyId)
        .orderBy("s.created_at", "asc")
        .orderBy("s.seq", "asc")
        .$castTo<StageChangeTable>()
        .execute();
      return rows.map(toStageChange);
    },

    async addNote(record) {
      await ctx.db
        .insertInto(ctx.table("note"))
        .values({
          id: record.id,
          application_id: record.applicationId,
          company_id: record.companyId,
          body: record.body,
          actor_type: record.actor.type,
          actor_id: record.actor.id,
          actor_name: record.actor.name,
          created_at: ctx.toDb(record.createdAt),
        })
        .execute();
    },

    async listNotes(companyId, applicationId) {
      const rows = await ctx.db
        .selectFrom(ctx.tableAs("note", "n"))
        .select(ctx.columns("note", "n"))
        .where("n.application_id", "=", applicationId)
        .where("n.company_id", "=", companyId)
        .orderBy("n.created_at", "asc")
        .orderBy("n.seq", "asc")
        .$castTo<NoteTable>()
        .execute();
      return rows.map(toNote);
    },
  };
}
