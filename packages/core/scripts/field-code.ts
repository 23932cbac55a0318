/**
 * The straight-line mapping code of the declared fields: from `JOB_FIELDS`, the serializer's Job,
 * the careers site's public fields and `@hireport/kysely`'s job row mapping; from
 * `APPLICATION_FIELDS` and `CANDIDATE_FIELDS`, the serializer's Application and the application
 * row mapping (with the columns erasure writes). The code is generated ahead of time rather than at
 * load (no `new Function`: edge runtimes refuse it) and rather than walked per row (a loop over a
 * field list with keyed reads and writes is slower than an object literal on the hot paths of
 * GET /jobs and GET /applications).
 *
 * `generate-fields.ts` (`pnpm --filter @hireport/core generate`) writes the files;
 * `test/generated-field-code.test.ts` fails when a committed one differs from what this renders.
 */
import { fileURLToPath } from "node:url";
import type * as z from "zod";
import { answerSchema, applicationSchema, jobSchema, scoresSchema } from "../src/entries/schemas";
import { APPLICATION_FIELDS, CANDIDATE_FIELDS, type FieldSpec, JOB_FIELDS } from "../src/entries/storage";

/** Where each generated file lives, relative to this file. */
export const GENERATED_FILES = {
  jobWire: "../src/wire/generated/job-wire.ts",
  jobRows: "../../kysely/src/stores/generated/job-rows.ts",
  applicationWire: "../src/wire/generated/application-wire.ts",
  applicationRows: "../../kysely/src/stores/generated/application-rows.ts",
} as const;

/** The absolute path of a generated file. */
export function generatedPath(name: keyof typeof GENERATED_FILES): string {
  return fileURLToPath(new URL(GENERATED_FILES[name], import.meta.url));
}

const HEADER = (what: string, from = "JOB_FIELDS (packages/core/src/fields/job.ts)") => `/**
 * ${what}
 * Generated from ${from} by packages/core/scripts/generate-fields.ts.
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
  return `${HEADER("The Job fields as returned: the serializer's Job and the careers site's public fields.")}import type { JobRecord } from "../../model/domain";
import type { JobWire } from "../../schemas/job";
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
function fromColumn(name: string, spec: FieldSpec, record = "JobRecord"): string {
  const column = `row.${spec.column}`;
  switch (spec.kind) {
    case "list":
      return `readJson<string[]>(${column}, [])`;
    case "json":
      return `readJson<${record}[${JSON.stringify(name)}]>(${column}, ${JSON.stringify(spec.default)})`;
    case "number":
      return `readNumber(${column})`;
    case "boolean":
      return `readBool(${column})`;
    case "timestamp":
      return `fromDb(${column})`;
    default:
      return column;
  }
}

/** Record value to column value. */
function toColumn(spec: FieldSpec, expression: string): string {
  switch (spec.kind) {
    case "list":
    case "json":
      return `JSON.stringify(${expression})`;
    case "boolean":
      return `ctx.bool(${expression})`;
    case "timestamp":
      return `ctx.toDb(${expression})`;
    default:
      return expression;
  }
}

/** The width Biome formats the code to. */
const LINE_WIDTH = 120;

/** The statement that writes a patched field's column when the patch has it (wrapped as Biome wraps a long one). */
function patchLine(name: string, spec: FieldSpec): string {
  const condition = `if (patch.${name} !== undefined)`;
  const write = `set.${spec.column} = ${toColumn(spec, `patch.${name}`)};`;
  const line = `  ${condition} ${write}`;
  return line.length <= LINE_WIDTH ? line : `  ${condition}\n    ${write}`;
}

