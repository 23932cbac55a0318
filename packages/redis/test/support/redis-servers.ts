/**
 * The Redis servers the tests use: the standalone Redis at HIREPORT_REDIS_URL (default
 * redis://127.0.0.1:6379), and servers the tests start themselves with `redis-server` (a single
 * one they stop and restart, and 3-master Clusters). Neither being available fails the run with a
 * message saying what is missing: these tests are never skipped.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Cluster, Redis, type RedisOptions } from "ioredis";

const run = promisify(execFile);

export const REDIS_URL = process.env.HIREPORT_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Client options that fail fast while Redis is away, as the README recommends. */
export const FAIL_FAST: RedisOptions = { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false };

/** A key prefix of its own for one test file: `hireport-test:3fa9c1:`. */
export function testPrefix(): string {
  return `hireport-test:${randomBytes(3).toString("hex")}:`;
}

/** A client of the standalone Redis; fails loudly when it does not answer. */
export async function standaloneRedis(): Promise<Redis> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 2000, retryStrategy: () => null });
  try {
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new Error(
      `@hireport/redis tests need Redis at ${REDIS_URL} (set HIREPORT_REDIS_URL): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // Reconnects from here on, like a host's client.
  client.options.retryStrategy = (times) => Math.min(times * 50, 500);
  return client;
}

/** Deletes every key under `prefix`, on every master of a Cluster. */
export async function deletePrefix(redis: Redis | Cluster, prefix: string): Promise<void> {
  const nodes = redis instanceof Cluster ? redis.nodes("master") : [redis];
  for (const node of nodes) {
    for await (const keys of node.scanStream({ match: `${prefix}*`, count: 1000 }) as AsyncIterable<string[]>) {
      for (const key of keys) await node.del(key);
    }
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out waiting for ${what}.`);
}

/**
 * A redis-server the test owns, on a free port, with no persistence; it can be stopped and started
 * again, or paused and resumed.
 */
export class RedisServer {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly extra: string[],
  ) {}

  static async start(extra: string[] = [], dir?: string): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), dir ?? (await mkdtemp(join(tmpdir(), "hireport-redis-"))), extra);
    await server.start();
    return server;
  }

  async start(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
    const child = spawn("redis-server", [...args, "--dir", this.dir, ...this.extra], { stdio: "ignore" });
    this.child = child;
    const failed = new Promise<never>((_, reject) =>
      child.once("error", (error) =>
        reject(new Error(`@hireport/redis tests need redis-server on the PATH: ${error.message}`)),
      ),
    );
    failed.catch(() => undefined);
    await Promise.race([waitFor(`redis-server on port ${this.port}`, () => answersPing(this.port)), failed]);
  }

  /** Stops the server's process (SIGSTOP): its connections stay open, and nothing is answered. */
  pause(): void {
    this.child?.kill("SIGSTOP");
  }

  /** Lets a paused server run again (SIGCONT): it runs and answers what it was sent meanwhile. */
  resume(): void {
    this.child?.kill("SIGCONT");
  }

  /** Kills the server (SIGKILL: no goodbye to its clients) and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** A 3-master Redis Cluster of servers the test owns. */
export interface TestCluster {
  ports: number[];
  /** A new client of the Cluster (the test disconnects it). */
  client(): Promise<Cluster>;
  destroy(): Promise<void>;
}

export async function startCluster(): Promise<TestCluster> {
  const dir = await mkdtemp(join(tmpdir(), "hireport-cluster-"));
  const servers: RedisServer[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const args = ["--cluster-enabled", "yes", "--cluster-config-file", join(dir, `nodes-${i}-${port}.conf`)];
      servers.push(await RedisServer.start(args, dir));
    }
    const ports = servers.map((server) => server.port);
    try {
      await run("redis-cli", [
        "--cluster",
        "create",
        ...ports.map((port) => `127.0.0.1:${port}`),
        "--cluster-replicas",
        "0",
        "--cluster-yes",
      ]);
    } catch (error) {
      throw new Error(`redis-cli --cluster create failed (is redis-cli on the PATH?): ${String(error)}`);
    }
    for (const port of ports) {
      await waitFor(`cluster_state:ok on port ${port}`, async () => {
        const { stdout } = await run("redis-cli", ["-p", String(port), "cluster", "info"]);
        return stdout.includes("cluster_state:ok");
      });
    }
    return {
      ports,
      async client() {
        const cluster = new Cluster(
          ports.map((port) => ({ host: "127.0.0.1", port })),
          { redisOptions: { maxRetriesPerRequest: 1 } },
        );
        await cluster.ping();
        return cluster;
      },
      async destroy() {
        for (const server of servers) await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const server of servers) await server.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
