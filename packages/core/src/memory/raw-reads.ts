import type { ConformanceInspector, ConformanceRows } from "../storage/conformance";
import { MemoryState, type TableName } from "./state";

/**
 * Raw reads of the committed state of a memory storage, past the stores and their rules: the
 * `inspect` slot of `runStorageConformance` from `@hireport/core/testing`, whose reads they are.
 * Tests use them to check a write without trusting the storage's own reads. `findText` names
 * `table.field` paths into the stored records (`applications.candidate.email`); `removeRows`
 * deletes the rows of the suite's companies, keys and rate-limit counters, as the suite asks.
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

/** Whether `row` is a record whose `field` is one of `values`. */
function holds(row: unknown, field: string, values: ReadonlySet<string>): boolean {
  if (row === null || typeof row !== "object") return false;
  const value = (row as Record<string, unknown>)[field];
  return typeof value === "string" && values.has(value);
}

/** Deletes from `state` the rows of `rows` (see `ConformanceInspector.removeRows`). */
function removeRows(state: MemoryState, rows: ConformanceRows): void {
  const companies = new Set(rows.companyIds);
  const keys = new Set(rows.keyIds);
  const counters = new Set(rows.rateLimitKeys);
  const endpoints = new Set<string>();
  const deliveries = new Set<string>();
  for (const endpoint of state.read("endpoints").values())
    if (companies.has(endpoint.companyId)) endpoints.add(endpoint.id);
  for (const delivery of state.read("deliveries").values())
    if (companies.has(delivery.companyId)) deliveries.add(delivery.id);
  for (const table of MemoryState.tableNames) {
    const map = state.read(table) as ReadonlyMap<string, unknown>;
    const doomed = [...map].filter(([key, row]) => {
      switch (table) {
        case "companies":
          return companies.has(key);
        case "sequences":
          return companies.has(key.slice(0, key.indexOf("\u0000")));
        case "rateLimits":
          return counters.has(key);
        case "idempotency":
          return holds(row, "keyId", keys);
        case "usage":
          return holds(row, "companyId", companies) || holds(row, "keyId", keys);
        case "attempts":
          return holds(row, "deliveryId", deliveries) || holds(row, "endpointId", endpoints);
        default:
          return holds(row, "companyId", companies);
      }
    });
    if (doomed.length === 0) continue;
    const writable = state.write(table) as Map<string, unknown>;
    for (const [key] of doomed) writable.delete(key);
  }
}

/**
 * Raw reads of whatever state `current` returns when they run, and `removeRows` through `write`
 * (one write of the storage, waiting for any running transaction).
 */
export function createRawReads(
  current: () => MemoryState,
  write: (op: (state: MemoryState) => void) => Promise<void>,
): MemoryRawReads {
  return {
    removeRows: (rows) => write((state) => removeRows(state, rows)),
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
