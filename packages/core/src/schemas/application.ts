/**
 * Applications on the wire: the body of POST /applications (with its candidate, docs/api-reference.md, ApplicationInput), the
 * body of PATCH /applications/{id}, and the Application as returned (docs/api-reference.md, Application).
 */
import * as z from "zod";
import { answerListSchema } from "../answers";
import { APPLICATION_STAGES } from "../domain";
import {
  email,
  httpsUrl,
  idString,
  LIMITS,
  label,
  longText,
  requiredText,
  stringList,
  utcDateTime,
  webUrlOrEmpty,
} from "./fields";
import { QUESTION_TYPES } from "./questions";

/** The 14 stages (docs/api-reference.md, Application stages); every move between them is allowed. */
export const stageSchema = z.enum(APPLICATION_STAGES).meta({
  description: "Application stage. Every move between the 14 stages is allowed and recorded in the history.",
});

/** The candidate as sent: name and email required, the rest default to empty. */
export const candidateInputSchema = z
  .strictObject({
    name: requiredText(LIMITS.label).meta({ examples: ["Ada Lovelace"] }),
    email: email(),
    phone: label()
      .default("")
      .meta({ examples: ["+44 20 7946 0000"] }),
    location: label().default(""),
    linkedin_url: webUrlOrEmpty().default(""),
    current_title: label().default(""),
    skills: stringList().default(() => []),
  })
  .meta({ description: "The person applying. name and email are required." });

/**
 * Body of POST /applications. The same e-mail address (compared trimmed and case-insensitive) may
 * apply to the same job once every 30 days; a repeat answers 409 duplicate.
 */
export const applicationCreateBodySchema = z
  .strictObject({
    job_id: idString().meta({ description: "A job of your company." }),
    candidate: candidateInputSchema,
    cover_letter: longText(LIMITS.coverLetter).default(""),
    resume_url: httpsUrl().nullable().default(null).meta({
      description:
        "An https link to the CV that the company's team can open. It is never returned as sent: the application's resume_url is a short-lived link served by the service.",
    }),
    source: requiredText(LIMITS.source)
      .optional()
      .meta({
        description: "Where the candidate came from, free text. Left out: api.",
        examples: ["careers-site"],
      }),
    consent: z
      .boolean()
      .nullable()
      .default(null)
      .meta({ description: "True when the candidate agreed to their data being sent; stored with its time." }),
    answers: answerListSchema.default(() => []),
  })
  .meta({
    description:
      "Adds a candidate to one of your jobs. The same e-mail address may apply to the same job once every 30 days; a repeat answers 409 duplicate.",
  });

/** Body of PATCH /applications/{id}: every field optional; `{}` is accepted and changes nothing. */
export const applicationPatchBodySchema = z
  .strictObject({
    stage: stageSchema.optional(),
    note: requiredText(LIMITS.note)
      .optional()
      .meta({ description: "Added to the recruiter notes with the key's name." }),
    tags: stringList().optional().meta({ description: "Replaces the tags." }),
    starred: z.boolean().optional(),
  })
  .meta({ description: "Changes to an application: only the fields sent are changed." });

/** What POST /applications and `api.applications.create` accept: `job_id` and the candidate's name and e-mail required. */
export type ApplicationCreateInput = z.input<typeof applicationCreateBodySchema>;
/** What PATCH /applications/{id} and `api.applications.update` accept: stage, note, tags, starred, all optional. */
export type ApplicationPatchInput = z.input<typeof applicationPatchBodySchema>;
/** Parsed body of POST /applications, defaults applied (`source` stays undefined when not sent: the service picks `api` or `host`). */
export type ApplicationCreateBody = z.output<typeof applicationCreateBodySchema>;
/** Parsed body of PATCH /applications/{id}. */
export type ApplicationPatchBody = z.output<typeof applicationPatchBodySchema>;

/** The candidate inside a returned application (docs/api-reference.md, Application). */
export const candidateSchema = z.strictObject({
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  location: z.string(),
  linkedin_url: z.string(),
  current_title: z.string(),
  skills: z.array(z.string()),
});

/** Scores of a returned application. */
export const scoresSchema = z
  .strictObject({
    ai_match: z.number().min(0).max(100).meta({
      description:
        "0 to 100: how well the candidate's skills match the job. Advice for a person to read, never a decision: hiring decisions must involve a person, and applicants can ask for a person to review their application.",
    }),
    overall: z.number().nullable().meta({ description: "Set by the company's team; null until then." }),
  })
  .meta({ description: "Scores that help a person review; they never decide anything on their own." });

/** An answer as returned: readable without the job (its question's label and type are kept with it). */
export const answerSchema = z
  .strictObject({
    question_id: z.string().meta({ examples: ["experience"] }),
    label: z.string().meta({ description: "The question's label when the candidate answered it." }),
    type: z.enum(QUESTION_TYPES),
    value: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).meta({
      description:
        "short_text, long_text, single_choice (a choice's value) and date (YYYY-MM-DD): a string; yes_no: a boolean; number: a number; multiple_choice: a list of choice values.",
    }),
    text: z.string().meta({
      description:
        "The answer as a person reads it: the text, Yes or No, the number, the date, or the choices' labels joined by commas.",
      examples: ["3 years or more"],
    }),
  })
  .meta({ description: "An answer to one of the job's questions." });

/** An Application as returned (docs/api-reference.md, Application), exactly its fields. */
export const applicationSchema = z
  .strictObject({
    id: z.string().meta({ examples: ["app_01j9x2k3m4n5p6q7r8s9t0v1w2"] }),
    reference: z.string().meta({ description: "Readable reference, stable per company.", examples: ["APP-20931"] }),
    job_id: z.string(),
    job_title: z.string(),
    candidate: candidateSchema,
    cover_letter: z.string(),
    resume_url: z.url().nullable().meta({
      description: "Short-lived link to the CV as served by the service; null when the application has no CV.",
    }),
    stage: stageSchema,
    source: z.string(),
    scores: scoresSchema,
    tags: z.array(z.string()),
    starred: z.boolean(),
    human_review_requested: z.boolean().meta({
      description:
        "True once the candidate asked for a person to review the application (a link the careers site gives them). Additive to the v1 fields.",
    }),
    applied_at: utcDateTime(),
    updated_at: utcDateTime(),
    erased_at: utcDateTime().nullable().meta({
      description:
        "When the candidate's personal data was erased at the company's request, or null. An erased application stays as an anonymous record: its stage, history, source, scores, tags and dates are kept; every candidate field and cover_letter are empty strings, skills is empty and resume_url is null. Additive to the v1 fields.",
    }),
    answers: z.array(answerSchema).meta({
      description:
        "The candidate's answers to the job's questions, in the questions' order (optional questions left blank are not listed). Empty once the candidate's data is erased. Additive to the v1 fields.",
    }),
    knocked_out: z.boolean().meta({
      description:
        "True when an answer picked a choice marked knockout. The application is stored and handled like any other; the candidate is not told. Additive to the v1 fields.",
    }),
  })
  .meta({ description: "An application: personal data your company controls and the service processes for you." });
