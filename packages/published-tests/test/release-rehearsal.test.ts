/**
 * The release rehearsal: a release made end to end, to a registry of its own, and installed by a
 * fresh npm project that runs the root README's host app.
 *
 * 1. A scratch copy of the work tree (tracked and untracked-not-ignored files, as they are now) in a
 *    temporary folder, installed by pnpm and committed to a git repository of its own. The
 *    repository itself is only read.
 * 2. `pnpm version-packages` (changeset version) there, with the changesets that exist: the
 *    versions, changelogs and ranges a real release would publish.
 * 3. Verdaccio (installed by the test into node_modules/.cache/hireport-verdaccio, pinned) on a
 *    loopback port, storage in the temporary folder, no uplink: it serves `@hireport/*` only.
 * 4. `changeset publish` (what `pnpm release` runs after `pnpm build`) pointed at it, with the build
 *    `pnpm test` has just made of the same sources (the version bump does not enter the build).
 * 5. A fresh npm project outside the workspace: `@hireport:registry` is the local registry, every
 *    other package comes from the registry npm is configured with (npm cache in
 *    node_modules/.cache/hireport-rehearsal). `npm install @hireport/core @hireport/kysely
 *    @hireport/webhooks @hireport/express @hireport/careers kysely better-sqlite3 express`, with
 *    one copy of @hireport/core.
 * 6. The README's host (fixtures/host.mjs, the code of "Five minutes in your own app": Express +
 *    SQLite, the dispatcher, the bootstrap of a company, a key and a webhook endpoint, a local
 *    receiver, the careers site) as a child process: GET /api/public/v1/me answers 200 with the
 *    printed key, a job created over the API reaches the receiver as a verified webhook, and the
 *    careers site lists it. Then ten more starts on the
 *    same database: none creates a key (the 10-key limit would end the 11th otherwise), and the last
 *    answers the first key and delivers a verified webhook to its new port.
 * 7. A second fresh npm project installs the API-only set alone (`@hireport/core @hireport/kysely
 *    @hireport/express kysely better-sqlite3 express`: no @hireport/webhooks) and runs
 *    fixtures/api-host.mjs (Express + SQLite, migrated, a company and a key bootstrapped through the
 *    host methods): GET /api/public/v1/me answers 200 with its key.
 *
 * Each step is a test; after a failed one the rest are skipped. When Verdaccio or the host's
 * third-party packages cannot be installed (no registry), the rehearsal fails in CI and is skipped
 * with a loud warning elsewhere.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { appendFile, copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PackageJson, publishedPackages, readJson } from "./support/install";
import { localPrebuild, nodeHeaders, workspaceBetterSqlite } from "./support/native";
import { inCI } from "./support/node-versions";
import {
  childEnv,
  forgetTemporary,
  mustRun,
  removeOnExit,
  runCommand,
  type Server,
  startServer,
} from "./support/processes";
import { installVerdaccio, type LocalRegistry, startRegistry, VERDACCIO_VERSION } from "./support/registry";
import { copyBuilds, copyWorkTree, staleBuilds } from "./support/scratch";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const rootManifest = readJson<PackageJson & { scripts?: Record<string, string> }>(join(root, "package.json"));
const packages = publishedPackages(root);
const names = packages.map((pkg) => pkg.manifest.name);
const cache = join(root, "node_modules", ".cache");
const npmCache = join(cache, "hireport-rehearsal", "npm");

/** What the fresh project installs: the README's step 1 (with kysely, better-sqlite3 and express). */
const HOST_PACKAGES = [
  "@hireport/core",
  "@hireport/kysely",
  "@hireport/webhooks",
  "@hireport/express",
  "@hireport/careers",
];

/**
 * What the second fresh project installs (with kysely, better-sqlite3 and express): a host that
 * serves the API alone, without @hireport/webhooks (an optional peer of @hireport/kysely).
 */
const API_ONLY_PACKAGES = ["@hireport/core", "@hireport/kysely", "@hireport/express"];

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

interface PublishConfig {
  publishConfig?: Record<string, string>;
}

interface Packument {
  "dist-tags"?: Record<string, string>;
  versions?: Record<string, PackageJson & { dist?: { tarball?: string; integrity?: string } }>;
}

interface PackageLock {
  packages: Record<string, { version?: string; integrity?: string }>;
}

