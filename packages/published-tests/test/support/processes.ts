import { type ChildProcess, execFile, spawn } from "node:child_process";
import { rmSync } from "node:fs";

/**
 * The environment of a child process: the parent's, without what the vitest running us put in it,
 * and without the npm_* and pnpm_* variables of the `pnpm test` that may have started it (npm and
 * pnpm then read the same configuration whether the tests run under `pnpm test` or `npx vitest`).
 * Without NODE_PATH either: pnpm's bin shims set it to the workspace's `node_modules/.pnpm/node_modules`,
 * where require() in a temporary project would find every package of the workspace, those the
 * project did not install included.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("VITEST") || key === "TEST" || key === "NODE_ENV" || key === "NODE_OPTIONS") delete env[key];
    if (key === "NODE_PATH") delete env[key];
    if (/^(npm|pnpm)_/i.test(key)) delete env[key];
  }
  return { ...env, ...extra };
}

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** `$ command args` and what it wrote, for a failure message. */
  transcript: string;
  ms: number;
}

/** Runs a command to its end, failing or not, and returns what it wrote; never throws. */
export function runCommand(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout: number },
): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? childEnv(),
        timeout: options.timeout,
        killSignal: "SIGKILL",
        maxBuffer: 64 * 1024 * 1024,
        shell: process.platform === "win32",
      },
      (error, stdout, stderr) => {
        const failure = error as (Error & { code?: number | string; signal?: NodeJS.Signals | null }) | null;
        const code = failure ? (typeof failure.code === "number" ? failure.code : null) : 0;
        const signal = failure?.signal ?? null;
        const timedOut = failure && signal === "SIGKILL" ? ` (killed after ${options.timeout} ms)` : "";
        const status = failure
          ? `exit ${code ?? signal}${timedOut}${code === null ? `: ${failure.message}` : ""}`
          : "exit 0";
        const transcript = [
          `$ ${[file, ...args].join(" ")}   (in ${options.cwd})`,
          stdout.trimEnd(),
          stderr.trimEnd(),
          status,
        ]
          .filter(Boolean)
          .join("\n");
        resolve({ code, signal, stdout, stderr, transcript, ms: Date.now() - started });
      },
    );
  });
}

/** Runs a command and throws, with its transcript, unless it exits 0. */
export async function mustRun(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout: number },
): Promise<CommandResult> {
  const result = await runCommand(file, args, options);
  if (result.code !== 0) throw new Error(`Command failed:\n${result.transcript}`);
  return result;
}

/** A long-running child (a registry, a host app) whose output is kept, and which is ended with the tests. */
export interface Server {
  child: ChildProcess;
  output(): string;
  /** Waits for a line matching `pattern` and returns its match; fails if the child exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();
const temporary = new Set<string>();
let exitHookInstalled = false;

function cleanUpNow(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  temporary.clear();
}

/**
 * Kills whatever is still running and removes the temporary folders when the test process ends:
 * at exit, and on a signal (a Ctrl+C reaches every process of the terminal's group, this one too),
 * after which the signal is raised again so that the process ends as it would have.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", cleanUpNow);
  const onSignal = (signal: NodeJS.Signals) => {
    cleanUpNow();
    process.removeListener(signal, onSignal);
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, onSignal);
}

/** Registers a temporary folder to remove when the test process ends, should afterAll not run. */
export function removeOnExit(dir: string): void {
  installExitHook();
  temporary.add(dir);
}

export function forgetTemporary(dir: string): void {
  temporary.delete(dir);
}

/**
 * Starts a long-running child. Its standard input is a pipe that it is expected to watch (the
 * fixtures end themselves when it closes), so that it ends with this process even when this one is
 * killed and no hook runs.
 */
export function startServer(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; label?: string },
): Server {
  const label = options.label ?? [file, ...args].join(" ");
  installExitHook();
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env ?? childEnv(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  child.once("error", (error) => {
    output += `\n${String(error)}`;
  });
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs) {
      const started = Date.now();
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) return resolve(match);
          if (child.exitCode !== null || child.signalCode !== null) {
            return reject(
              new Error(`${label} exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${output}`),
            );
          }
          if (Date.now() - started > timeoutMs) {
            return reject(new Error(`${label}: timed out after ${timeoutMs} ms waiting for ${pattern}:\n${output}`));
          }
          setTimeout(check, 50);
        };
        check();
      });
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        const ended = await exited;
        clearTimeout(timer);
        return ended;
      }
      return exited;
    },
  };
}
