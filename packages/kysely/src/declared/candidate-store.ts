/** `CandidateStore` over declared applications: by e-mail, erasure (a shared person row waits for its last application), retention. */
import { type CandidateStore, eraseInSteps } from "@hireport/core/storage";
import { sql } from "kysely";
import { applicationRows } from "./application-rows";
import { declaredHistory } from "./history";
import type { AnyDb, AnyScope } from "./job-store";
import type { DomainPlan } from "./plan";
import { apiId, companyOf, hasCompany, key, ref, selectColumns, storedId } from "./rows";

/** Ids per `IN (…)` list. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) out.push(items.slice(start, start + CHUNK));
  return out;
}

export function declaredCandidateStore(scope: AnyScope, plan: DomainPlan): CandidateStore {
  const { applications: apps, dialect } = plan;
  const person = apps.candidate;
  const rows = applicationRows(plan);
  const db = scope.db as AnyDb;

  return {
    async listByEmail(companyId, emailNormalized) {
      if (!hasCompany(apps, companyId)) return [];
      let query = rows.select(db).where(rows.email, "=", emailNormalized).where(rows.at("erasedAt"), "is", null);
      if (apps.companyColumn !== null) query = query.where(ref("a", apps.companyColumn), "=", companyId);
      const found = await query.orderBy(rows.at("appliedAt"), "asc").orderBy(ref("a", apps.idColumn), "asc").execute();
      return found.map((row) => rows.read(row as Record<string, unknown>));
    },

    // The locks, the choice and the result are core's; these are the statements it runs, in one
    // transaction, each for a batch of up to 500 applications.
    erase: (input) =>
      scope.atomic((tx) => {
        const txDb = tx.db as AnyDb;
        return eraseInSteps(
          {
            async lockApplications(companyId, ids) {
              if (!hasCompany(apps, companyId)) return [];
              const stored = ids.map((id) => storedId(apps, id)).filter((id): id is string => id !== null);
              if (stored.length === 0) return [];
              let read = rows.select(txDb).where(ref("a", apps.idColumn), "in", stored);
              if (apps.companyColumn !== null) read = read.where(ref("a", apps.companyColumn), "=", companyId);
              const locked = await tx.forUpdate(read.orderBy(ref("a", apps.idColumn), "asc"), "a" as never).execute();
              return locked.map((row) => rows.read(row as Record<string, unknown>));
            },
            async storeErased(records) {
              for (const record of records) {
                const id = storedId(apps, record.id) as string;
                const { [apps.idColumn]: _, ...row } = rows.applicationRow(record);
                if (person.from === null) Object.assign(row, person.erase);
                let update = txDb.updateTable(apps.table).set(row).where(sql.ref(apps.idColumn), "=", id);
                if (apps.companyColumn !== null)
                  update = update.where(sql.ref(apps.companyColumn), "=", record.companyId);
                await update.execute();
                if (person.from === null) continue;
                // The person row: erased with its application, or with `shared` once no application
                // naming it is left unerased (until then the others still need its details).
                const personOf = txDb
                  .selectFrom(`${apps.table} as e`)
                  .select(ref("e", person.from).as("p"))
                  .where(ref("e", apps.idColumn), "=", id);
                let erase = txDb
                  .updateTable(person.table)
                  .set({ ...rows.personRow(record), ...person.erase })
                  .where(sql.ref(person.idColumn), "=", personOf);
                if (person.shared) {
                  const erasedAt = apps.columns.get("erasedAt")?.column as string;
                  erase = erase.where(({ not, exists, selectFrom }) =>
                    not(
                      exists(
                        selectFrom(`${apps.table} as o`)
                          .select(sql.lit(1).as("one"))
                          .whereRef(
                            ref("o", person.from as string) as never,
                            "=",
                            sql.ref(`${person.table}.${person.idColumn}`) as never,
                          )
                          .where(ref("o", erasedAt), "is", null),
                      ),
                    ),
                  );
                }
                await erase.execute();
              }
            },
            deleteNotes: (companyId, applicationIds) =>
              declaredHistory(tx, plan).deleteNotes(companyId, applicationIds),
            redactErasure: (erasure) => tx.redactErasure(erasure),
          },
          input,
        );
      }),

    async listForRetention({ stages, updatedBefore, take }) {
      if (stages.length === 0) return [];
      const own = [apps.idColumn];
      if (apps.companyColumn !== null) own.push(apps.companyColumn);
      const found = await db
        .selectFrom(`${apps.table} as a`)
        .select(selectColumns(dialect, "a", own, new Set()))
        .where(rows.at("erasedAt"), "is", null)
        .where(apps.stage.matches(stages, ref("a", apps.stage.column)))
        .where(rows.at("updatedAt"), "<", rows.column("updatedAt").codec.write(updatedBefore, dialect))
        .orderBy(rows.at("updatedAt"), "asc")
        .orderBy(ref("a", apps.idColumn), "asc")
        .limit(Math.max(0, take))
        .execute();
      return found.map((row) => ({
        companyId: companyOf(apps, row as Record<string, unknown>, key("a", apps.companyColumn ?? "")),
        id: apiId(apps, (row as Record<string, unknown>)[key("a", apps.idColumn)]),
      }));
    },

    async resumeFilesInUse(fileIds) {
      const named = new Set<string>();
      const column = rows.column("resumeFileId").column;
      for (const part of chunks([...new Set(fileIds)])) {
        const found = await db
          .selectFrom(apps.table)
          .select(sql.ref(column).as("file"))
          .where(sql.ref(column), "in", part)
          .execute();
        for (const row of found) if (row.file !== null && row.file !== undefined) named.add(String(row.file));
      }
      return [...named];
    },
  };
}
