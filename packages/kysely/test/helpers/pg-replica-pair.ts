/**
 * A throw-away Postgres primary and its streaming replica, for the `readDb` test: both clusters in
 * a temp directory on free ports, made with the server binaries of this machine (`initdb`,
 * `pg_ctl`, `pg_basebackup -R`), stopped and removed by `stop()`.
 *
 * Why a primary of its own, not the shared test server: that server's `pg_hba.conf` has no
 * `replication` line (its `host all all` does not match replication connections), so
 * `pg_basebackup` from it is refused, and its configuration is not the tests' to change.
 */
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PgReplicaPair {
  /** Connection strings of the primary and of the replica (database `postgres`, user `postgres`). */
  primaryUrl: string;
  replicaUrl: string;
  /** Stops both servers (immediate shutdown) and removes their directories. */
  stop(): Promise<void>;
}

/** The newest `/usr/lib/postgresql/<version>/bin` with the three binaries, or `HIREPORT_PG_BIN`. */
export function findPgBin(): string | null {
  const candidates = process.env.HIREPORT_PG_BIN
    ? [process.env.HIREPORT_PG_BIN]
    : existsSync("/usr/lib/postgresql")
      ? readdirSync("/usr/lib/postgresql")
          .filter((version) => /^\d+$/.test(version))
          .sort((a, b) => Number(b) - Number(a))
          .map((version) => `/usr/lib/postgresql/${version}/bin`)
      : [];
  return (
    candidates.find((bin) => ["initdb", "pg_ctl", "pg_basebackup"].every((tool) => existsSync(join(bin, tool)))) ?? null
  );
}

/** A TCP port nobody listens on now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Starts a primary and a replica streaming from it. The servers refuse to run as root: as root
 * the binaries run as the `postgres` user (`runuser`), which then owns the directory.
 */
export async function startPgReplicaPair(bin: string): Promise<PgReplicaPair> {
  const root = process.getuid?.() === 0;
  const tool = (name: string, args: string[]) =>
    root ? run("runuser", ["-u", "postgres", "--", join(bin, name), ...args]) : run(join(bin, name), args);
  const dir = mkdtempSync(join(tmpdir(), "hireport-pg-replica-"));
  if (root) {
    const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim());
    const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const serverOptions = (port: number) =>
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const started: string[] = [];
  const stop = async () => {
    for (const data of started.reverse()) {
      await tool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const primary = join(dir, "primary");
    const replica = join(dir, "replica");
    await tool("initdb", ["-D", primary, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
    await tool("pg_ctl", [
      "-D",
      primary,
      "-o",
      serverOptions(primaryPort),
      "-l",
      join(dir, "primary.log"),
      "-w",
      "start",
    ]);
    started.push(primary);
    // `-R` writes `primary_conninfo` and `standby.signal`: the copy starts as a streaming replica.
    await tool("pg_basebackup", [
      ...["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", replica],
      ...["-R", "-X", "stream", "-c", "fast", "--no-sync"],
    ]);
    await tool("pg_ctl", [
      "-D",
      replica,
      "-o",
      serverOptions(replicaPort),
      "-l",
      join(dir, "replica.log"),
      "-w",
      "start",
    ]);
    started.push(replica);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/postgres`,
    stop,
  };
}
