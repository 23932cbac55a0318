/** The figures of one dispatcher benchmark run, and its section of RESULTS.md. */
import type { FloorFigures } from "./dispatcher-floor";

/** CPU time per delivery of a phase, µs (user + system, from process.cpuUsage and /proc). */
export interface CpuPerDelivery {
  /** The benchmark's own process: the sender (bare) or the dispatcher. */
  processUs: number;
  /** The receiver's process. */
  receiverUs: number;
  /** The Postgres backends of the benchmark's connections (0 for the bare sender, which has none). */
  postgresUs: number;
}

export interface DispatcherFigures {
  at: string;
  node: string;
  cpus: number;
  cpuModel: string;
  loadavg: number[];
  config: {
    endpoints: number;
    backlogEvents: number;
    liveEvents: number;
    liveRate: number;
    concurrency: number;
    perEndpoint: number;
    prefetch: number;
    pool: number;
    /** The backlog's event type (`BENCH_EVENT_TYPE`). */
    eventType: string;
  };
  seed: { deliveries: number; ms: number };
  backlog: {
    deliveries: number;
    ms: number;
    deliveriesPerSecond: number;
    sustainedMedianPerSecond: number;
    ratioToTarget: number;
    cpu: CpuPerDelivery;
    /**
     * Statements the dispatcher's pool sent during the drain: its claims (each round of one), its
     * records of attempts, and the others (the benchmark's own reads of what is pending among them).
     */
    statements: { claims: number; records: number; other: number };
  };
  live: {
    events: number;
    writeErrors: number;
    offeredDeliveriesPerSecond: number;
    deliveries: number;
    ms: number;
    deliveriesPerSecond: number;
    p50Ms: number;
    p90Ms: number;
    p99Ms: number;
    maxMs: number;
    p50RatioToTarget: number;
    fromCommitP50Ms: number;
    fromCommitP99Ms: number;
  };
  /** The bare sender (src/dispatcher-bare.ts): the same backlog, no storage. */
  bare: {
    deliveries: number;
    ms: number;
    deliveriesPerSecond: number;
    failures: number;
    /** Distinct deliveries the receiver counted. */
    arrived: number;
    signaturesBad: number;
    /** The dispatcher's backlog drain ÷ the bare sender's rate. */
    drainRatio: number;
    cpu: CpuPerDelivery;
  };
  /** The storage floor (src/dispatcher-floor.ts): the least a durable log costs, no HTTP. */
  floor: FloorFigures;
  backlogQueueLatencyP50Ms: number;
  receiver: { requests: number; unique: number; duplicates: number; signaturesChecked: number; signaturesBad: number };
  storage: { statuses: Record<string, number>; attempts: number; eventsWithoutFullFanOut: number };
  memory: {
    samples: number;
    startRssMb: number;
    peakRssMb: number;
    endRssMb: number;
    startHeapMb: number;
    peakHeapMb: number;
    endHeapMb: number;
    heapSlopeMbPer10k: number;
    rssSlopeMbPer10k: number;
    heapFloorsMb: number[];
  };
  complete: boolean;
}

const met = (ok: boolean): string => (ok ? "met" : "**missed**");

const cpu = (c: CpuPerDelivery, storage: boolean): string =>
  `${c.processUs} / ${c.receiverUs}${storage ? ` / ${c.postgresUs}` : ""}`;

/** The drain's statements per 1,000 deliveries, and the deliveries each claim and record carried. */
function statementsText(f: DispatcherFigures): string {
  const { claims, records, other } = f.backlog.statements;
  const perThousand = (n: number) => Math.round((n * 10_000) / f.backlog.deliveries) / 10;
  const each = (n: number) => (n === 0 ? 0 : Math.round(f.backlog.deliveries / n));
  return `${perThousand(claims + records)} per 1,000 deliveries: ${claims.toLocaleString("en")} claims (${each(claims)} deliveries each on average), ${records.toLocaleString("en")} records (${each(records)} attempts each on average); ${other} others`;
}

/**
 * The floor per delivery, and the best ratio to the bare sender a drain that keeps a log could
 * reach on these cores: a dispatcher spends at least the bare sender's CPU per delivery (its own
 * and the receiver's) plus the floor's (Postgres and pg's client side). Using the cores as much as
 * the bare sender did, it drains at most bare ÷ (bare + floor) of its rate; using every core
 * fully, at most cores ÷ (bare + floor) deliveries per µs.
 */
function floorText(f: DispatcherFigures): string {
  const bare = f.bare.cpu.processUs + f.bare.cpu.receiverUs;
  const floor = f.floor.postgresUs + f.floor.clientUs;
  const round = (value: number) => Math.round(value * 100) / 100;
  const coresUsed = round((f.bare.deliveriesPerSecond * bare) / 1e6);
  const sameUse = round(bare / (bare + floor));
  const fullUse = round((f.cpus * 1e6) / (bare + floor) / f.bare.deliveriesPerSecond);
  return `${f.floor.deliveriesPerSecond} deliveries/s; CPU per delivery, µs: Postgres ${f.floor.postgresUs}, client ${f.floor.clientUs}. Added to the bare sender's ${bare} µs (sender and receiver), a dispatcher that keeps a log reaches at most ${sameUse} of the bare sender using the cores as the bare sender did (${coresUsed} of ${f.cpus}), ${fullUse} using all ${f.cpus} fully`;
}

