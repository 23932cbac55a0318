/**
 * The job's questions in the apply form: each a labelled control named `q_{id}`; yes/no and the
 * choice types a group of radio buttons or boxes in a `<fieldset>` with a `<legend>`; the help text
 * and the error of each tied to its controls (`aria-describedby`, `aria-invalid`), as the form's own
 * fields are.
 */
import type { Question } from "@hireport/core";
import type { ApplyFormProps } from "./renderers";

/** The form field name of a question's answer. */
export function questionFieldName(question: Pick<Question, "id">): string {
  return `q_${question.id}`;
}

/** The element id of a question's control (its first option for a group): what the error list links to. */
export function questionAnchor(question: Question): string {
  return usesGroup(question) ? `q-${question.id}-0` : `q-${question.id}`;
}

/** Whether a question is answered from a group of radio buttons or boxes. */
function usesGroup(question: Question): boolean {
  return question.type === "yes_no" || question.type === "single_choice" || question.type === "multiple_choice";
}

/** The options of a group: a question's choices, or Yes and No. */
function optionsOf(question: Question): { value: string; label: string }[] {
  if (question.type === "yes_no") {
    return [
      { value: "yes", label: "Yes" },
      { value: "no", label: "No" },
    ];
  }
  return question.choices.map((choice) => ({ value: choice.value, label: choice.label }));
}

const REAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date input shows only a real date back (what a browser's date picker sends); anything else is left empty. */
function dateValue(value: string): string {
  if (!REAL_DATE.test(value)) return "";
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? value : "";
}

function QuestionField({ props, question }: { props: ApplyFormProps; question: Question }) {
  const name = questionFieldName(question);
  const id = `q-${question.id}`;
  const error = props.questionErrors?.[question.id];
  const values = props.answers?.[question.id] ?? [];
  const first = values[0] ?? "";
  const hint = question.help ? (
    <p class="hint" id={`${id}-hint`}>
      {question.help}
    </p>
  ) : null;
  const message = error ? (
    <p class="field-error" id={`${id}-error`}>
      {error}
    </p>
  ) : null;
  const describedBy =
    [question.help ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const invalid = error ? "true" : undefined;
  const required = question.required ? " (required)" : "";
  if (usesGroup(question)) {
    const multiple = question.type === "multiple_choice";
    return (
      <fieldset class="question">
        <legend>
          {question.label}
          {required}
        </legend>
        {hint}
        {optionsOf(question).map((option, index) => (
          <label class="check" for={`${id}-${index}`}>
            <input
              type={multiple ? "checkbox" : "radio"}
              id={`${id}-${index}`}
              name={name}
              value={option.value}
              checked={values.includes(option.value)}
              required={question.required && !multiple ? true : undefined}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
            <span>{option.label}</span>
          </label>
        ))}
        {message}
      </fieldset>
    );
  }
  const common = {
    id,
    name,
    required: question.required || undefined,
    "aria-invalid": invalid,
    "aria-describedby": describedBy,
  } as const;
  return (
    <div class="question">
      <label for={id}>
        {question.label}
        {required}
      </label>
      {hint}
      {question.type === "long_text" ? (
        <textarea {...common}>{first}</textarea>
      ) : question.type === "date" ? (
        <input type="date" value={dateValue(first)} {...common} />
      ) : question.type === "number" ? (
        <input type="text" inputMode="decimal" value={first} autocomplete="off" {...common} />
      ) : (
        <input type="text" value={first} autocomplete="off" {...common} />
      )}
      {message}
    </div>
  );
}

/** The job's questions, in their order, in a fieldset of their own (nothing when the job asks none). */
export function QuestionFields({ props }: { props: ApplyFormProps }) {
  const questions = props.questions ?? [];
  if (questions.length === 0) return null;
  return (
    <fieldset>
      <legend>Questions about this job</legend>
      {questions.map((question) => (
        <QuestionField props={props} question={question} />
      ))}
    </fieldset>
  );
}
