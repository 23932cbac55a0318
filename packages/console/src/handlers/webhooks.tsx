import type { EventType } from "@hireport/core";
import { notFound } from "@hireport/core/extend";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@hireport/core/schemas";
import type { WebhookSignatureScheme } from "@hireport/webhooks";
import type { Call } from "../call";
import { canSeeSecrets } from "../options";
import { EndpointPage, type EndpointPageProps } from "../pages/endpoint-page";
import { DeleteEndpointPage, type EndpointFormState, WebhooksPage } from "../pages/webhooks-page";
import { refusalMessages } from "./errors";

/** `YYYY-MM-DDTHH:MM` (UTC), the value of a `datetime-local` field. */
function localValue(at: Date): string {
  return at.toISOString().slice(0, 16);
}

function endpointFields(call: Call) {
  return {
    url: (call.form.get("url") ?? "").trim(),
    description: call.form.get("description") ?? "",
    events: call.form.getAll("events") as EventType[],
    // Checked by the dispatcher (422 for an unknown scheme); absent leaves it as it is.
    signatureScheme: (call.form.get("signatureScheme") || undefined) as WebhookSignatureScheme | undefined,
    // Both forms show the box: unchecked (absent) means not ordered.
    ordered: call.form.get("ordered") === "on",
    // Empty: no limit; anything else is checked by the dispatcher (422 unless a whole number 1-10000).
    maxPerSecond: maxPerSecondField(call.form.get("maxPerSecond")),
  };
}

function maxPerSecondField(value: string | null): number | null {
  const text = (value ?? "").trim();
  return text === "" ? null : Number(text);
}

export async function showWebhooks(call: Call) {
  const [ctx, endpoints] = await Promise.all([call.page(), call.options.dispatcher.endpoints.list(call.companyId)]);
  return call.render(<WebhooksPage ctx={ctx} endpoints={endpoints} />);
}

export async function createEndpoint(call: Call) {
  const values = endpointFields(call);
  try {
    const { endpoint } = await call.options.dispatcher.endpoints.create(
      { companyId: call.companyId, ...values },
      call.change,
    );
    // The secret is not shown here: an owner reveals it on the endpoint's page (an admin never sees it).
    return call.redirect(`/webhooks/${endpoint.id}`, "endpoint-created");
  } catch (error) {
    const form: EndpointFormState = { values, errors: refusalMessages(error, ["invalid", "endpoint_limit"]) };
    const [ctx, endpoints] = await Promise.all([call.page(), call.options.dispatcher.endpoints.list(call.companyId)]);
    return call.render(<WebhooksPage ctx={ctx} endpoints={endpoints} form={form} />, 422);
  }
}

/** The endpoint's page, with a secret or a form's refusal when a POST answers with it. */
async function endpointPage(
  call: Call,
  extra: Partial<EndpointPageProps> = {},
  status = 200,
  headers: Record<string, string> = {},
) {
  const { dispatcher } = call.options;
  const id = call.params.id ?? "";
  const requested = call.query.get("status");
  const statusFilter = DELIVERY_STATUSES.includes(requested as DeliveryStatus) ? (requested as DeliveryStatus) : null;
  const cursor = call.query.get("cursor");
  const endpoint = await dispatcher.endpoints.get(call.companyId, id);
  const [ctx, health, deliveries] = await Promise.all([
    call.page(),
    dispatcher.endpoints.stats(call.companyId, id),
    dispatcher.deliveries
      .list(call.companyId, id, { limit: 25, ...(statusFilter ? { status: statusFilter } : {}), cursor })
      .catch((error: unknown) => {
        // A cursor of another filter (an edited link) starts again from the first page.
        refusalMessages(error, ["bad_request"]);
        return dispatcher.deliveries.list(call.companyId, id, {
          limit: 25,
          ...(statusFilter ? { status: statusFilter } : {}),
        });
      }),
  ]);
  const recoverSince = localValue(new Date(call.options.clock.now().getTime() - 86_400_000));
  return call.render(
    <EndpointPage
      ctx={ctx}
      endpoint={endpoint}
      deliveries={deliveries}
      health={health}
      statusFilter={statusFilter}
      recoverSince={recoverSince}
      {...extra}
    />,
    status,
    headers,
  );
}

