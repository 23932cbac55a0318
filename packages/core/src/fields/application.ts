/**
 * Every stored field of an Application but its ids, declared once: how the domain record, the
 * database row (in column order) and the returned Application name it, its kind, its check where
 * a request body takes it as stored, and whether it is the candidate's personal data. The returned
 * Application's schema, the `ApplicationFields` record type, the storage's `ApplicationPatch`, the
 * application row type and columns of `@hireport/kysely`, the straight-line mapping code of the
 * serializer and of the Kysely store and what erasure clears all come from it. To add a field, add
 * it here (at the end), add its column in a migration of `@hireport/kysely`, then run the generate
 * script: see CONTRIBUTING.md.
 *
 * Not declared here, and written by hand where they are used: `id`, `companyId`, `jobId` and
 * `reference` (before these columns), the joined `jobTitle`, the `candidate` object (declared in
 * `CANDIDATE_FIELDS`), and the returned keys that are not stored as such: `resume_url` (a
 * short-lived link to the CV), `human_review_requested` (whether its time is set) and the `scores`
 * object around `ai_match` and `overall`.
 *
 * `placement` says where a field is returned: `main` for the fields `applicationSchema` (or
 * `scoresSchema`) places one by one, in the order of v1; `tail` (the default) after them, where new
 * fields go; `none` for a field that is kept but not returned. `patch` is true for the fields the
 * storage's `applications.update` writes (`ApplicationPatch`): PATCH /applications/{id} takes the
 * stage, the tags and the star, the host the overall score, the careers site the review request.
 * `public` is the Job's and means nothing here.
 */
import * as z from "zod";
import { answerListSchema, answerSchema } from "../applications/answers";
import { type AnswerRecord, APPLICATION_STAGES, type ApplicationStage } from "../model/domain";
import { LIMITS, longText, requiredText, stringList, utcDateTime } from "../schemas/fields";
import { field, type PatchableOf, type RecordOf, type RowOf } from "./field";

/** The 14 stages (docs/api-reference.md, Application stages); every move between them is allowed. */
const stage = z.enum(APPLICATION_STAGES).meta({
  description: "Application stage. Every move between the 14 stages is allowed and recorded in the history.",
});

/** The Application fields, by record name, in the order of the application table's columns. */
export const APPLICATION_FIELDS = {
  // Trimmed and lower-cased e-mail of the candidate: the key of the duplicate rule.
  emailNormalized: field({ kind: "text", wire: "email_normalized", placement: "none", personal: true }),
  coverLetter: field({
    kind: "text",
    wire: "cover_letter",
    input: longText(LIMITS.coverLetter),
    patch: false,
    personal: true,
    placement: "main",
  }),
  // The https address of the CV as the client sent it (never returned: `resume_url` is a link of the service).
  resumeSourceUrl: field({
    kind: "text",
    wire: "resume_source_url",
    nullable: true,
    placement: "none",
    personal: true,
  }),
  // The CV stored in the host's `FileStore` (an upload through the careers site); it wins over the address.
  resumeFileId: field({ kind: "text", wire: "resume_file_id", nullable: true, placement: "none", personal: true }),
  source: field({ kind: "text", wire: "source", input: requiredText(LIMITS.source), patch: false, placement: "main" }),
  // What the candidate answered to the consent question (null: nothing was asked), and when.
  consent: field({
    kind: "boolean",
    wire: "consent",
    nullable: true,
    input: z.boolean(),
    patch: false,
    placement: "none",
  }),
  consentAt: field({ kind: "timestamp", wire: "consent_at", nullable: true, placement: "none" }),
  stage: field({ kind: "enum", wire: "stage", input: stage, output: stage, placement: "main" }),
  // 0 to 100, from the `scoring` option at creation; returned as `scores.ai_match`.
  aiMatch: field({
    kind: "number",
    wire: "ai_match",
    output: z.number().min(0).max(100).meta({
      description:
        "0 to 100: how well the candidate's skills match the job. Advice for a person to read, never a decision: hiring decisions must involve a person, and applicants can ask for a person to review their application.",
    }),
    placement: "main",
  }),
  // Set by the host, null until then; returned as `scores.overall`.
  overallScore: field({
    kind: "number",
    wire: "overall",
    column: "overall_score",
    nullable: true,
    output: z.number().nullable().meta({ description: "Set by the company's team; null until then." }),
    patch: true,
    placement: "main",
  }),
  tags: field({ kind: "list", wire: "tags", input: stringList(), placement: "main" }),
  starred: field({ kind: "boolean", wire: "starred", input: z.boolean(), placement: "main" }),
  // When the candidate asked for a person to review the application; returned as `human_review_requested`.
  humanReviewRequestedAt: field({
    kind: "timestamp",
    wire: "human_review_requested_at",
    nullable: true,
    patch: true,
    placement: "none",
  }),
  appliedAt: field({ kind: "timestamp", wire: "applied_at", required: true, placement: "main" }),
  updatedAt: field({ kind: "timestamp", wire: "updated_at", required: true, placement: "main" }),
  // When the candidate's personal data was erased (`api.candidates.erase`, or retention), or null.
  erasedAt: field({
    kind: "timestamp",
    wire: "erased_at",
    nullable: true,
    output: utcDateTime().nullable().meta({
      description:
        "When the candidate's personal data was erased at the company's request, or null. An erased application stays as an anonymous record: its stage, history, source, scores, tags and dates are kept; every candidate field and cover_letter are empty strings, skills is empty and resume_url is null. Additive to the v1 fields.",
    }),
    placement: "main",
  }),
  // The answers to the job's questions, checked into `AnswerRecord`s, in the questions' order.
  answers: field({
    kind: "json",
    wire: "answers",
    input: answerListSchema,
    output: z.array(answerSchema).meta({
      description:
        "The candidate's answers to the job's questions, in the questions' order (optional questions left blank are not listed). Empty once the candidate's data is erased. Additive to the v1 fields.",
    }),
    default: [],
    patch: false,
    personal: true,
    placement: "main",
  }),
  // Whether an answer picked a choice marked `knockout`; the application is stored all the same.
  knockedOut: field({
    kind: "boolean",
    wire: "knocked_out",
    output: z.boolean().meta({
      description:
        "True when an answer picked a choice marked knockout. The application is stored and handled like any other; the candidate is not told. Additive to the v1 fields.",
    }),
    placement: "main",
  }),
} as const;

/** The Application fields' declarations (see {@link APPLICATION_FIELDS}). */
export type ApplicationFieldSet = typeof APPLICATION_FIELDS;

/**
 * The record values finer than their kind gives: the stage is one of the 14 (an `enum` is read
 * back as a string), the answers are stored checked, as `AnswerRecord`s, not as sent.
 */
interface ApplicationFieldTypes {
  stage: ApplicationStage;
  answers: AnswerRecord[];
}

/** The Application fields as the domain record holds them. */
export type ApplicationFields = Omit<RecordOf<ApplicationFieldSet>, keyof ApplicationFieldTypes> &
  ApplicationFieldTypes;

/** The Application fields an update may change (`patch: true`), each optional. */
export type ApplicationFieldPatch = Partial<Pick<ApplicationFields, PatchableOf<ApplicationFieldSet>>>;

/** The columns of the Application fields in an application row, as the database drivers return them. */
export type ApplicationFieldColumns = RowOf<ApplicationFieldSet>;
