/**
 * Every stored field of an Application but its ids, declared once: how the domain record, the
 * database row (in column order) and the returned Application name it, its kind, its check where
 * a request body takes it as stored, which bodies take it, its example, whether it is the
 * candidate's personal data, and how the careers site's apply form asks for it. The returned
 * Application's schema, the bodies of POST and PATCH /applications, the `ApplicationFields` record
 * type, the record `create` builds, the storage's `ApplicationPatch`, the application row type and
 * columns of `@hireport/kysely`, the straight-line mapping code of the serializer and of the Kysely
 * store, what erasure clears, the event catalog's example Application and the apply form's fields
 * all come from it. To add a field, add it here (at the end), add its column in a migration of
 * `@hireport/kysely`, then run the generate script: see CONTRIBUTING.md.
 *
 * Not declared here, and written by hand where they are used: `id`, `companyId`, `jobId` and
 * `reference` (before these columns), the joined `jobTitle`, the `candidate` object (declared in
 * `CANDIDATE_FIELDS`), the returned keys that are not stored as such (`resume_url`, a short-lived
 * link to the CV; `human_review_requested`, whether its time is set; the `scores` object around
 * `ai_match` and `overall`), and the bodies' members that are not fields (`job_id`, a PATCH's
 * `note`).
 *
 * `placement` says where a field is returned: `main` for the fields of v1 and the first additive
 * ones, in the order of `APPLICATION_WIRE_ORDER`; `scores` inside the `scores` object; `tail` (the
 * default) after them, where new fields go; `none` for a field that is kept but not returned.
 * `create` (default: true when the field has an input check) says whether POST /applications takes
 * it. `patch` is true for the fields the storage's `applications.update` writes
 * (`ApplicationPatch`): PATCH /applications/{id} takes those with an input check (the stage, the
 * tags and the star), the host sets the overall score, the careers site the review request.
 * `public` is the Job's and means nothing here.
 */
import * as z from "zod";
import { type AnswerRecord, answerListSchema, answerSchema } from "./answers";
import { APPLICATION_STAGES, type ApplicationStage } from "./application-stages";
import { field, type PatchableOf, type RecordOf, type RowOf } from "./field";
import { httpsUrl, longText, requiredText, stringList, utcDateTime } from "./value-schemas";

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
    input: longText(20_000),
    patch: false,
    personal: true,
    placement: "main",
    form: { label: "Cover letter", control: "textarea" },
  }),
  // The https address of the CV as POST /applications took it, as `resume_url` (never returned: the
  // returned `resume_url` is a link of the service).
  resumeSourceUrl: field({
    kind: "text",
    wire: "resume_url",
    column: "resume_source_url",
    nullable: true,
    input: httpsUrl(),
    bodyMeta: {
      description:
        "An https link to the CV that the company's team can open. It is never returned as sent: the application's resume_url is a short-lived link served by the service.",
    },
    patch: false,
    placement: "none",
    personal: true,
  }),
  // The CV stored in the host's `FileStore` (an upload through the careers site); it wins over the address.
  resumeFileId: field({ kind: "text", wire: "resume_file_id", nullable: true, placement: "none", personal: true }),
  // Left out of POST, the service picks `api` (a key) or `host`.
  source: field({
    kind: "text",
    wire: "source",
    input: requiredText(100),
    bodyMeta: { description: "Where the candidate came from, free text. Left out: api.", examples: ["careers-site"] },
    create: "optional",
    patch: false,
    placement: "main",
    example: "careers-site",
  }),
  // What the candidate answered to the consent question (null: nothing was asked), and when.
  consent: field({
    kind: "boolean",
    wire: "consent",
    nullable: true,
    input: z.boolean(),
    bodyMeta: { description: "True when the candidate agreed to their data being sent; stored with its time." },
    patch: false,
    placement: "none",
  }),
  consentAt: field({ kind: "timestamp", wire: "consent_at", nullable: true, placement: "none" }),
  // Every application starts in `new`; PATCH moves it (and records the move in the history).
  stage: field({ kind: "enum", wire: "stage", input: stage, output: stage, create: false, placement: "main" }),
  // 0 to 100, from the `scoring` option at creation; returned in `scores`.
  aiMatch: field({
    kind: "number",
    wire: "ai_match",
    output: z.number().min(0).max(100).meta({
      description:
        "0 to 100: how well the candidate's skills match the job. Advice for a person to read, never a decision: hiring decisions must involve a person, and applicants can ask for a person to review their application.",
    }),
    placement: "scores",
    example: 82,
  }),
  // Set by the host, null until then; returned in `scores`.
  overallScore: field({
    kind: "number",
    wire: "overall",
    column: "overall_score",
    nullable: true,
    output: z.number().nullable().meta({ description: "Set by the company's team; null until then." }),
    patch: true,
    placement: "scores",
  }),
  tags: field({
    kind: "list",
    wire: "tags",
    input: stringList(),
    bodyMeta: { description: "Replaces the tags." },
    create: false,
    placement: "main",
  }),
  starred: field({ kind: "boolean", wire: "starred", input: z.boolean(), create: false, placement: "main" }),
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

/**
 * The keys a returned Application starts with, in the order of v1 and of its first additive fields:
 * the wire names of the fields placed `main` and the keys the serializer computes. The fields placed
 * `tail` follow, in declaration order; a new field goes there, never here.
 */
export const APPLICATION_WIRE_ORDER = [
  "id",
  "reference",
  "job_id",
  "job_title",
  "candidate",
  "cover_letter",
  "resume_url",
  "stage",
  "source",
  "scores",
  "tags",
  "starred",
  "human_review_requested",
  "applied_at",
  "updated_at",
  "erased_at",
  "answers",
  "knocked_out",
] as const;

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
