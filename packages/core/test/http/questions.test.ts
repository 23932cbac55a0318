import type { JobWire } from "@hireport/core";
import { beforeEach, describe, expect, it } from "vitest";
import {
  applicationBody,
  applicationOf,
  createWorld,
  errorOf,
  eventsOf,
  jobOf,
  START,
  TRANSPORTS,
  type World,
} from "./harness";

/** One question of each type; two choices knock out. */
const QUESTIONS = [
  { id: "why", label: "Why us?", type: "long_text", required: true },
  { id: "nickname", label: "What should we call you?", type: "short_text" },
  { id: "right_to_work", label: "Can you work in the UK?", type: "yes_no", required: true },
  {
    id: "go_years",
    label: "Years of Go",
    type: "single_choice",
    required: true,
    choices: [
      { value: "none", label: "None", knockout: true },
      { value: "3_plus", label: "3 years or more" },
    ],
    help: "Production work only.",
  },
  {
    id: "langs",
    label: "Languages you speak",
    type: "multiple_choice",
    choices: [
      { value: "en", label: "English" },
      { value: "de", label: "German" },
      { value: "xx", label: "None of these", knockout: true },
    ],
  },
  { id: "notice", label: "Notice period in weeks", type: "number" },
  { id: "start", label: "Earliest start", type: "date" },
];

const ANSWERS = [
  { question_id: "start", value: "2026-06-01" },
  { question_id: "why", value: "  I like queues.  " },
  { question_id: "right_to_work", value: true },
  { question_id: "go_years", value: "3_plus" },
  { question_id: "langs", value: ["de", "en"] },
  { question_id: "notice", value: 4.5 },
  { question_id: "nickname", value: "" },
];

