/**
 * The answers of the apply form to the job's questions: read from the form's `q_{id}` fields (text,
 * as a form sends everything), turned into the values core's `checkAnswers` takes (a yes or no, a
 * number, a list of choices), then checked by it: one rule set for the form and the API alike.
 */
import type { Question } from "@hireport/core";
import { type AnswerInput, checkAnswers } from "@hireport/core/schemas";
import { questionFieldName } from "../pages/question-fields";

/** What the form's fields come to: the answers for core, and a message per question to fix. */
export interface FormAnswers {
  answers: AnswerInput[];
  /** By question id: what the candidate reads next to the question. */
  errors: Record<string, string>;
}

/** What the candidate typed or ticked, by question id (kept to show the form again). */
export function typedAnswers(
  questions: readonly Question[],
  lists: Record<string, string[]>,
): Record<string, string[]> {
  const typed: Record<string, string[]> = {};
  for (const question of questions) {
    const values = lists[questionFieldName(question)];
    if (values && values.length > 0) typed[question.id] = values.map((value) => value.slice(0, 25_000));
  }
  return typed;
}

/** The text fields a form with these questions may send: one per question, one per box of a multiple choice. */
export function answerFieldCount(questions: readonly Question[]): number {
  return questions.reduce((count, question) => count + Math.max(1, question.choices.length), 0);
}

const YES = new Set(["yes", "true", "on", "1"]);
const NO = new Set(["no", "false", "0"]);

/** One question's form text as the value core takes, or the message to show. */
function formValue(question: Question, values: readonly string[]): AnswerInput["value"] | { error: string } {
  const first = values[0] ?? "";
  switch (question.type) {
    case "multiple_choice":
      return values.filter((value) => value !== "");
    case "yes_no": {
      const word = first.trim().toLowerCase();
      if (word === "") return "";
      if (YES.has(word)) return true;
      if (NO.has(word)) return false;
      return { error: "Choose Yes or No." };
    }
    case "number": {
      const text = first.trim();
      if (text === "") return "";
      const number = Number(text);
      return Number.isFinite(number) ? number : { error: "Enter a number, such as 3 or 2.5." };
    }
    default:
      return first;
  }
}

/**
 * Reads and checks the form's answers: a value the form cannot read (a number that is not one) and
 * what `checkAnswers` refuses (a required question left empty, a choice the question does not have,
 * an unreal date) each give a message for its question.
 */
export function readFormAnswers(questions: readonly Question[], typed: Record<string, string[]>): FormAnswers {
  const errors: Record<string, string> = {};
  const answers: AnswerInput[] = [];
  for (const question of questions) {
    const value = formValue(question, typed[question.id] ?? []);
    if (typeof value === "object" && !Array.isArray(value)) errors[question.id] = value.error;
    else answers.push({ question_id: question.id, value });
  }
  const checked = checkAnswers(questions, answers);
  if (!checked.ok) {
    for (const problem of checked.problems) {
      errors[problem.questionId] ??=
        problem.field === "answers" || isBlank(typed[problem.questionId]) ? "Answer this question." : problem.message;
    }
  }
  return { answers, errors };
}

function isBlank(values: readonly string[] | undefined): boolean {
  return !values || values.every((value) => value.trim() === "");
}
