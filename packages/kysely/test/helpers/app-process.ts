/**
 * The app process of `fixtures/app-server.ts`, for the crash and fault tests: a key to call it
 * with, and the process itself, started and awaited until it listens.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createPublicApi } from "@hireport/core";
import { kyselyStorage, migrateToLatest } from "../../src/index";
import type { AnyDb } from "./databases";

const SERVER = fileURLToPath(new URL("../fixtures/app-server.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

/** Migrates the prefix, registers the company and returns a new key of it with every scope. */
export async function keyFor(db: AnyDb, prefix: string, company: string): Promise<string> {
  const migrated = await migrateToLatest(db, { tablePrefix: prefix });
  if (migrated.error) throw migrated.error;
  const api = createPublicApi({
    storage: kyselyStorage({ db, tablePrefix: prefix }),
    publicBaseUrl: "https://careers.example.com",
    fileTokenSecret: "app-server-secret-0123456789abcdefghijklm",
  });
  await api.companies.upsert({ id: company, name: company });
  const { key } = await api.keys.create({
    companyId: company,
    name: "app process",
    scopes: ["jobs:write", "applications:write"],
  });
  await api.close();
  return key;
}

export interface AppProcess {
  child: ChildProcess;
  origin: string;
  /** Everything it wrote to stderr. */
  stderr(): string;
  /** Resolves with the exit code or signal once it has exited. */
  exited: Promise<number | string | null>;
}

/** Starts `fixtures/app-server.ts` with `args`; resolves once it listens. */
export async function startAppProcess(args: readonly string[]): Promise<AppProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", SERVER, ...args], {
    cwd: PACKAGE_DIR,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  const port = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the app process did not start: ${output}${stderr}`)), 20_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /READY (\d+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1] as string);
      }
    });
    void exited.then((code) => reject(new Error(`the app process exited with ${code}: ${stderr}`)));
  });
  return { child, origin: `http://127.0.0.1:${port}`, stderr: () => stderr, exited };
}
