/** `JobStore` over a declared jobs table. */
import type { JobRecord } from "@hireport/core";
import type { GetOptions, JobStore } from "@hireport/core/storage";
import { type Kysely, sql } from "kysely";
import type { DomainScope } from "../domain-scope";
import type { DomainPlan } from "./plan";
import {
  apiId,
  companyOf,
  extraValues,
  fieldColumns,
  hasCompany,
  insertExtras,
  key,
  ref,
  selectColumns,
  selectFields,
  storedId,
} from "./rows";

// biome-ignore lint/suspicious/noExplicitAny: the declared tables are named at run time; the declaration's types check the names.
export type AnyDb = Kysely<any>;
export type AnyScope = DomainScope<unknown>;

/** Whether a read by id tries the replica first: it may lag, takes no lock, and there is one. */
export const replicaFirst = (scope: AnyScope, options: GetOptions | undefined): boolean =>
  options?.replica === true && options.lock !== true && scope.readDb !== scope.db;

const jobRowsOf = new WeakMap<DomainPlan, ReturnType<typeof makeJobRows>>();

/** The jobs of a declared table as records: the select and its reader (made once per plan). */
export function jobRows(plan: DomainPlan): ReturnType<typeof makeJobRows> {
  let rows = jobRowsOf.get(plan);
  if (!rows) {
    rows = makeJobRows(plan);
    jobRowsOf.set(plan, rows);
  }
  return rows;
}

function makeJobRows(plan: DomainPlan) {
  const { jobs, applications, dialect } = plan;
  const fields = selectFields(dialect, jobs, "j");
  const own = [jobs.idColumn, jobs.status.column];
  if (jobs.companyColumn !== null) own.push(jobs.companyColumn);
  if (jobs.countColumn !== null) own.push(jobs.countColumn);
  const counted = sql`(select count(*) from ${sql.table(applications.table)} as ${sql.id("ca")}
    where ${ref("ca", applications.jobColumn)} = ${ref("j", jobs.idColumn)})`.as(key("j", "__count"));
  return {
    select(db: AnyDb) {
      return db
        .selectFrom(`${jobs.table} as j`)
        .select([...selectColumns(dialect, "j", own, new Set()), ...fields.selection])
        .$if(jobs.countColumn === null, (query) => query.select(counted));
    },
    read(row: Record<string, unknown>): JobRecord {
      return {
        ...fields.fields(row),
        id: apiId(jobs, row[key("j", jobs.idColumn)]),
        companyId: companyOf(jobs, row, key("j", jobs.companyColumn ?? "")),
        status: jobs.status.read(row[key("j", jobs.status.column)]),
        applicationsCount: Number(row[key("j", jobs.countColumn ?? "__count")]),
      } as JobRecord;
    },
  };
}

