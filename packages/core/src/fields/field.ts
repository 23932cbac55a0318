/**
 * One field of an entity, declared once: its names on the wire, in the domain record and in the
 * database, its kind (which fixes how it is stored and returned), its input check, its default,
 * and whether it can be changed, shown on public pages or erased with the candidate's data. The
 * zod schemas, the serializer, the row mapping of `@hireport/kysely` and the careers site's public
 * JSON are derived from these.
 */
import * as z from "zod";
import { utcDateTime } from "../schemas/fields";

/**
 * How a field is stored and returned:
 * - `text`: free text (kept as sent, or trimmed when its check trims it);
 * - `label`: a short single-line name, `""` when unset;
 * - `code`: a short code such as a currency;
 * - `enum`: one of a fixed list on input (stored values are read back as plain strings);
 * - `list`: a list of strings, stored as JSON text;
 * - `number`: a number;
 * - `date`: a calendar date `YYYY-MM-DD`, stored as text;
 * - `json`: a structured value (objects and lists, such as a job's questions), stored as JSON text
 *   on every database; its input check gives its type and, unless it is nullable, a `default`
 *   must be declared;
 * - `boolean`: true or false (a `boolean` column on PostgreSQL, 0 or 1 elsewhere), false when unset;
 * - `timestamp`: a moment, a `Date` in the record, a date-time column, returned as UTC ISO 8601
 *   text; one that is not nullable is `required` (it has no default).
 */
export type FieldKind =
  | "text"
  | "label"
  | "code"
  | "enum"
  | "list"
  | "number"
  | "date"
  | "json"
  | "boolean"
  | "timestamp";

/**
 * Where a field sits in the returned object of its entity, in declaration order within each place.
 * For a Job: `lead` right after `reference`; `main` with the first fields of the Job (before
 * `applications_count`); `salary` inside the `salary` object, under `salaryKey`; `tail` after
 * `updated_at`, where new fields go. For an Application: `main` for the fields the returned
 * schema places one by one (`applicationSchema`, `scoresSchema`); `tail` after `knocked_out`,
 * where new fields go; `none` for a field kept but not returned (the normalized e-mail, consent).
 */
export type FieldPlacement = "lead" | "main" | "salary" | "tail" | "none";

/** The value a field of `Kind` has in a domain record (`Json`: the checked value of a `json` field). */
export type RecordValueOf<Kind extends FieldKind, Nullable extends boolean, Json = unknown> =
  | (Kind extends "json"
      ? Json
      : Kind extends "list"
        ? string[]
        : Kind extends "number"
          ? number
          : Kind extends "boolean"
            ? boolean
            : Kind extends "timestamp"
              ? Date
              : string)
  | (Nullable extends true ? null : never);

/** The value a field of `Kind` has in the returned JSON: its record value, a `timestamp` as ISO 8601 text. */
export type WireValueOf<Kind extends FieldKind, Nullable extends boolean, Json = unknown> = Kind extends "timestamp"
  ? string | (Nullable extends true ? null : never)
  : RecordValueOf<Kind, Nullable, Json>;

/**
 * The value a field of `Kind` has in a database row as the drivers return it (JSON text for `list`
 * and `json`; a `boolean` as true or false, or 0 or 1; a `timestamp` as a `Date` or as text).
 */
export type ColumnValueOf<Kind extends FieldKind, Nullable extends boolean> =
  | (Kind extends "number"
      ? number
      : Kind extends "boolean"
        ? boolean | number
        : Kind extends "timestamp"
          ? Date | string
          : string)
  | (Nullable extends true ? null : never);

/** The value type an input check gives (`unknown` for a field declared without one). */
export type InputValueOf<Input extends z.ZodType | undefined> = Input extends z.ZodType ? z.output<Input> : unknown;

/** One declared field. Build it with {@link field}. */
export interface FieldSpec<
  Kind extends FieldKind = FieldKind,
  Wire extends string = string,
  Column extends string = string,
  Nullable extends boolean = boolean,
  Input extends z.ZodType | undefined = z.ZodType | undefined,
  Required extends boolean = boolean,
  Patch extends boolean = boolean,
  Public extends boolean = boolean,
  Place extends FieldPlacement = FieldPlacement,
  Output extends z.ZodType<WireValueOf<Kind, Nullable, InputValueOf<Input>>> = z.ZodType<
    WireValueOf<Kind, Nullable, InputValueOf<Input>>
  >,
