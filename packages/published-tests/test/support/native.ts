import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface WorkspaceBetterSqlite {
  version: string;
  /** Its compiled addon, if pnpm built it for the workspace. */
  binary: string | undefined;
  dir: string;
}

/**
 * The better-sqlite3 the workspace tests with on this Node (12 on Node 20; 13 in CI's Node 24 run,
 * which overrides it), as @hireport/kysely's tests resolve it.
 */
export function workspaceBetterSqlite(root: string): WorkspaceBetterSqlite {
  const require = createRequire(join(root, "packages", "kysely", "package.json"));
  const manifest = require.resolve("better-sqlite3/package.json");
  const dir = dirname(manifest);
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  const binary = join(dir, "build", "Release", "better_sqlite3.node");
  return { version, dir, binary: existsSync(binary) ? binary : undefined };
}

/**
 * A "local prebuild" of better-sqlite3 for this Node, made of the addon pnpm compiled for the
 * workspace (same version, same Node). better-sqlite3's install runs prebuild-install, which looks
 * for `<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz` in the folder that
 * `npm_config_better_sqlite3_local_prebuilds` names before it downloads one, and loads it to check
 * it. Without it the install downloads a prebuilt binary (which this machine cannot) and then
 * compiles SQLite, two minutes on two cores. Returns that folder, or undefined when there is no
 * compiled addon to take (the install then compiles).
 */
export async function localPrebuild(better: WorkspaceBetterSqlite, folder: string): Promise<string | undefined> {
  if (!better.binary || process.platform === "win32") return undefined;
  await mkdir(folder, { recursive: true });
  const name = `better-sqlite3-v${better.version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run("tar", ["-czf", join(folder, name), "-C", better.dir, "build/Release/better_sqlite3.node"], {
    timeout: 60_000,
  });
  return folder;
}

/**
 * The folder holding the running Node's C headers (`include/node/node.h`), for node-gyp should a
 * native dependency compile: the user's npm config may name another Node's (CI's Node 24 run).
 */
export function nodeHeaders(): string | undefined {
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, "include", "node", "node.h")) ? prefix : undefined;
}
