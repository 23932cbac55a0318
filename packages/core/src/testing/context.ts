import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { JobRecord } from "../model/domain";
import type { CreateApplicationResult, NewApplication, Storage, StorageStores } from "../storage";
import type { ConformanceInspector, ConformanceInstance, ConformanceRows } from "../storage/conformance";
import { makeApplicationWrite, makeCompany, makeJob } from "./fixtures";
import { requireInspector } from "./require-inspector";

type RawRead = keyof ConformanceInspector;
type RawArgs<K extends RawRead> = Parameters<NonNullable<ConformanceInspector[K]>>;
type RawResult<K extends RawRead> = Awaited<ReturnType<NonNullable<ConformanceInspector[K]>>>;

/** What every test of the suite reaches: the storage of the current setup and helpers around it. */
export class ConformanceContext {
  #instance: ConformanceInstance | null = null;
  #cleanups: (() => Promise<unknown>)[] = [];
  readonly #companyIds = new Set<string>();
  readonly #keyIds = new Set<string>();
  readonly #rateLimitKeys = new Set<string>();

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

  /** A new company with a random id, stored; its rows are removed after the last test. */
  async company(name = "Conformance Ltd"): Promise<string> {
    const company = makeCompany({ name });
    this.ownCompany(company.id);
    await this.storage.companies.upsert(company);
    return company.id;
  }

  /**
   * Notes a company a test stores itself (not through {@link company}), so that its rows are
   * removed after the last test. Returns the id.
   */
  ownCompany(companyId: string): string {
    this.#companyIds.add(companyId);
    return companyId;
  }

  /**
   * Notes an API key id a test claims idempotency keys or writes usage entries for, whether a
   * stored key has it or not, so that those rows are removed after the last test. Returns the id.
   */
  ownKey(keyId: string): string {
    this.#keyIds.add(keyId);
    return keyId;
  }

  /** Notes the key of a rate-limit counter a test counts in, so that it is removed after the last test. Returns the key. */
  ownRateLimitKey(key: string): string {
    this.#rateLimitKeys.add(key);
    return key;
  }

  /** Every id noted so far: what `inspect.removeRows` deletes after the last test. */
  get ownRows(): ConformanceRows {
    return {
      companyIds: [...this.#companyIds],
      keyIds: [...this.#keyIds],
      rateLimitKeys: [...this.#rateLimitKeys],
    };
  }

  /**
   * Deletes the rows of this run (`inspect.removeRows` with {@link ownRows}), then checks through
   * the storage and the raw reads that none is left: no company of the run, none of their keys,
   * applications, events and usage entries, none of its idempotency records and rate-limit counters.
   */
  async removeOwnRows(): Promise<void> {
    const rows = this.ownRows;
    const inspect = this.#instance?.inspect;
    if (!inspect || typeof inspect.removeRows !== "function") return;
    if (rows.companyIds.length + rows.keyIds.length + rows.rateLimitKeys.length === 0) return;
    await inspect.removeRows(rows);
    this.#companyIds.clear();
    this.#keyIds.clear();
    this.#rateLimitKeys.clear();
    const left: string[] = [];
    for (const companyId of rows.companyIds) {
      if (await this.storage.companies.get(companyId)) left.push(`company ${companyId}`);
      const counts = {
        keys: await inspect.countKeys(companyId),
        applications: await inspect.countApplications(companyId),
        events: await inspect.countEvents(companyId),
        "usage entries": await inspect.countUsage(companyId),
      };
      for (const [what, n] of Object.entries(counts)) if (n > 0) left.push(`${n} ${what} of company ${companyId}`);
    }
    for (const keyId of rows.keyIds) {
      const n = await inspect.countIdempotencyRecords(keyId);
      if (n > 0) left.push(`${n} idempotency records of key ${keyId}`);
    }
    for (const key of rows.rateLimitKeys) {
      if ((await inspect.rateLimitCount(key)) !== null) left.push(`rate-limit counter ${key}`);
    }
    expect(left, "rows of the suite that inspect.removeRows left behind").toEqual([]);
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
 * kept on `ctx`) once before the tests, the clean-ups a test deferred after each, and once after
 * the last test the run's rows removed and checked (`removeOwnRows`), then `detach` (the target's
 * `teardown`), also when the removal failed.
 */
export function conformanceHooks(ctx: ConformanceContext, attach: () => Promise<void>): void {
  beforeAll(attach, 60_000);
  afterEach(async () => {
    await ctx.cleanUp();
  });
  afterAll(async () => {
    try {
      await ctx.removeOwnRows();
    } finally {
      await ctx.detach();
    }
  }, 120_000);
}
