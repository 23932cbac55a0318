/**
 * One field of an entity, declared once: its names on the wire, in the domain record and in the
 * database, its kind (which fixes how it is stored and returned), its input check, its default,
 * which request bodies take it, whether it can be changed, shown on public pages or erased with the
 * candidate's data, its example, and how the careers site's apply form asks for it. The zod schemas,
 * the serializer, the row mapping of `@hireport/kysely`, the records the services build, the
 * examples of the documentation and the careers site's public JSON and apply form are derived from
 * these.
 */
import * as z from "zod";
import { utcDateTime } from "./value-schemas";

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
 * `updated_at`, where new fields go. For an Application: `main` for the fields of v1 and the first
 * additive ones, in the order of `APPLICATION_WIRE_ORDER`; `scores` inside the `scores` object;
 * `tail` after `knocked_out`, where new fields go; `none` for a field kept but not returned (the
 * normalized e-mail, consent). A candidate's fields are all `tail`: the `candidate` object.
 */
export type FieldPlacement = "lead" | "main" | "salary" | "scores" | "tail" | "none";

/**
 * Whether the create body (POST /jobs, POST /applications) takes a field that has an input check:
 * `true` with its default when it is left out (a `required` field must be sent), `"optional"` left
 * undefined when it is left out (the service picks the value), `false` not at all (the service sets
 * it). A field without an input check is in no request body.
 */
export type FieldCreate = boolean | "optional";

/**
 * How the careers site's apply form asks for a field: a candidate's field under "About you", an
 * Application's under "Your application" (before the CV), in declaration order. What is typed is
 * sent as the field's value in the create body: an `<input>`'s value trimmed, a `list` field's split
 * at commas and line breaks, a `<textarea>`'s kept as typed. The messages are the input check's.
 */
export interface FieldForm {
  /** What the candidate reads by the control (with ` (required)` for a `required` field) and in the list of problems. */
  readonly label: string;
  /** An `<input>` of this `type`, or a `<textarea>`. */
  readonly control: "text" | "email" | "tel" | "url" | "textarea";
  /** The `autocomplete` token (HTML's autofill field names, or `off`). @default none */
  readonly autocomplete?: string;
  /** A hint under the label, tied to the control with `aria-describedby` (its id: `{wire}-hint`). @default none */
  readonly hint?: string;
}

/** What a request body's member says of a field in the OpenAPI document, besides its input check's own. */
export interface FieldBodyMeta {
  readonly description?: string;
  readonly examples?: readonly unknown[];
}

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
  Create extends FieldCreate = FieldCreate,
  Form extends FieldForm | undefined = FieldForm | undefined,
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
   * what the storage's `applications.update` writes (PATCH /applications/{id} takes those with an
   * input check).
   */
  readonly patch: Patch;
  /** Whether and how the create body takes it (see {@link FieldCreate}). */
  readonly create: Create;
  /** What the request bodies' member says of it in the OpenAPI document, besides its input check's own. */
  readonly bodyMeta: FieldBodyMeta | undefined;
  /**
   * The value the documentation's examples show (the event catalog's Job and Application), when it
   * is not the first `examples` of its input check, nor its default.
   */
  readonly example: RecordValueOf<Kind, Nullable, InputValueOf<Input>> | undefined;
  /** How the careers site's apply form asks for it; undefined when the form does not. */
  readonly form: Form;
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
  Create extends FieldCreate,
  Form extends FieldForm | undefined,
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
  /** @default true when the field has an input check, else false */
  create?: Create;
  /** @default none */
  bodyMeta?: FieldBodyMeta;
  /** @default the first `examples` of its input check (when of its type), else its default */
  example?: RecordValueOf<Kind, Nullable, InputValueOf<Input>>;
  /** @default none: the careers site's apply form does not ask for it */
  form?: Form;
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

/** The kinds the apply form can ask for: text typed in a control (a list as comma-separated text). */
const FORM_KINDS: ReadonlySet<FieldKind> = new Set(["text", "label", "code", "list"]);

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
  const Create extends FieldCreate = Input extends z.ZodType ? true : false,
  const Form extends FieldForm | undefined = undefined,
