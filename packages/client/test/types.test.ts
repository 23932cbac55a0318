/**
 * Type-level checks, enforced by `tsc --noEmit -p packages/client/tsconfig.json` (every
 * `@ts-expect-error` must meet an error, every other line must compile); vitest runs the file too.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { components } from "../src/generated/openapi";
import {
  type Application,
  type ApplicationInput,
  createClient,
  type HireportApiError,
  type Job,
  type JobInput,
  type Me,
  type Page,
  type SyncRun,
} from "../src/index";

const client = createClient({
  baseUrl: "https://hr.example.com/api/public/v1",
  key: "svc_live_x",
  fetch: async () => new Response("{}"),
});

describe("types come from the API's document", () => {
  it("the smallest bodies type-check, and what the API requires stays required", () => {
    expectTypeOf(client.jobs.create).toBeCallableWith({ title: "X" });
    expectTypeOf(client.applications.create).toBeCallableWith({
      job_id: "job_1",
      candidate: { name: "Ada", email: "ada@example.com" },
    });
    expectTypeOf(client.jobs.update).toBeCallableWith("job_1", {});
    expectTypeOf(client.applications.update).toBeCallableWith("app_1", { stage: "reviewed", note: "Call back" });
    const checks = () => {
      // @ts-expect-error title is required
      void client.jobs.create({});
      // @ts-expect-error the candidate's email is required
      void client.applications.create({ job_id: "job_1", candidate: { name: "Ada" } });
      // @ts-expect-error unknown fields are refused
      void client.jobs.create({ title: "X", surprise: 1 });
      // @ts-expect-error not a stage
      void client.applications.update("app_1", { stage: "hired-ish" });
      // @ts-expect-error a job cannot be created closed (closing is jobs.close)
      void client.jobs.create({ title: "X", status: "closed" });
      // @ts-expect-error limit is a number
      void client.jobs.list({ limit: "10" });
    };
    void checks;
  });

  it("answers are the document's schemas", () => {
    expectTypeOf(client.jobs.get("job_1")).resolves.toEqualTypeOf<components["schemas"]["Job"]>();
    expectTypeOf(client.applications.get("app_1")).resolves.toEqualTypeOf<Application>();
    expectTypeOf(client.me()).resolves.toEqualTypeOf<Me>();
    expectTypeOf(client.jobs.list()).resolves.toEqualTypeOf<Page<Job>>();
    expectTypeOf(client.jobs.listAll()).toEqualTypeOf<AsyncGenerator<Job, void, undefined>>();
    expectTypeOf(client.applications.sync({ since: new Date() })).toEqualTypeOf<SyncRun<Application>>();
    expectTypeOf<JobInput["status"]>().toEqualTypeOf<"active" | "draft" | "paused" | undefined>();
    expectTypeOf<ApplicationInput["candidate"]["email"]>().toEqualTypeOf<string>();
    expectTypeOf<HireportApiError["requiredScope"]>().toEqualTypeOf<
      | "jobs:read"
      | "jobs:write"
      | "applications:read"
      | "applications:write"
      | "webhooks:read"
      | "webhooks:write"
      | undefined
    >();
  });
});
