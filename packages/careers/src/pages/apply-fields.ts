/**
 * The apply form's standard fields, from core's declarations: each candidate field declared with a
 * `form` (under "About you") and each Application field declared with one (under "Your
 * application", before the CV), in declaration order. Their labels, controls, autocomplete tokens
 * and hints are declared there, their messages are their input checks'; the CV and the consent
 * checkbox are the form's own.
 */

import type { FieldForm, FormFieldOf } from "@hireport/core/extend";
import {
  APPLICATION_FIELDS,
  type ApplicationFieldSet,
  CANDIDATE_FIELDS,
  type CandidateFieldSet,
  type FieldSpec,
} from "@hireport/core/storage";
import type { ApplyValues } from "./renderers";

/** The names of the standard fields: their wire names, as the form and the create body name them. */
export type StandardFieldName = FormFieldOf<CandidateFieldSet> | FormFieldOf<ApplicationFieldSet>;

/** One standard field of the apply form. */
export interface StandardField {
  /** The control's `name` and `id`: the field's wire name. */
  name: StandardFieldName;
  /** Where core's errors name it: `candidate.{name}` for a candidate field, else `{name}`. */
  path: string;
  /** Whether it must be filled (` (required)` by its label). */
  required: boolean;
  /** Whether it is a list, typed as comma-separated text. */
  list: boolean;
  form: FieldForm;
}

function standardFields(fields: Readonly<Record<string, FieldSpec>>, prefix: string): readonly StandardField[] {
  return Object.values(fields).flatMap((spec) =>
    spec.form
      ? [
          {
            name: spec.wire as StandardFieldName,
            path: `${prefix}${spec.wire}`,
            required: spec.required,
            list: spec.kind === "list",
            form: spec.form,
          },
        ]
      : [],
  );
}

/** The candidate's fields, under "About you". */
export const CANDIDATE_FORM_FIELDS: readonly StandardField[] = standardFields(CANDIDATE_FIELDS, "candidate.");

/** The Application's fields, under "Your application", before the CV. */
export const APPLICATION_FORM_FIELDS: readonly StandardField[] = standardFields(APPLICATION_FIELDS, "");

/** Every standard field, in the order of the form. */
export const STANDARD_FIELDS: readonly StandardField[] = [...CANDIDATE_FORM_FIELDS, ...APPLICATION_FORM_FIELDS];

/** What the candidate typed in a standard field as its value in the create body. */
export function sentValue(field: StandardField, typed: string): string | string[] {
  if (field.list) {
    return typed
      .split(/[,\n]/)
      .map((item) => item.trim())
      .filter(Boolean);
  }
  // A textarea's text is kept as typed; a single line's surrounding spaces are not part of it.
  return field.form.control === "textarea" ? typed : typed.trim();
}

/** The values of an empty form: every standard field empty, the consent box not ticked. */
export function emptyApplyValues(): ApplyValues {
  const values: Record<string, string | boolean> = {};
  for (const field of STANDARD_FIELDS) values[field.name] = "";
  values.consent = false;
  return values as ApplyValues;
}
