import { publicKeyOf } from "../signing/signing-keys";
import type { WebhookEndpointRecord } from "../store/webhook-records";

/**
 * An endpoint as the dispatcher returns it to the host: the stored record without its secrets
 * (a secret is shown once, by `create` and `rotateSecret`).
 */
export type WebhookEndpoint = Omit<WebhookEndpointRecord, "secrets"> & {
  /**
   * The first characters of the current secret (`whsec_AbCd…`), or of the current public key
   * (`whpk_AbCd…`) for `"standard-v1a"`, to tell them apart; empty when the secret does not open
   * with the dispatcher's `encryptionKeys`.
   */
  secretHint: string;
  /**
   * `"standard-v1a"`: the current ed25519 public key, `whpk_<base64 of 32 bytes>`, which receivers
   * verify with (the JWKS holds it too, with the previous one during a rotation's grace period).
   * Null for the other schemes, and empty when the key does not open with `encryptionKeys`.
   */
  publicKey: string | null;
  /** While an old secret still signs beside the new one: when it stops. */
  previousSecretExpiresAt: Date | null;
};

export function toEndpointView(record: WebhookEndpointRecord, now: Date): WebhookEndpoint {
  const current = record.secrets.find((secret) => secret.expiresAt === null) ?? record.secrets[0];
  const asymmetric = record.signatureScheme === "standard-v1a";
  const publicKey = asymmetric && current?.secret ? publicKeyOf(current.secret) : "";
  const shown = asymmetric ? publicKey : (current?.secret ?? "");
  const graceEnds = record.secrets
    .map((secret) => secret.expiresAt)
    .filter((at): at is Date => at !== null && at.getTime() > now.getTime())
    .sort((a, b) => b.getTime() - a.getTime());
  return {
    id: record.id,
    companyId: record.companyId,
    url: record.url,
    description: record.description,
    events: [...record.events],
    status: record.status,
    pausedReason: record.pausedReason,
    signatureScheme: record.signatureScheme,
    ordered: record.ordered,
    maxPerSecond: record.maxPerSecond,
    consecutiveFailures: record.consecutiveFailures,
    secretHint: shown ? `${shown.slice(0, 10)}…` : "",
    publicKey: asymmetric ? publicKey : null,
    previousSecretExpiresAt: graceEnds[0] ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
