import type { WebhookEndpointRecord } from "@hireport/core";

/**
 * An endpoint as the dispatcher returns it to the host: the stored record without its secrets
 * (a secret is shown once, by `create` and `rotateSecret`).
 */
export type WebhookEndpoint = Omit<WebhookEndpointRecord, "secrets"> & {
  /**
   * The first characters of the current secret (`whsec_AbCd…`), to tell secrets apart; empty when
   * the secret does not open with the dispatcher's `encryptionKeys`.
   */
  secretHint: string;
  /** While an old secret still signs beside the new one: when it stops. */
  previousSecretExpiresAt: Date | null;
};

export function toEndpointView(record: WebhookEndpointRecord, now: Date): WebhookEndpoint {
  const current = record.secrets.find((secret) => secret.expiresAt === null) ?? record.secrets[0];
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
    consecutiveFailures: record.consecutiveFailures,
    secretHint: current?.secret ? `${current.secret.slice(0, 10)}…` : "",
    previousSecretExpiresAt: graceEnds[0] ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