> {
  readonly kind: Kind;
  /** Name in the JSON of the API (snake_case): in the object it is returned in, and in request bodies. */
  readonly wire: Wire;
  /** Name of the database column. */
  readonly column: Column;
  /** Whether null is a value: the create body defaults it to null and a patch may send null to clear it. */
  readonly nullable: Nullable;
  /** Whether a new record must carry it: the create body requires it, and it has no default. */
  readonly required: Required;
  /**
   * The check of a value sent, with its limits and messages; create and patch add optionality and
   * defaults. Undefined for a field no request body takes as it is stored.
   */
  readonly input: Input;
  /** The field as returned. */
  readonly output: Output;
  /**
   * Stored when the create body leaves the field out (a fresh copy each time for a list or a `json`
   * value); what erasure sets a `personal` field back to. Undefined for a required `timestamp`.
   */
  readonly default: RecordValueOf<Kind, Nullable, InputValueOf<Input>> | (Required extends true ? undefined : never);
  /**
   * Whether an update may change it: for a Job, what PATCH /jobs/{id} takes; for an Application,
   * what the storage's `applications.update` writes (PATCH /applications/{id} takes some of it).
   */
  readonly patch: Patch;
  /** Whether the careers site's public JSON shows it. */
  readonly public: Public;
  /** Whether it is the candidate's personal data: erasing the candidate sets it back to its default. */
  readonly personal: boolean;
  readonly placement: Place;
  /** The key inside the `salary` object, for placement `salary`. */
  readonly salaryKey: string | undefined;
}

/** The options of {@link field}: `wire` and `kind` are required, the rest have defaults. */
export interface FieldOptions<
  Kind extends FieldKind,
  Wire extends string,
  Column extends string,
  Nullable extends boolean,
  Input extends z.ZodType | undefined,
  Required extends boolean,
  Patch extends boolean,
  Public extends boolean,
  Place extends FieldPlacement,
  Output extends z.ZodType<WireValueOf<Kind, Nullable, InputValueOf<Input>>>,
> {
  kind: Kind;
  wire: Wire;
  /** @default the wire name */
  column?: Column;
  /** @default false */
  nullable?: Nullable;
  /** @default false */
  required?: Required;
  /** @default none: the field is not in any request body (the create and patch shapes need one) */
  input?: Input;
  /**
   * @default what the kind returns: a string, a list of strings, a boolean, a date, a UTC time or
   * null…; for `json`, the input check
   */
  output?: Output;
  /**
   * @default `""`, `[]` for a list, false for a boolean, null when nullable (a non-nullable `json`
   * field must declare one; a required `timestamp` has none)
   */
  default?: RecordValueOf<Kind, Nullable, InputValueOf<Input>>;
  /** @default true when the field has an input check, else false */
  patch?: Patch;
  /** @default true */
  public?: Public;
  /** @default false */
  personal?: boolean;
  /** @default "tail" */
  placement?: Place;
  salaryKey?: string;
}

function defaultOutput(kind: FieldKind, nullable: boolean, input: z.ZodType | undefined): z.ZodType {
  if (kind === "json") {
    if (!input) throw new Error("A json field without an input check declares its output.");
    return nullable ? input.nullable() : input;
  }
  const base =
    kind === "list"
      ? z.array(z.string())
      : kind === "number"
        ? z.number()
        : kind === "boolean"
          ? z.boolean()
          : kind === "date"
            ? z.iso.date()
            : kind === "timestamp"
              ? utcDateTime()
              : z.string();
  return nullable ? base.nullable() : base;
}

/** The default of a field that declares none: null when nullable, else the empty value of its kind. */
function fallbackOf(kind: FieldKind, nullable: boolean): unknown {
  if (nullable) return null;
  switch (kind) {
    case "list":
      return [];
    case "number":
      return 0;
    case "boolean":
      return false;
    case "timestamp":
      return undefined;
    default:
      return "";
  }
}

const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;

