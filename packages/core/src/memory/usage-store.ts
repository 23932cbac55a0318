import type { UsageStore } from "../storage";
import type { StateAccess } from "./access";
import { copy, toStored } from "./copy";
import { keysetPage } from "./keyset";

export function createUsageStore(access: StateAccess): UsageStore {
  return {
    appendMany: (entries) =>
      access.write((state) => {
        const usage = state.write("usage");
        for (const entry of entries) {
          if (usage.has(entry.id)) throw new Error(`The memory storage already has a usage entry ${entry.id}.`);
          usage.set(entry.id, toStored(entry));
        }
      }),

    list: (query) =>
      access.read((state) => {
        const since = query.since?.getTime();
        const rows = [...state.read("usage").values()].filter(
          (entry) =>
            entry.companyId === query.companyId &&
            (query.keyId === undefined || entry.keyId === query.keyId) &&
            (since === undefined || entry.createdAt.getTime() >= since),
        );
        return keysetPage(
          rows,
          (entry) => entry.createdAt,
          (entry) => entry.id,
          query.after,
          query.take,
        ).map((entry) => copy(entry));
      }),

    purge: (before) =>
      access.write((state) => {
        const usage = state.write("usage");
        let removed = 0;
        for (const entry of [...usage.values()]) {
          if (entry.createdAt.getTime() < before.getTime()) {
            usage.delete(entry.id);
            removed += 1;
          }
        }
        return removed;
      }),
  };
}
