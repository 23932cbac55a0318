/**
 * `@hireport/core/storage`: for storage authors. The storage contract (`Storage`, its stores and
 * their queries), the records only stores see, the field declarations a row mapping reads, and
 * the portable steps a store may run instead of its own SQL (`createApplicationInSteps`,
 * `eraseInSteps`, `redactInSteps`, `admitInSteps`, `appendInSteps`).
 */

export { admitInSteps } from "../access/key-admission";
export { type ApplicationCreateSteps, createApplicationInSteps } from "../applications/application-create-steps";
export {
  ERASED_CANDIDATE,
  emptyErasureResult,
  erasedApplication,
  REDACTED_RESPONSE_BODY,
  redactApplications,
} from "../applications/erasure";
export {
  type ErasureRedactionSteps,
  REDACTED_TEXTS,
  type RedactableRow,
  type RedactedText,
  redactInSteps,
} from "../applications/erasure-redactions";
export {
  type CandidateErasureSteps,
  type EraseInStepsOptions,
  type ErasureRedactionInput,
  type ErasureRedactions,
  eraseInSteps,
} from "../applications/erasure-steps";
export { appendInSteps, fanOut, subscribesTo } from "../events/outbox";
export {
  APPLICATION_FIELDS,
  type ApplicationFieldColumns,
  type ApplicationFieldPatch,
  type ApplicationFieldSet,
  type ApplicationFields,
} from "../fields/application";
export {
  CANDIDATE_FIELDS,
  type CandidateFieldColumns,
  type CandidateFieldSet,
  type CandidateFields,
} from "../fields/candidate";
export {
  type ColumnValueOf,
  type FieldBodyMeta,
  type FieldCreate,
  type FieldKind,
  type FieldPlacement,
  type FieldSpec,
  field,
  type InputValueOf,
  type KindOutputOf,
  type PatchableOf,
  type PublicOf,
  type RecordOf,
  type RecordValueOf,
  type RowOf,
  type WireValueOf,
} from "../fields/field";
export { JOB_FIELDS, type JobFieldColumns, type JobFieldSet, type JobFields, jobFieldDefaults } from "../fields/job";
export type { HealthCheck } from "../http/health";
export type { KeysetPosition } from "../model/cursor";
export {
  type ApiKeyWithCompany,
  type EventDelivery,
  type EventRecord,
  type StoredResponse,
  statusClassOf,
  type UsageRecord,
  utcDay,
  type WebhookSubscription,
} from "../model/domain";
export { idFloor, newId } from "../model/ids";
export { type ApplicationCreateExtras, type NewResume, normalizeEmail } from "../services/applications";
export type { RetentionCounts } from "../services/retention";
export type { StorageStores } from "../storage";
export type {
  ApplicationListQuery,
  ApplicationPatch,
  ApplicationStore,
  CreateApplicationResult,
  NewApplication,
  NewApplicationWrite,
} from "../storage/applications";
export type { AuditStore } from "../storage/audit";
export type { CandidateErasureInput, CandidateStore, RetentionQuery } from "../storage/candidates";
export type {
  ChangeCheckpoint,
  ChangedQuery,
  ChangeKind,
  ChangePosition,
  ChangeStore,
  LatestEvent,
} from "../storage/changes";
export type { GetOptions } from "../storage/common";
export type { CompanyStore } from "../storage/companies";
export type { ConformanceInspector, ConformanceRows } from "../storage/conformance";
export type { DomainStores } from "../storage/domain-stores";
export type { EventDeliveryStore } from "../storage/event-deliveries";
export type { EventFeedQuery, EventStore, FeedEvent } from "../storage/events";
export type { NewStoredFile, StoredFile, StoredFileInfo, StoredFileQuery } from "../storage/files";
export type { IdempotencyClaim, IdempotencyClaimInput, IdempotencyStore } from "../storage/idempotency";
export type { IndexingAction, JobIndexNotice, JobIndexPending, JobIndexStore } from "../storage/job-index";
export type { JobListQuery, JobPatch, JobStore } from "../storage/jobs";
export type { KeyAdmission, KeyInsertOptions, KeyRateWindow, KeyStore } from "../storage/keys";
export type { RateLimitBucket, RateLimitResult, RateLimitStore } from "../storage/rate-limits";
export type { UsageDailyQuery, UsageDayCount, UsageListQuery, UsageStore } from "../storage/usage";
