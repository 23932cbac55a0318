/**
 * The questions of a job's apply form (the Job field `questions`, docs/api-reference.md#question):
 * each with a stable id the client chooses, a label, a type, whether it must be answered, choices
 * for the choice types (a choice may knock the application out) and help text.
 */
import * as z from "zod";
import { idString, LIMITS, label, requiredText } from "./value-schemas";

/** The kinds of question, and the answer each takes (docs/api-reference.md#answer). */
export const QUESTION_TYPES = [
  "short_text",
  "long_text",
  "yes_no",
  "single_choice",
  "multiple_choice",
  "number",
  "date",
] as const;

/** A kind of question of {@link QUESTION_TYPES}. */
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** The question types answered by picking among `choices`. */
export const CHOICE_TYPES: readonly QuestionType[] = ["single_choice", "multiple_choice"];

/** Whether a question of `type` is answered from its `choices`. */
export function isChoiceType(type: QuestionType): boolean {
  return CHOICE_TYPES.includes(type);
}

const QUESTION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** One choice of a choice question. */
export const questionChoiceSchema = z
  .strictObject({
    value: requiredText(LIMITS.choiceValue).meta({
      description: "What the answer holds when this choice is picked; unique within the question.",
      examples: ["3_plus"],
    }),
    label: requiredText(LIMITS.label).meta({ description: "What the candidate reads.", examples: ["3 years or more"] }),
    knockout: z.boolean().default(false).meta({
      description:
        "Picking it flags the application `knocked_out` (it is still stored; the candidate is not told). Default false.",
    }),
  })
  .meta({ description: "A choice of a single_choice or multiple_choice question." });

/** One question of a job's apply form. */
export const questionSchema = z
  .strictObject({
    id: idString()
      .max(LIMITS.questionId)
      .regex(QUESTION_ID, { error: "Must be letters, digits, _ or -, starting with a letter or digit." })
      .meta({
        description: "A short key you choose, unique within the job and stable over its changes.",
        examples: ["experience"],
      }),
    label: requiredText(LIMITS.questionLabel).meta({ examples: ["How many years of Go have you written?"] }),
    type: z.enum(QUESTION_TYPES),
    required: z.boolean().default(false).meta({ description: "Whether the form must answer it. Default false." }),
    choices: z
      .array(questionChoiceSchema)
      .max(LIMITS.choices)
      .default(() => [])
      .meta({
        description: `The choices of a single_choice or multiple_choice question (1 to ${LIMITS.choices}, values unique); empty for the other types.`,
      }),
    help: label(LIMITS.questionHelp)
      .default("")
      .meta({ description: "A hint shown under the question; empty for none." }),
  })
  .superRefine((question, ctx) => {
    if (isChoiceType(question.type)) {
      if (question.choices.length === 0) {
        ctx.addIssue({
          code: "custom",
          path: ["choices"],
          message: `A ${question.type} question needs at least one choice.`,
        });
      }
      const seen = new Set<string>();
      question.choices.forEach((choice, index) => {
        if (seen.has(choice.value)) {
          ctx.addIssue({
            code: "custom",
            path: ["choices", index, "value"],
            message: "Must be unique within the question.",
          });
        }
        seen.add(choice.value);
      });
    } else if (question.choices.length > 0) {
      ctx.addIssue({ code: "custom", path: ["choices"], message: `A ${question.type} question has no choices.` });
    }
  })
  .meta({ description: "A question of the apply form." });

/** The questions of a job: up to 30, ids unique. */
export const questionListSchema = z
  .array(questionSchema)
  .max(LIMITS.questions)
  .superRefine((questions, ctx) => {
    const seen = new Set<string>();
    questions.forEach((question, index) => {
      if (seen.has(question.id)) {
        ctx.addIssue({ code: "custom", path: [index, "id"], message: "Must be unique within the job." });
      }
      seen.add(question.id);
    });
  })
  .meta({
    description: `Questions of the apply form, in the order it asks them: up to ${LIMITS.questions}, ids unique. Answers arrive on the Application (answers).`,
  });

/** A question as stored and returned. */
export type Question = z.output<typeof questionSchema>;
/** A choice of a question as stored and returned. */
export type QuestionChoice = z.output<typeof questionChoiceSchema>;
/** A question as a client sends it (`required`, `choices` and `help` optional). */
export type QuestionInput = z.input<typeof questionSchema>;
