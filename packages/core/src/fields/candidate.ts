/**
 * The candidate of an application, declared once: the `candidate` object of POST /applications
 * (name and e-mail required, the rest empty when left out), the `candidate` object of a returned
 * Application, the `candidate` of the domain record and its `candidate_…` columns, the candidate
 * `create` builds, the event catalog's example candidate and the "About you" fields of the careers
 * site's apply form (`form`). To add a field, add it here at the end, add its column in a migration
 * of `@hireport/kysely`, then run the generate script: see CONTRIBUTING.md.
 *
 * Every candidate field is personal data: erasing the candidate sets each back to its default
 * (`ERASED_CANDIDATE`).
 */

import { field, type RecordOf, type RowOf } from "./field";
import { email, LIMITS, label, requiredText, stringList, webUrlOrEmpty } from "./value-schemas";

/** The candidate's fields, by record name, in the order the bodies and the returned candidate list them. */
export const CANDIDATE_FIELDS = {
  name: field({
    kind: "label",
    wire: "name",
    column: "candidate_name",
    required: true,
    input: requiredText(LIMITS.label).meta({ examples: ["Ada Lovelace"] }),
    form: { label: "Full name", control: "text", autocomplete: "name" },
  }),
  email: field({
    kind: "text",
    wire: "email",
    column: "candidate_email",
    required: true,
    input: email(),
    form: { label: "E-mail address", control: "email", autocomplete: "email" },
  }),
  phone: field({
    kind: "label",
    wire: "phone",
    column: "candidate_phone",
    input: label().meta({ examples: ["+44 20 7946 0000"] }),
    form: { label: "Phone number", control: "tel", autocomplete: "tel" },
  }),
  location: field({
    kind: "label",
    wire: "location",
    column: "candidate_location",
    input: label(),
    example: "London",
    form: { label: "Where you live", control: "text", autocomplete: "address-level2" },
  }),
  linkedinUrl: field({
    kind: "text",
    wire: "linkedin_url",
    column: "candidate_linkedin_url",
    input: webUrlOrEmpty(),
    form: { label: "LinkedIn profile", control: "url", autocomplete: "url" },
  }),
  currentTitle: field({
    kind: "label",
    wire: "current_title",
    column: "candidate_current_title",
    input: label(),
    example: "Analyst",
    form: { label: "Current job title", control: "text", autocomplete: "organization-title" },
  }),
  skills: field({
    kind: "list",
    wire: "skills",
    column: "candidate_skills",
    input: stringList(),
    example: ["TypeScript", "PostgreSQL"],
    form: { label: "Skills", control: "text", autocomplete: "off", hint: "Separate them with commas." },
  }),
} as const;

/** The candidate fields' declarations (see {@link CANDIDATE_FIELDS}). */
export type CandidateFieldSet = typeof CANDIDATE_FIELDS;

/** The candidate of an application as the domain record holds it. */
export type CandidateFields = RecordOf<CandidateFieldSet>;

/** The `candidate_…` columns of an application row, as the database drivers return them. */
export type CandidateFieldColumns = RowOf<CandidateFieldSet>;
