/**
 * The document `api.candidates.export` returns: everything hireport stores about one person in one
 * company, as one JSON value (snake_case, ISO 8601 UTC times, like the API). Its shape is versioned:
 * `format` and `version` name it, and a later version only adds members.
 */
import type { Actor, ApplicationRecord, NoteRecord, StageChangeRecord } from "../model/domain";
import type { ApplicationWire, Serializer } from "../wire/serialize";

/** `format` of the export document. */
export const CANDIDATE_EXPORT_FORMAT = "hireport.candidate-export";
/** `version` of the export document this package writes. */
export const CANDIDATE_EXPORT_VERSION = 1;

/** Who wrote a note or moved a stage: an API key (its id and name) or the host (its label). */
export interface ExportedActor {
  type: Actor["type"];
  id: string | null;
  name: string;
}

export interface ExportedNote {
  id: string;
  body: string;
  author: ExportedActor;
  created_at: string;
}

export interface ExportedStageChange {
  id: string;
  /** Null for the first entry (the application arrived). */
  from_stage: string | null;
  to_stage: string;
  actor: ExportedActor;
  created_at: string;
}

/**
 * One application as exported: every field of the API's Application (with a fresh `resume_url`,
 * valid `fileTokenTtlSeconds`), the fields the API does not return (consent and its time, the time
 * of the human-review request), the recruiters' notes and the stage history, oldest first.
 */
export type ExportedApplication = ApplicationWire & {
  /** What the candidate answered to the consent question, or null when nothing was asked. */
  consent: boolean | null;
  consent_at: string | null;
  human_review_requested_at: string | null;
  notes: ExportedNote[];
  stage_history: ExportedStageChange[];
};

/** The export document, version 1. */
export interface CandidateExport {
  format: typeof CANDIDATE_EXPORT_FORMAT;
  version: typeof CANDIDATE_EXPORT_VERSION;
  exported_at: string;
  company_id: string;
  /** The address the applications were matched on, as the duplicate rule compares it (trimmed, lower case). */
  email: string;
  /** The person's applications in the company, oldest first. Empty when hireport holds none. */
  applications: ExportedApplication[];
}

function actorOf(actor: Actor): ExportedActor {
  return { type: actor.type, id: actor.id, name: actor.name };
}

/** One application with its notes and history, as the export document holds it. */
export async function exportedApplication(
  serializer: Serializer,
  application: ApplicationRecord,
  notes: readonly NoteRecord[],
  history: readonly StageChangeRecord[],
): Promise<ExportedApplication> {
  return {
    ...(await serializer.application(application)),
    consent: application.consent,
    consent_at: application.consentAt?.toISOString() ?? null,
    human_review_requested_at: application.humanReviewRequestedAt?.toISOString() ?? null,
    notes: notes.map((note) => ({
      id: note.id,
      body: note.body,
      author: actorOf(note.actor),
      created_at: note.createdAt.toISOString(),
    })),
    stage_history: history.map((change) => ({
      id: change.id,
      from_stage: change.fromStage,
      to_stage: change.toStage,
      actor: actorOf(change.actor),
      created_at: change.createdAt.toISOString(),
    })),
  };
}
