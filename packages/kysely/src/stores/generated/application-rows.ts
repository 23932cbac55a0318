/**
 * Application rows to records and back, and the columns a patch and erasure write.
 * Generated from APPLICATION_FIELDS and CANDIDATE_FIELDS (packages/core/src/fields/application.ts, candidate.ts) by packages/core/scripts/generate-fields.ts.
 * Do not edit: run `pnpm --filter @hireport/core generate`.
 */
import type { ApplicationRecord } from "@hireport/core";
import type { ApplicationPatch, NewApplication } from "@hireport/core/storage";
import type { Updateable } from "kysely";
import type { StoreContext } from "../../context";
import type { ApplicationTable } from "../../schema";
import { fromDb, readBool, readJson, readNumber } from "../../values";
import type { ApplicationRow } from "../application-rows";

/** The record of an application row (with its job's title, joined). */
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
    stage: row.stage as ApplicationRecord["stage"],
    aiMatch: readNumber(row.ai_match),
    overallScore: readNumber(row.overall_score),
    tags: readJson<string[]>(row.tags, []),
    starred: readBool(row.starred),
    humanReviewRequestedAt: fromDb(row.human_review_requested_at),
    appliedAt: fromDb(row.applied_at),
    updatedAt: fromDb(row.updated_at),
    erasedAt: fromDb(row.erased_at),
    answers: readJson<ApplicationRecord["answers"]>(row.answers, []),
    knockedOut: readBool(row.knocked_out),
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
    erased_at: ctx.toDb(record.erasedAt),
    answers: JSON.stringify(record.answers),
    knocked_out: ctx.bool(record.knockedOut),
  } satisfies Record<keyof ApplicationTable, unknown>;
  return row;
}

/** The columns a patch writes: only the fields present in it. */
export function applicationPatchColumns(ctx: StoreContext, patch: ApplicationPatch): Updateable<ApplicationTable> {
  const set: Updateable<ApplicationTable> = { updated_at: ctx.toDb(patch.updatedAt) };
  if (patch.stage !== undefined) set.stage = patch.stage;
  if (patch.overallScore !== undefined) set.overall_score = patch.overallScore;
  if (patch.tags !== undefined) set.tags = JSON.stringify(patch.tags);
  if (patch.starred !== undefined) set.starred = ctx.bool(patch.starred);
  if (patch.humanReviewRequestedAt !== undefined)
    set.human_review_requested_at = ctx.toDb(patch.humanReviewRequestedAt);
  return set;
}

/**
 * The columns erasing an application writes: the candidate's personal data (the candidate and the
 * fields declared `personal`) back to its defaults, and the erasure's time.
 */
export function erasedApplicationColumns(ctx: StoreContext, erasedAt: Date): Updateable<ApplicationTable> {
  return {
    candidate_name: "",
    candidate_email: "",
    candidate_phone: "",
    candidate_location: "",
    candidate_linkedin_url: "",
    candidate_current_title: "",
    candidate_skills: "[]",
    email_normalized: "",
    cover_letter: "",
    resume_source_url: null,
    resume_file_id: null,
    answers: "[]",
    erased_at: ctx.toDb(erasedAt),
    updated_at: ctx.toDb(erasedAt),
  };
}
