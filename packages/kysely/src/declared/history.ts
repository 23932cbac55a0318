/**
 * The stage history and the notes of declared applications: in the product's tables, as declared,
 * or in hireport's own (`"hireport"`), written and read as hireport's own stores do.
 */
import type { Actor, NoteRecord, StageChangeRecord } from "@hireport/core";
import { sql } from "kysely";
import { contextOfScope } from "../domain-scope";
import { createApplicationStore } from "../stores/applications";
import { deleteNotes as deleteOwnNotes } from "../stores/candidates";
import type { AnyDb, AnyScope } from "./job-store";
import type { DomainPlan, HistoryPlan } from "./plan";
import { apiId, hasCompany, insertExtras, storedId } from "./rows";

export interface DeclaredHistory {
  addStageChange(record: StageChangeRecord): Promise<void>;
  listStageChanges(companyId: string, applicationId: string): Promise<StageChangeRecord[]>;
  addNote(record: NoteRecord): Promise<void>;
  listNotes(companyId: string, applicationId: string): Promise<NoteRecord[]>;
  /** Deletes the notes of the company's applications `applicationIds` (API ids); how many. */
  deleteNotes(companyId: string, applicationIds: readonly string[]): Promise<number>;
}

type Row = Record<string, unknown>;

export function declaredHistory(scope: AnyScope, plan: DomainPlan): DeclaredHistory {
  const apps = plan.applications;
  const stage = apps.stage;
  const db = scope.db as AnyDb;
  const own = plan.stageChanges === null || plan.notes === null ? createApplicationStore(contextOfScope(scope)) : null;

  const common = (table: HistoryPlan, record: StageChangeRecord | NoteRecord): Row => {
    const values: Row = {
      [table.idColumn]: storedId(table, record.id) ?? record.id,
      [table.application]: storedId(apps, record.applicationId) ?? record.applicationId,
      [table.at.column]: table.at.codec.write(record.createdAt, plan.dialect),
      [table.actor.type]: record.actor.type,
      [table.actor.id]: record.actor.id,
      [table.actor.name]: record.actor.name,
    };
    if (table.companyColumn !== null) values[table.companyColumn] = record.companyId;
    return { ...values, ...insertExtras(plan.dialect, table.onInsert, record) };
  };

  const read = async (table: HistoryPlan, companyId: string, applicationId: string): Promise<Row[]> => {
    const application = storedId(apps, applicationId);
    if (application === null || !hasCompany(table, companyId)) return [];
    let query = db.selectFrom(table.table).selectAll().where(sql.ref(table.application), "=", application);
    if (table.companyColumn !== null) query = query.where(sql.ref(table.companyColumn), "=", companyId);
    return (await query
      .orderBy(sql.ref(table.at.column), "asc")
      .orderBy(sql.ref(table.order), "asc")
      .execute()) as Row[];
  };

  const base = (table: HistoryPlan, row: Row, companyId: string) => ({
    id: apiId(table, row[table.idColumn]),
    applicationId: apiId(apps, row[table.application]),
    companyId,
    actor: { type: row[table.actor.type], id: row[table.actor.id] ?? null, name: row[table.actor.name] } as Actor,
    createdAt: table.at.codec.read(row[table.at.column], plan.dialect) as Date,
  });

  return {
    async addStageChange(record) {
      const table = plan.stageChanges;
      if (table === null) return (own as NonNullable<typeof own>).addStageChange(record);
      await db
        .insertInto(table.table)
        .values({
          ...common(table, record),
          [table.from as string]: record.fromStage === null ? null : stage.write(record.fromStage),
          [table.to as string]: stage.write(record.toStage),
        })
        .execute();
    },
    async listStageChanges(companyId, applicationId) {
      const table = plan.stageChanges;
      if (table === null) return (own as NonNullable<typeof own>).listStageChanges(companyId, applicationId);
      return (await read(table, companyId, applicationId)).map((row) => ({
        ...base(table, row, companyId),
        fromStage: row[table.from as string] === null ? null : stage.read(row[table.from as string]),
        toStage: stage.read(row[table.to as string]),
      })) as StageChangeRecord[];
    },
    async addNote(record) {
      const table = plan.notes;
      if (table === null) return (own as NonNullable<typeof own>).addNote(record);
      await db
        .insertInto(table.table)
        .values({ ...common(table, record), [table.body as string]: record.body })
        .execute();
    },
    async listNotes(companyId, applicationId) {
      const table = plan.notes;
      if (table === null) return (own as NonNullable<typeof own>).listNotes(companyId, applicationId);
      return (await read(table, companyId, applicationId)).map((row) => ({
        ...base(table, row, companyId),
        body: String(row[table.body as string]),
      }));
    },
    async deleteNotes(companyId, applicationIds) {
      if (applicationIds.length === 0) return 0;
      const table = plan.notes;
      if (table === null) return deleteOwnNotes(contextOfScope(scope), companyId, applicationIds);
      const ids = applicationIds.map((id) => storedId(apps, id) ?? id);
      let query = db.deleteFrom(table.table).where(sql.ref(table.application), "in", ids);
      if (table.companyColumn !== null) query = query.where(sql.ref(table.companyColumn), "=", companyId);
      const done = await query.executeTakeFirst();
      return Number(done.numDeletedRows);
    },
  };
}
