/**
 * `@hireport/core/extend`: what the other hireport packages (webhooks, the careers site, the
 * console, the MCP server) build on: the API's admission, usage log and operations for a handler
 * served beside it (`apiAccess`), the audit log, event envelopes, paging and cursors, the wakeable
 * poll loop, the public-job rule, the event catalog; and the types of the less common host
 * methods: usage, retention and candidate export and erasure.
 */

export { hostActor, keyActor } from "../access/actor";
export { readKey } from "../access/auth";
export { hashKey, KEY_PREFIX } from "../access/key-hash";
export type { ThrottleLimits, ThrottleResult } from "../access/throttle";
export type { UsageDailyOptions, UsageDay, UsageFilters, UsageListOptions, UsagePage } from "../access/usage-log";
export {
  CANDIDATE_EXPORT_FORMAT,
  CANDIDATE_EXPORT_VERSION,
  type ExportedActor,
  type ExportedApplication,
  type ExportedNote,
  type ExportedStageChange,
} from "../applications/candidate-export";
export { skillsMatchScore } from "../applications/scoring";
export { type HireportErrorOptions, notFound, unknownCompany } from "../base/errors";
export {
  eventTraceparent,
  type ObservedGauge,
  sentPayload,
  type WebhookAttemptOutcome,
  type WebhookAttemptResult,
  type WebhookAttemptStart,
  type WebhookAttemptTelemetry,
} from "../base/telemetry";
export { EVENT_DESCRIPTIONS, type EventCatalogEntry, eventCatalog } from "../docs/event-catalog";
export { API_VERSION, eventPayload, eventSubject, newEvent } from "../events/events";
export { deliveryId } from "../events/outbox";
export { createPollLoop, type PollLoop, type PollLoopOptions } from "../events/poll-loop";
export type { FieldForm, FormFieldOf } from "../fields/field";
export {
  type ApiAccess,
  apiAccess,
  type OperationCall,
  type ServedAnswer,
  type ServedOutcome,
} from "../http/api-access";
export { healthResponse } from "../http/health";
export { hs256Key } from "../model/crypto";
export { CursorCodec, cursorScope } from "../model/cursor";
export { type PageRequest, pageRequest, toPage } from "../model/paging";
export { isPublicJob, type PublicJobFields, publicJobUrl } from "../model/public-jobs";
export { HUMAN_REVIEW_NOTE, type HumanReviewResult, type StageChangeAudit } from "../services/applications";
export { type AuditInput, type AuditListOptions, AuditLog, auditEntry, recordAudit } from "../services/audit-log";
export type { CandidateEraseOptions, CandidateErasure, CandidateTarget } from "../services/candidates";
export type {
  ChangeDetectionOptions,
  ChangePollResult,
  HostChanges,
  ResolvedChangeDetection,
} from "../services/changes";
export type { EventEnvelope } from "../services/events";
export type { PublicJobListOptions, PublicJobLookup } from "../services/public-listing";
export { type ResolvedRetention, RetentionError, type RetentionFailure } from "../services/retention";
export type { EventListOptions, HostEvents } from "../setup/host-api";
export type { IndexingService } from "../storage/job-index";
export { publicJobFields } from "../wire/generated/job-wire";
export type { PublicJobFieldsJson } from "../wire/public-job";
