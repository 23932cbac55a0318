/**
 * Host processes for the cross-process tests: `count` OS processes running
 * test/fixtures/admit-worker.ts, each with its own ioredis client and Postgres pool, started once
 * and driven by IPC messages, so that a test can run many bursts without starting them again.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { BurstAnswer, BurstRequest, WorkerArgs } from "../fixtures/admit-worker";

const WORKER = fileURLToPath(new URL("../fixtures/admit-worker.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

type WorkerMessage = { type: "ready" } | BurstAnswer | { type: "error"; message: string };

/** One worker process and what it wrote to stderr. */
class Worker {
  private stderr = "";
  private readonly waiting: ((message: WorkerMessage) => void)[] = [];
  private exited: Error | undefined;

  constructor(private readonly child: ChildProcess) {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    child.on("message", (message: WorkerMessage) => this.waiting.shift()?.(message));
    child.on("exit", (code, signal) => {
      this.exited = new Error(`admit-worker exited (${signal ?? code}): ${this.stderr}`);
      for (const waiter of this.waiting.splice(0)) waiter({ type: "error", message: this.exited.message });
    });
  }

  /** The next message of the worker; rejects on an error message or when the worker died. */
  next(): Promise<WorkerMessage> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise<WorkerMessage>((resolve, reject) => {
      this.waiting.push((message) =>
        message.type === "error" ? reject(new Error(`${message.message}\n${this.stderr}`)) : resolve(message),
      );
    });
  }

  send(request: BurstRequest): void {
    this.child.send(request);
  }

  /** What the worker wrote to stderr so far (a test expects nothing). */
  get errors(): string {
    return this.stderr;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.disconnect();
    const killer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(killer);
  }
}

export interface AdmitWorkers {
  /** Sends one burst request to each worker at once (the i-th to worker i); their answers in order. */
  burst(requests: BurstRequest[]): Promise<BurstAnswer[]>;
  /** What the workers wrote to stderr. */
  errors(): string;
  close(): Promise<void>;
}

/** Starts `count` workers and waits until each has its Redis client ready. */
export async function startAdmitWorkers(count: number, args: WorkerArgs): Promise<AdmitWorkers> {
  const workers = Array.from(
    { length: count },
    () =>
      new Worker(
        fork(WORKER, [JSON.stringify(args)], {
          cwd: PACKAGE_DIR,
          execArgv: ["--import", "tsx"],
          stdio: ["ignore", "ignore", "pipe", "ipc"],
        }),
      ),
  );
  try {
    await Promise.all(workers.map((worker) => worker.next()));
  } catch (error) {
    await Promise.all(workers.map((worker) => worker.close()));
    throw error;
  }
  return {
    async burst(requests) {
      if (requests.length !== workers.length) throw new Error(`${workers.length} requests expected.`);
      const answers = workers.map((worker) => worker.next());
      for (const [i, worker] of workers.entries()) worker.send(requests[i] as BurstRequest);
      return (await Promise.all(answers)) as BurstAnswer[];
    },
    errors: () => workers.map((worker) => worker.errors).join(""),
    close: async () => {
      await Promise.all(workers.map((worker) => worker.close()));
    },
  };
}