export function resultsMarkdown(f: DispatcherFigures): string {
  const total = f.backlog.deliveries + f.live.deliveries;
  // Flat: the floor of the heap (and RSS) does not grow with the deliveries; a falling one is flat too.
  const flat = f.memory.heapSlopeMbPer10k < 1.5 && f.memory.rssSlopeMbPer10k < 4;
  return `## Dispatcher benchmark

Last run ${f.at} with \`pnpm --filter @hireport/bench bench:dispatcher\` (or \`pnpm bench\`): Node ${f.node},
${f.cpus} × ${f.cpuModel}, load average at the end ${f.loadavg.join(" / ")}. Postgres, ${f.config.endpoints} endpoints
on one local receiver (a second process, node:http, 200 at once, 1 signature in 250 checked),
dispatcher \`concurrency\` ${f.config.concurrency}, \`perEndpointConcurrency\` ${f.config.perEndpoint}, \`prefetch\` ${f.config.prefetch}, pg pool ${f.config.pool}
(through \`hardenPgPool\`, as the production guide says).

| Figure | Value | Target | |
| --- | --- | --- | --- |
| bare sender: the same ${f.bare.deliveries.toLocaleString("en")} deliveries, same receiver, concurrency and signing, undici, no storage | ${f.bare.deliveriesPerSecond} deliveries/s (${f.bare.arrived.toLocaleString("en")} arrived, ${f.bare.failures} failed) | the baseline | |
| backlog drain (${f.backlog.deliveries.toLocaleString("en")} deliveries queued first) | ${f.backlog.deliveriesPerSecond} deliveries/s (median of 2 s windows ${f.backlog.sustainedMedianPerSecond}) | >= 4,000/s | ${met(f.backlog.deliveriesPerSecond >= 4000)} |
| backlog drain ÷ bare sender | ${f.bare.drainRatio} | >= 0.7 | ${met(f.bare.drainRatio >= 0.7)} |
| CPU per delivery, µs: bare sender / receiver during it; dispatcher process / receiver / the dispatcher's Postgres backends during the drain | ${cpu(f.bare.cpu, false)}; ${cpu(f.backlog.cpu, true)} | where the time goes | |
| the least a durable log costs: the same ${f.floor.deliveries.toLocaleString("en")} deliveries claimed and recorded in batches of ${f.floor.batch} (all this dispatcher may hold), ${f.floor.streams} connections, only the claim's index, no HTTP | ${floorText(f)} | the ceiling of the drain ÷ bare sender | |
| statements to Postgres during the drain | ${statementsText(f)} | where the time goes | |
| live: ${f.live.events.toLocaleString("en")} jobs created through core at ${f.config.liveRate}/s (${f.live.offeredDeliveriesPerSecond} deliveries/s offered) | event to first attempt p50 ${f.live.p50Ms} ms, p90 ${f.live.p90Ms} ms, p99 ${f.live.p99Ms} ms, max ${f.live.maxMs} ms; from the commit of the event's transaction p50 ${f.live.fromCommitP50Ms} ms, p99 ${f.live.fromCommitP99Ms} ms | p50 < 50 ms, p99 < 200 ms | ${met(f.live.p50Ms < 50 && f.live.p99Ms < 200)} |
| memory of the dispatcher process over ${total.toLocaleString("en")} deliveries (${f.memory.samples} samples, 1/s) | RSS ${f.memory.startRssMb} → peak ${f.memory.peakRssMb} → end ${f.memory.endRssMb} MB; heap ${f.memory.startHeapMb} → peak ${f.memory.peakHeapMb} → end ${f.memory.endHeapMb} MB; lowest heap of each 10,000 deliveries ${f.memory.heapFloorsMb.join(", ")} MB: trend ${f.memory.heapSlopeMbPer10k} MB heap, ${f.memory.rssSlopeMbPer10k} MB RSS per 10,000 deliveries | flat | ${met(flat)} |

Checks: ${f.receiver.unique.toLocaleString("en")} deliveries arrived (${f.receiver.duplicates} repeats), ${f.receiver.signaturesChecked} signatures checked, ${f.receiver.signaturesBad} bad; storage: ${Object.entries(
    f.storage.statuses,
  )
    .map(([status, n]) => `${n.toLocaleString("en")} ${status}`)
    .join(
      ", ",
    )}, ${f.storage.attempts.toLocaleString("en")} attempts, ${f.storage.eventsWithoutFullFanOut} events without exactly one delivery per endpoint; live writes failed: ${f.live.writeErrors}.`;
}