let tmp: string | undefined;
let scratch = "";
let hostDir = "";
let apiOnlyDir = "";
/** What the API-only project installed (`name@version`), for the summary and a failure's message. */
let apiOnlyInstalled = "";
let verdaccioDir = "";
let registry: LocalRegistry | undefined;
let host: Server | undefined;
/** What the fresh project installed (`name@version`), for the summary and a failure's message. */
let hostInstalled = "";
let releaseVersion = "";
/** The integrity of each package's tarball as the rehearsal's registry holds it. */
const published = new Map<string, string>();
let unavailable: string | undefined;
let failedStep: string | undefined;
const timings: [string, number][] = [];

/** In CI a missing registry fails the run; elsewhere the rehearsal is skipped with a loud warning. */
function cannotInstall(what: string, error: unknown): void {
  unavailable = `${what} could not be installed, so the release was NOT rehearsed: ${(error as Error).message ?? error}`;
  if (inCI()) throw new Error(`${unavailable}\nCI must run the release rehearsal: fix the registry access.`);
  console.warn(`\n${"!".repeat(100)}\n!!! ${unavailable}\n!!! (In CI this fails the run.)\n${"!".repeat(100)}\n`);
}

/** One step of the release: skipped when an earlier one failed, timed for the summary. */
function step(name: string, timeout: number, body: () => Promise<void>): void {
  it(
    name,
    async (context) => {
      if (unavailable) context.skip(unavailable);
      if (failedStep) context.skip(`an earlier step failed: ${failedStep}`);
      const started = Date.now();
      try {
        await body();
      } catch (error) {
        failedStep = name;
        throw error;
      } finally {
        timings.push([name.split(":")[0] ?? name, Date.now() - started]);
      }
      if (unavailable) context.skip(unavailable);
    },
    timeout,
  );
}

/** The environment of every command run in the scratch copy: its own git identity and config. */
function scratchEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const gitConfig = join(tmp ?? "", "gitconfig");
  return childEnv({
    GIT_AUTHOR_NAME: "hireport release rehearsal",
    GIT_AUTHOR_EMAIL: "rehearsal@example.invalid",
    GIT_COMMITTER_NAME: "hireport release rehearsal",
    GIT_COMMITTER_EMAIL: "rehearsal@example.invalid",
    GIT_CONFIG_GLOBAL: gitConfig,
    GIT_CONFIG_NOSYSTEM: "1",
    ...extra,
  });
}

const git = (args: string[]) => mustRun("git", args, { cwd: scratch, env: scratchEnv(), timeout: 60_000 });

const pendingChangesets = (dir: string) =>
  readdirSync(join(dir, ".changeset")).filter((file) => file.endsWith(".md") && file !== "README.md");

beforeAll(async () => {
  const unbuilt = packages.filter((pkg) => !existsSync(join(pkg.dir, "dist")));
  if (unbuilt.length > 0) {
    throw new Error(`Build first (pnpm test does): no dist in ${unbuilt.map((pkg) => pkg.dir).join(", ")}`);
  }
  const stale = staleBuilds(root, packages);
  if (stale.length > 0) {
    throw new Error(`Build first (pnpm test does): the dist of ${stale.join(", ")} is older than its sources`);
  }
  tmp = await mkdtemp(join(tmpdir(), "hireport-rehearsal-"));
  removeOnExit(tmp);
  await writeFile(join(tmp, "gitconfig"), "");
  const started = Date.now();
  try {
    verdaccioDir = await installVerdaccio(join(cache, "hireport-verdaccio"));
  } catch (error) {
    cannotInstall(`verdaccio@${VERDACCIO_VERSION}`, error);
  }
  timings.push([`verdaccio@${VERDACCIO_VERSION} (installed once, then cached)`, Date.now() - started]);
}, 360_000);