function renderJobRows(): string {
  const toRecord = FIELDS.map(([name, spec]) => `    ${name}: ${fromColumn(name, spec)},`);
  const toRow = FIELDS.map(([name, spec]) => `    ${spec.column}: ${toColumn(spec, `record.${name}`)},`);
  const patch = FIELDS.filter(([, spec]) => spec.patch).map(([name, spec]) => patchLine(name, spec));
  return `${HEADER("Job rows to records and back, and the columns a job patch writes.")}import type { JobRecord, JobStatus } from "@hireport/core";
import type { JobPatch } from "@hireport/core/storage";
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

const APPLICATION_FROM =
  "APPLICATION_FIELDS and CANDIDATE_FIELDS (packages/core/src/fields/application.ts, candidate.ts)";

const APPLICATION: readonly Field[] = Object.entries(APPLICATION_FIELDS);
const CANDIDATE: readonly Field[] = Object.entries(CANDIDATE_FIELDS);

/** The Application's keys that are not declared fields: how the serializer fills each. */
const APPLICATION_WIRE_SPECIALS: Record<string, string> = {
  id: "application.id",
  reference: "application.reference",
  job_id: "application.jobId",
  job_title: "application.jobTitle",
  resume_url: "resumeUrl",
  human_review_requested: "application.humanReviewRequestedAt !== null",
};

/** camelCase of a snake_case name: how a record names what the wire names `name`. */
function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * The answers as returned: each stored answer (its keys the camelCase of the returned ones) as a
 * new object with the keys of `answerSchema`, in its order.
 */
function answersWire(source: string): string {
  const keys = Object.keys(answerSchema.shape).map((key) => `      ${key}: answer.${camelCase(key)},`);
  return `${source}.map((answer) => ({\n${keys.join("\n")}\n    }))`;
}

/** A declared field's value as returned, from the record expression `source`. */
function wireValue(spec: FieldSpec, source: string): string {
  if (spec.kind === "timestamp") return spec.nullable ? `${source}?.toISOString() ?? null` : `${source}.toISOString()`;
  if (spec === APPLICATION_FIELDS.answers) return answersWire(source);
  return source;
}

/** The fields a nested object of the returned Application holds, by the key it is returned under. */
function objectFields(key: string): { shape: z.ZodRawShape; fields: readonly Field[]; source: string } | undefined {
  if (key === "candidate")
    return { shape: applicationSchema.shape.candidate.shape, fields: CANDIDATE, source: "candidate" };
  if (key === "scores") return { shape: scoresSchema.shape, fields: APPLICATION, source: "application" };
  return undefined;
}

function renderApplicationWire(): string {
  const placed = new Set<FieldSpec>();
  const take = (fields: readonly Field[], wire: string): Field | undefined => {
    const found = fields.find(([, spec]) => spec.wire === wire && spec.placement !== "none");
    if (found) {
      if (placed.has(found[1])) throw new Error(`The Application field ${found[0]} is returned twice.`);
      placed.add(found[1]);
    }
    return found;
  };
  const wire = Object.keys(applicationSchema.shape).map((key) => {
    const nested = objectFields(key);
    if (nested) {
      const entries = Object.keys(nested.shape).map((inner) => {
        const found = take(nested.fields, inner);
        if (!found) throw new Error(`The ${key} key ${inner} is not a declared field.`);
        return `      ${inner}: ${wireValue(found[1], `${nested.source}.${found[0]}`)},`;
      });
      return `    ${key}: {\n${entries.join("\n")}\n    },`;
    }
    const found = take(APPLICATION, key);
    if (found) return `    ${key}: ${wireValue(found[1], `application.${found[0]}`)},`;
    const special = APPLICATION_WIRE_SPECIALS[key];
    if (special === undefined)
      throw new Error(`The Application key ${key} is neither a declared field nor a special one.`);
    return `    ${key}: ${special},`;
  });
  for (const [name, spec] of [...CANDIDATE, ...APPLICATION]) {
    if (spec.placement !== "none" && !placed.has(spec)) {
      throw new Error(`The field ${name} is placed "${spec.placement}" but the Application does not return it.`);
    }
  }
  return `${HEADER("The Application as returned: the serializer's Application.", APPLICATION_FROM)}import type { ApplicationRecord } from "../../model/domain";
import type { ApplicationWire } from "../../schemas/application";

/** The Application of \`application\` as the API returns it, its keys in the order of \`applicationSchema\`. */
export function applicationWire(application: ApplicationRecord, resumeUrl: string | null): ApplicationWire {
  const { candidate } = application;
  return {
${wire.join("\n")}
  };
}
`;
}

/** A declared field's default as its column stores it, as code. */
function columnDefault(spec: FieldSpec): string {
  const fallback: unknown = spec.default;
  if (fallback === null) return "null";
  if (spec.kind === "boolean") return `ctx.bool(${JSON.stringify(fallback)})`;
  if (spec.kind === "list" || spec.kind === "json") return JSON.stringify(JSON.stringify(fallback));
  if (fallback === undefined) throw new Error(`Field ${spec.wire} has no default for erasure to write.`);
  return JSON.stringify(fallback);
}

/** The helpers of `values.ts` the mapping code calls, in import order. */
function readersUsed(fields: readonly Field[]): string {
  const kinds = new Set(fields.map(([, spec]) => spec.kind));
  const used = [
    kinds.has("timestamp") && "fromDb",
    kinds.has("boolean") && "readBool",
    (kinds.has("list") || kinds.has("json")) && "readJson",
    kinds.has("number") && "readNumber",
  ].filter((name): name is string => typeof name === "string");
  return used.join(", ");
}

function renderApplicationRows(): string {
  const all = [...CANDIDATE, ...APPLICATION];
  const candidate = CANDIDATE.map(([name, spec]) => `      ${name}: ${fromColumn(name, spec, "ApplicationRecord")},`);
  const toRecord = APPLICATION.map(([name, spec]) => {
    const read = fromColumn(name, spec, "ApplicationRecord");
    // An enum is read back as a string; the record's type says which (the stage is one of the 14).
    return `    ${name}: ${spec.kind === "enum" ? `${read} as ApplicationRecord[${JSON.stringify(name)}]` : read},`;
  });
  const toRow = [
    ...CANDIDATE.map(([name, spec]) => `    ${spec.column}: ${toColumn(spec, `record.candidate.${name}`)},`),
    ...APPLICATION.map(([name, spec]) => `    ${spec.column}: ${toColumn(spec, `record.${name}`)},`),
  ];
  const patch = APPLICATION.filter(([, spec]) => spec.patch).map(([name, spec]) => patchLine(name, spec));
  const erased = [
    ...CANDIDATE.map(([, spec]) => `    ${spec.column}: ${columnDefault(spec)},`),
    ...APPLICATION.filter(([, spec]) => spec.personal).map(([, spec]) => `    ${spec.column}: ${columnDefault(spec)},`),
  ];
  return `${HEADER("Application rows to records and back, and the columns a patch and erasure write.", APPLICATION_FROM)}import type { ApplicationRecord } from "@hireport/core";
import type { ApplicationPatch, NewApplication } from "@hireport/core/storage";
import type { Updateable } from "kysely";
import type { StoreContext } from "../../context";
import type { ApplicationTable } from "../../schema";
import { ${readersUsed(all)} } from "../../values";
import type { ApplicationRow } from "../application-rows";

/** The record of an application row (with its job's title, joined). */
export function toApplication(row: ApplicationRow): ApplicationRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    jobId: row.job_id,
    jobTitle: row.job_title,
    reference: row.reference,
    candidate: {
${candidate.join("\n")}
    },
${toRecord.join("\n")}
  };
}

