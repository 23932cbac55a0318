import type { DeliveryStatus } from "@hireport/core/schemas";
import type { DeliveryPage, EndpointStats, WebhookEndpoint } from "@hireport/webhooks";
import { canChange, canSeeSecrets } from "../options";
import { EndpointHealth } from "./endpoint-health";
import { formatTime } from "./format";
import { ActionButton, CopyableText, Csrf, href, Layout, type PageContext } from "./layout";
import { EndpointFields, type EndpointFormState, FormErrors, SCHEME_LABELS, statusText } from "./webhooks-page";

export interface EndpointPageProps {
  ctx: PageContext;
  endpoint: WebhookEndpoint;
  deliveries: DeliveryPage;
  statusFilter: DeliveryStatus | null;
  /** A secret to show this once (after a reveal or a rotation, to an owner). */
  secret?: { value: string; rotated: boolean } | null;
  /** The page of a shown secret, opened again: the secret is not shown any more. */
  secretGone?: boolean;
  form?: EndpointFormState;
  /** The recovery form's default: 24 hours ago, as `YYYY-MM-DDTHH:MM` (UTC). */
  recoverSince: string;
  recoverError?: string | null;
  /** The endpoint's attempts of the last 24 hours, hour by hour (`dispatcher.endpoints.stats`). */
  health?: EndpointStats | null;
}