afterAll(async () => {
  await host?.stop();
  await registry?.server.stop();
  if (tmp) {
    await rm(tmp, { recursive: true, force: true });
    forgetTemporary(tmp);
  }
  if (timings.length > 0) {
    const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
    const lines = timings.map(([name, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);
    const installed = [
      hostInstalled ? `\n  the fresh project installed ${hostInstalled}` : "",
      apiOnlyInstalled ? `\n  the API-only project installed ${apiOnlyInstalled}` : "",
    ].join("");
    console.log(
      `release rehearsal on Node ${process.version}:\n${lines.join("\n")}\n  ${(total / 1000).toFixed(1).padStart(6)} s  in all${installed}`,
    );
  }
}, 60_000);

describe("release rehearsal", () => {
  it("every published package of the workspace is rehearsed, with the maintainers' scripts", () => {
    expect(names).toEqual(expect.arrayContaining(HOST_PACKAGES));
    expect(rootManifest.scripts?.["version-packages"]).toBe("changeset version");
    // `pnpm release` is the build and `changeset publish`: the rehearsal runs the latter on the
    // build `pnpm test` made.
    expect(rootManifest.scripts?.release).toBe("pnpm run build && changeset publish");
  });

  step(
    "the scratch copy: the work tree's files, installed by pnpm, in a git repository of its own",
    300_000,
    async () => {
      if (!tmp) throw new Error("no temporary folder");
      scratch = join(tmp, "repo");
      const copied = await copyWorkTree(root, scratch);
      expect(copied).toBeGreaterThan(20);
      const install = [
        "install",
        "--frozen-lockfile",
        "--prefer-offline",
        "--ignore-scripts",
        "--reporter=append-only",
      ];
      await mustRun("pnpm", install, { cwd: scratch, env: scratchEnv(), timeout: 300_000 });
      await git(["init", "--quiet", "--initial-branch=main"]);
      await git(["add", "--all"]);
      await git(["commit", "--quiet", "--no-verify", "--message", "The work tree, as the release rehearsal found it"]);
    },
  );

  step(
    "pnpm version-packages (changeset version): one new version for the fixed group, changelogs, ranges that admit it",
    120_000,
    async () => {
      const changesets = pendingChangesets(scratch);
      const before = readJson<PackageJson>(join(scratch, "packages", "core", "package.json")).version;
      const result = await mustRun("pnpm", ["run", "version-packages"], {
        cwd: scratch,
        env: scratchEnv(),
        timeout: 120_000,
      });
      const after = publishedPackages(scratch);
      expect(after.map((pkg) => pkg.manifest.name)).toEqual(names);
      const versions = [...new Set(after.map((pkg) => pkg.manifest.version))];
      expect(versions, "every @hireport package shares one version (the fixed group)").toHaveLength(1);
      releaseVersion = versions[0] ?? "";
      expect(semver.valid(releaseVersion), releaseVersion).not.toBeNull();
      if (changesets.length > 0) {
        expect(semver.gt(releaseVersion, before), `${before} -> ${releaseVersion}\n${result.transcript}`).toBe(true);
        expect(pendingChangesets(scratch), "changeset version consumes every changeset").toEqual([]);
        for (const pkg of after) {
          const changelog = readFileSync(join(pkg.dir, "CHANGELOG.md"), "utf8");
          expect(changelog, `${pkg.manifest.name}'s CHANGELOG.md`).toContain(`## ${releaseVersion}`);
        }
      } else {
        console.warn(`No changesets: the rehearsal publishes the current version, ${releaseVersion}.`);
      }
      // What pnpm will publish for a `workspace:` range must admit the version being released.
      const problems: string[] = [];
      for (const pkg of after) {
        const ranges = { ...pkg.manifest.dependencies, ...pkg.manifest.peerDependencies };
        for (const [dep, spec] of Object.entries(ranges)) {
          if (!dep.startsWith("@hireport/")) continue;
          const range = spec.replace(/^workspace:/, "");
          if (["*", "^", "~"].includes(range)) continue;
          if (!semver.satisfies(releaseVersion, range)) {
            problems.push(`${pkg.manifest.name}: ${dep} ${spec} does not admit ${releaseVersion}`);
          }
        }
      }
      expect(problems).toEqual([]);
      await git(["add", "--all"]);
      // With no changeset pending (just after a release), nothing changed: the commit is empty.
      await git([
        "commit",
        "--quiet",
        "--no-verify",
        "--allow-empty",
        "--message",
        `Version packages (${releaseVersion})`,
      ]);
    },
  );

  step("the registry: Verdaccio on a loopback port, no uplink, with a publishing user", 120_000, async () => {
    if (!tmp) throw new Error("no temporary folder");
    registry = await startRegistry(verdaccioDir, join(tmp, "registry"));
    const token = await registry.addUser("rehearsal", randomBytes(16).toString("hex"));
    // The maintainer's `npm login`, for this registry only, in the scratch copy's .npmrc.
    const registryHost = new URL(registry.url).host;
    await appendFile(join(scratch, ".npmrc"), `\n//${registryHost}/:_authToken=${token}\n`);
    const missing = await fetch(new URL("@hireport%2Fcore", registry.url));
    expect(missing.status, "a new registry has no @hireport package, and fetches none from elsewhere").toBe(404);
  });

  step(
    "changeset publish (as in pnpm release) publishes every package to it and tags the release",
    300_000,
    async () => {
      if (!registry || !tmp) throw new Error("no registry");
      const url = registry.url;
      await copyBuilds(root, scratch, packages);
      for (const pkg of publishedPackages(scratch)) {
        const own = Object.keys((pkg.manifest as PackageJson & PublishConfig).publishConfig ?? {}).filter((key) =>
          key.endsWith("registry"),
        );
        expect(own, `${pkg.manifest.name} names a registry of its own: changeset publish would publish there`).toEqual(
          [],
        );
      }
      // changeset publish takes the registry from npm_config_registry (the public npm registry
      // without it) and hands it to `pnpm publish`. No user or global npm config is read: no other
      // registry's token is at hand, should anything still point elsewhere.
      await writeFile(join(tmp, "publish-userconfig.npmrc"), "");
      await writeFile(join(tmp, "publish-globalconfig.npmrc"), "");
      await mkdir(join(tmp, "publish-xdg-config"), { recursive: true });
      const env = scratchEnv({
        npm_config_registry: url,
        "npm_config_@hireport:registry": url,
        npm_config_userconfig: join(tmp, "publish-userconfig.npmrc"),
        npm_config_globalconfig: join(tmp, "publish-globalconfig.npmrc"),
        XDG_CONFIG_HOME: join(tmp, "publish-xdg-config"),
      });
      for (const key of ["registry", "@hireport:registry"]) {
        const where = await mustRun("pnpm", ["config", "get", key], { cwd: scratch, env, timeout: 60_000 });
        expect(where.stdout.trim(), `pnpm's ${key} in the scratch copy`).toBe(url);
      }
      const publish = await runCommand("pnpm", ["exec", "changeset", "publish"], {
        cwd: scratch,
        env,
        timeout: 300_000,
      });
      expect(publish.code, publish.transcript).toBe(0);

      const problems: string[] = [];
      for (const name of names) {
        const response = await fetch(new URL(name.replace("/", "%2F"), url));
        const packument = (response.ok ? await response.json() : {}) as Packument;
        const latest = packument["dist-tags"]?.latest;
        if (latest !== releaseVersion) problems.push(`${name}: latest is ${latest ?? `missing (${response.status})`}`);
        const dist = packument.versions?.[releaseVersion]?.dist;
        if (!dist?.tarball?.startsWith(url)) problems.push(`${name}@${releaseVersion}: tarball ${dist?.tarball}`);
        if (dist?.integrity) published.set(name, dist.integrity);
      }
      expect(problems, publish.transcript).toEqual([]);
      const tags = (await git(["tag", "--list"])).stdout.split("\n").filter(Boolean);
      expect(tags.sort()).toEqual(names.map((name) => `${name}@${releaseVersion}`).sort());
    },
  );

  /**
   * A fresh npm project in `dir` that installs `hireport` from the rehearsal's registry (the scope
   * pointed at it, as a host points a scope at a private registry) with kysely, better-sqlite3 and
   * express from the registry npm is configured with: every @hireport package at the release
   * version, the tarball published here, one copy of @hireport/core, `npm ls --all` clean. Returns
   * what it installed (`name@version …`), or undefined when the registry could not be reached.
   */
  async function freshProject(dir: string, hireport: string[]): Promise<string | undefined> {
    if (!registry || !tmp) throw new Error("no registry");
    const url = registry.url;
    await mkdir(dir, { recursive: true });
    const manifest = { name: "rehearsal-host", version: "1.0.0", private: true, type: "module" };
    await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    // As a host would point a scope at a private registry; everything else from npm's own registry.
    await writeFile(join(dir, ".npmrc"), `@hireport:registry=${url}\n`);

    const better = workspaceBetterSqlite(root);
    const prebuilds = await localPrebuild(better, join(tmp, "prebuilds"));
    const headers = nodeHeaders();
    const env = childEnv({
      npm_config_cache: npmCache,
      npm_config_update_notifier: "false",
      ...(prebuilds ? { npm_config_better_sqlite3_local_prebuilds: prebuilds } : {}),
      ...(headers ? { npm_config_nodedir: headers } : {}),
    });
    // better-sqlite3 at the workspace's version: the one its tests pass with on this Node.
    const specs = [...hireport, "kysely", `better-sqlite3@${better.version}`, "express"];
    const install = await runCommand("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...specs], {
      cwd: dir,
      env,
      timeout: 600_000,
    });
    if (install.code !== 0) {
      const network = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT)\b/.exec(install.stderr);
      if (network && !install.stderr.includes(new URL(url).host)) {
        cannotInstall(`The host's packages (${specs.join(" ")})`, new Error(install.transcript));
        return undefined;
      }
    }
    expect(install.code, install.transcript).toBe(0);

    const lock = readJson<PackageLock>(join(dir, "package-lock.json"));
    const problems: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const name = /(?:^|\/)node_modules\/(@hireport\/[^/]+)$/.exec(path)?.[1];
      if (!name) continue;
      if (entry.version !== releaseVersion) problems.push(`${path}: version ${entry.version}`);
      // package-lock.json may leave out `resolved` (npm's omit-lockfile-registry-resolved): the
      // integrity tells which tarball was installed.
      if (entry.integrity !== published.get(name)) problems.push(`${path}: not the tarball published here`);
    }
    expect(problems, "every @hireport package at the release version, from the rehearsal's registry").toEqual([]);
    const copies = Object.keys(lock.packages).filter((path) => /(?:^|\/)node_modules\/@hireport\/core$/.test(path));
    expect(copies, "package-lock.json: one copy of @hireport/core").toEqual(["node_modules/@hireport/core"]);

    const ls = await runCommand("npm", ["ls", "@hireport/core", "--all", "--parseable"], {
      cwd: dir,
      env,
      timeout: 60_000,
    });
    expect(ls.code, ls.transcript).toBe(0);
    expect([...new Set(ls.stdout.split("\n").filter(Boolean))], "npm ls: one copy of @hireport/core").toEqual([
      join(dir, "node_modules", "@hireport", "core"),
    ]);
    // The whole tree is valid: no missing or unmet peer (npm ls exits 1 on one).
    const tree = await runCommand("npm", ["ls", "--all"], { cwd: dir, env, timeout: 60_000 });
    expect(tree.code, tree.transcript).toBe(0);
    return ["kysely", "better-sqlite3", "express", ...hireport]
      .map((name) => `${name}@${lock.packages[`node_modules/${name}`]?.version ?? "(missing)"}`)
      .join(" ");
  }

  step(
    "a fresh npm project installs @hireport/core, kysely, webhooks, express and careers from it, with one copy of core",
    600_000,
    async () => {
      if (!tmp) throw new Error("no temporary folder");
      hostDir = join(tmp, "host");
      hostInstalled = (await freshProject(hostDir, HOST_PACKAGES)) ?? "";
    },
  );

  /** Starts the README's host in the fresh project (its hireport.sqlite kept from start to start). */
  async function startHost(): Promise<{ server: Server; base: string; printedKey: string | undefined }> {
    const port = await freePort();
    const server = startServer(process.execPath, ["host.mjs"], {
      cwd: hostDir,
      env: childEnv({ PORT: String(port), HIREPORT_FILE_SECRET: fileSecret, HIREPORT_CAREERS_SECRET: careersSecret }),
      label: `the host app (node host.mjs in ${hostDir})`,
    });
    host = server;
    await server.waitFor(/^Listening on http:\/\/localhost:\d+$/m, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\nThe project installed ${hostInstalled} on Node ${process.version}.`);
    });
    const printedKey = /^API key, shown this once: (svc_live_\S+)$/m.exec(server.output())?.[1];
    return { server, base: `http://127.0.0.1:${port}/api/public/v1`, printedKey };
  }

  /** Creates a job over the API and waits for the host's receiver to print its verified job.created. */
  async function jobReachesTheReceiver(server: Server, base: string, title: string): Promise<void> {
    const created = await fetch(`${base}/jobs`, {
      method: "POST",
      headers: { authorization: `Bearer ${firstKey}`, "content-type": "application/json" },
      body: JSON.stringify({ title, status: "active" }),
    });
    const text = await created.text();
    expect(created.status, text).toBe(201);
    // The only event of this start: the receiver prints it once its signature checked out.
    await server.waitFor(/^webhook verified: job\.created evt_\S+$/m, 30_000);
  }

  const fileSecret = randomBytes(32).toString("hex");
  const careersSecret = randomBytes(32).toString("hex");
  let firstKey = "";

  step(
    "the README's host (Express + SQLite) runs from the install: GET /me answers 200 with its key, a job reaches its receiver as a verified webhook and the careers site lists it",
    120_000,
    async () => {
      await copyFile(join(fixtures, "host.mjs"), join(hostDir, "host.mjs"));
      const { server, base, printedKey } = await startHost();
      expect(printedKey, server.output()).toMatch(/^svc_live_/);
      firstKey = printedKey as string;
      const headers = { authorization: `Bearer ${firstKey}` };

      const me = await fetch(`${base}/me`, { headers });
      const meText = await me.text();
      expect(me.status, meText).toBe(200);
      expect((JSON.parse(meText) as { data: { company: { id: string } } }).data.company.id).toBe("acme");

      await jobReachesTheReceiver(server, base, "Release Engineer");
      const jobs = (await (await fetch(`${base}/jobs`, { headers })).json()) as { data: { title: string }[] };
      expect(jobs.data.map((job) => job.title)).toEqual(["Release Engineer"]);
      // The careers site, mounted at the root, lists the job the API just made public.
      const site = await fetch(new URL("/jobs", base));
      const siteText = await site.text();
      expect(site.status, siteText).toBe(200);
      expect(siteText).toContain("Release Engineer");

      const ended = await server.stop();
      expect(ended, server.output()).toEqual({ code: 0, signal: null });
      expect(server.output()).not.toMatch(/Error|Warning|refused/);
    },
  );

  step(
    "ten more starts on the same database create no key; the 11th answers the first key and delivers a verified webhook",
    300_000,
    async () => {
      for (let start = 2; start <= 11; start++) {
        const { server, base, printedKey } = await startHost();
        expect(printedKey, `start ${start} created a key:\n${server.output()}`).toBeUndefined();
        if (start === 11) {
          const me = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${firstKey}` } });
          expect(me.status, await me.text()).toBe(200);
          // The endpoint now points at this start's port (the bootstrap moved it), signed as before.
          await jobReachesTheReceiver(server, base, "Eleventh start");
        }
        const ended = await server.stop();
        expect(ended, `start ${start}:\n${server.output()}`).toEqual({ code: 0, signal: null });
        expect(server.output()).not.toMatch(/Error|Warning|refused/);
      }
    },
  );

  step(
    "a second fresh npm project installs the API-only set from it: @hireport/core, kysely and express, no other @hireport package",
    600_000,
    async () => {
      if (!tmp) throw new Error("no temporary folder");
      apiOnlyDir = join(tmp, "api-only");
      apiOnlyInstalled = (await freshProject(apiOnlyDir, API_ONLY_PACKAGES)) ?? "";
      if (!apiOnlyInstalled) return;
      const installed = readdirSync(join(apiOnlyDir, "node_modules", "@hireport")).map((name) => `@hireport/${name}`);
      expect(installed.sort(), "node_modules/@hireport").toEqual([...API_ONLY_PACKAGES].sort());
    },
  );

  step(
    "the API-only host (Express + SQLite, no webhooks) runs from that install: GET /me answers 200 with its key",
    120_000,
    async () => {
      await copyFile(join(fixtures, "api-host.mjs"), join(apiOnlyDir, "api-host.mjs"));
      const port = await freePort();
      const server = startServer(process.execPath, ["api-host.mjs"], {
        cwd: apiOnlyDir,
        env: childEnv({ PORT: String(port), HIREPORT_FILE_SECRET: fileSecret }),
        label: `the API-only host (node api-host.mjs in ${apiOnlyDir})`,
      });
      host = server;
      await server.waitFor(/^Listening on http:\/\/localhost:\d+$/m, 60_000).catch((error: Error) => {
        throw new Error(`${error.message}\nThe project installed ${apiOnlyInstalled} on Node ${process.version}.`);
      });
      const key = /^API key, shown this once: (svc_live_\S+)$/m.exec(server.output())?.[1];
      expect(key, server.output()).toMatch(/^svc_live_/);
      const base = `http://127.0.0.1:${port}/api/public/v1`;
      const me = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${key}` } });
      const meText = await me.text();
      expect(me.status, meText).toBe(200);
      expect((JSON.parse(meText) as { data: { company: { id: string } } }).data.company.id).toBe("acme");
      const anonymous = await fetch(`${base}/me`);
      expect(anonymous.status).toBe(401);
      expect((await anonymous.json()) as unknown).toMatchObject({ error: { code: "missing_key" } });

      const ended = await server.stop();
      expect(ended, server.output()).toEqual({ code: 0, signal: null });
      expect(server.output()).not.toMatch(/Error|Warning|refused/);
    },
  );
});