describe.each(TRANSPORTS)("application questions via %s", (transport) => {
  let w: World;
  let job: JobWire;
  const call = (method: "POST" | "PATCH" | "GET", path: string, body?: unknown) =>
    w.client.call(method, path, { key: w.acmeKey.key, ...(body === undefined ? {} : { body }) });

  beforeEach(async () => {
    w = await createWorld(transport);
    w.clock.set(START);
    const created = await call("POST", "/jobs", { title: "Backend Engineer", status: "active", questions: QUESTIONS });
    expect(created.status, created.text).toBe(201);
    job = jobOf(created);
  });

  describe("the Job field questions", () => {
    it('is returned with its defaults filled (required false, choices [], help "", knockout false)', async () => {
      expect(job.questions).toHaveLength(QUESTIONS.length);
      expect(job.questions[1]).toEqual({
        id: "nickname",
        label: "What should we call you?",
        type: "short_text",
        required: false,
        choices: [],
        help: "",
      });
      expect(job.questions[3]?.choices).toEqual([
        { value: "none", label: "None", knockout: true },
        { value: "3_plus", label: "3 years or more", knockout: false },
      ]);
      expect(jobOf(await call("GET", `/jobs/${job.id}`)).questions).toEqual(job.questions);
    });

    it("is [] on a job created without it, and PATCH replaces or clears it", async () => {
      const bare = jobOf(await call("POST", "/jobs", { title: "Designer" }));
      expect(bare.questions).toEqual([]);
      const patched = await call("PATCH", `/jobs/${job.id}`, { questions: [QUESTIONS[2]] });
      expect(patched.status, patched.text).toBe(200);
      expect(jobOf(patched).questions.map((question) => question.id)).toEqual(["right_to_work"]);
      expect(jobOf(await call("PATCH", `/jobs/${job.id}`, { questions: [] })).questions).toEqual([]);
    });

    it("answers 422 naming the path of each problem", async () => {
      const refused = await call("POST", "/jobs", {
        title: "X",
        questions: [
          { id: "a", label: "A", type: "yes_no" },
          { id: "a", label: "Again", type: "short_text" },
          { id: "c", label: "C", type: "single_choice" },
          {
            id: "d",
            label: "D",
            type: "multiple_choice",
            choices: [
              { value: "x", label: "X" },
              { value: "x", label: "X again" },
            ],
          },
          { id: "e", label: "E", type: "number", choices: [{ value: "1", label: "One" }] },
          { id: "has space", label: "F", type: "essay" },
        ],
      });
      expect(refused.status).toBe(422);
      const fields = errorOf(refused).fields?.map((field) => field.field);
      expect(fields).toEqual(
        expect.arrayContaining([
          "questions.2.choices",
          "questions.3.choices.1.value",
          "questions.4.choices",
          "questions.5.id",
          "questions.5.type",
        ]),
      );
    });

    it("refuses two questions with one id, naming the second", async () => {
      const refused = await call("POST", "/jobs", {
        title: "X",
        questions: [
          { id: "a", label: "A", type: "yes_no" },
          { id: "a", label: "Again", type: "short_text" },
        ],
      });
      expect(refused.status).toBe(422);
      expect(errorOf(refused).fields).toEqual([{ field: "questions.1.id", message: "Must be unique within the job." }]);
    });

    it("refuses more than 30 questions", async () => {
      const many = Array.from({ length: 31 }, (_, i) => ({ id: `q${i}`, label: `Q${i}`, type: "short_text" }));
      const refused = await call("POST", "/jobs", { title: "X", questions: many });
      expect(refused.status).toBe(422);
      expect(errorOf(refused).fields?.map((field) => field.field)).toEqual(["questions"]);
    });
  });

  describe("answers on POST /applications", () => {
    it("stores the answers checked and readable without the job, in the questions' order, and emits them", async () => {
      const created = await call(
        "POST",
        "/applications",
        applicationBody(job.id, "ada@example.com", { answers: ANSWERS }),
      );
      expect(created.status, created.text).toBe(201);
      const application = applicationOf(created);
      expect(application.knocked_out).toBe(false);
      expect(application.answers).toEqual([
        {
          question_id: "why",
          label: "Why us?",
          type: "long_text",
          value: "  I like queues.  ",
          text: "  I like queues.  ",
        },
        { question_id: "right_to_work", label: "Can you work in the UK?", type: "yes_no", value: true, text: "Yes" },
        {
          question_id: "go_years",
          label: "Years of Go",
          type: "single_choice",
          value: "3_plus",
          text: "3 years or more",
        },
        {
          question_id: "langs",
          label: "Languages you speak",
          type: "multiple_choice",
          value: ["en", "de"],
          text: "English, German",
        },
        { question_id: "notice", label: "Notice period in weeks", type: "number", value: 4.5, text: "4.5" },
        { question_id: "start", label: "Earliest start", type: "date", value: "2026-06-01", text: "2026-06-01" },
      ]);
      // Read back, and in the application.created webhook payload.
      expect(applicationOf(await call("GET", `/applications/${application.id}`))).toEqual(application);
      const [event] = (await eventsOf(w.storage, w.acme)).filter(
        (entry) => entry.envelope.type === "application.created",
      );
      expect(event?.envelope.data.answers).toEqual(application.answers);
      expect(event?.envelope.data.knocked_out).toBe(false);
      // A later change of the job's questions leaves the stored labels as the candidate saw them.
      await call("PATCH", `/jobs/${job.id}`, { questions: [{ ...QUESTIONS[0], label: "Renamed" }] });
      expect(applicationOf(await call("GET", `/applications/${application.id}`)).answers[0]?.label).toBe("Why us?");
    });

    it("flags a knockout answer and still stores the application", async () => {
      const answers = ANSWERS.map((answer) =>
        answer.question_id === "langs" ? { question_id: "langs", value: ["en", "xx"] } : answer,
      );
      const created = await call("POST", "/applications", applicationBody(job.id, "bob@example.com", { answers }));
      expect(created.status, created.text).toBe(201);
      expect(applicationOf(created)).toMatchObject({ knocked_out: true, stage: "new" });
      const single = ANSWERS.map((answer) =>
        answer.question_id === "go_years" ? { question_id: "go_years", value: "none" } : answer,
      );
      const other = await call("POST", "/applications", applicationBody(job.id, "cy@example.com", { answers: single }));
      expect(applicationOf(other).knocked_out).toBe(true);
    });

    it("answers 422 for answers that do not fit the questions, naming each, and writes nothing", async () => {
      const refused = await call(
        "POST",
        "/applications",
        applicationBody(job.id, "dee@example.com", {
          answers: [
            { question_id: "why", value: "   " },
            { question_id: "right_to_work", value: "yes" },
            { question_id: "go_years", value: "10" },
            { question_id: "langs", value: ["en", "fr"] },
            { question_id: "notice", value: "four" },
            { question_id: "start", value: "2026-02-30" },
            { question_id: "unknown", value: "x" },
            { question_id: "notice", value: 3 },
          ],
        }),
      );
      expect(refused.status).toBe(422);
      expect(
        errorOf(refused)
          .fields?.map((field) => field.field)
          .sort(),
      ).toEqual(
        [
          "answers.0.value",
          "answers.1.value",
          "answers.2.value",
          "answers.3.value",
          "answers.4.value",
          "answers.5.value",
          "answers.6.question_id",
          "answers.7.question_id",
        ].sort(),
      );
      const missing = await call("POST", "/applications", applicationBody(job.id, "dee@example.com"));
      expect(missing.status).toBe(422);
      expect(errorOf(missing).fields).toEqual([
        { field: "answers", message: "The question “why” is required: answer it." },
        { field: "answers", message: "The question “right_to_work” is required: answer it." },
        { field: "answers", message: "The question “go_years” is required: answer it." },
      ]);
      expect((await w.storage.applications.list({ companyId: w.acme, take: 10 })).length).toBe(0);
    });

    it("gives an application to a job without questions no answers", async () => {
      const plain = jobOf(await call("POST", "/jobs", { title: "Designer", status: "active" }));
      const created = await call("POST", "/applications", applicationBody(plain.id, "eve@example.com"));
      expect(applicationOf(created)).toMatchObject({ answers: [], knocked_out: false });
    });
  });

  describe("answers are personal data", () => {
    it("are in the candidate export, and erasure empties them everywhere (record, events) but keeps knocked_out", async () => {
      const answers = ANSWERS.map((answer) =>
        answer.question_id === "go_years" ? { question_id: "go_years", value: "none" } : answer,
      );
      const application = applicationOf(
        await call("POST", "/applications", applicationBody(job.id, "fay@example.com", { answers })),
      );
      const exported = await w.api.candidates.export(w.acme, { email: "fay@example.com" });
      expect(exported.applications[0]?.answers).toEqual(application.answers);
      await w.api.candidates.erase(w.acme, { applicationId: application.id }, { actor: "Privacy team" });
      const erased = applicationOf(await call("GET", `/applications/${application.id}`));
      expect(erased).toMatchObject({ answers: [], knocked_out: true });
      for (const { envelope } of await eventsOf(w.storage, w.acme)) {
        if (envelope.data.id === application.id) expect(envelope.data.answers).toEqual([]);
      }
      const events = JSON.stringify((await eventsOf(w.storage, w.acme)).map((entry) => entry.record.payload));
      expect(events).not.toContain("I like queues");
    });
  });
});
