import { cursorScope } from "../model/cursor";
import type { AuditRecord } from "../model/domain";
import { newId } from "../model/ids";
import { type Page, pageRequest, toPage } from "../model/paging";
import type { Runtime } from "../runtime/runtime";
import type { StorageStores } from "../storage";

/** What a change records in the audit list; the id and the time are added. */
export type AuditInput = Omit<AuditRecord, "id" | "createdAt" | "details"> & {
  details?: AuditRecord["details"];
};

/** A new audit entry at `now`, with a fresh `aud_` id. */
export function auditEntry(input: AuditInput, now: Date): AuditRecord {
  return { ...input, details: input.details ?? {}, id: newId("aud", now), createdAt: now };
}

/** Appends an audit entry through `stores`: the `tx` of the change it records, so both commit together. */
export async function recordAudit(
  stores: Pick<StorageStores, "audit">,
  input: AuditInput,
  now: Date,
): Promise<AuditRecord> {
  const entry = auditEntry(input, now);
  await stores.audit.append(entry);
  return entry;
}

/** Options of `api.audit.list`. */
export interface AuditListOptions {
  /** Page size, 1 to 100. @default 25 */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
}

/** The company's audit list for host code (and the console): who changed what, when; newest first. */
export class AuditLog {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  async list(companyId: string, options: AuditListOptions = {}): Promise<Page<AuditRecord>> {
    const { storage, cursors } = this.#runtime;
    const request = await pageRequest(cursors, cursorScope("audit", companyId, {}), options);
    const rows = await storage.audit.list(companyId, {
      take: request.limit + 1,
      ...(request.after ? { after: request.after } : {}),
    });
    return toPage(cursors, request, rows, (entry) => entry.createdAt);
  }

  /** Records an entry on its own (a change with no transaction of its own, such as an export). */
  record(input: AuditInput): Promise<AuditRecord> {
    return recordAudit(this.#runtime.storage, input, this.#runtime.clock.now());
  }
}
