import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The lowest version of each release line that an `engines.node` range admits: `^20.19.0 || >=22.12.0`
 * gives 20.19.0 and 22.12.0. Only unions of `^X.Y.Z` and `>=X.Y.Z` are understood; anything else
 * throws, so that a new shape of the range is met by a change here rather than by a silent pass.
 */
export function lowestVersions(range: string): string[] {
  return range.split("||").map((part) => {
    const match = /^\s*(?:\^|>=)\s*v?(\d+\.\d+\.\d+)\s*$/.exec(part);
    if (!match?.[1]) throw new Error(`engines.node part ${JSON.stringify(part)} is not ^X.Y.Z or >=X.Y.Z`);
    return match[1];
  });
}

/** Whether this run is CI's (`CI` set and not "false" or "0"), where a missing Node is a failure. */
export function inCI(): boolean {
  const value = (process.env.CI ?? "").trim().toLowerCase();
  return value !== "" && value !== "false" && value !== "0";
}

async function versionOf(bin: string): Promise<string | undefined> {
  try {
    const { stdout } = await run(bin, ["--version"], { timeout: 30_000 });
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/**
 * The `node` binary of `version`, installed once from the registry's `node@<version>` package into
 * `cacheDir/<version>` (the way .ci/run installs node@24), then reused. Throws when it cannot be
 * installed (no registry): the caller decides whether that fails the run.
 */
export async function installNode(version: string, cacheDir: string): Promise<string> {
  const prefix = join(cacheDir, version);
  const bin = join(prefix, "node_modules", "node", "bin", process.platform === "win32" ? "node.exe" : "node");
  if ((await versionOf(bin)) === `v${version}`) return bin;
  await rm(prefix, { recursive: true, force: true });
  const args = ["install", "--prefix", prefix, "--no-save", "--no-package-lock", "--no-audit", "--no-fund"];
  try {
    await run("npm", [...args, "--loglevel=error", `node@${version}`], {
      timeout: 240_000,
      shell: process.platform === "win32",
    });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`npm install node@${version} failed: ${stderr?.trim() || String(error)}`);
  }
  const installed = await versionOf(bin);
  if (installed !== `v${version}`) {
    throw new Error(`npm installed node@${version}, but ${bin} reports ${installed ?? "nothing"}`);
  }
  return bin;
}
