/**
 * `@hireport/core/schemas`: the zod schemas of the API's request bodies, queries and answers, and
 * the words they allow (stages, scopes, event types, statuses, countries), for a host that
 * validates or documents the same shapes.
 */

export { expandScopes, hasScope } from "../access/scopes";
export { ERROR_STATUS } from "../base/errors";
export { eventEnvelopeSchemaOf } from "../docs/event-catalog";
export {
  type AnswerInput,
  type AnswerProblem,
  type AnswerValue,
  answerInputSchema,
  answerListSchema,
  answerSchema,
  answersError,
  type CheckedAnswers,
  checkAnswers,
} from "../fields/answers";
export { APPLICATION_STAGES } from "../fields/application-stages";
export { COUNTRY_CODES, type CountryCode, isCountryCode } from "../fields/country-codes";
export {
  CHOICE_TYPES,
  isChoiceType,
  QUESTION_TYPES,
  type QuestionChoice,
  type QuestionInput,
  type QuestionType,
  questionChoiceSchema,
  questionListSchema,
  questionSchema,
} from "../fields/questions";
export {
  isCurrencyCode,
  isStorableText,
  SALARY_PERIODS,
  type SalaryPeriod,
  UNSTORABLE_TEXT_MESSAGE,
  WORKPLACE_TYPES,
  type WorkplaceType,
} from "../fields/value-schemas";
export {
  type AnyEventType,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  EVENT_TYPES,
  JOB_INPUT_STATUSES,
  JOB_LIST_FILTERS,
  JOB_STATUSES,
  type JobInputStatus,
  type JobListFilter,
  SCOPES,
  WEBHOOK_ENDPOINT_STATUSES,
  type WebhookEndpointStatus,
} from "../model/domain";
export { PAGE_SIZE } from "../model/paging";
export {
  type ApplicationCreateBody,
  type ApplicationPatchBody,
  applicationCreateBodySchema,
  applicationPatchBodySchema,
  applicationSchema,
  candidateInputSchema,
  candidateSchema,
  scoresSchema,
  stageSchema,
} from "../schemas/application";
export {
  applicationPageSchema,
  applicationResponseSchema,
  codesForStatus,
  ERROR_CODES,
  errorBodySchema,
  errorObjectSchema,
  eventEnvelopeSchema,
  fieldErrorSchema,
  idempotencyKeySchema,
  idParamSchema,
  jobPageSchema,
  jobResponseSchema,
  meSchema,
  missingScopeErrorBodySchema,
  pageSchema,
  singleSchema,
  testEventEnvelopeSchema,
  validationErrorBodySchema,
} from "../schemas/common";
export {
  type JobCreateBody,
  type JobPatchBody,
  jobCreateBodySchema,
  jobPatchBodySchema,
  jobSchema,
  salarySchema,
} from "../schemas/job";
export {
  type ApplicationListParams,
  applicationListQuerySchema,
  cursorParam,
  eventListQuerySchema,
  type JobListParams,
  jobListQuerySchema,
  limitParam,
  parseApplicationListQuery,
  parseJobListQuery,
  updatedSinceToDate,
} from "../schemas/query";
export { parseQuery } from "../schemas/validation";
