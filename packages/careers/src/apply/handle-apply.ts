/**
 * `POST /jobs/{id}/apply`: the per-address limit, the body, the spam checks (honeypot, signed form
 * token with a minimum fill time, `verifyHuman`), the fields (the consent and the CV here, the
 * standard fields core declares by core's own schema), then core's one write path
 * (`api.applications.create` with the CV, source `careers_site`, only while the job is public). A refused form comes back with
 * everything typed kept (except the file); a duplicate gets the same confirmation as a new
 * application, so the answer never tells whether an address applied before.
 */
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import {
  type ApiRequest,
  type ApiResponse,
  type ApplicationCreateInput,
  type ApplicationRecord,
  isHireportError,
} from "@hireport/core";
import { mediaTypeOf } from "@hireport/core/http";
import { applicationCreateBodySchema } from "@hireport/core/schemas";
import { newId } from "@hireport/core/storage";
import type { JobView } from "../job-view";
import type { ResolvedCareersOptions } from "../options";
import { APPLICATION_FORM_FIELDS, CANDIDATE_FORM_FIELDS, STANDARD_FIELDS, sentValue } from "../pages/apply-fields";
import type { ApplyField, ApplyFormProps, ApplyValues } from "../pages/renderers";
import { json, jsonError } from "../responses";
import type { CareersTokens } from "../tokens";
import { type CvType, cvFilename, cvTypeOf } from "./cv-type";
import { answerFieldCount, readFormAnswers, typedAnswers } from "./read-answers";
import {
  discardBody,
  discardSubmission,
  FORM_FIELDS,
  readSubmission,
  type Submission,
  UnreadableBody,
} from "./read-submission";

/** The source of every application of the careers site. */
export const CAREERS_SOURCE = "careers_site";
/** Who adds a candidate from the site, in the application's history. */
export const CAREERS_ACTOR = { type: "host", id: null, name: "Careers site" } as const;

/** What the apply step needs from the request's site. */
export interface ApplyContext {
  options: ResolvedCareersOptions;
  tokens: CareersTokens;
  request: ApiRequest;
  companyId: string;
  job: JobView;
  /** The root of the company's site, absolute (human-review links live under it). */
  siteUrl: string;
  privacyNoticeUrl: string;
  /** The consent sentence before the privacy notice's link, or null for the site's own. */
  consentText: string | null;
  /** How long the application is kept, in the candidate's words. */
  retentionText: string;
  /** Answers with the job page and its form (422), the confirmation, or a message. */
  answer: {
    form(status: number, form: ApplyFormProps): Promise<ApiResponse>;
    applied(humanReviewToken: string): ApiResponse;
    gone(): ApiResponse;
    message(status: number, title: string, message: string, headers?: Record<string, string>): ApiResponse;
  };
  /** The human-review token of an application (a decoy for a duplicate). */
  reviewToken(applicationId: string): Promise<string>;
  /** Told the id of a new application (never of a duplicate), for the request's span. */
  created?(applicationId: string): void;
}

/** A standard field by core's path of it in `error.fields` (a list item's index points at its list). */
function fieldOf(path: string): ApplyField | null {
  const field = STANDARD_FIELDS.find((item) => item.path === path || (item.list && path.startsWith(`${item.path}.`)));
  return field ? field.name : null;
}

function valuesOf(fields: Record<string, string>): ApplyValues {
  const values: Record<string, string | boolean> = {};
  for (const { name } of STANDARD_FIELDS) values[name] = (fields[name] ?? "").slice(0, 25_000);
  values.consent = ["yes", "on", "true", "1"].includes((fields.consent ?? "").toLowerCase());
  return values as ApplyValues;
}

/** The candidate's input to core, from what the form sent: each standard field's value by its wire name. */
function inputOf(
  jobId: string,
  values: ApplyValues,
  answers: ApplicationCreateInput["answers"],
): ApplicationCreateInput {
  const candidate: Record<string, string | string[]> = {};
  for (const field of CANDIDATE_FORM_FIELDS) candidate[field.name] = sentValue(field, values[field.name]);
  const application: Record<string, string | string[]> = {};
  for (const field of APPLICATION_FORM_FIELDS) application[field.name] = sentValue(field, values[field.name]);
  return {
    job_id: jobId,
    candidate: candidate as ApplicationCreateInput["candidate"],
    ...application,
    source: CAREERS_SOURCE,
    consent: true,
    answers,
  };
}

