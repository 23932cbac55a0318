import type { ApplicationRecord } from "@hireport/core";
import type { CandidateErasure } from "@hireport/core/extend";
import { formatCount, formatDay, formatTime } from "./format";
import { Csrf, href, Layout, type PageContext } from "./layout";
import { FormErrors } from "./webhooks-page";

/** What a candidate form names: an e-mail address or an application id, as typed. */
export interface CandidateTargetValues {
  email?: string;
  application?: string;
}

/** The hidden fields that carry a target from the review to the confirmation (in the body, never a URL). */
function TargetFields({ values }: { values: CandidateTargetValues }) {
  return (
    <>
      {values.email ? <input type="hidden" name="email" value={values.email} /> : null}
      {values.application ? <input type="hidden" name="application" value={values.application} /> : null}
    </>
  );
}

/** The two ways to name a person: their address, or one application's id. */
function TargetInputs({ id, values }: { id: string; values: CandidateTargetValues }) {
  return (
    <>
      <label for={`${id}-email`}>The candidate's e-mail address</label>
      <input id={`${id}-email`} type="email" name="email" maxLength={254} size={40} value={values.email ?? ""} />
      <p class="muted">or, for one application only:</p>
      <label for={`${id}-application`}>Application id</label>
      <input
        id={`${id}-application`}
        type="text"
        name="application"
        maxLength={200}
        size={40}
        value={values.application ?? ""}
      />
    </>
  );
}

/** The candidates section: export (an access request) and erase (an erasure request), owners and admins only. */
export function CandidatesPage(props: {
  ctx: PageContext;
  forbidden?: boolean;
  exportForm?: { values: CandidateTargetValues; errors: string[] };
  eraseForm?: { values: CandidateTargetValues; errors: string[] };
}) {
  const { ctx } = props;
  if (props.forbidden) {
    return (
      <Layout ctx={ctx} section="candidates" title="Candidates' personal data">
        <p class="error" role="alert">
          Only an owner or an admin of the company can export or erase a candidate's data.
        </p>
      </Layout>
    );
  }
  const exportValues = props.exportForm?.values ?? {};
  const eraseValues = props.eraseForm?.values ?? {};
  return (
    <Layout ctx={ctx} section="candidates" title="Candidates' personal data">
      <p>
        Answer a candidate's request about their data: give them a copy of everything stored about them, or erase it.
        Each export and erasure is recorded in the audit log with your name.
      </p>
      <section aria-labelledby="export-title">
        <h2 id="export-title">Export a candidate's data</h2>
        <p>
          A JSON file with every application of this address in the company: the candidate's details, cover letters,
          consent and its time, requests for a human review, notes, the stage history with who moved each stage, and
          links to the CVs (valid for a few minutes).
        </p>
        <FormErrors errors={props.exportForm?.errors} what="Nothing was exported:" />
        <form method="post" action={href(ctx, "/candidates/export")}>
          <Csrf ctx={ctx} />
          <label for="export-email">The candidate's e-mail address</label>
          <input
            id="export-email"
            type="email"
            name="email"
            required
            maxLength={254}
            size={40}
            value={exportValues.email ?? ""}
          />
          <p>
            <button type="submit">Download the export</button>
          </p>
        </form>
      </section>
      <section aria-labelledby="erase-title">
        <h2 id="erase-title">Erase a candidate's data</h2>
        <p>
          Erases the candidate's details, cover letters, notes and CV files, and removes them from stored webhook events
          and answers. The applications stay as anonymous records, so stage history, counts and reports stay true. It
          cannot be undone: the next page shows what will be erased and asks you to confirm.
        </p>
        <FormErrors errors={props.eraseForm?.errors} what="Nothing was erased:" />
        <form method="post" action={href(ctx, "/candidates/erase/review")}>
          <Csrf ctx={ctx} />
          <TargetInputs id="erase" values={eraseValues} />
          <p>
            <button type="submit" class="secondary">
              Review what will be erased…
            </button>
          </p>
        </form>
      </section>
    </Layout>
  );
}

/** The confirmation step of an erasure: the applications it will erase, and the button. */
export function EraseReviewPage(props: {
  ctx: PageContext;
  values: CandidateTargetValues;
  applications: ApplicationRecord[];
}) {
  const { ctx, values, applications } = props;
  const pending = applications.filter((application) => application.erasedAt === null);
  return (
    <Layout ctx={ctx} section="candidates" title="Erase a candidate's data">
      {applications.length === 0 ? (
        <p class="notice">No application of this company matches: nothing is stored about this person here.</p>
      ) : (
        <table>
          <caption>Applications {pending.length > 0 ? "that will be erased" : "already erased"}</caption>
          <thead>
            <tr>
              <th scope="col">Reference</th>
              <th scope="col">Job</th>
              <th scope="col">Stage</th>
              <th scope="col">Applied</th>
              <th scope="col">Erased</th>
            </tr>
          </thead>
          <tbody>
            {applications.map((application) => (
              <tr>
                <td>
                  <code>{application.reference}</code>
                </td>
                <td>{application.jobTitle}</td>
                <td>{application.stage}</td>
                <td>{formatDay(application.appliedAt)}</td>
                <td>{application.erasedAt ? formatTime(application.erasedAt) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pending.length > 0 ? (
        <form method="post" action={href(ctx, "/candidates/erase")}>
          <Csrf ctx={ctx} />
          <TargetFields values={values} />
          <input type="hidden" name="confirm" value="yes" />
          <p>
            Erase the candidate's data from{" "}
            {pending.length === 1 ? "this application" : `these ${formatCount(pending.length)} applications`}? This
            cannot be undone.
          </p>
          <button type="submit" class="danger">
            Erase the data
          </button>{" "}
          <a href={href(ctx, "/candidates")}>Cancel</a>
        </form>
      ) : (
        <p>
          <a href={href(ctx, "/candidates")}>Back</a>
        </p>
      )}
    </Layout>
  );
}

/** What an erasure did: ids and counts only. */
export function ErasedPage(props: { ctx: PageContext; erasure: CandidateErasure }) {
  const { ctx, erasure } = props;
  const { counts } = erasure;
  return (
    <Layout ctx={ctx} section="candidates" title="Candidate's data erased">
      {erasure.applicationIds.length === 0 ? (
        <p class="notice">Nothing was left to erase: these applications had been erased already.</p>
      ) : (
        <p class="done" role="status">
          The candidate's data was erased from {formatCount(erasure.applicationIds.length)} application
          {erasure.applicationIds.length === 1 ? "" : "s"} at {formatTime(erasure.erasedAt)}. Receivers of webhooks were
          sent the erased state.
        </p>
      )}
      <ul>
        <li>Notes deleted: {formatCount(counts.notes)}</li>
        <li>CV files deleted: {formatCount(counts.files)}</li>
        <li>Webhook events redacted: {formatCount(counts.events)}</li>
        <li>Stored webhook answers emptied: {formatCount(counts.attempts)}</li>
        <li>Stored API answers redacted: {formatCount(counts.idempotencyRecords)}</li>
      </ul>
      <p>
        <a href={href(ctx, "/audit")}>See it in the audit log</a> · <a href={href(ctx, "/candidates")}>Back</a>
      </p>
    </Layout>
  );
}
