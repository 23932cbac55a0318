/**
 * A candidate's access and erasure requests, for owners and admins: export (a JSON download) and
 * erase (after a review step that shows what will go). Addresses travel in POST bodies only, never
 * in a URL; core records both in the audit list with the principal as the actor.
 */
import type { CandidateTarget } from "@hireport/core/extend";
import type { Call } from "../call";
import { canChange } from "../options";
import { CandidatesPage, type CandidateTargetValues, ErasedPage, EraseReviewPage } from "../pages/candidates-page";
import { newNonce, securityHeaders } from "../responses";
import { refusalMessages } from "./errors";

function valuesOf(call: Call): CandidateTargetValues {
  return {
    email: (call.form.get("email") ?? "").trim(),
    application: (call.form.get("application") ?? "").trim(),
  };
}

/** The target of the form: what core expects (it refuses neither and both with 422 `invalid`). */
function targetOf(values: CandidateTargetValues): CandidateTarget {
  return {
    ...(values.email ? { email: values.email } : {}),
    ...(values.application ? { applicationId: values.application } : {}),
  } as CandidateTarget;
}

export async function showCandidates(call: Call) {
  const ctx = await call.page();
  if (!canChange(call.principal)) return call.render(<CandidatesPage ctx={ctx} forbidden />, 403);
  return call.render(<CandidatesPage ctx={ctx} />);
}

/** The export as a download: `candidate-export-YYYY-MM-DD.json`. */
export async function exportCandidate(call: Call) {
  const values = { email: (call.form.get("email") ?? "").trim() };
  try {
    const document = await call.options.api.candidates.export(call.companyId, values, call.change);
    const day = call.options.clock.now().toISOString().slice(0, 10);
    return {
      status: 200,
      headers: {
        ...securityHeaders(call.options, newNonce()),
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="candidate-export-${day}.json"`,
      },
      body: `${JSON.stringify(document, null, 2)}\n`,
    };
  } catch (error) {
    const ctx = await call.page();
    return call.render(<CandidatesPage ctx={ctx} exportForm={{ values, errors: refusalMessages(error) }} />, 422);
  }
}

/** The review step: which applications the erasure would reach. */
export async function reviewErasure(call: Call) {
  const values = valuesOf(call);
  const [ctx, found] = await Promise.all([
    call.page(),
    call.options.api.candidates.find(call.companyId, targetOf(values)).catch((error: unknown) => ({
      errors: refusalMessages(error),
    })),
  ]);
  if (!Array.isArray(found)) return call.render(<CandidatesPage ctx={ctx} eraseForm={{ values, ...found }} />, 422);
  return call.render(<EraseReviewPage ctx={ctx} values={values} applications={found} />);
}

/** The erasure itself, once confirmed. */
export async function eraseCandidate(call: Call) {
  const values = valuesOf(call);
  if (call.form.get("confirm") !== "yes") {
    const ctx = await call.page();
    const errors = ["Confirm the erasure on the review page."];
    return call.render(<CandidatesPage ctx={ctx} eraseForm={{ values, errors }} />, 422);
  }
  let erasure: Awaited<ReturnType<Call["options"]["api"]["candidates"]["erase"]>>;
  try {
    erasure = await call.options.api.candidates.erase(call.companyId, targetOf(values), call.change);
  } catch (error) {
    const ctx = await call.page();
    return call.render(<CandidatesPage ctx={ctx} eraseForm={{ values, errors: refusalMessages(error) }} />, 422);
  }
  const ctx = await call.page();
  return call.render(<ErasedPage ctx={ctx} erasure={erasure} />);
}
