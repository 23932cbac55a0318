/**
 * The load generator: one autocannon run in its own process. Takes a LoadOptions JSON as its only
 * argument and prints `RESULT {…}` (a LoadResult) when done. With `primeSeconds`, an unmeasured run
 * of that length comes first, followed by a `PRIMED` line.
 */
import autocannon from "autocannon";
import type { LoadOptions, LoadResult } from "./common";

const options = JSON.parse(process.argv[2] ?? "{}") as LoadOptions;

/** A priming run lasts `primeSeconds` whatever `amount` says. */
const run = (duration: number, priming = false) =>
  autocannon({
    url: options.url,
    method: options.method ?? "GET",
    headers: options.headers ?? {},
    ...(options.body !== undefined ? { body: options.body, idReplacement: true } : {}),
    ...(options.bodies !== undefined
      ? { requests: options.bodies.map((body) => ({ method: options.method ?? "GET", body })), idReplacement: true }
      : {}),
    ...(options.requests !== undefined ? { requests: options.requests, idReplacement: true } : {}),
    connections: options.connections,
    ...(options.amount !== undefined && !priming ? { amount: options.amount } : { duration }),
    timeout: 30,
  });

if (options.primeSeconds) {
  await run(options.primeSeconds, true);
  process.stdout.write("PRIMED\n");
}
const startedAt = Date.now();
const result = await run(options.durationSeconds);

const out: LoadResult = {
  requests: result.requests.total,
  rps: result.requests.total / (result.duration || 1),
  latencyP50: result.latency.p50,
  latencyP99: result.latency.p99,
  latencyMean: result.latency.average,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  startedAt,
  endedAt: Date.now(),
};
process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
