import { EVENT_TYPES } from "@hireport/core/schemas";
import type { WebhookEndpoint } from "@hireport/webhooks";
import { WEBHOOK_SIGNATURE_SCHEMES, type WebhookSignatureScheme } from "@hireport/webhooks";
import { canChange } from "../options";
import { formatTime } from "./format";
import { Csrf, href, Layout, type PageContext } from "./layout";

/** What an endpoint form shows again after a refusal. */
export interface EndpointFormState {
  values?: {
    url?: string;
    description?: string;
    events?: string[];
    signatureScheme?: string | undefined;
    ordered?: boolean;
    maxPerSecond?: number | null;
  };
  errors?: string[];
}

export function FormErrors({ errors, what }: { errors?: string[] | undefined; what: string }) {
  if (!errors?.length) return null;
  return (
    <div class="error" role="alert">
      <p>{what}</p>
      <ul>
        {errors.map((error) => (
          <li>{error}</li>
        ))}
      </ul>
    </div>
  );
}

/** How each signature scheme reads in the form. */
export const SCHEME_LABELS: Record<WebhookSignatureScheme, string> = {
  service: "Service-Signature (HMAC-SHA256)",
  "standard-v1": "Standard Webhooks v1 (HMAC-SHA256)",
  "standard-v1a": "Standard Webhooks v1a (ed25519, public key)",
};

/** The fields of an endpoint: address, description, event kinds, signature scheme, order and throttle. */
export function EndpointFields({ id, values }: { id: string; values: NonNullable<EndpointFormState["values"]> }) {
  return (
    <>
      <label for={`${id}-url`}>Address (https)</label>
      <input id={`${id}-url`} type="url" name="url" required maxLength={2048} value={values.url ?? ""} size={60} />
      <label for={`${id}-description`}>Description (optional)</label>
      <input
        id={`${id}-description`}
        type="text"
        name="description"
        maxLength={500}
        value={values.description ?? ""}
        size={60}
      />
      <fieldset>
        <legend>Events to send</legend>
        {EVENT_TYPES.map((type) => (
          <label class="check">
            <input type="checkbox" name="events" value={type} checked={values.events?.includes(type) ?? false} /> {type}
          </label>
        ))}
      </fieldset>
      <label for={`${id}-scheme`}>Signature</label>
      <select id={`${id}-scheme`} name="signatureScheme">
        {WEBHOOK_SIGNATURE_SCHEMES.map((scheme) => (
          <option value={scheme} selected={(values.signatureScheme ?? "service") === scheme}>
            {SCHEME_LABELS[scheme]}
          </option>
        ))}
      </select>
      {id === "edit" ? <p class="muted">Changing the signature replaces the signing secret or key at once.</p> : null}
      <label class="check">
        <input type="checkbox" name="ordered" checked={values.ordered ?? false} /> Send events in order, one at a time
        (a failing event holds back the later ones)
      </label>
      <label for={`${id}-rate`}>Most deliveries per second (optional)</label>
      <input
        id={`${id}-rate`}
        type="number"
        name="maxPerSecond"
        min={1}
        max={10000}
        step={1}
        value={values.maxPerSecond == null || Number.isNaN(values.maxPerSecond) ? "" : String(values.maxPerSecond)}
      />
    </>
  );
}

export function statusText(endpoint: WebhookEndpoint): string {
  if (endpoint.status === "active") return "active";
  if (endpoint.pausedReason === "failures") return `${endpoint.status} after failures`;
  return endpoint.status;
}

export function WebhooksPage(props: { ctx: PageContext; endpoints: WebhookEndpoint[]; form?: EndpointFormState }) {
  const { ctx, endpoints } = props;
  return (
    <Layout ctx={ctx} section="webhooks" title="Webhooks">
      <p>
        Webhooks send the company's events to an https address, signed with the endpoint's secret (header{" "}
        <code>Service-Signature</code>).
      </p>
      <p>
        <a href={href(ctx, "/webhooks/events")}>The event types</a>: what each means, an example body and its JSON
        Schema.
      </p>
      <table>
        <caption class="visually-hidden">Webhook endpoints</caption>
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Events</th>
            <th scope="col">Status</th>
            <th scope="col">Failures in a row</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.length === 0 ? (
            <tr>
              <td colSpan={5}>No webhook endpoints yet.</td>
            </tr>
          ) : null}
          {endpoints.map((endpoint) => (
            <tr>
              <td>
                <a href={href(ctx, `/webhooks/${endpoint.id}`)}>{endpoint.url}</a>
                {endpoint.description ? <div class="muted">{endpoint.description}</div> : null}
              </td>
              <td>{endpoint.events.join(", ")}</td>
              <td class={`status-${endpoint.status}`}>{statusText(endpoint)}</td>
              <td>{endpoint.consecutiveFailures}</td>
              <td>{formatTime(endpoint.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {canChange(ctx.principal) ? (
        <section aria-labelledby="create-endpoint">
          <h2 id="create-endpoint">Add an endpoint</h2>
          <FormErrors errors={props.form?.errors} what="The endpoint was not added:" />
          <form method="post" action={href(ctx, "/webhooks")}>
            <Csrf ctx={ctx} />
            <EndpointFields id="new" values={props.form?.values ?? { events: [...EVENT_TYPES] }} />
            <p>
              <button type="submit">Add endpoint</button>
            </p>
          </form>
        </section>
      ) : null}
    </Layout>
  );
}

export function DeleteEndpointPage(props: { ctx: PageContext; endpoint: WebhookEndpoint }) {
  const { ctx, endpoint } = props;
  return (
    <Layout ctx={ctx} section="webhooks" title="Delete a webhook endpoint">
      <p>
        Delete the endpoint <strong>{endpoint.url}</strong> with its delivery log? Events stop going to it at once.
      </p>
      <form method="post" action={href(ctx, `/webhooks/${endpoint.id}/delete`)}>
        <Csrf ctx={ctx} />
        <button type="submit" class="danger">
          Delete the endpoint
        </button>{" "}
        <a href={href(ctx, `/webhooks/${endpoint.id}`)}>Cancel</a>
      </form>
    </Layout>
  );
}
