import { APPLICATION_FORM_FIELDS, CANDIDATE_FORM_FIELDS, STANDARD_FIELDS, type StandardField } from "./apply-fields";
import { QuestionFields, questionAnchor } from "./question-fields";
import type { ApplyField, ApplyFormProps } from "./renderers";

function describedBy(props: ApplyFormProps, field: ApplyField, hint?: string): string | undefined {
  const ids = [hint, props.errors[field] ? `${field}-error` : undefined].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

function FieldError({ props, field }: { props: ApplyFormProps; field: ApplyField }) {
  const message = props.errors[field];
  return message ? (
    <p class="field-error" id={`${field}-error`}>
      {message}
    </p>
  ) : null;
}

/** The form's fields in its order: the standard ones, then the CV and the consent. */
const FIELD_ORDER: readonly ApplyField[] = [...STANDARD_FIELDS.map((field) => field.name), "resume", "consent"];

/** Each field's name in the list of problems above the form. */
const LABELS: Record<ApplyField, string> = {
  ...(Object.fromEntries(STANDARD_FIELDS.map((field) => [field.name, field.form.label])) as Record<
    StandardField["name"],
    string
  >),
  consent: "Consent",
  resume: "CV",
};

/**
 * A standard field: its label, its hint, its control (an input or a textarea) and its error. A
 * plain function rather than a component: the form is drawn on every job page.
 */
function standardControl(props: ApplyFormProps, field: StandardField) {
  const { name, form } = field;
  const hint = form.hint === undefined ? undefined : `${name}-hint`;
  const required = field.required || undefined;
  const invalid = props.errors[name] ? "true" : undefined;
  return (
    <>
      <label for={name}>
        {form.label}
        {field.required ? " (required)" : ""}
      </label>
      {hint ? (
        <p class="hint" id={hint}>
          {form.hint}
        </p>
      ) : null}
      {form.control === "textarea" ? (
        <textarea
          id={name}
          name={name}
          autocomplete={form.autocomplete}
          required={required}
          aria-invalid={invalid}
          aria-describedby={describedBy(props, name, hint)}
        >
          {props.values[name]}
        </textarea>
      ) : (
        <input
          type={form.control as "text"}
          id={name}
          name={name}
          value={props.values[name]}
          autocomplete={form.autocomplete}
          required={required}
          aria-invalid={invalid}
          aria-describedby={describedBy(props, name, hint)}
        />
      )}
      <FieldError props={props} field={name} />
    </>
  );
}

/**
 * The apply form: the job's pay when it has one, the candidate's fields, the job's questions, a
 * cover letter, the CV, the consent checkbox linking the privacy notice with how long the
 * application is kept, a honeypot field people never see, and the signed form token. Works without
 * JavaScript; every error is next to its field (and tied to it with `aria-describedby`) and listed
 * above the form with a link to it.
 */
export function ApplyForm({ props }: { props: ApplyFormProps }) {
  const { values, errors } = props;
  // In the order of the form.
  const problems = FIELD_ORDER.filter((field) => errors[field]).map(
    (field) => [field, errors[field] as string] as const,
  );
  const questionErrors = props.questionErrors ?? {};
  const questionProblems = (props.questions ?? []).filter((question) => questionErrors[question.id]);
  const mebibytes = Math.round((props.maxFileBytes / 1_048_576) * 10) / 10;
  return (
    <form method="post" action={props.action} enctype="multipart/form-data" aria-labelledby="apply-heading" noValidate>
      <h2 id="apply-heading">Apply for this job</h2>
      {props.salaryText ? (
        <p class="pay">
          <strong>Pay:</strong> {props.salaryText}
        </p>
      ) : null}
      {problems.length > 0 || questionProblems.length > 0 || props.notices.length > 0 ? (
        <div class="errors" role="alert" tabIndex={-1} id="form-errors">
          <p>
            <strong>Your application was not sent yet.</strong> Please check:
          </p>
          <ul>
            {props.notices.map((notice) => (
              <li>{notice}</li>
            ))}
            {problems.map(([field, message]) => (
              <li>
                <a href={`#${field}`}>
                  {LABELS[field]}: {message}
                </a>
              </li>
            ))}
            {questionProblems.map((question) => (
              <li>
                <a href={`#${questionAnchor(question)}`}>
                  {question.label}: {questionErrors[question.id]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <input type="hidden" name="form_token" value={props.formToken} />
      <fieldset>
        <legend>About you</legend>
        {CANDIDATE_FORM_FIELDS.map((field) => standardControl(props, field))}
      </fieldset>
      {/* Before the CV too, for the same reason. */}
      <QuestionFields props={props} />
      <fieldset>
        <legend>Your application</legend>
        {/* Before the CV: a CV over its limit is refused where it passes it, with what came before kept. */}
        {APPLICATION_FORM_FIELDS.map((field) => standardControl(props, field))}
        <label for="resume">CV (required)</label>
        <p class="hint" id="resume-hint">
          PDF, Word (DOC or DOCX), OpenDocument (ODT), RTF or plain text, up to {mebibytes} MB.
          {values.name || values.email ? " If you sent a file before, please choose it again." : ""}
        </p>
        <input
          type="file"
          id="resume"
          name="resume"
          required
          accept=".pdf,.doc,.docx,.odt,.rtf,.txt,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/vnd.oasis.opendocument.text,application/rtf,text/plain"
          aria-invalid={errors.resume ? "true" : undefined}
          aria-describedby={describedBy(props, "resume", "resume-hint")}
        />
        <FieldError props={props} field="resume" />
      </fieldset>
      <div class="hp" aria-hidden="true">
        <label for="website">Leave this field empty</label>
        <input type="text" id="website" name="website" tabIndex={-1} autocomplete="off" value="" />
      </div>
      <label class="check" for="consent">
        <input
          type="checkbox"
          id="consent"
          name="consent"
          value="yes"
          checked={values.consent}
          required
          aria-invalid={errors.consent ? "true" : undefined}
          aria-describedby={describedBy(props, "consent", props.retentionText ? "retention-hint" : undefined)}
        />
        {props.consentText === null || props.consentText === undefined ? (
          <span>
            I agree that my application and CV are kept and used to consider me for this job, as the{" "}
            <a href={props.privacyNoticeUrl}>privacy notice</a> describes. (required)
          </span>
        ) : (
          <span>
            {props.consentText} (<a href={props.privacyNoticeUrl}>privacy notice</a>) (required)
          </span>
        )}
      </label>
      {props.retentionText ? (
        <p class="hint" id="retention-hint">
          {props.retentionText}
        </p>
      ) : null}
      <FieldError props={props} field="consent" />
      <p>
        <button type="submit">Send application</button>
      </p>
    </form>
  );
}
