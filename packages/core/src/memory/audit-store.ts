import type { AuditStore } from "../storage";
import type { StateAccess } from "./access";
import { copy, toStored } from "./copy";
import { keysetPage } from "./keyset";

export function createAuditStore(access: StateAccess): AuditStore {
  return {
    append: (entry) =>
      access.write((state) => {
        const audit = state.write("audit");
        if (audit.has(entry.id)) throw new Error(`The memory storage already has an audit entry ${entry.id}.`);
        audit.set(entry.id, toStored(entry));
      }),

    list: (companyId, options) =>
      access.read((state) =>
        keysetPage(
          [...state.read("audit").values()].filter((entry) => entry.companyId === companyId),
          (entry) => entry.createdAt,
          (entry) => entry.id,
          options.after,
          options.take,
        ).map((entry) => copy(entry)),
      ),

    purge: (before) =>
      access.write((state) => {
        const audit = state.write("audit");
        let removed = 0;
        for (const entry of [...audit.values()]) {
          if (entry.createdAt.getTime() < before.getTime()) {
            audit.delete(entry.id);
            removed += 1;
          }
        }
        return removed;
      }),
  };
}
