/**
 * `@hireport/careers`: the public side of hireport, ready to mount in the host's app: job pages with
 * JobPosting structured data, `/jobs.json`, the Indeed XML and RSS feeds, a sitemap, and an apply
 * form with a CV upload that goes through core's one write path.
 */
export { CAREERS_SOURCE } from "./apply/handle-apply";
export { createCareers, type HireportCareers } from "./create-careers";
export type { EmploymentType, JobView } from "./job-view";
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
export type { PublicJobJson } from "./public-json";
export type { Rendered } from "./responses";
