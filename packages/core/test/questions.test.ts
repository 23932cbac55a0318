import { describe, expect, it } from "vitest";
import * as z from "zod";
import { checkAnswers } from "../src/fields/answers";
import { createShape, field } from "../src/fields/field";
import { type Question, questionListSchema } from "../src/fields/questions";

const questions: Question[] = questionListSchema.parse([
  { id: "nick", label: "Nickname", type: "short_text" },
  { id: "age", label: "Years", type: "number", required: true },
  { id: "from", label: "Start", type: "date" },
  {
    id: "tools",
    label: "Tools",
    type: "multiple_choice",
    choices: [
      { value: "a", label: "A" },
      { value: "b", label: "B", knockout: true },
      { value: "c", label: "C" },
    ],
  },
]);

describe("questionListSchema", () => {
  it("fills the defaults of each question and each choice", () => {
    expect(questions[0]).toEqual({
      id: "nick",
      label: "Nickname",
      type: "short_text",
      required: false,
      choices: [],
      help: "",
    });
    expect(questions[3]?.choices[0]).toEqual({ value: "a", label: "A", knockout: false });
  });

  it("refuses ids that would not make a form name, and labels over 500 characters", () => {
    const result = questionListSchema.safeParse([
      { id: "a b", label: "x", type: "yes_no" },
      { id: "-a", label: "x", type: "yes_no" },
      { id: "ok", label: "x".repeat(501), type: "yes_no" },
    ]);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["0.id", "1.id", "2.label"]);
  });
});

describe("checkAnswers", () => {
  it("keeps the questions' order, drops empty optional answers, trims short text, orders picked choices", () => {
    const checked = checkAnswers(questions, [
      { question_id: "tools", value: ["c", "a", "c"] },
      { question_id: "from", value: "" },
      { question_id: "age", value: 0 },
      { question_id: "nick", value: "  Ada  " },
    ]);
    expect(checked).toEqual({
      ok: true,
      knockedOut: false,
      answers: [
        { questionId: "nick", label: "Nickname", type: "short_text", value: "Ada", text: "Ada" },
        { questionId: "age", label: "Years", type: "number", value: 0, text: "0" },
        { questionId: "tools", label: "Tools", type: "multiple_choice", value: ["a", "c"], text: "A, C" },
      ],
    });
  });

  it("flags a knockout choice among several", () => {
    const checked = checkAnswers(questions, [
      { question_id: "age", value: 3 },
      { question_id: "tools", value: ["a", "b"] },
    ]);
    expect(checked).toMatchObject({ ok: true, knockedOut: true });
  });

  it("names each problem with its path", () => {
    const checked = checkAnswers(questions, [
      { question_id: "nick", value: "x".repeat(501) },
      { question_id: "from", value: "2027-02-29" },
      { question_id: "tools", value: "a" },
      { question_id: "age", value: 1e13 },
    ]);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems.map((problem) => [problem.questionId, problem.field])).toEqual([
      ["nick", "answers.0.value"],
      ["age", "answers.3.value"],
      ["from", "answers.1.value"],
      ["tools", "answers.2.value"],
    ]);
  });

  it("accepts a real leap day and refuses text with a NUL character", () => {
    expect(
      checkAnswers(questions, [
        { question_id: "age", value: 1 },
        { question_id: "from", value: "2028-02-29" },
      ]).ok,
    ).toBe(true);
    const nul = checkAnswers(questions, [
      { question_id: "age", value: 1 },
      { question_id: "nick", value: "a\u0000b" },
    ]);
    expect(nul.ok).toBe(false);
  });
});

describe("the json field kind", () => {
  it("needs a default unless nullable, and hands each create a fresh copy of it", () => {
    const input = z.array(z.strictObject({ a: z.int() }));
    expect(() => field({ kind: "json", wire: "things", input })).toThrow(/declares its default/);
    const things = field({ kind: "json", wire: "things", input, default: [{ a: 1 }] });
    const schema = z.strictObject(createShape({ things }));
    const first = schema.parse({});
    first.things.push({ a: 2 });
    expect(schema.parse({}).things).toEqual([{ a: 1 }]);
  });
});