/** Declares one field; names are checked to be snake_case, as the wire and the database use. */
export function field<
  Kind extends FieldKind,
  const Wire extends string,
  Input extends z.ZodType | undefined = undefined,
  const Column extends string = Wire,
  Nullable extends boolean = false,
  Required extends boolean = false,
  Patch extends boolean = Input extends z.ZodType ? true : false,
  Public extends boolean = true,
  const Place extends FieldPlacement = "tail",
  Output extends z.ZodType<WireValueOf<Kind, Nullable, InputValueOf<Input>>> = z.ZodType<
    WireValueOf<Kind, Nullable, InputValueOf<Input>>
  >,
>(
  options: FieldOptions<Kind, Wire, Column, Nullable, Input, Required, Patch, Public, Place, Output>,
): FieldSpec<Kind, Wire, Column, Nullable, Input, Required, Patch, Public, Place, Output> {
  const nullable = (options.nullable ?? false) as Nullable;
  const required = (options.required ?? false) as Required;
  const column = (options.column ?? options.wire) as Column;
  for (const name of [options.wire, column]) {
    if (!SNAKE_CASE.test(name)) throw new Error(`Field name ${JSON.stringify(name)} is not snake_case.`);
  }
  const placement = (options.placement ?? "tail") as Place;
  if ((placement === "salary") !== (options.salaryKey !== undefined)) {
    throw new Error(`Field ${options.wire}: salaryKey goes with placement "salary" and only with it.`);
  }
  if (options.kind === "json" && !nullable && options.default === undefined) {
    throw new Error(`Field ${options.wire}: a json field that is not nullable declares its default.`);
  }
  if (options.kind === "timestamp" && !nullable && !required) {
    throw new Error(`Field ${options.wire}: a timestamp that is not nullable is required (it has no default).`);
  }
  return {
    kind: options.kind,
    wire: options.wire,
    column,
    nullable,
    required,
    input: options.input as Input,
    output: options.output ?? (defaultOutput(options.kind, nullable, options.input) as Output),
    default: (options.default ?? fallbackOf(options.kind, nullable)) as RecordValueOf<
      Kind,
      Nullable,
      InputValueOf<Input>
    >,
    patch: (options.patch ?? options.input !== undefined) as Patch,
    public: (options.public ?? true) as Public,
    personal: options.personal ?? false,
    placement,
    salaryKey: options.salaryKey,
  };
}

/** A field's default as a record holds it: a fresh copy of a list or a `json` value each call. */
export function fieldDefault<Spec extends FieldSpec>(spec: Spec): Spec["default"] {
  const fallback: unknown = spec.default;
  return fallback !== null && typeof fallback === "object" ? structuredClone(fallback) : fallback;
}

/** Fields by their record name (camelCase), in declaration order. */
export type FieldSet = Readonly<Record<string, FieldSpec>>;

/** The domain record part an entity's fields make: record name → value. */
export type RecordOf<Fields extends FieldSet> = {
  -readonly [Name in keyof Fields]: Fields[Name] extends FieldSpec<
    infer Kind,
    string,
    string,
    infer Nullable,
    infer Input
  >
    ? RecordValueOf<Kind, Nullable, InputValueOf<Input>>
    : never;
};

/** The database row part an entity's fields make: column → value as read. */
export type RowOf<Fields extends FieldSet> = {
  -readonly [Name in keyof Fields as Fields[Name]["column"]]: Fields[Name] extends FieldSpec<
    infer Kind,
    string,
    string,
    infer Nullable
  >
    ? ColumnValueOf<Kind, Nullable>
    : never;
};

/** The record names of the fields an update may change (`patch: true`). */
export type PatchableOf<Fields extends FieldSet> = {
  [Name in keyof Fields]: Fields[Name]["patch"] extends true ? Name : never;
}[keyof Fields];

/** The names of the fields placed at `Place`. */
export type PlacedAt<Fields extends FieldSet, Place extends FieldPlacement> = {
  [Name in keyof Fields]: Fields[Name]["placement"] extends Place ? Name : never;
}[keyof Fields];

/**
 * The zod schema of a field as returned, typed by its kind (an `enum` as a string, as stored values
 * are read back): what a schema spreading the fields of a place gives. A schema that names a field
 * (`APPLICATION_FIELDS.stage.output`) gets its declared type.
 */
export type KindOutputOf<Spec> =
  Spec extends FieldSpec<infer Kind, string, string, infer Nullable, infer Input>
    ? z.ZodType<WireValueOf<Kind, Nullable, InputValueOf<Input>>>
    : never;

