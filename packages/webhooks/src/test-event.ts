import type { EventRecord } from "@hireport/core";
import { newId } from "./ids";

/** The API version carried by every envelope (spec section 9). */
export const API_VERSION = "1.0";

/**
 * The `webhook.test` event of DESIGN.md section 4: an envelope of spec 2.9 whose data is
 * `{ "endpoint_id": … }`.
 */
export function buildTestEvent(companyId: string, endpointId: string, now: Date): EventRecord {
  const id = newId("evt", now);
  const payload = JSON.stringify({
    id,
    type: "webhook.test",
    created_at: now.toISOString(),
    company_id: companyId,
    api_version: API_VERSION,
    data: { endpoint_id: endpointId },
  });
  return { id, companyId, type: "webhook.test", payload, createdAt: now };
}
