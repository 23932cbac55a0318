/**
 * Applications on the wire: the body of POST /applications (with its candidate, docs/api-reference.md, ApplicationInput), the
 * body of PATCH /applications/{id}, and the Application as returned (docs/api-reference.md, Application).
 *
 * The candidate comes from `CANDIDATE_FIELDS`, the other stored fields from `APPLICATION_FIELDS`:
 * their checks, which body takes them and their returned schemas are declared there. The members
 * that are not fields are written here: `job_id`, a PATCH's `note` (added to the notes); so are the
 * returned keys the service computes.
 */
import * as z from "zod";
import { APPLICATION_FIELDS, APPLICATION_WIRE_ORDER } from "../fields/application";
import { CANDIDATE_FIELDS } from "../fields/candidate";
import { createShape, fieldsWithInput, orderedShape, outputShape, patchShape } from "../fields/field";
import { idString, LIMITS, requiredText } from "../fields/value-schemas";

const FIELDS = APPLICATION_FIELDS;
/** The fields a request body can take: those with an input check (the service sets the others). */
const SENT = fieldsWithInput(FIELDS);

/** The 14 stages (docs/api-reference.md, Application stages); every move between them is allowed. */
export const stageSchema = FIELDS.stage.output;

/** The candidate as sent: name and email required, the rest default to empty. */
export const candidateInputSchema = z
  .strictObject(createShape(CANDIDATE_FIELDS))
  .meta({ description: "The person applying. name and email are required." });

/**
 * Body of POST /applications: the job, the candidate, then the fields with an input check but those
 * declared `create: false`, in declaration order. The same e-mail address (compared trimmed and
 * case-insensitive) may apply to the same job once every 30 days; a repeat answers 409 duplicate.
 */
export const applicationCreateBodySchema = z
  .strictObject({
    job_id: idString().meta({ description: "A job of your company." }),
    candidate: candidateInputSchema,
    ...createShape(SENT),
  })
  .meta({
    description:
      "Adds a candidate to one of your jobs. The same e-mail address may apply to the same job once every 30 days; a repeat answers 409 duplicate.",
  });

// The fields PATCH takes, in declaration order: the stage first, then the note (as v1 lists them).
const { stage: stagePatch, ...patchFields } = patchShape(SENT);

/** Body of PATCH /applications/{id}: every field optional; `{}` is accepted and changes nothing. */
export const applicationPatchBodySchema = z
  .strictObject({
    stage: stagePatch,
    note: requiredText(LIMITS.note)
      .optional()
      .meta({ description: "Added to the recruiter notes with the key's name." }),
    ...patchFields,
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
export const candidateSchema = z.strictObject(outputShape(CANDIDATE_FIELDS, "tail"));

/** Scores of a returned application: the fields placed `scores`. */
export const scoresSchema = z
  .strictObject(outputShape(FIELDS, "scores"))
  .meta({ description: "Scores that help a person review; they never decide anything on their own." });

/**
 * An Application as returned (docs/api-reference.md, Application), exactly its fields: the fields of
 * v1 and the first additive ones in their documented order (`APPLICATION_WIRE_ORDER`), then the
 * fields declared since.
 */
export const applicationSchema = z
  .strictObject({
    ...orderedShape(FIELDS, APPLICATION_WIRE_ORDER, {
      id: z.string().meta({ examples: ["app_01j9x2k3m4n5p6q7r8s9t0v1w2"] }),
      reference: z.string().meta({ description: "Readable reference, stable per company.", examples: ["APP-20931"] }),
      job_id: z.string(),
      job_title: z.string(),
      candidate: candidateSchema,
      resume_url: z.url().nullable().meta({
        description: "Short-lived link to the CV as served by the service; null when the application has no CV.",
      }),
      scores: scoresSchema,
      human_review_requested: z.boolean().meta({
        description:
          "True once the candidate asked for a person to review the application (a link the careers site gives them). Additive to the v1 fields.",
      }),
    }),
    ...outputShape(FIELDS, "tail"),
  })
  .meta({ description: "An application: personal data your company controls and the service processes for you." });

/** The Application as returned, exactly its fields: the output type of the schema that documents it. */
export type ApplicationWire = z.output<typeof applicationSchema>;
