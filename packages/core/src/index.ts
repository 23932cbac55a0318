/**
 * `@hireport/core`: what a host calls. `createPublicApi`, its options, errors and the records its
 * methods take and return. Storage authors import from `@hireport/core/storage`, framework adapters
 * from `@hireport/core/http`, the zod schemas are in `@hireport/core/schemas`, and what the other
 * hireport packages build on in `@hireport/core/extend` (the package README lists each entry).
 */

export type { ChangeOptions } from "./access/actor";
export { isKeyUsable } from "./access/key-admission";
export type { UsageLogMode } from "./access/usage-log";
export type { CandidateExport } from "./applications/candidate-export";
export { type Clock, systemClock } from "./base/clock";
export { type ErrorCode, type FieldError, HireportError, isHireportError } from "./base/errors";
export type { ApiRequest, ApiResponse, HireportHandler } from "./base/http-types";
export type { Logger } from "./base/logger";
export { getHeader } from "./base/request-parts";
export type { Telemetry } from "./base/telemetry";
export type { AnswerRecord } from "./fields/answers";
export type { ApplicationStage } from "./fields/application-stages";
export type { Question } from "./fields/questions";
export type { HealthOptions, HealthReport } from "./http/health";
export type {
  Actor,
  ApiKeyRecord,
  ApplicationRecord,
  AuditRecord,
  CandidateRecord,
  CompanyRecord,
  EventType,
  JobRecord,
  JobStatus,
  NoteRecord,
  Scope,
  StageChangeRecord,
} from "./model/domain";
export type { Page } from "./model/paging";
export type { ResumeSource, ScoringFunction } from "./runtime/host-functions";
export type { ReadOptions } from "./runtime/read-options";
export type { ApplicationCreateInput, ApplicationPatchInput, ApplicationWire } from "./schemas/application";
export type { JobCreateInput, JobPatchInput, JobWire } from "./schemas/job";
export type { ApplicationListOptions } from "./services/applications";
export type { HostCandidates } from "./services/candidates";
export type { JobListOptions } from "./services/jobs";
export type { CreatedKey, CreateKeyInput } from "./services/keys";
export type { RetentionOptions } from "./services/retention";
export { createPublicApi, type PublicApi } from "./setup/create-public-api";
export type { ApplicationCreateOptions, HostApplications, HostJobs, HostPublicJobs } from "./setup/host-api";
export type { CreatePublicApiOptions, LimitsOptions } from "./setup/options";
export type { Storage } from "./storage";
export type { CandidateErasureResult } from "./storage/candidates";
export type { FileStore } from "./storage/files";
