import type { ConformanceInspector, ConformanceInstance } from "../storage/conformance";

/** Every method of {@link ConformanceInspector}; the `Record` type keeps it complete. */
const RAW_METHODS: Record<keyof ConformanceInspector, true> = {
  jobApplicationsCount: true,
  countApplications: true,
  countEvents: true,
  countKeys: true,
  rateLimitCount: true,
  countUsage: true,
  usageDayCount: true,
  countIdempotencyRecords: true,
  countDeliveries: true,
  countAttempts: true,
  countNotes: true,
  findText: true,
  removeRows: true,
};

const WHY =
  "The storage conformance suite reads the database directly through `inspect` to check counters, " +
  "cascades, refused writes and that erasing a candidate leaves their personal data nowhere; without " +
  "those reads the checks could not fail. It also deletes the rows it wrote through `inspect.removeRows` " +
  "after its last test, so that a database shared with other data is left as it was. Return `inspect` " +
  "(a ConformanceInspector over the same database) from setup() next to `storage` and `teardown`.";

/**
 * Throws when `instance` has no `inspect` or an `inspect` without every method, so that the suite
 * fails before its first test instead of passing the checks that need them or leaving its rows.
 */
export function requireInspector(targetName: string, instance: ConformanceInstance): void {
  const inspect = (instance as Partial<ConformanceInstance>).inspect as Partial<ConformanceInspector> | undefined;
  if (inspect === undefined || inspect === null || typeof inspect !== "object") {
    throw new TypeError(`Storage conformance "${targetName}": setup() returned no \`inspect\`. ${WHY}`);
  }
  const missing = Object.keys(RAW_METHODS).filter(
    (read) => typeof inspect[read as keyof ConformanceInspector] !== "function",
  );
  if (missing.length > 0) {
    throw new TypeError(
      `Storage conformance "${targetName}": \`inspect\` lacks ${missing.join(", ")}. Every method is required. ${WHY}`,
    );
  }
}
