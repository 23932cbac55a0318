/**
 * Answers to a job's questions, checked against the questions once, for every way an application
 * arrives (POST /applications, `api.applications.create`, the careers site's form): required
 * questions answered, each value of its question's type, choices known. The stored answer keeps
 * the question's label and a readable text, so a client reads it without the job; a picked choice
 * marked `knockout` flags the application (docs/api-reference.md#answer). An answer is returned
 * as {@link answerSchema} says.
 */
import * as z from "zod";
import { HireportError } from "../base/errors";
import { formatNumber } from "../base/format-number";
import { QUESTION_TYPES, type Question, type QuestionType } from "./questions";
import { isStorableText, LIMITS, UNSTORABLE_TEXT_MESSAGE } from "./value-schemas";

/** The value of an answer, by its question's type (see `checkAnswers`). */
export type AnswerValue = string | number | boolean | string[];

/**
 * An answer to one of the job's questions, as stored with the application: the question's id,
 * label and type at the time of applying (readable without the job, whatever it becomes), the
 * value, and the value as a person reads it (choice labels, Yes or No).
 */
export interface AnswerRecord {
  questionId: string;
  label: string;
  type: QuestionType;
  value: AnswerValue;
  text: string;
}

/** One answer as a client sends it: the question's id and a value of its type. */
export const answerInputSchema = z
  .strictObject({
    question_id: z
      .string()
      .min(1)
      .max(LIMITS.questionId)
      .meta({ examples: ["experience"] }),
    value: z
      .union([
        z.string().max(LIMITS.longAnswer),
        z.number(),
        z.boolean(),
        z.array(z.string().max(LIMITS.choiceValue)).max(LIMITS.choices),
      ])
      .meta({
        description:
          "short_text and long_text: text; yes_no: true or false; single_choice: a choice's value; multiple_choice: a list of choice values; number: a number; date: YYYY-MM-DD.",
      }),
  })
  .meta({ description: "An answer to one of the job's questions." });

/** The answers of a new application: at most one per question. */
export const answerListSchema = z.array(answerInputSchema).max(LIMITS.questions).meta({
  description:
    "Answers to the job's questions, checked against them: every required question answered, each value of its question's type, choices known. Left out: no answers (refused when the job has a required question).",
});

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

/** An answer as sent. */
export type AnswerInput = z.output<typeof answerInputSchema>;

/** One problem with the answers: the question it concerns and the body path it points at. */
export interface AnswerProblem {
  questionId: string;
  /** The path in the body of POST /applications: `answers.2.value`, or `answers` for a missing answer. */
  field: string;
  message: string;
}

/** What the answers come to: the records to store and whether a picked choice knocks the application out. */
export type CheckedAnswers =
  | { ok: true; answers: AnswerRecord[]; knockedOut: boolean }
  | { ok: false; problems: AnswerProblem[] };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `value` is a real calendar date `YYYY-MM-DD`. */
function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Whether a value counts as no answer: empty text or an empty list. */
function isEmpty(value: AnswerValue): boolean {
  return (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0);
}

type Checked = { value: AnswerValue; text: string; knockout: boolean } | { problem: string };

/** One value against its question. */
function checkValue(question: Question, value: AnswerValue): Checked {
  switch (question.type) {
    case "short_text":
    case "long_text": {
      if (typeof value !== "string") return { problem: "Must be text." };
      const max = question.type === "short_text" ? LIMITS.shortAnswer : LIMITS.longAnswer;
      const text = question.type === "short_text" ? value.trim() : value;
      if (text.length > max) return { problem: `Must be at most ${formatNumber(max)} characters.` };
      if (!isStorableText(text)) return { problem: UNSTORABLE_TEXT_MESSAGE };
      return { value: text, text, knockout: false };
    }
    case "yes_no":
      if (typeof value !== "boolean") return { problem: "Must be true (yes) or false (no)." };
      return { value, text: value ? "Yes" : "No", knockout: false };
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return { problem: "Must be a number." };
      if (Math.abs(value) > LIMITS.numberAnswer) {
        return { problem: `Must be between -${LIMITS.numberAnswer} and ${LIMITS.numberAnswer}.` };
      }
      return { value, text: String(value), knockout: false };
    case "date":
      if (typeof value !== "string" || !isCalendarDate(value.trim())) {
        return { problem: "Must be a real calendar date in the form YYYY-MM-DD, such as 2026-03-31." };
      }
      return { value: value.trim(), text: value.trim(), knockout: false };
    case "single_choice": {
      if (typeof value !== "string") return { problem: "Must be the value of one of the question's choices." };
      const choice = question.choices.find((item) => item.value === value);
      if (!choice) return { problem: "Must be the value of one of the question's choices." };
      return { value, text: choice.label, knockout: choice.knockout };
    }
    case "multiple_choice": {
      if (!Array.isArray(value)) return { problem: "Must be a list of values of the question's choices." };
      const picked = new Set(value);
      const choices = question.choices.filter((item) => picked.has(item.value));
      if (choices.length !== picked.size)
        return { problem: "Every item must be the value of one of the question's choices." };
      // In the question's order, each once.
      return {
        value: choices.map((choice) => choice.value),
        text: choices.map((choice) => choice.label).join(", "),
        knockout: choices.some((choice) => choice.knockout),
      };
    }
  }
}

/**
 * Checks `answers` against the job's `questions`: each answer names a question of the job, at most
 * once, with a value of its type (text within its limit, a boolean, a finite number, a real date,
 * known choices); every required question has a non-empty answer. Empty answers to optional
 * questions are dropped. The stored answers follow the questions' order and keep each label.
 */
export function checkAnswers(questions: readonly Question[], answers: readonly AnswerInput[]): CheckedAnswers {
  const problems: AnswerProblem[] = [];
  const byId = new Map(questions.map((question) => [question.id, question]));
  const given = new Map<string, { value: AnswerValue; index: number }>();
  answers.forEach((answer, index) => {
    if (!byId.has(answer.question_id)) {
      problems.push({
        questionId: answer.question_id,
        field: `answers.${index}.question_id`,
        message: "The job has no question with this id.",
      });
    } else if (given.has(answer.question_id)) {
      problems.push({
        questionId: answer.question_id,
        field: `answers.${index}.question_id`,
        message: "The question is answered twice.",
      });
    } else given.set(answer.question_id, { value: answer.value, index });
  });
  const stored: AnswerRecord[] = [];
  let knockedOut = false;
  for (const question of questions) {
    const answer = given.get(question.id);
    if (!answer || isEmpty(answer.value)) {
      if (question.required) {
        problems.push({
          questionId: question.id,
          field: answer ? `answers.${answer.index}.value` : "answers",
          message: `The question “${question.id}” is required: answer it.`,
        });
      }
      continue;
    }
    const checked = checkValue(question, answer.value);
    if ("problem" in checked) {
      problems.push({ questionId: question.id, field: `answers.${answer.index}.value`, message: checked.problem });
      continue;
    }
    knockedOut ||= checked.knockout;
    stored.push({
      questionId: question.id,
      label: question.label,
      type: question.type,
      value: checked.value,
      text: checked.text,
    });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, answers: stored, knockedOut };
}

/** 422 `invalid` for answers that do not fit the job's questions, each problem in `fields`. */
export function answersError(problems: readonly AnswerProblem[]): HireportError {
  const summary = problems.map((problem) => `${problem.field}: ${problem.message}`).join(" ");
  return new HireportError("invalid", `The request body is not valid. ${summary}`, {
    fields: problems.map((problem) => ({ field: problem.field, message: problem.message })),
  });
}
