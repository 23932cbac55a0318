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

const TEXT_FIELDS: {
  name: Exclude<ApplyField, "resume" | "consent" | "cover_letter">;
  label: string;
  type: "text" | "email" | "tel" | "url";
  autocomplete: string;
  required?: boolean;
}[] = [
  { name: "name", label: "Full name", type: "text", autocomplete: "name", required: true },
  { name: "email", label: "E-mail address", type: "email", autocomplete: "email", required: true },
  { name: "phone", label: "Phone number", type: "tel", autocomplete: "tel" },
  { name: "location", label: "Where you live", type: "text", autocomplete: "address-level2" },
  { name: "linkedin_url", label: "LinkedIn profile", type: "url", autocomplete: "url" },
  { name: "current_title", label: "Current job title", type: "text", autocomplete: "organization-title" },
  { name: "skills", label: "Skills", type: "text", autocomplete: "off" },
];

const FIELD_ORDER: readonly ApplyField[] = [
  "name",
  "email",
  "phone",
  "location",
  "linkedin_url",
  "current_title",
  "skills",
  "cover_letter",
  "resume",
  "consent",
];

const LABELS: Record<ApplyField, string> = {
  name: "Full name",
  email: "E-mail address",
  phone: "Phone number",
  location: "Where you live",
  linkedin_url: "LinkedIn profile",
  current_title: "Current job title",
  skills: "Skills",
  cover_letter: "Cover letter",
  consent: "Consent",
  resume: "CV",
};

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
        {TEXT_FIELDS.map((field) => (
          <>
            <label for={field.name}>
              {field.label}
              {field.required ? " (required)" : ""}
            </label>
            {field.name === "skills" ? (
              <p class="hint" id="skills-hint">
                Separate them with commas.
              </p>
            ) : null}
            <input
              type={field.type as "text"}
              id={field.name}
              name={field.name}
              value={values[field.name]}
              autocomplete={field.autocomplete}
              required={field.required}
              aria-invalid={errors[field.name] ? "true" : undefined}
              aria-describedby={describedBy(props, field.name, field.name === "skills" ? "skills-hint" : undefined)}
            />
            <FieldError props={props} field={field.name} />
          </>
        ))}
      </fieldset>
      {/* Before the CV too, for the same reason. */}
      <QuestionFields props={props} />
      <fieldset>
        <legend>Your application</legend>
        {/* Before the CV: a CV over its limit is refused where it passes it, with what came before kept. */}
        <label for="cover_letter">Cover letter</label>
        <textarea
          id="cover_letter"
          name="cover_letter"
          aria-invalid={errors.cover_letter ? "true" : undefined}
          aria-describedby={describedBy(props, "cover_letter")}
        >
          {values.cover_letter}
        </textarea>
        <FieldError props={props} field="cover_letter" />
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
