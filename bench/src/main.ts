/**
 * `pnpm bench`: the API benchmarks (src/api.ts), the scaling benchmark (src/scaling.ts, in its own
 * process), the cost of the durable usage log (src/usage-durable.ts, in its own process), the dispatcher benchmark (src/dispatcher.ts, in its
 * own process) when it is there, then the console's pages (src/console.ts), the careers site
 * (src/careers.ts), cold start (src/coldstart.ts) and the change detector (src/changes.ts). `BENCH_ONLY=api`,
 * `scaling`, `usage-durable`, `dispatcher`, `console`, `careers`, `coldstart` or `changes` runs one.
 * Stops by itself: every child is stopped at the end, and a hard limit ends a run that hangs.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runApiBench, stopAllServers } from "./api";
import { runCareersBench, stopCareersServers } from "./careers";
import { runChangesBench } from "./changes";
import { runColdStartBench } from "./coldstart";
import { log, SRC_DIR, spawnTsx } from "./common";
import { runConsoleBench } from "./console";
import { runProfileBench } from "./profile";

const only = process.env.BENCH_ONLY;
const HARD_LIMIT_MS = Number(process.env.BENCH_HARD_LIMIT_MS ?? 45 * 60_000);

const limit = setTimeout(() => {
  log(`giving up after ${HARD_LIMIT_MS / 60_000} minutes`);
  void Promise.all([stopAllServers(), stopCareersServers()]).finally(() => process.exit(2));
}, HARD_LIMIT_MS);
limit.unref();

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(
    signal,
    () => void Promise.all([stopAllServers(), stopCareersServers()]).finally(() => process.exit(130)),
  );
}

/** Runs one benchmark script of src/ in its own process, its output passed through. */
async function runScript(script: string, name: string): Promise<void> {
  log(`${name} (src/${script})`);
  const child = spawnTsx(script, [], {});
  child.stdout?.pipe(process.stdout);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`the ${name} exited with ${code}`);
}

async function main(): Promise<void> {
  if (only === "profile") await runProfileBench();
  if (!only || only === "api") await runApiBench();
  if (!only || only === "scaling") await runScript("scaling.ts", "scaling benchmark");
  if (!only || only === "usage-durable") await runScript("usage-durable.ts", "durable usage log benchmark");
  if ((!only || only === "dispatcher") && existsSync(join(SRC_DIR, "dispatcher.ts"))) {
    await runScript("dispatcher.ts", "dispatcher benchmark");
  }
  if (!only || only === "console") {
    log("console pages (src/console.ts)");
    await runConsoleBench();
  }
  if (!only || only === "careers") {
    log("careers site (src/careers.ts)");
    await runCareersBench();
  }
  if (!only || only === "coldstart") {
    log("cold start (src/coldstart.ts)");
    await runColdStartBench();
  }
  if (!only || only === "changes") {
    log("change detector (src/changes.ts)");
    await runChangesBench();
  }
}

main()
  .then(() => process.exit(0))
  .catch(async (error: unknown) => {
    console.error(error);
    await Promise.all([stopAllServers(), stopCareersServers()]);
    process.exit(1);
  });
