/** `ApplicationStore` over declared applications, their person rows, stage history and notes. */

import type { ApplicationStore } from "@hireport/core/storage";
import { createApplicationInSteps, newId } from "@hireport/core/storage";
import { sql } from "kysely";
import { applicationRows } from "./application-rows";
import { declaredHistory } from "./history";
import { type AnyDb, type AnyScope, replicaFirst } from "./job-store";
import type { DomainPlan, FieldColumn } from "./plan";
import { extraValues, fieldColumns, hasCompany, insertExtras, ref, storedId } from "./rows";

export function declaredApplicationStore(scope: AnyScope, plan: DomainPlan): ApplicationStore {
  const { applications: apps, jobs, dialect } = plan;
  const person = apps.candidate;
  const rows = applicationRows(plan);
  const history = declaredHistory(scope, plan);
  const jobColumn = (field: string) => (jobs.columns.get(field) as FieldColumn).column;

  const find = async (db: AnyDb, companyId: string, id: string, lock: boolean) => {
    const stored = storedId(apps, id);
    if (stored === null || !hasCompany(apps, companyId)) return null;
    let query = rows.select(db).where(ref("a", apps.idColumn), "=", stored);
    if (apps.companyColumn !== null) query = query.where(ref("a", apps.companyColumn), "=", companyId);
    const row = await (lock ? scope.forUpdate(query, "a" as never) : query).executeTakeFirst();
    return row ? rows.read(row as Record<string, unknown>) : null;
  };
  const get: ApplicationStore["get"] = async (companyId, id, options) =>
    (replicaFirst(scope, options) ? await find(scope.readDb as AnyDb, companyId, id, false) : null) ??
    find(scope.db as AnyDb, companyId, id, options?.lock === true);

  return {
    // The duplicate rule and its race safety are core's; these are the statements it runs, in one transaction.
    create: (write) =>
      scope.atomic((tx) => {
        const db = tx.db as AnyDb;
        const jobWhere = <Q>(query: Q, companyId: string, jobId: string, alias?: string): Q => {
          const at = (column: string) => (alias ? ref(alias, column) : sql.ref(column));
          let out = (query as { where: (...a: unknown[]) => Q }).where(at(jobs.idColumn), "=", storedId(jobs, jobId));
          if (jobs.companyColumn !== null)
            out = (out as { where: (...a: unknown[]) => Q }).where(at(jobs.companyColumn), "=", companyId);
          return out;
        };
        return createApplicationInSteps(
          {
            async lockJob(companyId, jobId) {
              if (storedId(jobs, jobId) === null || !hasCompany(jobs, companyId)) return null;
              const read = jobWhere(
                db
                  .selectFrom(`${jobs.table} as j`)
                  .select([ref("j", jobColumn("title")).as("title"), ref("j", jobColumn("updatedAt")).as("updatedAt")]),
                companyId,
                jobId,
                "j",
              );
              const job = await tx.forUpdate(read, "j" as never).executeTakeFirst();
              if (!job) return null;
              const title = jobs.columns.get("title") as FieldColumn;
              const updated = jobs.columns.get("updatedAt") as FieldColumn;
              return {
                title: String(title.codec.read(job.title, dialect)),
                updatedAt: updated.codec.read(job.updatedAt, dialect) as Date,
              };
            },
            async findRecent(_companyId, jobId, emailNormalized, since) {
              const recent = rows
                .select(db)
                .clearSelect()
                .select(ref("a", apps.idColumn).as("id"))
                .where(ref("a", apps.jobColumn), "=", storedId(jobs, jobId))
                .where(rows.email, "=", emailNormalized)
                .where(rows.at("appliedAt"), ">=", rows.column("appliedAt").codec.write(since, dialect))
                .where(rows.at("erasedAt"), "is", null)
                .limit(1);
              const found = await tx.currentRead(recent).executeTakeFirst();
              return found ? `${apps.strip ?? ""}${String(found.id)}` : null;
            },
            async countApplication(companyId, jobId) {
              if (jobs.countColumn === null) return;
              const count = sql.ref(jobs.countColumn);
              await jobWhere(
                db.updateTable(jobs.table).set({ [jobs.countColumn]: sql`${count} + 1` }),
                companyId,
                jobId,
              ).execute();
            },
            async insertApplication(record) {
              const values = rows.applicationRow(record);
              if (person.from !== null) values[person.from] = await personFor(tx, record);
              Object.assign(values, insertExtras(dialect, apps.onInsert, record));
              await db.insertInto(apps.table).values(values).execute();
            },
            insertStageChange: (record) => declaredHistory(tx, plan).addStageChange(record),
            appendEvent: (event) => tx.appendEvent(event),
          },
          write,
        );
      }),

    get,

    update: (companyId, id, patch) =>
      scope.atomic(async (tx) => {
        const stored = storedId(apps, id);
        if (stored === null || !hasCompany(apps, companyId)) return null;
        const db = tx.db as AnyDb;
        const { stage, ...fields } = patch;
        const set: Record<string, unknown> = fieldColumns(dialect, apps, fields);
        if (stage !== undefined) set[apps.stage.column] = apps.stage.set(stage, sql.ref(apps.stage.column));
        const extras = apps.extras === null ? {} : extraValues(apps, fields);
        if (apps.extras !== null && Object.keys(extras).length > 0) {
          let current = db
            .selectFrom(`${apps.table} as a`)
            .select(ref("a", apps.extras).as("extras"))
            .where(ref("a", apps.idColumn), "=", stored);
          if (apps.companyColumn !== null) current = current.where(ref("a", apps.companyColumn), "=", companyId);
          const row = await tx.forUpdate(current, "a" as never).executeTakeFirst();
          if (!row) return null;
          const kept =
            typeof row.extras === "string" && row.extras !== "" ? JSON.parse(row.extras) : (row.extras ?? {});
          set[apps.extras] = JSON.stringify({ ...kept, ...extras });
        }
        let update = db.updateTable(apps.table).set(set).where(sql.ref(apps.idColumn), "=", stored);
        if (apps.companyColumn !== null) update = update.where(sql.ref(apps.companyColumn), "=", companyId);
        await update.execute();
        return find(db, companyId, id, false);
      }),

    async list({ companyId, jobId, stage, updatedSince, after, take }) {
      if (!hasCompany(apps, companyId)) return [];
      let query = rows.select(scope.readDb as AnyDb);
      if (apps.companyColumn !== null) query = query.where(ref("a", apps.companyColumn), "=", companyId);
      if (jobId !== undefined) {
        const job = storedId(jobs, jobId);
        if (job === null) return [];
        query = query.where(ref("a", apps.jobColumn), "=", job);
      }
      if (stage !== undefined) query = query.where(apps.stage.matches([stage], ref("a", apps.stage.column)));
      if (updatedSince) {
        query = query.where(rows.at("updatedAt"), ">=", rows.column("updatedAt").codec.write(updatedSince, dialect));
      }
      const applied = rows.at("appliedAt");
      const idRef = ref("a", apps.idColumn);
      if (after) {
        const at = rows.column("appliedAt").codec.write(after.at, dialect);
        const id = storedId(apps, after.id) ?? after.id;
        query = query.where((eb) => eb.or([eb(applied, "<", at), eb.and([eb(applied, "=", at), eb(idRef, "<", id)])]));
      }
      const found = await query.orderBy(applied, "desc").orderBy(idRef, "desc").limit(Math.max(0, take)).execute();
      return found.map((row) => rows.read(row as Record<string, unknown>));
    },

    addStageChange: (record) => history.addStageChange(record),
    listStageChanges: (companyId, applicationId) => history.listStageChanges(companyId, applicationId),
    addNote: (record) => history.addNote(record),
    listNotes: (companyId, applicationId) => history.listNotes(companyId, applicationId),
  };

  /**
   * The person row of a new application, on the transaction: a row of its own, or with `shared` the
   * company's row of the same normalized e-mail (its details brought up to this application's), or
   * a new one. Returns the value of the application's `from` column.
   */
  async function personFor(tx: AnyScope, record: Parameters<typeof rows.applicationRow>[0]): Promise<string> {
    const db = tx.db as AnyDb;
    const values = rows.personRow(record);
    if (person.shared) {
      const email = person.columns.get("emailNormalized") as FieldColumn;
      let existing = db
        .selectFrom(`${person.table} as p`)
        .select(ref("p", person.idColumn).as("id"))
        .where(ref("p", email.column), "=", record.emailNormalized);
      if (person.companyColumn !== null)
        existing = existing.where(ref("p", person.companyColumn), "=", record.companyId);
      const found = await tx.forUpdate(existing.limit(1), "p" as never).executeTakeFirst();
      if (found) {
        await db.updateTable(person.table).set(values).where(sql.ref(person.idColumn), "=", found.id).execute();
        return String(found.id);
      }
    }
    const id = storedId(person, newId("cnd", record.appliedAt)) as string;
    const row: Record<string, unknown> = { ...values, [person.idColumn]: id };
    if (person.companyColumn !== null) row[person.companyColumn] = record.companyId;
    Object.assign(row, insertExtras(dialect, person.onInsert, record));
    await db.insertInto(person.table).values(row).execute();
    return id;
  }
}