>(
  options: FieldOptions<Kind, Wire, Column, Nullable, Input, Required, Patch, Public, Place, Output, Create, Form>,
): FieldSpec<Kind, Wire, Column, Nullable, Input, Required, Patch, Public, Place, Output, Create, Form> {
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
  const create = (options.create ?? options.input !== undefined) as Create;
  if (create !== false && options.input === undefined) {
    throw new Error(`Field ${options.wire}: a create body takes only a field with an input check.`);
  }
  if (create === "optional" && required) {
    throw new Error(`Field ${options.wire}: a required field is required in the create body, not optional.`);
  }
  if (
    options.form !== undefined &&
    (create === false || options.input === undefined || !FORM_KINDS.has(options.kind))
  ) {
    throw new Error(
      `Field ${options.wire}: the apply form asks for text or a list that the create body takes, nothing else.`,
    );
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
    create,
    bodyMeta: options.bodyMeta,
    example: options.example,
    form: options.form as Form,
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

/** The zod shape of a create body: required fields as checked, the others with their defaults (or optional). */
export type CreateShapeOf<Fields extends FieldSet> = {
  [Name in keyof Fields as Fields[Name]["create"] extends false
    ? never
    : Fields[Name]["wire"]]: Fields[Name] extends FieldSpec<
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
        : Fields[Name]["create"] extends "optional"
          ? Nullable extends true
            ? z.ZodOptional<z.ZodNullable<Input>>
            : z.ZodOptional<Input>
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

/** The fields of a set that have an input check. */
export type WithInputOf<Fields extends FieldSet> = {
  [Name in keyof Fields as Fields[Name]["input"] extends z.ZodType ? Name : never]: Fields[Name];
};

/**
 * The fields of `fields` that have an input check, in declaration order: those a request body can
 * take (an Application's others are set by the service alone).
 */
export function fieldsWithInput<Fields extends FieldSet>(fields: Fields): WithInputOf<Fields> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, spec]) => spec.input !== undefined),
  ) as WithInputOf<Fields>;
}

/** The input check of a field a request body takes; a field declared without one cannot be in a body. */
function inputOf(spec: FieldSpec): z.ZodType {
  if (!spec.input) throw new Error(`Field ${spec.wire} has no input check: no request body takes it.`);
  return spec.input;
}

/** A body member with what the declaration says of it in the OpenAPI document (`bodyMeta`). */
function withBodyMeta(spec: FieldSpec, member: z.ZodType): z.ZodType {
  return spec.bodyMeta ? member.meta({ ...spec.bodyMeta }) : member;
}

/**
 * The fields of a create body, in declaration order, but those declared `create: false`: each
 * field's check with its default (none when required, or when `create` is `"optional"`). Every field
 * of `fields` has an input check (`fieldsWithInput` leaves out the others).
 */
export function createShape<Fields extends FieldSet>(fields: Fields): CreateShapeOf<Fields> {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of Object.values(fields)) {
    const check = inputOf(spec);
    if (spec.create === false) continue;
    const input = spec.nullable ? check.nullable() : check;
    const fallback: unknown = spec.default;
    const member = spec.required
      ? input
      : spec.create === "optional"
        ? input.optional()
        : fallback !== null && typeof fallback === "object"
          ? input.default(() => structuredClone(fallback) as never)
          : input.default(fallback as never);
    shape[spec.wire] = withBodyMeta(spec, member);
  }
  return shape as CreateShapeOf<Fields>;
}

/**
 * The fields of a patch body, in declaration order: each patchable field optional (nullable ones
 * accept null). Every patchable field of `fields` has an input check (`fieldsWithInput` leaves out
 * the others).
 */
export function patchShape<Fields extends FieldSet>(fields: Fields): PatchShapeOf<Fields> {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of Object.values(fields)) {
    if (spec.patch) {
      shape[spec.wire] = withBodyMeta(spec, (spec.nullable ? inputOf(spec).nullable() : inputOf(spec)).optional());
    }
  }
  return shape as PatchShapeOf<Fields>;
}

