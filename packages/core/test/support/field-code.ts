/**
 * Writes the straight-line mapping code of the Job fields from their declaration (`JOB_FIELDS`):
 * the serializer's Job, the careers site's public fields, and `@hireport/kysely`'s row mapping.
 * The code is generated ahead of time rather than at load (no `new Function`: edge runtimes refuse
 * it) and rather than walked per row (a loop over a field list with keyed reads and writes is
 * slower than an object literal on the hot path of GET /jobs).
 *
 * `test/generated-field-code.test.ts` fails when a committed file differs from what this writes;
 * `pnpm --filter @hireport/core generate` rewrites them.
 */
import { type FieldSpec, JOB_FIELDS, jobSchema } from "../../src/index";

/** Where each generated file lives, relative to this file. */
export const GENERATED_FILES = {
  jobWire: "../../src/fields/generated/job-wire.ts",
  jobRows: "../../../kysely/src/stores/generated/job-rows.ts",
} as const;

const HEADER = (what: string) => `/**
 * ${what}
 * Generated from JOB_FIELDS (packages/core/src/fields/job.ts) by packages/core/test/support/field-code.ts.
 * Do not edit: run \`pnpm --filter @hireport/core generate\`.
 */
`;

type Field = readonly [name: string, spec: FieldSpec];

const FIELDS: readonly Field[] = Object.entries(JOB_FIELDS);

function byWire(wire: string): Field | undefined {
  return FIELDS.find(([, spec]) => spec.wire === wire);
}

/** The Job's keys that are not declared fields: how the serializer fills each. */
const WIRE_SPECIALS: Record<string, string> = {
  id: "job.id",
  reference: "job.reference",
  status: "job.status",
  open: 'job.status === "active"',
  applications_count: "job.applicationsCount",
  public_url: "publicUrl",
  created_at: "job.createdAt.toISOString()",
  updated_at: "job.updatedAt.toISOString()",
};

/** The salary object of `source`, its keys in declaration order. */
function salaryObject(source: string, copy: boolean, only?: (spec: FieldSpec) => boolean): string {
  const entries = FIELDS.filter(([, spec]) => spec.placement === "salary" && (!only || only(spec))).map(
    ([name, spec]) => `      ${spec.salaryKey}: ${value(`${source}.${name}`, spec, copy)},`,
  );
  return `{\n${entries.join("\n")}\n    }`;
}

/** A record value as returned: lists copied when `copy` (the public JSON hands out fresh arrays). */
function value(expression: string, spec: FieldSpec, copy: boolean): string {
  if (copy && spec.kind === "json") return `structuredClone(${expression})`;
  return copy && spec.kind === "list" ? `[...${expression}]` : expression;
}

function renderJobWire(): string {
  const wire = Object.keys(jobSchema.shape).map((key) => {
    if (key === "salary") return `    salary: ${salaryObject("job", false)},`;
    const field = byWire(key);
    if (field) return `    ${key}: job.${field[0]},`;
    const special = WIRE_SPECIALS[key];
    if (special === undefined) throw new Error(`The Job key ${key} is neither a declared field nor a special one.`);
    return `    ${key}: ${special},`;
  });
  const publicEntries: string[] = [];
  for (const [name, spec] of FIELDS) {
    if (!spec.public) continue;
    if (spec.placement !== "salary") publicEntries.push(`    ${spec.wire}: ${value(`job.${name}`, spec, true)},`);
    else if (!publicEntries.some((line) => line.startsWith("    salary:"))) {
      publicEntries.push(`    salary: ${salaryObject("job", true, (other) => other.public)},`);
    }
  }
  return `${HEADER("The Job fields as returned: the serializer's Job and the careers site's public fields.")}import type { JobRecord } from "../../domain";
import type { JobWire } from "../../serialize";
import type { PublicJobFieldsJson } from "../public-job";

/** The Job of \`job\` as the API returns it, its keys in the order of \`jobSchema\`. */
export function jobWire(job: JobRecord, publicUrl: string | null): JobWire {
  return {
${wire.join("\n")}
  };
}

/** The public fields of \`job\` (those declared \`public\`), lists copied. */
export function publicJobFields(job: JobRecord): PublicJobFieldsJson {
  return {
${publicEntries.join("\n")}
  };
}
`;
}

/** Row to record: the declared fields between the leading and trailing specials. */
function fromColumn(name: string, spec: FieldSpec): string {
  const column = `row.${spec.column}`;
  switch (spec.kind) {
    case "list":
      return `readJson<string[]>(${column}, [])`;
    case "json":
      return `readJson<JobRecord[${JSON.stringify(name)}]>(${column}, ${JSON.stringify(spec.default)})`;
    case "number":
      return `readNumber(${column})`;
    default:
      return column;
  }
}

/** Record value to column value. */
function toColumn(spec: FieldSpec, expression: string): string {
  return spec.kind === "list" || spec.kind === "json" ? `JSON.stringify(${expression})` : expression;
}

function renderJobRows(): string {
  const toRecord = FIELDS.map(([name, spec]) => `    ${name}: ${fromColumn(name, spec)},`);
  const toRow = FIELDS.map(([name, spec]) => `    ${spec.column}: ${toColumn(spec, `record.${name}`)},`);
  const patch = FIELDS.filter(([, spec]) => spec.patch).map(
    ([name, spec]) => `  if (patch.${name} !== undefined) set.${spec.column} = ${toColumn(spec, `patch.${name}`)};`,
  );
  return `${HEADER("Job rows to records and back, and the columns a job patch writes.")}import type { JobPatch, JobRecord, JobStatus } from "@hireport/core";
import type { Updateable } from "kysely";
import type { StoreContext } from "../../context";
import type { JobTable } from "../../schema";
import { fromDb, readBool, readJson, readNumber } from "../../values";

/** The record of a job row. */
export function toJob(row: JobTable): JobRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    reference: row.reference,
${toRecord.join("\n")}
    status: row.status as JobStatus,
    hidden: readBool(row.hidden),
    applicationsCount: readNumber(row.applications_count),
    createdAt: fromDb(row.created_at),
    updatedAt: fromDb(row.updated_at),
    closedAt: fromDb(row.closed_at),
    publishedAt: fromDb(row.published_at),
  };
}

/** The columns of a job row. */
export function jobRow(ctx: StoreContext, record: JobRecord) {
  const row = {
    id: record.id,
    company_id: record.companyId,
    reference: record.reference,
${toRow.join("\n")}
    status: record.status,
    hidden: ctx.bool(record.hidden),
    applications_count: record.applicationsCount,
    created_at: ctx.toDb(record.createdAt),
    updated_at: ctx.toDb(record.updatedAt),
    closed_at: ctx.toDb(record.closedAt),
    published_at: ctx.toDb(record.publishedAt),
  } satisfies Record<keyof JobTable, unknown>;
  return row;
}

/** The columns a patch writes: only the fields present in it. */
export function jobPatchColumns(ctx: StoreContext, patch: JobPatch): Updateable<JobTable> {
  const set: Updateable<JobTable> = { updated_at: ctx.toDb(patch.updatedAt) };
${patch.join("\n")}
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.hidden !== undefined) set.hidden = ctx.bool(patch.hidden);
  if (patch.closedAt !== undefined) set.closed_at = ctx.toDb(patch.closedAt);
  if (patch.publishedAt !== undefined) set.published_at = ctx.toDb(patch.publishedAt);
  return set;
}
`;
}

/** The content of each generated file for the current declarations. */
export function renderFieldCode(): Record<keyof typeof GENERATED_FILES, string> {
  return { jobWire: renderJobWire(), jobRows: renderJobRows() };
}
