/** The host's words for job states and pipeline stages, and the API's for the same thing. */
import type { ApplicationStage, JobStatus } from "@hireport/core";

/** The host's opening states → the API's job statuses (one to one, so a round trip is exact). */
export const STATE_TO_STATUS = {
  open: "active",
  on_hold: "paused",
  filled: "closed",
  draft: "draft",
} as const satisfies Record<string, JobStatus>;

/** The host's pipeline words → the API's application stages (one to one). */
export const PIPELINE_TO_STAGE = {
  inbox: "new",
  applied: "applied",
  pool: "applicants",
  screened: "reviewed",
  shortlist: "shortlisted",
  tech_test: "technical",
  interview_booked: "interview",
  interview_done: "interviewed",
  offer_agreed: "offered",
  offer_out: "offer_sent",
  hired: "hired",
  declined: "rejected",
  withdrew: "withdrawn",
  parked: "on_hold",
} as const satisfies Record<string, ApplicationStage>;

function invert<K extends string, V extends string>(map: Record<K, V>): Record<V, K> {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [value, key])) as Record<V, K>;
}

const STATUS_TO_STATE: Record<JobStatus, string> = invert(STATE_TO_STATUS);
const STAGE_TO_PIPELINE: Record<ApplicationStage, string> = invert(PIPELINE_TO_STAGE);

export const toState = (status: JobStatus): string => STATUS_TO_STATE[status];
export const toPipeline = (stage: ApplicationStage): string => STAGE_TO_PIPELINE[stage];

export function toStatus(state: string): JobStatus {
  const status = (STATE_TO_STATUS as Record<string, JobStatus>)[state];
  if (!status) throw new Error(`Unknown opening state ${JSON.stringify(state)}.`);
  return status;
}

export function toStage(pipeline: string): ApplicationStage {
  const stage = (PIPELINE_TO_STAGE as Record<string, ApplicationStage>)[pipeline];
  if (!stage) throw new Error(`Unknown pipeline stage ${JSON.stringify(pipeline)}.`);
  return stage;
}
