export { type ChangeOptions, hostActor } from "./access/actor";
export { readKey } from "./access/auth";
export { admitInSteps, isKeyUsable } from "./access/key-admission";
export { expandScopes, hasScope } from "./access/scopes";
export type { ThrottleLimits, ThrottleResult } from "./access/throttle";
export type {
  UsageDailyOptions,
  UsageDay,
  UsageFilters,
  UsageListOptions,
  UsagePage,
} from "./access/usage-log";
export {
  type AnswerInput,
  type AnswerProblem,
  answerInputSchema,
  answerListSchema,
  answerSchema,
  answersError,
  type CheckedAnswers,
  checkAnswers,
} from "./applications/answers";
export { type ApplicationCreateSteps, createApplicationInSteps } from "./applications/application-create-steps";
export {
  CANDIDATE_EXPORT_FORMAT,
  CANDIDATE_EXPORT_VERSION,
  type CandidateExport,
  type ExportedActor,
  type ExportedApplication,
  type ExportedNote,
  type ExportedStageChange,
} from "./applications/candidate-export";
export {
  ERASED_CANDIDATE,
  emptyErasureResult,
  erasedApplication,
  REDACTED_RESPONSE_BODY,
  redactApplications,
} from "./applications/erasure";
export {
  type ErasureRedactionSteps,
  REDACTED_TEXTS,
  type RedactableRow,
  type RedactedText,
  redactInSteps,
} from "./applications/erasure-redactions";
export {
  type CandidateErasureSteps,
  type EraseInStepsOptions,
  type ErasureRedactionInput,
  type ErasureRedactions,
  eraseInSteps,
} from "./applications/erasure-steps";
export { skillsMatchScore } from "./applications/scoring";
export {
  EVENT_DESCRIPTIONS,
  type EventCatalogEntry,
  eventCatalog,
  eventEnvelopeSchemaOf,
} from "./docs/event-catalog";
export { buildOpenApiDocument, type OpenApiDocumentOptions } from "./docs/openapi";
export { type AuditInput, type AuditListOptions, AuditLog, auditEntry, recordAudit } from "./events/audit-log";
export { API_VERSION, eventPayload, eventSubject, newEvent } from "./events/events";
export { appendInSteps, deliveryId, fanOut, subscribesTo } from "./events/outbox";
export { createPollLoop, type PollLoop, type PollLoopOptions } from "./events/poll-loop";
export {
  APPLICATION_FIELDS,
  type ApplicationFieldColumns,
  type ApplicationFieldPatch,
  type ApplicationFieldSet,
  type ApplicationFields,
} from "./fields/application";
export {
  CANDIDATE_FIELDS,
  type CandidateFieldColumns,
  type CandidateFieldSet,
  type CandidateFields,
} from "./fields/candidate";
export {
  type ColumnValueOf,
  type FieldBodyMeta,
  type FieldCreate,
  type FieldForm,
  type FieldKind,
  type FieldPlacement,
  type FieldSpec,
  type FormFieldOf,
  field,
  type InputValueOf,
  type KindOutputOf,
  type PatchableOf,
  type PublicOf,
  type RecordOf,
  type RecordValueOf,
  type RowOf,
  type WireValueOf,
} from "./fields/field";
export { publicJobFields } from "./fields/generated/job-wire";
export { JOB_FIELDS, type JobFieldColumns, type JobFieldSet, jobFieldDefaults } from "./fields/job";
export type { PublicJobFieldsJson } from "./fields/public-job";
export { clientIp, createFetchHandler, isEmptyBody, toWebResponse } from "./http/fetch-bridge";
export { frameOptionsHeader } from "./http/frame-options";
export {
  answerHealth,
  DEFAULT_HEALTH_TIMEOUT_MS,
  type HealthCheck,
  type HealthCheckDetails,
  HealthCheckFailure,
  type HealthCheckResult,
  type HealthOptions,
  type HealthReport,
  type HealthRunOptions,
  type HealthSource,
  healthResponse,
  runHealthChecks,
  sanitizeHealthError,
} from "./http/health";
export type * from "./http/http-types";
export { readBytes } from "./http/read-bytes";
export { getHeader, mediaTypeOf, toSearchParams } from "./http/request-parts";
export { type SpanNotes, traceRequest } from "./http/request-telemetry";
export { type OperationId, ROUTES, type RouteSpec } from "./http/routes";
export { hs256Key } from "./model/crypto";
export { CursorCodec, cursorScope } from "./model/cursor";
export * from "./model/domain";
export * from "./model/errors";
export { idFloor, newId } from "./model/ids";
export { PAGE_SIZE, type Page, type PageRequest, pageRequest, toPage } from "./model/paging";
export { isPublicJob, type PublicJobFields, publicJobUrl } from "./model/public-jobs";
export type { ApplicationWire, JobWire } from "./model/serialize";
export * from "./schemas/application";
export * from "./schemas/common";
export { COUNTRY_CODES, type CountryCode, isCountryCode } from "./schemas/country-codes";
export {
  isCurrencyCode,
  isStorableText,
  SALARY_PERIODS,
  type SalaryPeriod,
  UNSTORABLE_TEXT_MESSAGE,
  WORKPLACE_TYPES,
  type WorkplaceType,
} from "./schemas/fields";
export * from "./schemas/job";
export * from "./schemas/query";
export * from "./schemas/questions";
export type {
  ApplicationCreateExtras,
  ApplicationListOptions,
  HumanReviewResult,
  NewResume,
} from "./services/applications";
export { HUMAN_REVIEW_NOTE, normalizeEmail } from "./services/applications";
export type {
  CandidateEraseOptions,
  CandidateErasure,
  CandidateTarget,
  HostCandidates,
} from "./services/candidates";
export type { JobListOptions } from "./services/jobs";
export { type CreatedKey, type CreateKeyInput, hashKey, KEY_PREFIX } from "./services/keys";
export type { PublicJobListOptions, PublicJobLookup } from "./services/public-listing";
export {
  type ResolvedRetention,
  type RetentionCounts,
  RetentionError,
  type RetentionFailure,
  type RetentionOptions,
} from "./services/retention";
export { createPublicApi, type PublicApi } from "./setup/create-public-api";
export type { ApplicationCreateOptions, HostApplications, HostJobs, HostPublicJobs } from "./setup/host-api";
export * from "./setup/options";
export type { ReadOptions } from "./setup/read-options";
export {
  eventTraceparent,
  type ObservedGauge,
  type RefusalReason,
  type RequestOutcome,
  type RequestSource,
  type RequestSurface,
  type RequestTelemetry,
  sentPayload,
  type Telemetry,
  type WebhookAttemptOutcome,
  type WebhookAttemptResult,
  type WebhookAttemptStart,
  type WebhookAttemptTelemetry,
} from "./setup/telemetry";
export type * from "./storage";
