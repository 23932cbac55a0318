import { statusClassOf, type UsageRecord, utcDay } from "../model/domain";
import type { UsageStore } from "../storage";
import type { StateAccess } from "./access";
import { toStored } from "./copy";
import { createdPage } from "./keyset";
import { deleteOlder, insertNew } from "./rows";

function matches(entry: UsageRecord, query: Parameters<UsageStore["list"]>[0]): boolean {
  const at = entry.createdAt.getTime();
  return (
    entry.companyId === query.companyId &&
    (query.keyId === undefined || entry.keyId === query.keyId) &&
    (query.since === undefined || at >= query.since.getTime()) &&
    (query.until === undefined || at < query.until.getTime()) &&
    (query.status === undefined || entry.status === query.status) &&
    (query.statusClass === undefined || statusClassOf(entry.status) === query.statusClass) &&
    (query.route === undefined || entry.route === query.route)
  );
}

export function createUsageStore(access: StateAccess): UsageStore {
  return {
    // One state operation: the entries and their counts in the roll-up are written together.
    appendMany: (entries) =>
      access.write((state) => {
        const usage = state.write("usage");
        const daily = state.write("usageDaily");
        for (const entry of entries) {
          insertNew(usage, entry, "a usage entry");
          if (entry.companyId === null) continue;
          const day = utcDay(entry.createdAt);
          const statusClass = statusClassOf(entry.status);
          const key = `${entry.companyId}\u0000${day}\u0000${statusClass}`;
          const count = (daily.get(key)?.count ?? 0) + 1;
          daily.set(key, toStored({ companyId: entry.companyId, day, statusClass, count }));
        }
      }),

    list: (query) =>
      access.read((state) =>
        createdPage(
          [...state.read("usage").values()].filter((entry) => matches(entry, query)),
          query,
        ),
      ),

    daily: (query) =>
      access.read((state) =>
        [...state.read("usageDaily").values()]
          .filter((row) => row.companyId === query.companyId && row.day >= query.from && row.day <= query.to)
          .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.statusClass - b.statusClass))
          .map(({ day, statusClass, count }) => ({ day, statusClass, count })),
      ),

    purge: (before, limit) =>
      access.write((state) => {
        const removed = deleteOlder(state.write("usage"), (entry) => entry.createdAt, before, limit);
        const lastKept = utcDay(before);
        const daily = state.write("usageDaily");
        for (const [key, row] of [...daily]) if (row.day < lastKept) daily.delete(key);
        return removed;
      }),
  };
}