/** The columns of an application row, as every dialect stores them (every column: the Postgres routine reads them as JSON). */
export function applicationRow(ctx: StoreContext, record: NewApplication) {
  const row = {
    id: record.id,
    company_id: record.companyId,
    job_id: record.jobId,
    reference: record.reference,
${toRow.join("\n")}
  } satisfies Record<keyof ApplicationTable, unknown>;
  return row;
}

/** The columns a patch writes: only the fields present in it. */
export function applicationPatchColumns(ctx: StoreContext, patch: ApplicationPatch): Updateable<ApplicationTable> {
  const set: Updateable<ApplicationTable> = { updated_at: ctx.toDb(patch.updatedAt) };
${patch.join("\n")}
  return set;
}

/**
 * The columns erasing an application writes: the candidate's personal data (the candidate and the
 * fields declared \`personal\`) back to its defaults, and the erasure's time.
 */
export function erasedApplicationColumns(ctx: StoreContext, erasedAt: Date): Updateable<ApplicationTable> {
  return {
${erased.join("\n")}
    erased_at: ctx.toDb(erasedAt),
    updated_at: ctx.toDb(erasedAt),
  };
}
`;
}

/** The content of each generated file for the current declarations. */
export function renderFieldCode(): Record<keyof typeof GENERATED_FILES, string> {
  return {
    jobWire: renderJobWire(),
    jobRows: renderJobRows(),
    applicationWire: renderApplicationWire(),
    applicationRows: renderApplicationRows(),
  };
}
