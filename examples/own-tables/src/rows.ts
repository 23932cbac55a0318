/** Between the host's rows and hireport's records: names, times, flags, JSON lists, the host's words. */
import type { AnswerRecord, ApplicationRecord, JobRecord, NoteRecord, StageChangeRecord } from "@hireport/core";
import type { GetOptions, JobFields, NewApplication } from "@hireport/core/storage";
import { jobFieldDefaults } from "@hireport/core/storage";
import type { DomainScope } from "@hireport/kysely";
import type { Insertable, Kysely, Selectable } from "kysely";
import { toPipeline, toStage, toStatus } from "./mapping";
import type {
  CandidaciesTable,
  CandidatesTable,
  HostDatabase,
  OpeningsTable,
  PipelineMovesTable,
  RecruiterNotesTable,
} from "./schema";

export type Scope = DomainScope<HostDatabase>;
type Time = Date | string;

/** Ids per `IN (…)` list. */
const CHUNK = 500;

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) out.push(items.slice(start, start + CHUNK));
  return out;
}

/**
 * Whether a read by id tries the replica first (the storage's `readDb`): the caller accepts a copy
 * that may lag, takes no lock, and the scope has a replica. A miss there is read again on `db`.
 */
export const replicaFirst = (scope: Scope, options: GetOptions | undefined): boolean =>
  options?.replica === true && options.lock !== true && scope.readDb !== scope.db;

/** How the dialect stores times and flags: `timestamptz` and `boolean` on Postgres, text and 0/1 on SQLite. */
export function values(scope: Scope) {
  const sqlite = scope.dialect === "sqlite";
  const time = (date: Date): Time => (sqlite ? date.toISOString() : date);
  return {
    time,
    timeOrNull: (date: Date | null): Time | null => (date === null ? null : time(date)),
    flag: (value: boolean) => (sqlite ? Number(value) : value),
  };
}

export const readTime = (value: Time): Date => (value instanceof Date ? value : new Date(value));
export const readTimeOrNull = (value: Time | null): Date | null => (value === null ? null : readTime(value));
export const readFlag = (value: boolean | number): boolean => value === true || value === 1;

/** The listing's fields kept in `details` (every `JobFields` field but those with a column of their own). */
type Details = Omit<JobFields, "title" | "closingDate">;

export function toJob(row: Selectable<OpeningsTable>): JobRecord {
  return {
    // A listing stored before a Job field existed has no value for it in `details`: its default.
    ...jobFieldDefaults(),
    ...(JSON.parse(row.details) as Partial<Details>),
    id: row.id,
    companyId: row.orgId,
    reference: row.ref,
    title: row.headline,
    closingDate: row.closesOn,
    status: toStatus(row.state),
    hidden: readFlag(row.unlisted),
    applicationsCount: Number(row.applicantCount),
    createdAt: readTime(row.createdAt),
    updatedAt: readTime(row.updatedAt),
    closedAt: readTimeOrNull(row.filledAt),
    publishedAt: readTimeOrNull(row.firstListedAt),
  };
}

/** Candidacies with their candidate row and their opening's title. */
export function selectApplications(db: Kysely<HostDatabase>) {
  return db
    .selectFrom("candidacies as c")
    .innerJoin("candidates as p", "p.id", "c.candidateId")
    .innerJoin("openings as o", "o.id", "c.openingId")
    .selectAll("c")
    .select([
      "p.fullName",
      "p.email",
      "p.emailKey",
      "p.phone",
      "p.city",
      "p.linkedin",
      "p.headline as currentTitle",
      "p.skills",
      "o.headline as jobTitle",
    ]);
}

export type ApplicationRow = Selectable<CandidaciesTable> & {
  fullName: string;
  email: string;
  emailKey: string;
  phone: string;
  city: string;
  linkedin: string;
  currentTitle: string;
  skills: string;
  jobTitle: string;
};

export function toApplication(row: ApplicationRow): ApplicationRecord {
  return {
    id: row.id,
    companyId: row.orgId,
    jobId: row.openingId,
    jobTitle: row.jobTitle,
    reference: row.ref,
    candidate: {
      name: row.fullName,
      email: row.email,
      phone: row.phone,
      location: row.city,
      linkedinUrl: row.linkedin,
      currentTitle: row.currentTitle,
      skills: JSON.parse(row.skills) as string[],
    },
    emailNormalized: row.emailKey,
    coverLetter: row.coverNote,
    resumeSourceUrl: row.cvLink,
    resumeFileId: row.cvFileId,
    source: row.channel,
    consent: row.consentGiven === null ? null : readFlag(row.consentGiven),
    consentAt: readTimeOrNull(row.consentAt),
    stage: toStage(row.pipelineStage),
    aiMatch: Number(row.fitScore),
    overallScore: row.rating === null ? null : Number(row.rating),
    tags: JSON.parse(row.labels) as string[],
    starred: readFlag(row.flagged),
    humanReviewRequestedAt: readTimeOrNull(row.reviewRequestedAt),
    answers: JSON.parse(row.screeningAnswers) as AnswerRecord[],
    knockedOut: readFlag(row.screenedOut),
    appliedAt: readTime(row.appliedAt),
    updatedAt: readTime(row.updatedAt),
    erasedAt: readTimeOrNull(row.anonymizedAt),
  };
}

export const actorColumns = (record: StageChangeRecord | NoteRecord) => ({
  id: record.id,
  orgId: record.companyId,
  candidacyId: record.applicationId,
  byType: record.actor.type,
  byId: record.actor.id,
  byName: record.actor.name,
});

export const toActor = (row: Selectable<PipelineMovesTable> | Selectable<RecruiterNotesTable>) => ({
  type: row.byType as "api_key" | "host",
  id: row.byId,
  name: row.byName,
});

/** The candidate row of a new application. */
export function candidateRow(scope: Scope, id: string, record: NewApplication): Insertable<CandidatesTable> {
  const { candidate } = record;
  return {
    id,
    orgId: record.companyId,
    fullName: candidate.name,
    email: candidate.email,
    emailKey: record.emailNormalized,
    phone: candidate.phone,
    city: candidate.location,
    linkedin: candidate.linkedinUrl,
    headline: candidate.currentTitle,
    skills: JSON.stringify(candidate.skills),
    createdAt: values(scope).time(record.appliedAt),
  };
}

/** The candidacy row of a new application, naming its candidate row. */
export function candidacyRow(scope: Scope, candidateId: string, record: NewApplication): Insertable<CandidaciesTable> {
  const { time, timeOrNull, flag } = values(scope);
  return {
    id: record.id,
    orgId: record.companyId,
    openingId: record.jobId,
    candidateId,
    ref: record.reference,
    coverNote: record.coverLetter,
    cvLink: record.resumeSourceUrl,
    cvFileId: record.resumeFileId,
    channel: record.source,
    consentGiven: record.consent === null ? null : flag(record.consent),
    consentAt: timeOrNull(record.consentAt),
    pipelineStage: toPipeline(record.stage),
    fitScore: record.aiMatch,
    rating: record.overallScore,
    labels: JSON.stringify(record.tags),
    flagged: flag(record.starred),
    reviewRequestedAt: timeOrNull(record.humanReviewRequestedAt),
    screeningAnswers: JSON.stringify(record.answers),
    screenedOut: flag(record.knockedOut),
    appliedAt: time(record.appliedAt),
    updatedAt: time(record.updatedAt),
    anonymizedAt: timeOrNull(record.erasedAt),
  };
}