/** The endpoint's page, with its signing secret when the page after a reveal or a rotation shows it (once). */
export async function showEndpoint(call: Call) {
  const shown = await call.shownSecret("endpoint-secret");
  const secret =
    shown.secret && shown.secret.subject === call.params.id && canSeeSecrets(call.principal)
      ? { value: shown.secret.value, rotated: shown.secret.rotated }
      : null;
  return endpointPage(call, { secret, secretGone: shown.shown && !secret }, 200, shown.headers);
}

export async function updateEndpoint(call: Call) {
  const id = call.params.id ?? "";
  const values = endpointFields(call);
  try {
    await call.options.dispatcher.endpoints.update(call.companyId, id, values, call.change);
    return call.redirect(`/webhooks/${id}`, "endpoint-updated");
  } catch (error) {
    return endpointPage(call, { form: { values, errors: refusalMessages(error) } }, 422);
  }
}

export async function confirmDelete(call: Call) {
  const [ctx, endpoint] = await Promise.all([
    call.page(),
    call.options.dispatcher.endpoints.get(call.companyId, call.params.id ?? ""),
  ]);
  return call.render(<DeleteEndpointPage ctx={ctx} endpoint={endpoint} />);
}

export async function deleteEndpoint(call: Call) {
  await call.options.dispatcher.endpoints.delete(call.companyId, call.params.id ?? "", call.change);
  return call.redirect("/webhooks", "endpoint-deleted");
}

export async function pauseEndpoint(call: Call) {
  const id = call.params.id ?? "";
  await call.options.dispatcher.endpoints.pause(call.companyId, id, call.change);
  return call.redirect(`/webhooks/${id}`, "endpoint-paused");
}

export async function resumeEndpoint(call: Call) {
  const id = call.params.id ?? "";
  await call.options.dispatcher.endpoints.resume(call.companyId, id, call.change);
  return call.redirect(`/webhooks/${id}`, "endpoint-resumed");
}

/** The secret, to an owner, on the page this POST redirects to, once (never in a URL). */
export async function revealSecret(call: Call) {
  const id = call.params.id ?? "";
  const { secret } = await call.options.dispatcher.endpoints.revealSecret(call.companyId, id, call.change);
  return call.redirectShowing(`/webhooks/${id}`, {
    kind: "endpoint-secret",
    subject: id,
    value: secret,
    rotated: false,
  });
}

/** A new secret: shown to an owner on the next page, once; an admin is told an owner can reveal it. */
export async function rotateSecret(call: Call) {
  const id = call.params.id ?? "";
  const { secret } = await call.options.dispatcher.endpoints.rotateSecret(call.companyId, id, call.change);
  if (!canSeeSecrets(call.principal)) return call.redirect(`/webhooks/${id}`, "secret-rotated");
  return call.redirectShowing(`/webhooks/${id}`, {
    kind: "endpoint-secret",
    subject: id,
    value: secret,
    rotated: true,
  });
}

export async function sendTest(call: Call) {
  const id = call.params.id ?? "";
  const { result } = await call.options.dispatcher.sendTest(call.companyId, id, call.change);
  return call.redirect(`/webhooks/${id}`, result === "succeeded" ? "test-succeeded" : "test-failed");
}

export async function resendDelivery(call: Call) {
  const id = call.params.id ?? "";
  const delivery = await call.options.dispatcher.deliveries.get(call.companyId, call.params.delivery ?? "");
  // A delivery of another endpoint than the one in the path is not found there.
  if (delivery.endpointId !== id) throw notFound("webhook delivery");
  await call.options.dispatcher.deliveries.resend(call.companyId, delivery.id, call.change);
  return call.redirect(`/webhooks/${id}`, "delivery-resent");
}

export async function recoverDeliveries(call: Call) {
  const id = call.params.id ?? "";
  const value = call.form.get("since") ?? "";
  const since = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? new Date(`${value}Z`) : null;
  if (!since || Number.isNaN(since.getTime())) {
    return endpointPage(call, { recoverError: "Give the time to recover from, as a date and a time (UTC)." }, 422);
  }
  const { queued, more } = await call.options.dispatcher.deliveries.recover(call.companyId, id, {
    since,
    ...call.change,
  });
  return call.redirect(`/webhooks/${id}`, more ? "recovered-more" : queued > 0 ? "recovered" : "recovered-none");
}