/** What the candidate reads next to a field whose bytes were not UTF-8. */
const NOT_UTF8 =
  "This text was not sent as valid UTF-8 (some characters could not be read). Check it, type them again, and send the form again.";

/** The form's own fields, by name: the standard ones, the CV and the consent. */
const FORM_FIELD_NAMES: ReadonlySet<string> = new Set([
  ...STANDARD_FIELDS.map((field) => field.name),
  "resume",
  "consent",
]);

function isApplyField(name: string): name is ApplyField {
  return FORM_FIELD_NAMES.has(name);
}

function tooLargeFile(maxFileBytes: number): string {
  return `The file is larger than ${megabytes(maxFileBytes)}. Send a smaller one.`;
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
}

/**
 * The largest form body: the CV and 1 MiB for the text fields and the form's own framing. More is
 * refused with 413 as soon as it passes (a CV over its own limit is refused before, with 422).
 */
export function formBodyLimit(maxFileBytes: number): number {
  return maxFileBytes + 1024 * 1024;
}

/** The answer to a body the site cannot read, by its reason (the API's error codes). */
const UNREADABLE: Record<
  UnreadableBody["reason"],
  { status: number; code: "bad_request" | "payload_too_large"; message: (maxFileBytes: number) => string }
> = {
  type: {
    status: 400,
    code: "bad_request",
    message: () => "Send the application as a form (multipart/form-data) or as JSON.",
  },
  unreadable: {
    status: 400,
    code: "bad_request",
    message: () => "The application could not be read. Please send the form again.",
  },
  not_utf8: { status: 400, code: "bad_request", message: () => "The request body is not valid UTF-8." },
  too_large: {
    status: 413,
    code: "payload_too_large",
    message: (maxFileBytes) => `The application is too large: the CV may be at most ${megabytes(maxFileBytes)}.`,
  },
};

/** The refusal of one application: what the candidate sees next to the fields, or above the form. */
interface Refusal {
  errors: Partial<Record<ApplyField, string>>;
  /** By question id. @default none */
  questionErrors?: Record<string, string>;
  notices: string[];
  /** Whether the form needs a fresh token (the old one was not valid). */
  freshToken: boolean;
}

export async function handleApply(ctx: ApplyContext): Promise<ApiResponse> {
  const { options, request } = ctx;
  const asJson = mediaTypeOf(request.headers) === "application/json" || typeof request.body === "object";
  const limit = await options.api.throttle(`careers:apply:${request.ip ?? "unknown"}`, {
    perMinute: options.limits.perMinute,
    perDay: options.limits.perDay,
  });
  if (!limit.allowed) {
    await discardBody(request);
    const headers = { "retry-after": String(limit.retryAfterSeconds) };
    const message =
      limit.refusedBy === "day"
        ? "Too many applications were sent from your address today. Please try again tomorrow."
        : `Too many applications were sent from your address in the last minute. Please wait ${limit.retryAfterSeconds} seconds and send the form again.`;
    return asJson
      ? jsonError(429, "rate_limited", message, { headers })
      : ctx.answer.message(429, "Please wait a moment", message, headers);
  }

  let submission: Submission | null = null;
  try {
    try {
      submission = await readSubmission(request, {
        maxFileBytes: options.limits.maxFileBytes,
        maxBodyBytes: formBodyLimit(options.limits.maxFileBytes),
        directory: options.uploadDirectory,
        maxFields: FORM_FIELDS + answerFieldCount(ctx.job.record.questions),
      });
    } catch (error) {
      if (!(error instanceof UnreadableBody)) throw error;
      const refusal = UNREADABLE[error.reason];
      const message = refusal.message(options.limits.maxFileBytes);
      return asJson
        ? jsonError(refusal.status, refusal.code, message)
        : ctx.answer.message(refusal.status, "That did not work", message);
    }
    return await applyWith(ctx, submission, asJson);
  } finally {
    await discardSubmission(submission);
  }
}

