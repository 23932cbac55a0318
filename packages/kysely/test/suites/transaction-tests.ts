import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { kyselyStorage } from "../../src/index";
import { createDb } from "../helpers/databases";
import * as make from "../helpers/records";
import type { SuiteContext } from "./suite-context";

export function defineTransactionTests(suite: SuiteContext): void {
  const { dialect, prefix, sqliteFile, t, storage, database } = suite;

  describe("transactions and the outbox", () => {
    it("rolls back a change and its event together when the transaction fails between them", async () => {
      const co = await make.addCompany(storage);
      const record = make.job(co.id);
      const ev = make.event(co.id);
      const boom = new Error("killed between the change and its event");
      await expect(
        storage.transaction(async (tx) => {
          await tx.jobs.insert(record);
          throw boom;
        }),
      ).rejects.toBe(boom);
      await expect(
        storage.transaction(async (tx) => {
          await tx.jobs.insert(record);
          await tx.events.append(ev);
          throw boom;
        }),
      ).rejects.toBe(boom);
      const jobs = await sql`select id from ${sql.table(t("job"))} where id = ${record.id}`.execute(database);
      const events = await sql`select id from ${sql.table(t("event"))} where id = ${ev.id}`.execute(database);
      expect(jobs.rows).toEqual([]);
      expect(events.rows).toEqual([]);
      await storage.transaction(async (tx) => {
        await tx.jobs.insert(record);
        await tx.events.append(ev);
      });
      expect(await storage.jobs.get(co.id, record.id)).not.toBeNull();
      expect(await storage.events.get(ev.id)).toEqual(ev);
    });

    it.runIf(dialect !== "sqlite")("rolls back when the connection dies between the change and its event", async () => {
      const name = `hireport-kill-${prefix}`;
      const victimDb = await createDb(dialect, { sqliteFile, poolSize: 1, applicationName: name });
      const victim = kyselyStorage({ db: victimDb, tablePrefix: prefix });
      // MySQL: the pool has one connection, the one the transaction will run on.
      const mysqlId =
        dialect === "mysql"
          ? Number((await sql<{ id: number }>`select connection_id() as id`.execute(victimDb)).rows[0]?.id)
          : 0;
      const co = await make.addCompany(storage);
      const record = make.job(co.id);
      const ev = make.event(co.id);
      try {
        await expect(
          victim.transaction(async (tx) => {
            await tx.jobs.insert(record);
            if (dialect === "postgres") {
              const killed = await sql<{ ok: boolean }>`select pg_terminate_backend(pid) as ok from pg_stat_activity
                  where application_name = ${name} and state = 'idle in transaction'`.execute(database);
              expect(killed.rows).toHaveLength(1);
            } else {
              await sql`kill ${sql.raw(String(mysqlId))}`.execute(database);
            }
            await tx.events.append(ev);
          }),
        ).rejects.toThrow();
      } finally {
        await victimDb.destroy().catch(() => undefined);
      }
      const jobs = await sql`select id from ${sql.table(t("job"))} where id = ${record.id}`.execute(database);
      const events = await sql`select id from ${sql.table(t("event"))} where id = ${ev.id}`.execute(database);
      expect(jobs.rows).toEqual([]);
      expect(events.rows).toEqual([]);
    });
  });
}