function Deliveries({ ctx, endpoint, deliveries, statusFilter }: EndpointPageProps) {
  const filters: [DeliveryStatus | null, string][] = [
    [null, "All"],
    ["failed", "Failed"],
    ["pending", "Pending"],
    ["succeeded", "Succeeded"],
  ];
  const base = `/webhooks/${endpoint.id}`;
  const next = new URLSearchParams();
  if (statusFilter) next.set("status", statusFilter);
  if (deliveries.nextCursor) next.set("cursor", deliveries.nextCursor);
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">Deliveries</h2>
      <p>
        Show:{" "}
        {filters.map(([value, label]) => (
          <>
            {value === statusFilter ? (
              <strong>{label}</strong>
            ) : (
              <a href={href(ctx, base, value ? new URLSearchParams({ status: value }) : undefined)}>{label}</a>
            )}{" "}
          </>
        ))}
      </p>
      <table>
        <caption class="visually-hidden">Deliveries of this endpoint, newest first, each with its attempts</caption>
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            {canChange(ctx.principal) ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {deliveries.data.length === 0 ? (
            <tr>
              <td colSpan={5}>No deliveries{statusFilter ? ` ${statusFilter}` : ""}.</td>
            </tr>
          ) : null}
          {deliveries.data.map((delivery) => (
            <tr id={delivery.id}>
              <td>{formatTime(delivery.createdAt)}</td>
              <td>
                {delivery.eventType}
                <div class="muted">
                  <code>{delivery.id}</code>
                </div>
              </td>
              <td class={`status-${delivery.status}`}>
                {delivery.status}
                {delivery.status === "pending" && delivery.nextAttemptAt ? (
                  <div class="muted">next attempt {formatTime(delivery.nextAttemptAt)}</div>
                ) : null}
              </td>
              <td>
                {delivery.attemptLog.length === 0 ? "none yet" : null}
                {delivery.attemptLog.length > 0 ? (
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Time</th>
                        <th scope="col">Answer</th>
                        <th scope="col">Duration</th>
                        <th scope="col">Answer body (4 KiB) or error</th>
                      </tr>
                    </thead>
                    <tbody>
                      {delivery.attemptLog.map((attempt) => (
                        <tr>
                          <td>{formatTime(attempt.attemptedAt)}</td>
                          <td class={attempt.succeeded ? "status-succeeded" : "status-failed"}>
                            {attempt.statusCode ?? "no answer"}
                          </td>
                          <td>{Math.round(attempt.durationMs)} ms</td>
                          <td>
                            {attempt.error ? <p class="status-failed">{attempt.error}</p> : null}
                            {attempt.responseBody ? <pre>{attempt.responseBody}</pre> : null}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : null}
              </td>
              {canChange(ctx.principal) ? (
                <td>
                  <ActionButton
                    ctx={ctx}
                    action={`${base}/deliveries/${delivery.id}/resend`}
                    label="Resend"
                    kind="secondary"
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {deliveries.hasMore ? (
        <p>
          <a href={href(ctx, base, next)} rel="next">
            Older deliveries
          </a>
        </p>
      ) : null}
    </section>
  );
}

export function EndpointPage(props: EndpointPageProps) {
  const { ctx, endpoint } = props;
  const base = `/webhooks/${endpoint.id}`;
  const values = props.form?.values ?? {
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    signatureScheme: endpoint.signatureScheme,
    ordered: endpoint.ordered,
    maxPerSecond: endpoint.maxPerSecond,
  };
  return (
    <Layout ctx={ctx} section="webhooks" title="Webhook endpoint">
      <p>
        <a href={href(ctx, "/webhooks")}>All endpoints</a>
      </p>
      <dl>
        <dt>Address</dt>
        <dd>
          <code>{endpoint.url}</code>
        </dd>
        <dt>Status</dt>
        <dd class={`status-${endpoint.status}`}>
          {statusText(endpoint)} ({endpoint.consecutiveFailures} failed attempts in a row)
        </dd>
        <dt>Events</dt>
        <dd>{endpoint.events.join(", ")}</dd>
        <dt>Signature</dt>
        <dd>{SCHEME_LABELS[endpoint.signatureScheme]}</dd>
        <dt>Delivery</dt>
        <dd>
          {endpoint.ordered ? "in order, one at a time" : "in parallel"}
          {endpoint.maxPerSecond === null ? "" : `, at most ${endpoint.maxPerSecond} per second`}
        </dd>
        <dt>{endpoint.publicKey === null ? "Signing secret" : "Public key"}</dt>
        <dd>
          <code>{endpoint.publicKey ?? endpoint.secretHint}</code>
          {endpoint.previousSecretExpiresAt
            ? ` (the previous ${endpoint.publicKey === null ? "secret" : "key"} signs too until ${formatTime(endpoint.previousSecretExpiresAt)})`
            : null}
        </dd>
        <dt>Created</dt>
        <dd>{formatTime(endpoint.createdAt)}</dd>
      </dl>
      {props.secret ? (
        <section class="secret" aria-labelledby="secret-title">
          <h2 id="secret-title">
            {`${props.secret.rotated ? "The new " : "The "}${endpoint.publicKey === null ? "signing secret" : "public key"}`}
          </h2>
          <p>
            Give it to the receiver, which checks each request's signature with it.
            {props.secret.rotated ? " The previous secret keeps signing beside it for 24 hours." : ""}
          </p>
          <CopyableText id="signing-secret" text={props.secret.value} />
        </section>
      ) : null}
      {props.secretGone ? (
        <p class="notice" role="status">
          The signing secret was shown once and is not shown again on this page. An owner can reveal it again.
        </p>
      ) : null}
      {canChange(ctx.principal) ? (
        <section aria-labelledby="actions">
          <h2 id="actions">Actions</h2>
          <ActionButton ctx={ctx} action={`${base}/test`} label="Send test event" />
          {endpoint.status === "active" ? (
            <ActionButton ctx={ctx} action={`${base}/pause`} label="Pause" kind="secondary" />
          ) : (
            <ActionButton ctx={ctx} action={`${base}/resume`} label="Resume" />
          )}
          {canSeeSecrets(ctx.principal) ? (
            <ActionButton ctx={ctx} action={`${base}/reveal`} label="Reveal signing secret" kind="secondary" />
          ) : null}
          <ActionButton ctx={ctx} action={`${base}/rotate`} label="Rotate signing secret" kind="secondary" />
          <a href={href(ctx, `${base}/delete`)}>Delete…</a>
          <h3>Recover failed deliveries</h3>
          <form method="post" action={href(ctx, `${base}/recover`)}>
            <Csrf ctx={ctx} />
            {props.recoverError ? (
              <p class="error" role="alert">
                {props.recoverError}
              </p>
            ) : null}
            <label for="recover-since">Send again every failed delivery created since (UTC)</label>
            <input id="recover-since" type="datetime-local" name="since" required value={props.recoverSince} />{" "}
            <button type="submit" class="secondary">
              Recover
            </button>
          </form>
          <h3>Edit</h3>
          <FormErrors errors={props.form?.errors} what="The endpoint was not changed:" />
          <form method="post" action={href(ctx, base)}>
            <Csrf ctx={ctx} />
            <EndpointFields id="edit" values={values} />
            <p>
              <button type="submit">Save</button>
            </p>
          </form>
        </section>
      ) : null}
      {props.health ? <EndpointHealth stats={props.health} /> : null}
      <Deliveries {...props} />
    </Layout>
  );
}
