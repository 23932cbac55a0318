import { existsSync, readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { childEnv, mustRun, type Server, startServer } from "./processes";

/**
 * The Verdaccio the rehearsal publishes to. 5.33 runs on Node 20 and on Node 24 (Verdaccio 6 needs
 * Node 22). It asks for `node-fetch@cjs`, a dist-tag that not every registry mirror carries, so its
 * install overrides node-fetch with 2.7.0, the version that tag names.
 */
export const VERDACCIO_VERSION = "5.33.0";
const VERDACCIO_OVERRIDES = { "node-fetch": "2.7.0" };

const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));

/**
 * The folder of the `verdaccio` package, installed once with npm (from the registry npm is
 * configured with) into `cacheDir/<version>` and reused by later runs, the way the lowest Nodes are.
 * Throws when it cannot be installed: the caller decides whether that fails the run.
 */
export async function installVerdaccio(cacheDir: string): Promise<string> {
  const prefix = join(cacheDir, VERDACCIO_VERSION);
  const dir = join(prefix, "node_modules", "verdaccio");
  const marker = join(prefix, "installed");
  if (existsSync(marker) && existsSync(join(dir, "package.json"))) {
    const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string };
    if (version === VERDACCIO_VERSION) return dir;
  }
  await rm(prefix, { recursive: true, force: true });
  await mkdir(prefix, { recursive: true });
  const manifest = {
    name: "hireport-rehearsal-verdaccio",
    private: true,
    dependencies: { verdaccio: VERDACCIO_VERSION },
    overrides: VERDACCIO_OVERRIDES,
  };
  await writeFile(join(prefix, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const args = ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"];
  try {
    await mustRun("npm", args, { cwd: prefix, timeout: 300_000 });
  } catch (error) {
    throw new Error(`npm install verdaccio@${VERDACCIO_VERSION} failed: ${(error as Error).message}`);
  }
  await writeFile(marker, `${VERDACCIO_VERSION}\n`);
  return dir;
}

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  server: Server;
  /** Creates a user (Verdaccio's `npm adduser` endpoint) and returns its token. */
  addUser(name: string, password: string): Promise<string>;
}

/**
 * Starts Verdaccio on a free loopback port, its storage and users in `workDir`. It serves
 * `@hireport/*` only, from its own storage, and has no uplink: nothing is fetched from, or
 * published to, any other registry. Publishing needs a user (any user: see `addUser`).
 */
export async function startRegistry(verdaccioDir: string, workDir: string): Promise<LocalRegistry> {
  await mkdir(workDir, { recursive: true });
  const config = join(workDir, "config.yaml");
  const yaml = [
    `storage: ${JSON.stringify(join(workDir, "storage"))}`,
    "auth:",
    "  htpasswd:",
    `    file: ${JSON.stringify(join(workDir, "htpasswd"))}`,
    "    max_users: 10",
    "    algorithm: bcrypt",
    "    rounds: 4",
    "uplinks: {}",
    "packages:",
    '  "@hireport/*":',
    "    access: $all",
    "    publish: $authenticated",
    "    unpublish: $authenticated",
    "web:",
    "  enable: false",
    "max_body_size: 100mb",
    "log: { type: stdout, format: pretty, level: warn }",
    "",
  ].join("\n");
  await writeFile(config, yaml);
  const server = startServer(process.execPath, [join(fixtures, "registry.mjs"), verdaccioDir, config], {
    cwd: workDir,
    env: childEnv(),
    label: `verdaccio@${VERDACCIO_VERSION}`,
  });
  const match = await server.waitFor(/^registry listening on (\d+)$/m, 60_000);
  const url = `http://127.0.0.1:${match[1]}/`;
  return {
    url,
    server,
    async addUser(name, password) {
      const response = await fetch(new URL(`-/user/org.couchdb.user:${encodeURIComponent(name)}`, url), {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name, password, type: "user", roles: [] }),
      });
      const body = (await response.json()) as { token?: string; error?: string };
      if (!response.ok || !body.token) {
        throw new Error(`could not add user ${name} to ${url}: ${response.status} ${JSON.stringify(body)}`);
      }
      return body.token;
    },
  };
}
