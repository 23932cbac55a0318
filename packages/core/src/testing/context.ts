import { expect } from "vitest";
import type { Storage } from "../storage";
import { makeCompany } from "./fixtures";
import type { ConformanceInspector, ConformanceInstance } from "./types";

type RawRead = keyof ConformanceInspector;
type RawArgs<K extends RawRead> = Parameters<NonNullable<ConformanceInspector[K]>>;
type RawResult<K extends RawRead> = Awaited<ReturnType<NonNullable<ConformanceInspector[K]>>>;

/** What every test of the suite reaches: the storage of the current setup and helpers around it. */
export class ConformanceContext {
  #instance: ConformanceInstance | null = null;
  #cleanups: (() => Promise<unknown>)[] = [];

  attach(instance: ConformanceInstance): void {
    this.#instance = instance;
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
    return this.#instance?.inspect ?? {};
  }

  /** A new company with a random id, stored. */
  async company(name = "Conformance Ltd"): Promise<string> {
    const company = makeCompany({ name });
    await this.storage.companies.upsert(company);
    return company.id;
  }

  /** Checks a raw read of the database when the target provides it; does nothing otherwise. */
  async expectRaw<K extends RawRead>(read: K, args: RawArgs<K>, expected: RawResult<K>): Promise<void> {
    const fn = this.inspect[read] as ((...a: RawArgs<K>) => Promise<RawResult<K>>) | undefined;
    if (!fn) return;
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
