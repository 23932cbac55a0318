export { type ChangeOptions, hostActor } from "./actor";
export {
  type AnswerInput,
  type AnswerProblem,
  answerInputSchema,
  answerListSchema,
  answerSchema,
  answersError,
  type CheckedAnswers,
  checkAnswers,
} from "./answers";
export { type ApplicationCreateSteps, createApplicationInSteps } from "./application-create-steps";
export { type AuditInput, type AuditListOptions, AuditLog, auditEntry, recordAudit } from "./audit-log";
export { readKey } from "./auth";
export {
  CANDIDATE_EXPORT_FORMAT,
  CANDIDATE_EXPORT_VERSION,
  type CandidateExport,
  type ExportedActor,
  type ExportedApplication,
  type ExportedNote,
  type ExportedStageChange,
} from "./candidate-export";
export { createPublicApi, type PublicApi } from "./create-public-api";
export { hs256Key } from "./crypto";
export { CursorCodec, cursorScope } from "./cursor";
export * from "./domain";
export {
  ERASED_CANDIDATE,
  emptyErasureResult,
  erasedApplication,
  REDACTED_RESPONSE_BODY,
  redactApplications,
} from "./erasure";
export * from "./errors";
export {
  EVENT_DESCRIPTIONS,
  type EventCatalogEntry,
  eventCatalog,
  eventEnvelopeSchemaOf,
} from "./event-catalog";
export { API_VERSION, eventPayload, eventSubject, newEvent } from "./events";
export { clientIp, createFetchHandler, isEmptyBody, toWebResponse } from "./fetch-bridge";
export {
  APPLICATION_FIELDS,
  type ApplicationFieldColumns,
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
  type FieldKind,
  type FieldPlacement,
  type FieldSpec,
  field,
  type InputValueOf,
  type KindOutputOf,
  type PublicOf,
  type RecordOf,
  type RecordValueOf,
  type RowOf,
  type WireValueOf,
} from "./fields/field";
export { publicJobFields } from "./fields/generated/job-wire";
export { JOB_FIELDS, type JobFieldColumns, type JobFieldSet, jobFieldDefaults } from "./fields/job";
export type { PublicJobFieldsJson } from "./fields/public-job";
export { frameOptionsHeader } from "./frame-options";
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
} from "./health";
export type { ApplicationCreateOptions, HostApplications, HostJobs, HostPublicJobs } from "./host-api";
export type * from "./http-types";
export { idFloor, newId } from "./ids";
export { admitInSteps, isKeyUsable } from "./key-admission";
export { buildOpenApiDocument, type OpenApiDocumentOptions } from "./openapi";
export * from "./options";
export { appendInSteps, deliveryId, fanOut, subscribesTo } from "./outbox";
export { PAGE_SIZE, type Page, type PageRequest, pageRequest, toPage } from "./paging";
export { isPublicJob, type PublicJobFields, publicJobUrl } from "./public-jobs";
export { readBytes } from "./read-bytes";
export type { ReadOptions } from "./read-options";
export { getHeader, mediaTypeOf, toSearchParams } from "./request-parts";
export { type SpanNotes, traceRequest } from "./request-telemetry";
export { type OperationId, ROUTES, type RouteSpec } from "./routes";
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
export { expandScopes, hasScope } from "./scopes";
export { skillsMatchScore } from "./scoring";
export type { ApplicationWire, JobWire } from "./serialize";
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
export type { ResolvedRetention, RetentionCounts, RetentionOptions } from "./services/retention";
export type * from "./storage";
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
} from "./telemetry";
export type { ThrottleLimits, ThrottleResult } from "./throttle";
export type {
  UsageDailyOptions,
  UsageDay,
  UsageFilters,
  UsageListOptions,
  UsagePage,
} from "./usage-log";
