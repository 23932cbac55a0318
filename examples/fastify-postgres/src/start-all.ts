/**
 * Local launcher for the whole production shape on one machine:
 *
 *   1. `migrate`, once, and waits for it to finish;
 *   2. two app processes (`app-a` on PORT_A, `app-b` on PORT_B) sharing the database;
 *   3. one dispatcher process.
 *
 * Each child's output is prefixed with its name. Ctrl+C (SIGINT) or SIGTERM stops them all; if one
 * of them dies, the others are stopped and the launcher exits with an error. In production, your
 * process manager (systemd, Kubernetes, ECS…) plays this part, with a load balancer in front of the
 * apps.
 *
 *   pnpm start
 *
 * Environment: PORT_A (3001), PORT_B (3002), PUBLIC_BASE_URL (http://localhost:PORT_A), and those
 * of the children.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { env, isProduction, warn } from "./config";

const here = dirname(fileURLToPath(import.meta.url));
const COLORS = ["\x1b[36m", "\x1b[35m", "\x1b[33m", "\x1b[32m"];
const RESET = "\x1b[0m";
const useColor = process.stdout.isTTY === true;
let colorIndex = 0;

/** Forwards a stream line by line, each line prefixed with the process's name. */
function pipeLines(stream: NodeJS.ReadableStream | null, prefix: string, out: NodeJS.WriteStream): void {
  if (!stream) return;
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) out.write(`${prefix} ${line}\n`);
  });
  stream.on("end", () => {
    if (rest) out.write(`${prefix} ${rest}\n`);
  });
}

function run(name: string, script: string, extraEnv: Record<string, string>): ChildProcess {
  const color = COLORS[colorIndex++ % COLORS.length] ?? "";
  const prefix = useColor ? `${color}[${name}]${RESET}` : `[${name}]`;
  // `node --import tsx` rather than the tsx CLI: one process per child, so signals reach it directly.
  const child = spawn(process.execPath, ["--import", "tsx", join(here, script)], {
    env: { ...process.env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  pipeLines(child.stdout, prefix, process.stdout);
  pipeLines(child.stderr, prefix, process.stderr);
  return child;
}

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once("exit", (code) => resolve(code)));

async function main(): Promise<void> {
  const portA = env("PORT_A") ?? "3001";
  const portB = env("PORT_B") ?? "3002";
  const shared: Record<string, string> = { PUBLIC_BASE_URL: env("PUBLIC_BASE_URL") ?? `http://localhost:${portA}` };
  if (!env("HIREPORT_FILE_SECRET")) {
    if (isProduction()) throw new TypeError("HIREPORT_FILE_SECRET is required in production");
    // Both apps must sign and check CV links and cursors with the same secret: make one for this run.
    shared.HIREPORT_FILE_SECRET = randomBytes(32).toString("base64url");
    warn(
      "start-all",
      "HIREPORT_FILE_SECRET is not set: generated one for this run and gave it to both apps.",
      "CV links and list cursors stop working at the next start. Set it (32+ characters) outside local runs.",
    );
  }

  const migrate = run("migrate", "migrate.ts", shared);
  const migrated = await exited(migrate);
  if (migrated !== 0) {
    console.error(`[start-all] migrate failed (exit ${migrated}); nothing started`);
    process.exit(1);
  }

  const children = [
    run("app-a", "app.ts", { ...shared, APP_NAME: "app-a", PORT: portA }),
    run("app-b", "app.ts", { ...shared, APP_NAME: "app-b", PORT: portB }),
    run("dispatcher", "dispatcher.ts", shared),
  ];

  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const timer = setTimeout(() => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }, 10_000);
    await Promise.all(children.map(exited));
    clearTimeout(timer);
    process.exit(code);
  };
  for (const child of children) {
    child.once("exit", (code, signal) => {
      if (stopping) return;
      console.error(`[start-all] a child exited (${signal ?? code}): stopping the others`);
      void stopAll(1);
    });
  }
  process.once("SIGINT", () => void stopAll(0));
  process.once("SIGTERM", () => void stopAll(0));
  console.log(`[start-all] starting app-a (port ${portA}), app-b (port ${portB}) and the dispatcher; Ctrl+C stops all`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
