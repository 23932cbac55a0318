import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { JobRecord } from "../model/domain";
import type { CreateApplicationResult, NewApplication, Storage, StorageStores } from "../storage";
import { makeApplicationWrite, makeCompany, makeJob } from "./fixtures";
import { requireInspector } from "./require-inspector";
import type { ConformanceInspector, ConformanceInstance } from "./types";

type RawRead = keyof ConformanceInspector;
type RawArgs<K extends RawRead> = Parameters<NonNullable<ConformanceInspector[K]>>;
type RawResult<K extends RawRead> = Awaited<ReturnType<NonNullable<ConformanceInspector[K]>>>;

/** What every test of the suite reaches: the storage of the current setup and helpers around it. */
export class ConformanceContext {
  #instance: ConformanceInstance | null = null;
  #cleanups: (() => Promise<unknown>)[] = [];

  /**
   * Keeps what the target's `setup` returned, then throws when it has no complete `inspect` (kept
   * first, so that `detach` still runs its `teardown`).
   */
  attach(instance: ConformanceInstance, targetName: string): void {
    this.#instance = instance;
    requireInspector(targetName, instance);
  }

  async detach(): Promise<void> {
    const instance = this.#instance;
    this.#instance = null;
    await instance?.teardown();
  }

  get storage(): Storage {
    if (!this.#instance) throw new Error("The conformance target's setup() did not run or failed.");
    return this.#instance.storage;
  }

  get inspect(): ConformanceInspector {
    if (!this.#instance) throw new Error("The conformance target's setup() did not run or failed.");
    return this.#instance.inspect;
  }

  /** A new company with a random id, stored. */
  async company(name = "Conformance Ltd"): Promise<string> {
    const company = makeCompany({ name });
    await this.storage.companies.upsert(company);
    return company.id;
  }

  /** A new job of the company (`makeJob` with `overrides`), stored. */
  async job(companyId: string, overrides: Partial<JobRecord> = {}): Promise<JobRecord> {
    const job = makeJob(companyId, overrides);
    await this.storage.jobs.insert(job);
    return job;
  }

  /**
   * Adds `application` through `applications.create` on `stores` (the storage, or a transaction's
   * stores), with its job's title as it is now, and again when a concurrent rename answered
   * `job_changed`, as core does. The duplicate window starts at `duplicateSince` (30 days back by
   * default, as a write of core would).
   */
  async createApplication(
    application: NewApplication,
    options: { duplicateSince?: Date; stores?: StorageStores } = {},
  ): Promise<CreateApplicationResult> {
    const stores = options.stores ?? this.storage;
    for (let read = 0; read < 20; read++) {
      const job = await stores.jobs.get(application.companyId, application.jobId);
      if (!job) throw new Error(`No job ${application.jobId} in company ${application.companyId}.`);
      const write = makeApplicationWrite(job, application);
      const result = await stores.applications.create({
        ...write,
        record: application,
        ...(options.duplicateSince ? { duplicateSince: options.duplicateSince } : {}),
      });
      if (result.outcome !== "job_changed") return result;
    }
    throw new Error(`applications.create kept answering job_changed for job ${application.jobId}.`);
  }

  /** Checks a raw read of the database (every target provides them all, see `requireInspector`). */
  async expectRaw<K extends RawRead>(read: K, args: RawArgs<K>, expected: RawResult<K>): Promise<void> {
    const fn = this.inspect[read] as (...a: RawArgs<K>) => Promise<RawResult<K>>;
    expect(await fn.apply(this.inspect, args), `raw read ${read}(${args.join(", ")})`).toEqual(expected);
  }

  /** Registers clean-up work for the end of the current test (run by `afterEach`). */
  defer(cleanup: () => Promise<unknown>): void {
    this.#cleanups.push(cleanup);
  }

  /** Runs the registered clean-ups, newest first, ignoring their failures. */
  async cleanUp(): Promise<void> {
    const cleanups = this.#cleanups.reverse();
    this.#cleanups = [];
    for (const cleanup of cleanups) {
      try {
        await cleanup();
      } catch {
        // Clean-up is best effort; the test itself reports what went wrong.
      }
    }
  }
}

/**
 * The hooks every conformance run shares, inside its `describe`: `attach` (the target's `setup`,
 * kept on `ctx`) once before the tests, the companies a test made removed after each, and `detach`
 * (the target's `teardown`) once after them.
 */
export function conformanceHooks(ctx: ConformanceContext, attach: () => Promise<void>): void {
  beforeAll(attach, 60_000);
  afterEach(async () => {
    await ctx.cleanUp();
  });
  afterAll(async () => {
    await ctx.detach();
  }, 60_000);
}
