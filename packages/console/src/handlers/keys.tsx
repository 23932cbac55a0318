import type { Scope } from "@hireport/core";
import { SCOPES } from "@hireport/core/schemas";
import type { Call } from "../call";
import { KeysPage, RevokeKeyPage } from "../pages/keys-page";
import { refusalMessages } from "./errors";

async function keysPage(call: Call) {
  const { api } = call.options;
  const [ctx, keys] = await Promise.all([call.page(), api.keys.list(call.companyId)]);
  return { ctx, keys, maxActive: api.keys.maxActive, now: call.options.clock.now() };
}

/** The keys, with a key just created when the page after its form shows it (once). */
export async function showKeys(call: Call) {
  const [data, shown] = await Promise.all([keysPage(call), call.shownSecret("key")]);
  const created = shown.secret ? { key: shown.secret.value, name: shown.secret.subject } : null;
  return call.render(
    <KeysPage {...data} created={created} createdGone={shown.shown && !created} />,
    200,
    shown.headers,
  );
}

/** `expires` of the form: a day, the key stops at its start (UTC). */
function expiryOf(value: string): Date | null | "invalid" {
  if (value === "") return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return "invalid";
  const at = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(at.getTime()) ? "invalid" : at;
}

/**
 * Creates a key and answers 303 to the keys page, which shows it once: the key travels in a sealed,
 * short-lived cookie, never in the URL (`shown-once.ts`).
 */
export async function createKey(call: Call) {
  const name = call.form.get("name") ?? "";
  const scopes = call.form.getAll("scopes");
  const expires = call.form.get("expires") ?? "";
  const values = { name, scopes, expires };
  const expiresAt = expiryOf(expires);
  let errors: string[];
  if (expiresAt === "invalid") {
    errors = ["expires: Give a day as YYYY-MM-DD, or leave it empty."];
  } else if (!scopes.every((scope) => (SCOPES as readonly string[]).includes(scope))) {
    errors = ["scopes: Choose among the permissions listed."];
  } else {
    try {
      const created = await call.options.api.keys.create(
        { companyId: call.companyId, name, scopes: scopes as Scope[], expiresAt },
        call.change,
      );
      return call.redirectShowing("/keys", {
        kind: "key",
        subject: created.record.name,
        value: created.key,
        rotated: false,
      });
    } catch (error) {
      errors = refusalMessages(error, ["invalid", "key_limit"]);
    }
  }
  const data = await keysPage(call);
  return call.render(<KeysPage {...data} form={{ values, errors }} />, 422);
}

export async function confirmRevoke(call: Call) {
  const [ctx, record] = await Promise.all([
    call.page(),
    call.options.api.keys.get(call.companyId, call.params.id ?? ""),
  ]);
  return call.render(<RevokeKeyPage ctx={ctx} record={record} />);
}

export async function revokeKey(call: Call) {
  await call.options.api.keys.revoke(call.companyId, call.params.id ?? "", call.change);
  return call.redirect("/keys", "key-revoked");
}
