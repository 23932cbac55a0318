/**
 * The dispatcher benchmark's bare sender: what a hand-written loop does to send the same backlog
 * with no storage at all. The same receiver, the same endpoints and total concurrency (the
 * dispatcher's per-endpoint limit times the endpoints), the same event payloads signed the same way
 * (HMAC-SHA256 over `t.body` with each endpoint's secret, per request), the same HTTP client
 * (undici, one keep-alive pool). Its rate is the ceiling the dispatcher's drain is read against.
 */
import { createHmac } from "node:crypto";
import { eventPayload } from "@hireport/core/extend";
import { newId } from "@hireport/core/storage";
import { Agent, request } from "undici";

export interface BareSendOptions {
  /** The receiver's port on 127.0.0.1. */
  port: number;
  /** One secret per endpoint; endpoint `i` is `/e/i`. */
  secrets: readonly string[];
  companyId: string;
  /** Events to send; each goes to every endpoint. */
  events: number;
  /** Requests in flight per endpoint. */
  perEndpoint: number;
}

export interface BareSendFigures {
  deliveries: number;
  ms: number;
  deliveriesPerSecond: number;
  failures: number;
}

export async function bareSend(options: BareSendOptions): Promise<BareSendFigures> {
  const { port, secrets, companyId, events, perEndpoint } = options;
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const at = new Date();
  // The payloads exist before the run, as the stored events do for the dispatcher.
  const payloads = Array.from({ length: events }, (_, index) => {
    const id = newId("evt", at);
    const data = { id: `job_${index}`, title: `Job ${index}`, status: "open" };
    return eventPayload({ id, type: "job.updated", createdAt: at, companyId, data });
  });
  let failures = 0;
  const started = performance.now();
  // Per endpoint, `perEndpoint` workers take its events in turn.
  const worker = async (endpoint: number, first: number): Promise<void> => {
    const secret = secrets[endpoint] as string;
    const url = `http://127.0.0.1:${port}/e/${endpoint}`;
    for (let index = first; index < events; index += perEndpoint) {
      const payload = payloads[index] as string;
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
      const response = await request(url, {
        method: "POST",
        dispatcher: agent,
        body: payload,
        headers: {
          "content-type": "application/json",
          "user-agent": "hireport-bench-bare",
          "service-event": "job.updated",
          "service-delivery": newId("dlv"),
          "service-signature": `t=${timestamp},v1=${signature}`,
        },
      });
      await response.body.dump();
      if (response.statusCode < 200 || response.statusCode >= 300) failures += 1;
    }
  };
  const workers: Promise<void>[] = [];
  for (let endpoint = 0; endpoint < secrets.length; endpoint += 1) {
    for (let first = 0; first < perEndpoint; first += 1) workers.push(worker(endpoint, first));
  }
  await Promise.all(workers);
  const ms = performance.now() - started;
  await agent.close();
  const deliveries = events * secrets.length;
  return { deliveries, ms: Math.round(ms), deliveriesPerSecond: Math.round((deliveries * 1000) / ms), failures };
}
