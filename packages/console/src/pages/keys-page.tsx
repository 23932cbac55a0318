import { type ApiKeyRecord, isKeyUsable } from "@hireport/core";
import { SCOPES } from "@hireport/core/schemas";
import { canChange } from "../options";
import { formatTime } from "./format";
import { CopyableText, Csrf, href, Layout, type PageContext } from "./layout";

/** What the create form shows again after a refusal. */
export interface KeyFormState {
  values?: { name?: string; scopes?: string[]; expires?: string };
  errors?: string[];
}

function status(key: ApiKeyRecord, now: Date): "active" | "revoked" | "expired" {
  if (key.revokedAt) return "revoked";
  return isKeyUsable(key, now) ? "active" : "expired";
}

/** `svc_live_abcdef…wXyZ`: enough to tell keys apart, never enough to use one. */
export function shownKey(key: ApiKeyRecord): string {
  return `${key.prefix}…${key.suffix}`;
}

export function KeysPage(props: {
  ctx: PageContext;
  keys: ApiKeyRecord[];
  maxActive: number;
  now: Date;
  /** A key just created: shown this once. */
  created?: { key: string; name: string } | null;
  /** The page of a created key, opened again: the key is not shown any more. */
  createdGone?: boolean;
  form?: KeyFormState;
}) {
  const { ctx, keys, now } = props;
  const active = keys.filter((key) => status(key, now) === "active").length;
  const full = active >= props.maxActive;
  const values = props.form?.values ?? {};
  return (
    <Layout ctx={ctx} section="keys" title="API keys">
      <p>
        Keys let the company's own systems call the API. Each key belongs to this company only.{" "}
        <strong>
          {active} of {props.maxActive} active keys
        </strong>{" "}
        in use.
      </p>
      {props.created ? (
        <section class="secret" aria-labelledby="new-key-title">
          <h2 id="new-key-title">Your new key “{props.created.name}”</h2>
          <p>Copy it now and keep it on a server: it is shown this once and cannot be read again.</p>
          <CopyableText id="new-key" text={props.created.key} />
        </section>
      ) : null}
      {props.createdGone ? (
        <p class="notice" role="status">
          The new key was shown once and is not shown again. If it was not copied, revoke it and create another.
        </p>
      ) : null}
      <table>
        <caption class="visually-hidden">API keys of this company</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Permissions</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            {canChange(ctx.principal) ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {keys.length === 0 ? (
            <tr>
              <td colSpan={8}>No keys yet.</td>
            </tr>
          ) : null}
          {keys.map((key) => {
            const state = status(key, now);
            return (
              <tr>
                <td>{key.name}</td>
                <td>
                  <code>{shownKey(key)}</code>
                </td>
                <td>{key.scopes.join(", ")}</td>
                <td>{formatTime(key.createdAt)}</td>
                <td>{key.expiresAt ? formatTime(key.expiresAt) : "never"}</td>
                <td>{key.lastUsedAt ? formatTime(key.lastUsedAt) : "never"}</td>
                <td class={`status-${state}`}>
                  {state === "revoked" ? `revoked ${formatTime(key.revokedAt)}` : state}
                </td>
                {canChange(ctx.principal) ? (
                  <td>{state === "revoked" ? null : <a href={href(ctx, `/keys/${key.id}/revoke`)}>Revoke…</a>}</td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {canChange(ctx.principal) ? (
        <section aria-labelledby="create-key">
          <h2 id="create-key">Create a key</h2>
          {props.form?.errors?.length ? (
            <div class="error" role="alert">
              <p>The key was not created:</p>
              <ul>
                {props.form.errors.map((error) => (
                  <li>{error}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {full ? (
            <p class="notice">The company has its {props.maxActive} active keys: revoke one before creating another.</p>
          ) : (
            <form method="post" action={href(ctx, "/keys")}>
              <Csrf ctx={ctx} />
              <label for="key-name">Name</label>
              <input id="key-name" type="text" name="name" required maxLength={200} value={values.name ?? ""} />
              <fieldset>
                <legend>Permissions</legend>
                {SCOPES.map((scope) => (
                  <label class="check">
                    <input
                      type="checkbox"
                      name="scopes"
                      value={scope}
                      checked={values.scopes?.includes(scope) ?? false}
                    />{" "}
                    {scope}
                  </label>
                ))}
              </fieldset>
              <label for="key-expires">Expires on (optional; the key stops working at 00:00 UTC that day)</label>
              <input id="key-expires" type="date" name="expires" value={values.expires ?? ""} />
              <p>
                <button type="submit">Create key</button>
              </p>
            </form>
          )}
        </section>
      ) : null}
    </Layout>
  );
}

export function RevokeKeyPage(props: { ctx: PageContext; record: ApiKeyRecord }) {
  const { ctx, record } = props;
  return (
    <Layout ctx={ctx} section="keys" title="Revoke a key">
      <p>
        Revoke the key <strong>{record.name}</strong> (<code>{shownKey(record)}</code>)? Its next request answers 401,
        and it cannot be used again.
      </p>
      <form method="post" action={href(ctx, `/keys/${record.id}/revoke`)}>
        <Csrf ctx={ctx} />
        <button type="submit" class="danger">
          Revoke the key
        </button>{" "}
        <a href={href(ctx, "/keys")}>Cancel</a>
      </form>
    </Layout>
  );
}
