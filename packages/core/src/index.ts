export { type ChangeOptions, hostActor } from "./access/actor";
export { readKey } from "./access/auth";
export { admitInSteps, isKeyUsable } from "./access/key-admission";
export { hashKey, KEY_PREFIX } from "./access/key-hash";
export { expandScopes, hasScope } from "./access/scopes";
export type { ThrottleLimits, ThrottleResult } from "./access/throttle";
export type {
  UsageDailyOptions,
  UsageDay,
  UsageFilters,
  UsageListOptions,
  UsageLogMode,
  UsagePage,
} from "./access/usage-log";
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
export { type Clock, systemClock } from "./base/clock";
export * from "./base/errors";
export type * from "./base/http-types";
export type { Logger } from "./base/logger";
export { getHeader, mediaTypeOf, toSearchParams } from "./base/request-parts";
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
} from "./base/telemetry";
export {
  EVENT_DESCRIPTIONS,
  type EventCatalogEntry,
  eventCatalog,
  eventEnvelopeSchemaOf,
} from "./docs/event-catalog";
export { buildOpenApiDocument, type OpenApiDocumentOptions } from "./docs/openapi";
export { API_VERSION, eventPayload, eventSubject, newEvent } from "./events/events";
export { appendInSteps, deliveryId, fanOut, subscribesTo } from "./events/outbox";
export { createPollLoop, type PollLoop, type PollLoopOptions } from "./events/poll-loop";
export {
  type AnswerInput,
  type AnswerProblem,
  answerInputSchema,
  answerListSchema,
  answerSchema,
  answersError,
  type CheckedAnswers,
  checkAnswers,
} from "./fields/answers";
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
export { COUNTRY_CODES, type CountryCode, isCountryCode } from "./fields/country-codes";
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
export { JOB_FIELDS, type JobFieldColumns, type JobFieldSet, jobFieldDefaults } from "./fields/job";
export * from "./fields/questions";
export {
  isCurrencyCode,
  isStorableText,
  SALARY_PERIODS,
  type SalaryPeriod,
  UNSTORABLE_TEXT_MESSAGE,
  WORKPLACE_TYPES,
  type WorkplaceType,
} from "./fields/value-schemas";
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
export { readBytes } from "./http/read-bytes";
export { type SpanNotes, traceRequest } from "./http/request-telemetry";
export { type OperationId, ROUTES, type RouteSpec } from "./http/routes";
export { hs256Key } from "./model/crypto";
export { CursorCodec, cursorScope } from "./model/cursor";
export * from "./model/domain";
export { idFloor, newId } from "./model/ids";
export { PAGE_SIZE, type Page, type PageRequest, pageRequest, toPage } from "./model/paging";
export { isPublicJob, type PublicJobFields, publicJobUrl } from "./model/public-jobs";
export type { ResumeSource, ScoringFunction } from "./runtime/host-functions";
export type { ReadOptions } from "./runtime/read-options";
export * from "./schemas/application";
export * from "./schemas/common";
export * from "./schemas/job";
export * from "./schemas/query";
export type {
  ApplicationCreateExtras,
  ApplicationListOptions,
  HumanReviewResult,
  NewResume,
} from "./services/applications";
export { HUMAN_REVIEW_NOTE, normalizeEmail } from "./services/applications";
export { type AuditInput, type AuditListOptions, AuditLog, auditEntry, recordAudit } from "./services/audit-log";
export type {
  CandidateEraseOptions,
  CandidateErasure,
  CandidateTarget,
  HostCandidates,
} from "./services/candidates";
export type { JobListOptions } from "./services/jobs";
export type { CreatedKey, CreateKeyInput } from "./services/keys";
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
export type * from "./storage";
export { publicJobFields } from "./wire/generated/job-wire";
export type { PublicJobFieldsJson } from "./wire/public-job";
export type { ApplicationWire, JobWire } from "./wire/serialize";
