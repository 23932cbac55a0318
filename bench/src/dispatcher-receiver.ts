/**
 * The webhook receiver of the dispatcher benchmark, run as a second process (forked by
 * `dispatcher.ts`). It answers 200 at once, counts requests, records the first arrival of every
 * delivery (event `created_at` to arrival, for the latency figures) and checks the signature of one
 * request in `SAMPLE_EVERY` (HMAC-SHA256 over `${t}.${body}` with the endpoint's secret).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { ReceiverCommand, ReceiverMessage, ReceiverReport } from "./dispatcher-protocol";

const SAMPLE_EVERY = 250;
const CREATED_AT = /"created_at":"([^"]+)"/;
const EVENT_ID = /^\{"id":"([^"]+)"/;

let secrets: string[] = [];
let phase = "idle";
let requests = 0;
let duplicates = 0;
let signaturesChecked = 0;
let signaturesBad = 0;
const seen = new Set<string>();
const latencies = new Map<string, number[]>();
const arrivalsPerSecond: number[] = [];
const liveArrivals: Array<[string, number]> = [];
const startedAt = Date.now();

function send(message: ReceiverMessage): void {
  process.send?.(message);
}

function signatureOk(endpointIndex: number, header: string | undefined, body: string): boolean {
  const secret = secrets[endpointIndex];
  if (!secret || !header) return false;
  let timestamp = "";
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value = ""] = part.split("=", 2);
    if (key === "t") timestamp = value;
    else if (key === "v1") signatures.push(value);
  }
  const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest();
  return signatures.some((hex) => {
    const given = Buffer.from(hex, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const server = createServer((request, response) => {
  const arrival = Date.now();
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    response.writeHead(200, { "content-length": "0" });
    response.end();
    requests += 1;
    const second = Math.floor((arrival - startedAt) / 1000);
    arrivalsPerSecond[second] = (arrivalsPerSecond[second] ?? 0) + 1;
    const body = Buffer.concat(chunks).toString("utf8");
    const deliveryId = String(request.headers["service-delivery"] ?? "");
    if (seen.has(deliveryId)) {
      duplicates += 1;
    } else {
      seen.add(deliveryId);
      const createdAt = CREATED_AT.exec(body.slice(0, 200))?.[1];
      if (createdAt) {
        const list = latencies.get(phase) ?? [];
        latencies.set(phase, list);
        list.push(arrival - Date.parse(createdAt));
      }
      if (phase === "live") liveArrivals.push([EVENT_ID.exec(body)?.[1] ?? "", arrival]);
    }
    if (requests % SAMPLE_EVERY === 0) {
      signaturesChecked += 1;
      const endpointIndex = Number(request.url?.split("/")[2] ?? -1);
      const header = request.headers["service-signature"];
      if (!signatureOk(endpointIndex, typeof header === "string" ? header : undefined, body)) signaturesBad += 1;
    }
  });
});
server.keepAliveTimeout = 60_000;

process.on("message", (command: ReceiverCommand) => {
  switch (command.type) {
    case "config":
      secrets = command.secrets;
      break;
    case "phase":
      phase = command.name;
      break;
    case "reset":
      requests = 0;
      duplicates = 0;
      signaturesChecked = 0;
      signaturesBad = 0;
      seen.clear();
      latencies.clear();
      arrivalsPerSecond.length = 0;
      liveArrivals.length = 0;
      break;
    case "count":
      send({ type: "count", requests, unique: seen.size });
      break;
    case "report": {
      const report: ReceiverReport = {
        requests,
        unique: seen.size,
        duplicates,
        signaturesChecked,
        signaturesBad,
        latencies: Object.fromEntries(latencies),
        liveArrivals,
        arrivalsPerSecond: Array.from(arrivalsPerSecond, (value) => value ?? 0),
      };
      send({ type: "report", report });
      break;
    }
    case "exit":
      server.close();
      process.disconnect?.();
      break;
  }
});

// The benchmark ended (or died): stop with it.
process.on("disconnect", () => process.exit(0));

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  send({ type: "listening", port: typeof address === "object" && address ? address.port : 0 });
});
