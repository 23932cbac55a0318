import type { AuditStore } from "../storage";
import type { StateAccess } from "./access";
import { createdPage } from "./keyset";
import { deleteOlder, insertNew } from "./rows";

export function createAuditStore(access: StateAccess): AuditStore {
  return {
    append: (entry) => access.write((state) => insertNew(state.write("audit"), entry, "an audit entry")),

    list: (companyId, options) =>
      access.read((state) =>
        createdPage(
          [...state.read("audit").values()].filter((entry) => entry.companyId === companyId),
          options,
        ),
      ),

    purge: (before) => access.write((state) => deleteOlder(state.write("audit"), (entry) => entry.createdAt, before)),
  };
}
