import type { ConformanceInspector } from "../testing/types";
import { MemoryState, type TableName } from "./state";

/**
 * Raw reads of the committed state of a memory storage, past the stores and their rules: the
 * `inspect` slot of `runStorageConformance` from `@hireport/core/testing`, whose reads they are.
 * Tests use them to check a write without trusting the storage's own reads. `findText` names
 * `table.field` paths into the stored records (`applications.candidate.email`).
 */
export type MemoryRawReads = ConformanceInspector;

/** Adds the path of every string inside `value` that contains `needle` (already lower-cased). */
function collectText(value: unknown, path: string, needle: string, found: Set<string>): void {
  if (typeof value === "string") {
    if (value.toLowerCase().includes(needle)) found.add(path);
    return;
  }
  if (value === null || typeof value !== "object" || value instanceof Date) return;
  if (Array.isArray(value)) {
    for (const item of value) collectText(item, path, needle, found);
    return;
  }
  for (const [key, item] of Object.entries(value)) collectText(item, `${path}.${key}`, needle, found);
}

function count<T>(rows: Iterable<T>, test: (row: T) => boolean): number {
  let n = 0;
  for (const row of rows) if (test(row)) n += 1;
  return n;
}

/** Raw reads of whatever state `current` returns when they run. */
export function createRawReads(current: () => MemoryState): MemoryRawReads {
  return {
    jobApplicationsCount: async (companyId, jobId) => {
      const job = current().read("jobs").get(jobId);
      return job && job.companyId === companyId ? job.applicationsCount : null;
    },
    countApplications: async (companyId, jobId) =>
      count(
        current().read("applications").values(),
        (row) => row.companyId === companyId && (jobId === undefined || row.jobId === jobId),
      ),
    countEvents: async (companyId) => count(current().read("events").values(), (row) => row.companyId === companyId),
    countKeys: async (companyId) => count(current().read("keys").values(), (row) => row.companyId === companyId),
    rateLimitCount: async (key) => current().read("rateLimits").get(key)?.count ?? null,
    countUsage: async (companyId) => count(current().read("usage").values(), (row) => row.companyId === companyId),
    usageDayCount: async (companyId, day, statusClass) =>
      current().read("usageDaily").get(`${companyId}\u0000${day}\u0000${statusClass}`)?.count ?? null,
    countIdempotencyRecords: async (keyId) =>
      count(current().read("idempotency").values(), (row) => row.keyId === keyId),
    countDeliveries: async (endpointId) =>
      count(current().read("deliveries").values(), (row) => row.endpointId === endpointId),
    countAttempts: async (deliveryId) =>
      count(current().read("attempts").values(), (row) => row.deliveryId === deliveryId),
    countNotes: async (companyId, applicationId) =>
      count(
        current().read("notes").values(),
        (row) => row.companyId === companyId && row.applicationId === applicationId,
      ),
    findText: async (text) => {
      const state = current();
      const found = new Set<string>();
      for (const table of MemoryState.tableNames) {
        for (const [key, row] of state.read(table as TableName) as ReadonlyMap<unknown, unknown>) {
          collectText(key, `${table}.<key>`, text.toLowerCase(), found);
          collectText(row, table, text.toLowerCase(), found);
        }
      }
      return [...found].sort();
    },
  };
}
