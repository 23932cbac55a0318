/**
 * Applications, stage changes and notes: the joined read of applications, and the rows of stage
 * changes and notes to records and back. An application row's own mapping is generated from the
 * declared fields: `generated/application-rows.ts`.
 */
import type { ApplicationStage, NoteRecord, StageChangeRecord } from "@hireport/core";
import type { StoreContext } from "../context";
import type { ApplicationTable, NoteTable, StageChangeTable } from "../schema";
import { fromDb } from "../values";
import { actorColumns, toActor } from "./actors";
import { selectAll } from "./rows";

export type ApplicationRow = ApplicationTable & { job_title: string };

/**
 * Applications with their job's title, joined (one query whatever the number of rows), read
 * through the index `index` when one is named: the rows of `toApplication`.
 */
export function selectApplications(ctx: StoreContext, index?: string) {
  return selectAll(ctx, "application", "a", index)
    .innerJoin(ctx.tableAs("job", "j"), "j.id", "a.job_id")
    .select("j.title as job_title");
}

export function toStageChange(row: StageChangeTable): StageChangeRecord {
  return {
    id: row.id,
    applicationId: row.application_id,
    companyId: row.company_id,
    fromStage: row.from_stage as ApplicationStage | null,
    toStage: row.to_stage as ApplicationStage,
    actor: toActor(row),
    createdAt: fromDb(row.created_at),
  };
}

export function toNote(row: NoteTable): NoteRecord {
  return {
    id: row.id,
    applicationId: row.application_id,
    companyId: row.company_id,
    body: row.body,
    actor: toActor(row),
    createdAt: fromDb(row.created_at),
  };
}

/** The columns of a stage-history row (all but the generated `seq`). */
export function stageChangeRow(ctx: StoreContext, record: StageChangeRecord) {
  const row = {
    id: record.id,
    application_id: record.applicationId,
    company_id: record.companyId,
    from_stage: record.fromStage,
    to_stage: record.toStage,
    ...actorColumns(record.actor),
    created_at: ctx.toDb(record.createdAt),
  } satisfies Record<Exclude<keyof StageChangeTable, "seq">, unknown>;
  return row;
}

/** The columns of a note row (all but the generated `seq`). */
export function noteRow(ctx: StoreContext, record: NoteRecord) {
  const row = {
    id: record.id,
    application_id: record.applicationId,
    company_id: record.companyId,
    body: record.body,
    ...actorColumns(record.actor),
    created_at: ctx.toDb(record.createdAt),
  } satisfies Record<Exclude<keyof NoteTable, "seq">, unknown>;
  return row;
}