/** The zod shape of the fields placed at `Place`, by wire name, as returned (each typed by {@link KindOutputOf}). */
export type OutputShapeOf<Fields extends FieldSet, Place extends FieldPlacement> = {
  [Name in PlacedAt<Fields, Place> as Fields[Name]["wire"]]: KindOutputOf<Fields[Name]>;
};

/** The record names of `fields`, in declaration order. */
export function fieldNames<Fields extends FieldSet>(fields: Fields): (keyof Fields & string)[] {
  return Object.keys(fields);
}

/** The zod shape of the fields placed at `place`, by wire name, in declaration order. */
export function outputShape<Fields extends FieldSet, Place extends Exclude<FieldPlacement, "salary">>(
  fields: Fields,
  place: Place,
): OutputShapeOf<Fields, Place> {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of Object.values(fields)) if (spec.placement === place) shape[spec.wire] = spec.output;
  return shape as OutputShapeOf<Fields, Place>;
}

/**
 * The zod shape of the fields placed at `main`, with `salary` (the object of the fields placed at
 * `salary`) where the first of those is declared.
 */
export function mainShapeWithSalary<Fields extends FieldSet, Salary extends z.ZodType>(
  fields: Fields,
  salary: Salary,
): OutputShapeOf<Fields, "main"> & { salary: Salary } {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of Object.values(fields)) {
    if (spec.placement === "main") shape[spec.wire] = spec.output;
    else if (spec.placement === "salary" && !("salary" in shape)) shape.salary = salary;
  }
  return shape as OutputShapeOf<Fields, "main"> & { salary: Salary };
}

/** The zod shape of a create body: required fields as checked, the others with their defaults. */
export type CreateShapeOf<Fields extends FieldSet> = {
  [Name in keyof Fields as Fields[Name]["wire"]]: Fields[Name] extends FieldSpec<
    FieldKind,
    string,
    string,
    infer Nullable,
    infer Input,
    infer Required
  >
    ? Input extends z.ZodType
      ? Required extends true
        ? Input
        : Nullable extends true
          ? z.ZodDefault<z.ZodNullable<Input>>
          : z.ZodDefault<Input>
      : never
    : never;
};

/** The zod shape of a patch body: every patchable field optional, nullable ones accepting null. */
export type PatchShapeOf<Fields extends FieldSet> = {
  [Name in keyof Fields as Fields[Name]["patch"] extends false
    ? never
    : Fields[Name]["wire"]]: Fields[Name] extends FieldSpec<FieldKind, string, string, infer Nullable, infer Input>
    ? Input extends z.ZodType
      ? Nullable extends true
        ? z.ZodOptional<z.ZodNullable<Input>>
        : z.ZodOptional<Input>
      : never
    : never;
};

/** The input check of a field a request body takes; a field declared without one cannot be in a body. */
function inputOf(spec: FieldSpec): z.ZodType {
  if (!spec.input) throw new Error(`Field ${spec.wire} has no input check: no request body takes it.`);
  return spec.input;
}

/** The fields of a create body, in declaration order: each field's check with its default (none when required). */
export function createShape<Fields extends FieldSet>(fields: Fields): CreateShapeOf<Fields> {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of Object.values(fields)) {
    const input = spec.nullable ? inputOf(spec).nullable() : inputOf(spec);
    const fallback: unknown = spec.default;
    shape[spec.wire] = spec.required
      ? input
      : fallback !== null && typeof fallback === "object"
        ? input.default(() => structuredClone(fallback) as never)
        : input.default(fallback as never);
  }
  return shape as CreateShapeOf<Fields>;
}

/** The fields of a patch body, in declaration order: each patchable field optional (nullable ones accept null). */
export function patchShape<Fields extends FieldSet>(fields: Fields): PatchShapeOf<Fields> {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of Object.values(fields)) {
    if (spec.patch) shape[spec.wire] = (spec.nullable ? inputOf(spec).nullable() : inputOf(spec)).optional();
  }
  return shape as PatchShapeOf<Fields>;
}

/** The public fields (`public: true`) outside the salary object, by wire name, as returned. */
export type PublicOf<Fields extends FieldSet> = {
  -readonly [Name in keyof Fields as Fields[Name]["public"] extends true
    ? Fields[Name]["placement"] extends "salary"
      ? never
      : Fields[Name]["wire"]
    : never]: RecordOf<Fields>[Name];
};
