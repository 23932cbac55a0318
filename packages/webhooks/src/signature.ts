import { createHmac } from "node:crypto";
import type { WebhookSecret } from "@hireport/core";

/**
 * Signs a payload for the `Signature` header: `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, one `v1`
 * entry per secret still signing at `now` (the current secret first, then rotated-out secrets in
 * their grace period). Each entry is HMAC-SHA256 over `${t}.${payload}` (the exact UTF-8 bytes
 * sent), keyed with the whole `whsec_…` string, hex-encoded.
 */
export function buildSignatureHeader(payload: string, secrets: readonly WebhookSecret[], now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  const entries = liveSecrets(secrets, now).map(
    (secret) => `v1=${createHmac("sha256", secret).update(`${t}.${payload}`, "utf8").digest("hex")}`,
  );
  return [`t=${t}`, ...entries].join(",");
}

/** The secrets that sign at `now`: the current one and those whose grace period has not ended. */
export function liveSecrets(secrets: readonly WebhookSecret[], now: Date): string[] {
  return secrets
    .filter((secret) => secret.expiresAt === null || secret.expiresAt.getTime() > now.getTime())
    .map((secret) => secret.secret);
}