async function applyWith(ctx: ApplyContext, submission: Submission, asJson: boolean): Promise<ApiResponse> {
  const { options, tokens, job } = ctx;
  const values = valuesOf(submission.fields);
  const { questions } = job.record;
  const typed = typedAnswers(questions, submission.lists);
  const now = options.clock.now();
  const submittedToken = submission.fields.form_token ?? "";
  const refuse = async (refusal: Refusal): Promise<ApiResponse> => {
    const questionErrors = refusal.questionErrors ?? {};
    if (asJson) {
      const fields = [
        ...Object.entries(refusal.errors).map(([field, message]) => ({ field, message })),
        ...Object.entries(questionErrors).map(([id, message]) => ({ field: `q_${id}`, message })),
      ];
      const message = [...refusal.notices, ...fields.map((field) => `${field.field}: ${field.message}`)].join(" ");
      return jsonError(422, "invalid", message || "The application is not valid.", { fields });
    }
    const formToken = refusal.freshToken ? await tokens.formToken(ctx.companyId, job.id, now) : submittedToken;
    return ctx.answer.form(422, {
      action: job.applyHref,
      formToken,
      values,
      errors: refusal.errors,
      notices: refusal.notices,
      privacyNoticeUrl: ctx.privacyNoticeUrl,
      maxFileBytes: options.limits.maxFileBytes,
      questions,
      answers: typed,
      questionErrors,
      consentText: ctx.consentText,
      retentionText: ctx.retentionText,
      salaryText: job.salaryText,
    });
  };

  if (submission.overLimit) {
    return refuse({ errors: {}, notices: ["The form had more or longer fields than it can take."], freshToken: false });
  }
  // Refused as soon as the CV passed its limit: what came after it in the form was never read.
  if (submission.file?.truncated) {
    return refuse({ errors: { resume: tooLargeFile(options.limits.maxFileBytes) }, notices: [], freshToken: false });
  }
  if (submission.invalidText.length > 0) {
    const errors: Partial<Record<ApplyField, string>> = {};
    const questionErrors: Record<string, string> = {};
    const notices: string[] = [];
    for (const name of submission.invalidText) {
      const question = questions.find((item) => `q_${item.id}` === name);
      if (isApplyField(name)) errors[name] = NOT_UTF8;
      else if (question) questionErrors[question.id] = NOT_UTF8;
      else notices.push(`The field “${name}” was not sent as valid UTF-8. Send the form again.`);
    }
    return refuse({ errors, questionErrors, notices, freshToken: false });
  }
  // The honeypot: a field people never see or fill.
  if ((submission.fields.website ?? "") !== "") {
    return refuse({
      errors: {},
      notices: ["The form could not be sent: leave the field named “Leave this field empty” empty."],
      freshToken: false,
    });
  }
  const claims = submittedToken ? await tokens.readForm(submittedToken) : null;
  if (!claims || claims.jobId !== job.id || claims.companyId !== ctx.companyId) {
    return refuse({
      errors: {},
      notices: ["This form did not come from this job's page. Check your answers and send it again."],
      freshToken: true,
    });
  }
  const age = now.getTime() - claims.issuedAt.getTime();
  if (age > options.limits.formTtlSeconds * 1000) {
    return refuse({
      errors: {},
      notices: ["The form has expired. Check your answers and send it again."],
      freshToken: true,
    });
  }
  if (age < options.limits.minFillSeconds * 1000) {
    return refuse({
      errors: {},
      notices: ["That was quicker than a person can fill in the form. Check your answers and send it again."],
      freshToken: true,
    });
  }
  if (
    options.verifyHuman &&
    !(await options.verifyHuman({
      request: ctx.request,
      companyId: ctx.companyId,
      fields: Object.freeze({ ...submission.fields }),
      ip: ctx.request.ip,
    }))
  ) {
    return refuse({
      errors: {},
      notices: ["We could not tell that a person sent this form. Please complete the check and send it again."],
      freshToken: false,
    });
  }

  const errors: Partial<Record<ApplyField, string>> = {};
  if (!values.consent) errors.consent = "Tick the box to agree, or we cannot consider your application.";
  let cvType: CvType | null = null;
  const file = submission.file;
  if (!file || (file.size === 0 && file.filename === "")) errors.resume = "Choose the file of your CV.";
  else {
    const sniffed = await cvTypeOf(file.path);
    cvType = sniffed.type;
    if (!cvType) {
      errors.resume = `This file is not a PDF, Word (DOC or DOCX), OpenDocument, RTF or plain-text document${
        sniffed.detected ? ` (it is ${sniffed.detected.toUpperCase()})` : ""
      }. Save your CV as one of those and send it again.`;
    }
  }
  const formAnswers = readFormAnswers(questions, typed);
  const input = inputOf(job.id, values, formAnswers.answers);
  const checked = applicationCreateBodySchema.safeParse(input);
  const questionOf = (path: string) => {
    const index = /^answers\.(\d+)(?:\.|$)/.exec(path)?.[1];
    return index === undefined ? undefined : formAnswers.answers[Number(index)]?.question_id;
  };
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const path = issue.path.join(".");
      const field = fieldOf(path);
      const question = questionOf(path);
      if (field && !errors[field]) errors[field] = issue.message;
      else if (question) formAnswers.errors[question] ??= issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || Object.keys(formAnswers.errors).length > 0) {
    return refuse({ errors, questionErrors: formAnswers.errors, notices: [], freshToken: false });
  }
  if (!file || !cvType) throw new Error("unreachable: a CV passed its checks without a type");

  let token: string;
  try {
    const application = await options.api.applications.create(ctx.companyId, input, {
      actor: CAREERS_ACTOR,
      publicJobOnly: true,
      resume: {
        filename: cvFilename(file.filename, cvType),
        contentType: cvType.contentType,
        body: Readable.toWeb(createReadStream(file.path)) as ReadableStream<Uint8Array>,
      },
    });
    ctx.created?.(application.id);
    token = await ctx.reviewToken(application.id);
    await notify(ctx, application, `${ctx.siteUrl}/review/${token}`);
  } catch (error) {
    if (isHireportError(error) && error.code === "duplicate") {
      // The same answer as for a new application, with a link of the same shape that names none.
      token = await ctx.reviewToken(newId("app", now));
    } else if (isHireportError(error) && error.code === "invalid" && error.fields?.some((f) => f.field === "job_id")) {
      return asJson ? jsonError(410, "gone", "This job is no longer open for applications.") : ctx.answer.gone();
    } else if (isHireportError(error) && error.code === "invalid") {
      const fieldErrors: Partial<Record<ApplyField, string>> = {};
      const questionErrors: Record<string, string> = {};
      for (const field of error.fields ?? []) {
        const name = fieldOf(field.field);
        const question = questionOf(field.field);
        if (name) fieldErrors[name] = field.message;
        else if (question) questionErrors[question] = field.message;
      }
      const shown = Object.keys(fieldErrors).length + Object.keys(questionErrors).length;
      // The job's questions changed while the form was open: the form shows them as they are now.
      const notices = shown > 0 ? [] : [error.message];
      return refuse({ errors: fieldErrors, questionErrors, notices, freshToken: false });
    } else throw error;
  }
  if (asJson) {
    const data = { status: "received", job_id: job.id, human_review_url: `${ctx.siteUrl}/review/${token}` };
    return json(201, { data }, { "cache-control": "no-store" });
  }
  return ctx.answer.applied(token);
}

/** Tells the host of a new application (`onApplication`); a failure there is logged, never shown. */
async function notify(ctx: ApplyContext, application: ApplicationRecord, humanReviewUrl: string): Promise<void> {
  const { onApplication } = ctx.options;
  if (!onApplication) return;
  try {
    await onApplication({ companyId: ctx.companyId, job: ctx.job.record, application, humanReviewUrl });
  } catch (error) {
    ctx.options.logger.error("hireport careers: onApplication failed", {
      applicationId: application.id,
      error: String(error),
    });
  }
}
