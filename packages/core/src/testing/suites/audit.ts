import { describe, expect, it } from "vitest";
import type { AuditRecord } from "../../model/domain";
import type { KeysetPosition } from "../../storage";
import type { ConformanceContext } from "../context";
import { newId, now, orderedIds, shift, TRICKY_STRINGS } from "../fixtures";

function makeAudit(companyId: string, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    id: newId("aud"),
    companyId,
    actor: { type: "host", id: newId("user"), name: "Zoë (owner) 🚀" },
    action: "key.created",
    target: { type: "key", id: newId("key") },
    details: {},
    createdAt: now(),
    ...overrides,
  };
}

/** The audit list: who changed what, when. */
export function auditTests(ctx: ConformanceContext): void {
  describe("audit", () => {
    it("stores every field of an entry and lists it back", async () => {
      const companyId = await ctx.company();
      const entry = makeAudit(companyId, {
        actor: { type: "api_key", id: newId("key"), name: "Careers site 'quoted' \"x\"" },
        action: "webhook_endpoint.updated",
        target: { type: "webhook_endpoint", id: null },
        details: {
          events: [...TRICKY_STRINGS],
          count: 3,
          ratio: 0.25,
          paused: true,
          reason: null,
          url_host: "hooks.example.com",
        },
        createdAt: new Date("2036-02-29T12:00:00.999Z"),
      });
      await ctx.storage.audit.append(entry);
      expect(await ctx.storage.audit.list(companyId, { take: 10 })).toEqual([entry]);
    });

    it("lists newest first, ties by id descending, strictly after `after`, scoped to the company", async () => {
      const companyId = await ctx.company();
      const other = await ctx.company();
      const t = now();
      const [a, b, c] = orderedIds("aud", 3);
      const entries = [
        makeAudit(companyId, { id: b, createdAt: t }),
        makeAudit(companyId, { createdAt: shift(t, 1000) }),
        makeAudit(companyId, { id: a, createdAt: t }),
        makeAudit(companyId, { id: c, createdAt: t }),
        makeAudit(companyId, { createdAt: shift(t, -1000) }),
      ];
      for (const entry of entries) await ctx.storage.audit.append(entry);
      await ctx.storage.audit.append(makeAudit(other, { createdAt: t }));
      const expected = [entries[1], entries[3], entries[0], entries[2], entries[4]].map((entry) => entry?.id);
      expect((await ctx.storage.audit.list(companyId, { take: 100 })).map((entry) => entry.id)).toEqual(expected);
      const seen: string[] = [];
      let after: KeysetPosition | undefined;
      for (let page = 0; page < 10; page++) {
        const rows = await ctx.storage.audit.list(companyId, { take: 2, ...(after ? { after } : {}) });
        seen.push(...rows.map((entry) => entry.id));
        const last = rows.at(-1);
        if (!last || rows.length < 2) break;
        after = { at: last.createdAt, id: last.id };
      }
      expect(seen).toEqual(expected);
    });

    it("writes inside a transaction and rolls back with it", async () => {
      const companyId = await ctx.company();
      const entry = makeAudit(companyId);
      await expect(
        ctx.storage.transaction(async (tx) => {
          await tx.audit.append(entry);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await ctx.storage.audit.list(companyId, { take: 10 })).toEqual([]);
    });

    it("purge deletes entries created before `before` only, and counts them", async () => {
      const companyId = await ctx.company();
      const t = now();
      const old = makeAudit(companyId, { createdAt: new Date("1991-01-01T00:00:00.000Z") });
      const edge = makeAudit(companyId, { createdAt: new Date("1991-01-01T00:00:00.001Z") });
      const recent = makeAudit(companyId, { createdAt: t });
      for (const entry of [old, edge, recent]) await ctx.storage.audit.append(entry);
      expect(await ctx.storage.audit.purge(new Date("1991-01-01T00:00:00.001Z"))).toBeGreaterThanOrEqual(1);
      expect((await ctx.storage.audit.list(companyId, { take: 10 })).map((entry) => entry.id)).toEqual([
        recent.id,
        edge.id,
      ]);
    });
  });
}
