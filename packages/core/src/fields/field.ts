/**
 * One field of an entity, declared once: its names on the wire, in the domain record and in the
 * database, its kind (which fixes how it is stored and returned), its input check, its default,
 * and whether it can be changed and shown on public pages. The zod schemas, the serializer, the
 * row mapping of `@hireport/kysely` and the careers site's public JSON are derived from these.
 */
import * as z from "zod";

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
 *   must be declared.
 */
export type FieldKind = "text" | "label" | "code" | "enum" | "list" | "number" | "date" | "json";

/**
 * Where a field sits in the returned object of its entity, in declaration order within each place.
 * For a Job: `lead` right after `reference`; `main` with the first fields of the Job (before
 * `applications_count`); `salary` inside the `salary` object, under `salaryKey`; `tail` after
 * `updated_at`, where new fields go.
 */
export type FieldPlacement = "lead" | "main" | "salary" | "tail";

/** The value a field of `Kind` has in a domain record (`Json`: the checked value of a `json` field). */
export type RecordValueOf<Kind extends FieldKind, Nullable extends boolean, Json = unknown> =
  | (Kind extends "json" ? Json : Kind extends "list" ? string[] : Kind extends "number" ? number : string)
  | (Nullable extends true ? null : never);

/** The value a field of `Kind` has in a database row as the drivers return it (JSON text for `list` and `json`). */
export type ColumnValueOf<Kind extends FieldKind, Nullable extends boolean> =
  | (Kind extends "number" ? number : string)
  | (Nullable extends true ? null : never);

/** One declared field. Build it with {@link field}. */
export interface FieldSpec<
  Kind extends FieldKind = FieldKind,
  Wire extends string = string,
  Column extends string = string,
  Nullable extends boolean = boolean,
  Input extends z.ZodType = z.ZodType,
  Required extends boolean = boolean,
  Patch extends boolean = boolean,
  Public extends boolean = boolean,
  Place extends FieldPlacement = FieldPlacement,
> {
  readonly kind: Kind;
  /** Name in the JSON of the API (snake_case). */
  readonly wire: Wire;
  /** Name of the database column. */
  readonly column: Column;
  /** Whether null is a value: the create body defaults it to null and a patch may send null to clear it. */
  readonly nullable: Nullable;
  /** Whether the create body must carry it (it then has no default). */
  readonly required: Required;
  /** The check of a value sent, with its limits and messages; create and patch add optionality and defaults. */
  readonly input: Input;
  /** The field as returned. */
  readonly output: z.ZodType<RecordValueOf<Kind, Nullable, z.output<Input>>>;
  /** Stored when the create body leaves the field out (a fresh copy each time for a list or a `json` value). */
  readonly default: RecordValueOf<Kind, Nullable, z.output<Input>>;
  /** Whether PATCH may change it. */
  readonly patch: Patch;
  /** Whether the careers site's public JSON shows it. */
  readonly public: Public;
  readonly placement: Place;
  /** The key inside the `salary` object, for placement `salary`. */
  readonly salaryKey: string | undefined;
}

/** The options of {@link field}: `wire`, `kind` and `input` are required, the rest have defaults. */
export interface FieldOptions<
  Kind extends FieldKind,
  Wire extends string,
  Column extends string,
  Nullable extends boolean,
  Input extends z.ZodType,
  Required extends boolean,
  Patch extends boolean,
  Public extends boolean,
  Place extends FieldPlacement,
> {
  kind: Kind;
  wire: Wire;
  /** @default the wire name */
  column?: Column;
  /** @default false */
  nullable?: Nullable;
  /** @default false */
  required?: Required;
  input: Input;
  /** @default what the kind returns: a string, a list of strings, a date or null…; for `json`, the input check */
  output?: z.ZodType<RecordValueOf<Kind, Nullable, z.output<Input>>>;
  /** @default `""`, `[]` for a list, null when nullable (a non-nullable `json` field must declare one) */
  default?: RecordValueOf<Kind, Nullable, z.output<Input>>;
  /** @default true */
  patch?: Patch;
  /** @default true */
  public?: Public;
  /** @default "tail" */
  placement?: Place;
  salaryKey?: string;
}

function defaultOutput(kind: FieldKind, nullable: boolean, input: z.ZodType): z.ZodType {
  if (kind === "json") return nullable ? input.nullable() : input;
  const base =
    kind === "list"
      ? z.array(z.string())
      : kind === "number"
        ? z.number()
        : kind === "date"
          ? z.iso.date()
          : z.string();
  return nullable ? base.nullable() : base;
}

const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;

/** Declares one field; names are checked to be snake_case, as the wire and the database use. */
export function field<
  Kind extends FieldKind,
  const Wire extends string,
  Input extends z.ZodType,
  const Column extends string = Wire,
  Nullable extends boolean = false,
  Required extends boolean = false,
  Patch extends boolean = true,
  Public extends boolean = true,
  const Place extends FieldPlacement = "tail",
>(
  options: FieldOptions<Kind, Wire, Column, Nullable, Input, Required, Patch, Public, Place>,
): FieldSpec<Kind, Wire, Column, Nullable, Input, Required, Patch, Public, Place> {
  const nullable = (options.nullable ?? false) as Nullable;
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
  const fallback = nullable ? null : options.kind === "list" ? [] : options.kind === "number" ? 0 : "";
  return {
    kind: options.kind,
    wire: options.wire,
    column,
    nullable,
    required: (options.required ?? false) as Required,
    input: options.input,
    output:
      options.output ??
      (defaultOutput(options.kind, nullable, options.input) as z.ZodType<
        RecordValueOf<Kind, Nullable, z.output<Input>>
      >),
    default: (options.default ?? fallback) as RecordValueOf<Kind, Nullable, z.output<Input>>,
    patch: (options.patch ?? true) as Patch,
    public: (options.public ?? true) as Public,
    placement,
    salaryKey: options.salaryKey,
  };
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
    ? RecordValueOf<Kind, Nullable, z.output<Input>>
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

/** The names of the fields placed at `Place`. */
export type PlacedAt<Fields extends FieldSet, Place extends FieldPlacement> = {
  [Name in keyof Fields]: Fields[Name]["placement"] extends Place ? Name : never;
}[keyof Fields];

/** The zod shape of the fields placed at `Place`, by wire name, as returned. */
export type OutputShapeOf<Fields extends FieldSet, Place extends FieldPlacement> = {
  [Name in PlacedAt<Fields, Place> as Fields[Name]["wire"]]: Fields[Name]["output"];
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
    ? Required extends true
      ? Input
      : Nullable extends true
        ? z.ZodDefault<z.ZodNullable<Input>>
        : z.ZodDefault<Input>
    : never;
};

/** The zod shape of a patch body: every patchable field optional, nullable ones accepting null. */
export type PatchShapeOf<Fields extends FieldSet> = {
  [Name in keyof Fields as Fields[Name]["patch"] extends false
    ? never
    : Fields[Name]["wire"]]: Fields[Name] extends FieldSpec<FieldKind, string, string, infer Nullable, infer Input>
    ? Nullable extends true
      ? z.ZodOptional<z.ZodNullable<Input>>
      : z.ZodOptional<Input>
    : never;
};

/** The fields of a create body, in declaration order: each field's check with its default (none when required). */
export function createShape<Fields extends FieldSet>(fields: Fields): CreateShapeOf<Fields> {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of Object.values(fields)) {
    const input = spec.nullable ? spec.input.nullable() : spec.input;
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
    if (spec.patch) shape[spec.wire] = (spec.nullable ? spec.input.nullable() : spec.input).optional();
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
