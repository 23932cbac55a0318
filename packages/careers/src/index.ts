/**
 * `@hireport/careers`: the public side of hireport, ready to mount in the host's app: job pages with
 * JobPosting structured data, `/jobs.json`, the Indeed XML and RSS feeds, a sitemap, and an apply
 * form with a CV upload that goes through core's one write path.
 */
export { CAREERS_SOURCE } from "./apply/handle-apply";
export { createCareers, type HireportCareers } from "./create-careers";
export type { GoogleServiceAccount } from "./indexing/google-token";
export {
  createJobIndexing,
  type IndexingRunResult,
  type IndexingServiceRun,
  type JobIndexing,
} from "./indexing/job-indexing";
export {
  DEFAULT_GOOGLE_PUBLISH_URL,
  DEFAULT_INDEXNOW_ENDPOINT,
  type GoogleIndexingOptions,
  type IndexingRetryOptions,
  type IndexNowOptions,
  type JobIndexingOptions,
} from "./indexing/options";
export {
  type EmploymentType,
  employmentTypeOf,
  type JobView,
  jobView,
  type PublicJobAddresses,
  parseLocation,
} from "./job-view";
export type {
  ApplicationNotice,
  CareersCspSources,
  CareersLimits,
  CareersOptions,
  CareersTheme,
  CompanyMatch,
  ResolvedTheme,
  VerifyHumanInput,
} from "./options";
export { resolveTheme } from "./options";
export { DEFAULT_RENDERERS as defaultRenderers } from "./pages/defaults";
export type {
  AppliedProps,
  ApplyField,
  ApplyFormProps,
  ApplyValues,
  CareersRenderers,
  GoneProps,
  JobListProps,
  JobPageProps,
  MessageProps,
  ReviewProps,
  SiteContext,
} from "./pages/renderers";
export { careersStyles } from "./pages/styles";
export { type PublicJobJson, publicJobJson } from "./public-json";
export type { Rendered } from "./responses";
export { type JsonLd, jobPosting, scriptJson } from "./structured-data";
