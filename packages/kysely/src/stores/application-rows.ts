/** Applications, stage changes and notes: rows to records, records to rows, and the joined read of applications. */
import type {
  AnswerRecord,
  ApplicationRecord,
  ApplicationStage,
  NewApplication,
  NoteRecord,
  StageChangeRecord,
} from "@hireport/core";
import type { StoreContext } from "../context";
import type { ApplicationTable, NoteTable, StageChangeTable } from "../schema";
import { fromDb, readBool, readJson, readNumber } from "../values";
import { actorColumns, toActor } from "./actors";
import { selectAll } from "./rows";

export type ApplicationRow = ApplicationTable & { job_title: string };

/**
 * Applications with their job's title, joined (one query whatever the number of rows), read
 * through the index `index` when one is named: the rows of {@link toApplication}.
 */
export function selectApplications(ctx: StoreContext, index?: string) {
  return selectAll(ctx, "application", "a", index)
    .innerJoin(ctx.tableAs("job", "j"), "j.id", "a.job_id")
    .select("j.title as job_title");
}

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
    resumeFileId: row.resume_file_id,
    source: row.source,
    consent: readBool(row.consent),
    consentAt: fromDb(row.consent_at),
    stage: row.stage as ApplicationStage,
    aiMatch: readNumber(row.ai_match),
    overallScore: readNumber(row.overall_score),
    tags: readJson<string[]>(row.tags, []),
    starred: readBool(row.starred),
    humanReviewRequestedAt: fromDb(row.human_review_requested_at),
    answers: readJson<AnswerRecord[]>(row.answers, []),
    knockedOut: readBool(row.knocked_out),
    appliedAt: fromDb(row.applied_at),
    updatedAt: fromDb(row.updated_at),
    erasedAt: fromDb(row.erased_at),
  };
}

export function toStageChange(row: StageChangeTable): StageChangeRecord {
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

export function toNote(row: NoteTable): NoteRecord {
  return {
    id: row.id,
    applicationId: row.application_id,
    companyId: row.company_id,
    body: row.body,
    actor: toActor(row),
    createdAt: fromDb(row.created_at),
  };
}

/** The columns of an application row, as every dialect stores them (every column: the Postgres routine reads them as JSON). */
export function applicationRow(ctx: StoreContext, record: NewApplication) {
  const row = {
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
    resume_file_id: record.resumeFileId,
    source: record.source,
    consent: ctx.bool(record.consent),
    consent_at: ctx.toDb(record.consentAt),
    stage: record.stage,
    ai_match: record.aiMatch,
    overall_score: record.overallScore,
    tags: JSON.stringify(record.tags),
    starred: ctx.bool(record.starred),
    human_review_requested_at: ctx.toDb(record.humanReviewRequestedAt),
    applied_at: ctx.toDb(record.appliedAt),
    updated_at: ctx.toDb(record.updatedAt),
    erased_at: ctx.toDb(record.erasedAt ?? null),
    answers: JSON.stringify(record.answers),
    knocked_out: ctx.bool(record.knockedOut),
  } satisfies Record<keyof ApplicationTable, unknown>;
  return row;
}

/** The columns of a stage-history row (all but the generated `seq`). */
export function stageChangeRow(ctx: StoreContext, record: StageChangeRecord) {
  const row = {
    id: record.id,
    application_id: record.applicationId,
    company_id: record.companyId,
    from_stage: record.fromStage,
    to_stage: record.toStage,
    ...actorColumns(record.actor),
    created_at: ctx.toDb(record.createdAt),
  } satisfies Record<Exclude<keyof StageChangeTable, "seq">, unknown>;
  return row;
}

/** The columns of a note row (all but the generated `seq`). */
export function noteRow(ctx: StoreContext, record: NoteRecord) {
  const row = {
    id: record.id,
    application_id: record.applicationId,
    company_id: record.companyId,
    body: record.body,
    ...actorColumns(record.actor),
    created_at: ctx.toDb(record.createdAt),
  } satisfies Record<Exclude<keyof NoteTable, "seq">, unknown>;
  return row;
}
