/**
 * The usage log as CSV, streamed: rows are read from the storage in batches as the client reads the
 * answer, so an export of a month of traffic never sits in memory whole. `csv-stringify` quotes
 * the fields and escapes formulas (a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return gets a leading `'`), so that a spreadsheet never runs a route or an IP as a formula.
 */
import type { UsageRecord } from "@hireport/core/storage";
import { stringify } from "csv-stringify/sync";

const HEADER = ["time", "key_id", "key_name", "method", "route", "status", "duration_ms", "request_id", "ip"];
/** Rows per chunk of the answer. */
const CHUNK_ROWS = 500;

function row(entry: UsageRecord, keyNames: ReadonlyMap<string, string>): string[] {
  return [
    entry.createdAt.toISOString(),
    entry.keyId ?? "",
    entry.keyId ? (keyNames.get(entry.keyId) ?? "") : "",
    entry.method,
    entry.route,
    String(entry.status),
    String(entry.durationMs),
    entry.requestId,
    entry.ip ?? "",
  ];
}

function text(rows: string[][]): string {
  return stringify(rows, { escape_formulas: true, record_delimiter: "\r\n" });
}

/** A stream of the CSV of `entries`, header first. */
export function usageCsv(
  entries: AsyncIterable<UsageRecord>,
  keyNames: ReadonlyMap<string, string>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = entries[Symbol.asyncIterator]();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const rows: string[][] = started ? [] : [HEADER];
      started = true;
      while (rows.length < CHUNK_ROWS) {
        const next = await iterator.next();
        if (next.done) {
          if (rows.length > 0) controller.enqueue(encoder.encode(text(rows)));
          controller.close();
          return;
        }
        rows.push(row(next.value, keyNames));
      }
      controller.enqueue(encoder.encode(text(rows)));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
