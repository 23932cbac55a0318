/**
 * What each page of the careers site is given, and the functions that draw them. The host may
 * replace any of them (`render` option): a function returns a preact element (escaped by
 * construction) or an HTML string the host escaped itself.
 */
import type { CompanyRecord, Question } from "@hireport/core";
import type { JobView } from "../job-view";
import type { ResolvedTheme } from "../options";
import type { Rendered } from "../responses";
import type { StandardFieldName } from "./apply-fields";

/** What every page knows of the site it belongs to. */
export interface SiteContext {
  company: CompanyRecord;
  theme: ResolvedTheme;
  /** The site's styles: put them in one `<style>` element, unchanged (the CSP allows this exact text). */
  styles: string;
  /** The root of the company's site, absolute (`public_url`s start with it). */
  siteUrl: string;
  /** Links within the site. */
  links: { jobs: string; jobsJson: string; rss: string; indeed: string; sitemap: string };
}

/**
 * What a candidate typed in the apply form (the file aside): the text of each standard field, by its
 * wire name (a list, such as the skills, comma-separated), and whether the consent box is ticked.
 * The standard fields are the candidate's and the Application's fields core declares with a `form`.
 */
export type ApplyValues = { [Name in StandardFieldName]: string } & { consent: boolean };

/** The names of the apply form's fields. */
export type ApplyField = keyof ApplyValues | "resume";

export interface ApplyFormProps {
  /** Where the form posts (the job's apply path). */
  action: string;
  /** The form's signed token: a hidden field named `form_token`. */
  formToken: string;
  values: ApplyValues;
  /** A message per field to fix, shown next to it. */
  errors: Partial<Record<ApplyField, string>>;
  /** Problems that belong to no one field (the form expired, too quick), shown above the form. */
  notices: string[];
  privacyNoticeUrl: string;
  maxFileBytes: number;
  /** The job's questions, asked after the candidate's own fields (the form's names are `q_{id}`). @default none */
  questions?: readonly Question[];
  /** What the candidate answered, by question id (a list: the boxes ticked of a multiple choice). @default none */
  answers?: Readonly<Record<string, readonly string[]>>;
  /** A message per question to fix, by question id, shown next to it. @default none */
  questionErrors?: Readonly<Record<string, string>>;
  /** The consent sentence (`consentText`) before the link to the privacy notice; null or left out for the site's own sentence. */
  consentText?: string | null;
  /** How long the application is kept (`retentionText`), shown by the consent checkbox. @default none shown */
  retentionText?: string;
  /** The job's pay in words, or null when no figure is set. @default none shown */
  salaryText?: string | null;
}

export interface JobListProps {
  site: SiteContext;
  jobs: JobView[];
  /** The next page of jobs, or null on the last. */
  nextHref: string | null;
  /** The first page, when this is a later one. */
  firstHref: string | null;
}

export interface JobPageProps {
  site: SiteContext;
  job: JobView;
  /** The JobPosting JSON-LD, ready for `<script type="application/ld+json" dangerouslySetInnerHTML>`. */
  structuredData: string;
  form: ApplyFormProps;
}

export interface AppliedProps {
  site: SiteContext;
  job: JobView;
  /** The candidate's link to ask for a person to review the application. */
  humanReviewHref: string;
}

export interface GoneProps {
  site: SiteContext;
  job: JobView;
}

export interface ReviewProps {
  site: SiteContext;
  /** `confirm`: the page with the button; `done`: the request is recorded; `invalid`: the link is not valid. */
  state: "confirm" | "done" | "invalid";
  /** Where the button posts. */
  action: string;
}

export interface MessageProps {
  /** Null when no company's site answered (an unknown company). */
  site: SiteContext | null;
  /** The site's theme, or the default one without a site. */
  theme: ResolvedTheme;
  /** The styles for the one `<style>` element. */
  styles: string;
  status: number;
  title: string;
  message: string;
}

export interface CareersRenderers {
  /** `/jobs`: the list of public jobs. */
  jobList(props: JobListProps): Rendered;
  /** `/jobs/{id}`: a public job with its structured data and the apply form (also after a refused form, 422). */
  jobPage(props: JobPageProps): Rendered;
  /** After an application was received (the same for a duplicate). */
  applied(props: AppliedProps): Rendered;
  /** 410: a job that was public and is no longer. */
  gone(props: GoneProps): Rendered;
  /** The human-review link's pages. */
  review(props: ReviewProps): Rendered;
  /** 404, 429, 500 and other short messages. */
  message(props: MessageProps): Rendered;
}