export function declaredJobStore(scope: AnyScope, plan: DomainPlan): JobStore {
  const { jobs, dialect } = plan;
  const rows = jobRows(plan);
  const column = (field: string) => jobs.columns.get(field) as NonNullable<ReturnType<typeof jobs.columns.get>>;
  const write = (field: string, value: unknown) => column(field).codec.write(value, dialect);

  const find = async (db: AnyDb, companyId: string, id: string, lock: boolean) => {
    const stored = storedId(jobs, id);
    if (stored === null || !hasCompany(jobs, companyId)) return null;
    let query = rows.select(db).where(ref("j", jobs.idColumn), "=", stored);
    if (jobs.companyColumn !== null) query = query.where(ref("j", jobs.companyColumn), "=", companyId);
    const row = await (lock ? scope.forUpdate(query, "j" as never) : query).executeTakeFirst();
    return row ? rows.read(row) : null;
  };

  return {
    async insert(record) {
      const id = storedId(jobs, record.id);
      if (id === null || !hasCompany(jobs, record.companyId)) {
        throw new Error(
          `@hireport/kysely declaredDomain: ${jobs.table} cannot hold job ${record.id} of company ${record.companyId}.`,
        );
      }
      const values: Record<string, unknown> = {
        ...fieldColumns(dialect, jobs, record as unknown as Record<string, unknown>),
        [jobs.idColumn]: id,
        [jobs.status.column]: jobs.status.write(record.status),
      };
      if (jobs.companyColumn !== null) values[jobs.companyColumn] = record.companyId;
      if (jobs.countColumn !== null) values[jobs.countColumn] = record.applicationsCount;
      if (jobs.extras !== null)
        values[jobs.extras] = JSON.stringify(extraValues(jobs, record as unknown as Record<string, unknown>));
      Object.assign(values, insertExtras(dialect, jobs.onInsert, record));
      await (scope.db as AnyDb).insertInto(jobs.table).values(values).execute();
    },

    get: async (companyId, id, options) =>
      (replicaFirst(scope, options) ? await find(scope.readDb as AnyDb, companyId, id, false) : null) ??
      find(scope.db as AnyDb, companyId, id, options?.lock === true),

    update: (companyId, id, patch) =>
      scope.atomic(async (tx) => {
        const stored = storedId(jobs, id);
        if (stored === null || !hasCompany(jobs, companyId)) return null;
        const db = tx.db as AnyDb;
        const { status, ...fields } = patch;
        const set: Record<string, unknown> = fieldColumns(dialect, jobs, fields);
        if (status !== undefined) set[jobs.status.column] = jobs.status.set(status, sql.ref(jobs.status.column));
        const extras = jobs.extras === null ? {} : extraValues(jobs, fields);
        if (jobs.extras !== null && Object.keys(extras).length > 0) {
          // Only the fields present change: the rest of the extras is read, under a lock, and kept.
          let current = db
            .selectFrom(`${jobs.table} as j`)
            .select(ref("j", jobs.extras).as("extras"))
            .where(ref("j", jobs.idColumn), "=", stored);
          if (jobs.companyColumn !== null) current = current.where(ref("j", jobs.companyColumn), "=", companyId);
          const row = await tx.forUpdate(current, "j" as never).executeTakeFirst();
          if (!row) return null;
          const kept =
            typeof row.extras === "string" && row.extras !== "" ? JSON.parse(row.extras) : (row.extras ?? {});
          set[jobs.extras] = JSON.stringify({ ...kept, ...extras });
        }
        let update = db.updateTable(jobs.table).set(set).where(sql.ref(jobs.idColumn), "=", stored);
        if (jobs.companyColumn !== null) update = update.where(sql.ref(jobs.companyColumn), "=", companyId);
        await update.execute();
        return find(db, companyId, id, false);
      }),

    async list({ companyId, statuses, updatedSince, publicOn, after, take }) {
      if (statuses?.length === 0 || !hasCompany(jobs, companyId)) return [];
      let query = rows.select(scope.readDb as AnyDb);
      if (jobs.companyColumn !== null) query = query.where(ref("j", jobs.companyColumn), "=", companyId);
      const status = ref("j", jobs.status.column);
      if (statuses) query = query.where(jobs.status.matches(statuses, status));
      const created = ref("j", column("createdAt").column);
      if (updatedSince)
        query = query.where(ref("j", column("updatedAt").column), ">=", write("updatedAt", updatedSince));
      if (publicOn !== undefined) {
        const closing = ref("j", column("closingDate").column);
        query = query
          .where(jobs.status.matches(["active"], status))
          .where(ref("j", column("hidden").column), "=", write("hidden", false))
          .where((eb) => eb.or([eb(closing, "is", null), eb(closing, ">=", publicOn)]));
      }
      if (after) {
        const at = write("createdAt", after.at);
        const id = storedId(jobs, after.id) ?? after.id;
        const idRef = ref("j", jobs.idColumn);
        query = query.where((eb) => eb.or([eb(created, "<", at), eb.and([eb(created, "=", at), eb(idRef, "<", id)])]));
      }
      const found = await query
        .orderBy(created, "desc")
        .orderBy(ref("j", jobs.idColumn), "desc")
        .limit(Math.max(0, take))
        .execute();
      return found.map((row) => rows.read(row as Record<string, unknown>));
    },
  };
}