/** A copy of a list or a `json` value (a record never shares one with a body or a declaration). */
function copied<Value>(value: Value): Value {
  return value !== null && typeof value === "object" ? structuredClone(value) : value;
}

/**
 * The record part of `fields` a parsed create body gives: each field the body takes (`create`) at
 * its value in `body` (by wire name; lists and `json` values copied), or at its default when the
 * body leaves it undefined; every other field at its default. The service sets the values it
 * decides on top (a required `timestamp`, which has no default, is undefined until then).
 */
export function recordFromBody<Fields extends FieldSet>(
  fields: Fields,
  body: Readonly<Record<string, unknown>>,
): RecordOf<Fields> {
  const record: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(fields)) {
    const sent = spec.create === false ? undefined : body[spec.wire];
    record[name] = sent === undefined ? fieldDefault(spec) : copied(sent);
  }
  return record as RecordOf<Fields>;
}

/**
 * The value of a field the documentation's examples show: its declared `example`, else the first
 * `examples` of its input check when it has the type of the field's default, else its default.
 */
export function fieldExample<Spec extends FieldSpec>(spec: Spec): Spec["default"] {
  const fallback: unknown = fieldDefault(spec);
  if (spec.example !== undefined) return copied(spec.example);
  const example = (spec.input?.meta()?.examples as unknown[] | undefined)?.[0];
  if (example === undefined || Array.isArray(example) !== Array.isArray(fallback)) return fallback;
  return Array.isArray(fallback) || typeof example === typeof fallback ? example : fallback;
}

/**
 * The record part of `fields` as the documentation's examples show it: each field at
 * {@link fieldExample} (a required `timestamp`, which has none, is undefined: the caller sets it).
 */
export function exampleRecord<Fields extends FieldSet>(fields: Fields): RecordOf<Fields> {
  const record: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(fields)) record[name] = fieldExample(spec);
  return record as RecordOf<Fields>;
}

/** The wire names of the fields the apply form asks for (those declared with a `form`). */
export type FormFieldOf<Fields extends FieldSet> = {
  [Name in keyof Fields]: Fields[Name]["form"] extends FieldForm ? Fields[Name]["wire"] : never;
}[keyof Fields];

/**
 * The zod shape of an object whose first keys are in a fixed `order`: each the wire name of a field
 * of `fields` placed `main` (its declared output schema) or a key of `computed` (a schema written by
 * hand). Every field placed `main` is in `order`, once.
 */
export function orderedShape<
  Fields extends FieldSet,
  const Order extends readonly string[],
  Computed extends Readonly<Record<string, z.ZodType>>,
>(fields: Fields, order: Order, computed: Computed): OrderedShapeOf<Fields, Order[number], Computed> {
  const main = new Map<string, FieldSpec>();
  for (const spec of Object.values(fields)) if (spec.placement === "main") main.set(spec.wire, spec);
  const shape: Record<string, z.ZodType> = {};
  for (const key of order) {
    const spec = main.get(key);
    const schema = spec ? spec.output : computed[key];
    if (!schema || key in shape || (spec && key in computed)) {
      throw new Error(`The key ${key} is not one field placed "main" or one computed schema.`);
    }
    shape[key] = schema;
  }
  for (const wire of main.keys()) {
    if (!(wire in shape)) throw new Error(`The field ${wire} is placed "main" but not in the order of its keys.`);
  }
  return shape as OrderedShapeOf<Fields, Order[number], Computed>;
}

/** The zod shape {@link orderedShape} gives: a field's declared output schema by its wire name, or a computed schema. */
export type OrderedShapeOf<Fields extends FieldSet, Key extends string, Computed> = {
  [K in Key]: K extends keyof Computed
    ? Computed[K]
    : { [Name in keyof Fields]: Fields[Name]["wire"] extends K ? Fields[Name]["output"] : never }[keyof Fields];
};

/** The public fields (`public: true`) outside the salary object, by wire name, as returned. */
export type PublicOf<Fields extends FieldSet> = {
  -readonly [Name in keyof Fields as Fields[Name]["public"] extends true
    ? Fields[Name]["placement"] extends "salary"
      ? never
      : Fields[Name]["wire"]
    : never]: RecordOf<Fields>[Name];
};
