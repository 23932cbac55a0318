/**
 * The install matrix: each package as a user installs it, with what its README says and nothing
 * else of `@hireport/*`.
 *
 * A case is a fresh npm project outside the workspace that installs the packages named by the
 * `## Install` sections of some READMEs (see support/readme-install.ts): each published package's
 * own README alone, and the combinations users make (COMBINATIONS: the API alone, the API with
 * webhooks, the careers site, the console or Redis, the client alone). The `@hireport/*` packages
 * come from their `pnpm pack` tarballs; `@hireport:registry` points at a local registry that has
 * nothing, so that a package the READMEs do not name cannot be fetched from anywhere. Everything
 * else comes from the registry npm is configured with, at the versions the workspace has installed,
 * through the npm cache in node_modules/.cache/hireport-rehearsal/npm (better-sqlite3 from the
 * workspace's compiled addon, as a local prebuild). In each project:
 *
 * - every entry point of every exports map loads with import() and require(), but the entries of
 *   ENTRY_PEERS whose optional peer the project lacks, which must fail with an error naming it;
 * - a file importing those entries type-checks (strict, skipLibCheck false) under node16, as an ES
 *   module and as CommonJS, and under bundler (fixtures/typecheck.mjs, the workspace's TypeScript);
 *   on an ES-module-only Kysely (0.29, CI's Node 24 run) the CommonJS file is checked under node20,
 *   the rules of the Node that a CommonJS host on it needs (require of ES modules);
 * - fixtures/smoke.mjs starts what the packages make (an API on migrated SQLite answering GET /me
 *   401 and 200, through the framework; a dispatcher, the careers site, the console, Redis
 *   admission, the client).
 *
 * Cases run two at a time (`HIREPORT_MATRIX_CONCURRENCY` changes it); the summary prints how long
 * each step took. When the registry cannot be reached, the matrix fails in CI and is skipped with a
 * loud warning elsewhere. Needs the build.
 */
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server as HttpServer } from "node:http";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { entryPoints, type PackageJson, pack, publishedPackages, readJson } from "./support/install";
import {
  type CaseRecipe,
  caseOf,
  limited,
  type MatrixCase,
  mergeSameInstalls,
  workspaceVersion,
} from "./support/matrix";
import { localPrebuild, nodeHeaders, workspaceBetterSqlite } from "./support/native";
import { inCI } from "./support/node-versions";
import { type CommandResult, childEnv, forgetTemporary, removeOnExit, runCommand } from "./support/processes";
import { readmeInstall } from "./support/readme-install";
import { staleBuilds } from "./support/scratch";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const packagesDir = join(root, "packages");
const packages = publishedPackages(root);
const names = packages.map((pkg) => pkg.manifest.name);
const npmCache = join(root, "node_modules", ".cache", "hireport-rehearsal", "npm");
const typescriptDir = dirname(createRequire(join(root, "package.json")).resolve("typescript/package.json"));

/**
 * The entry points that need an optional peer dependency of their package: imported and type-checked
 * only in a project that has the peer; in one that does not, both import() and require() must fail
 * with an error naming it. Checked against the manifests (an optional peer) and the READMEs (a
 * paragraph naming both). The `/testing` entries load only inside a vitest worker, which no case
 * is: published.test.ts runs them there.
 */
const ENTRY_PEERS: Record<string, string> = {
  "@hireport/core/telemetry": "@opentelemetry/api",
  "@hireport/core/testing": "vitest",
  "@hireport/kysely/webhooks": "@hireport/webhooks",
  "@hireport/webhooks/testing": "vitest",
};

/** The combinations users make: the Install sections of these packages' READMEs together. */
const COMBINATIONS: CaseRecipe[] = [
  { name: "API only", picks: ["@hireport/express", "@hireport/kysely"], own: false },
  { name: "API + webhooks", picks: ["@hireport/express", "@hireport/kysely", "@hireport/webhooks"], own: false },
  { name: "API + careers", picks: ["@hireport/express", "@hireport/kysely", "@hireport/careers"], own: false },
  { name: "API + console", picks: ["@hireport/express", "@hireport/kysely", "@hireport/console"], own: false },
  { name: "API + Redis", picks: ["@hireport/express", "@hireport/kysely", "@hireport/redis"], own: false },
  { name: "API + MCP", picks: ["@hireport/express", "@hireport/kysely", "@hireport/mcp"], own: false },
  { name: "client alone", picks: ["@hireport/client"], own: false },
];

/** What a host that has a package named by a README has with it, though no README names it. */
const COMPANIONS: Record<string, string[]> = {
  express: ["@types/express"], // a TypeScript Express app; @hireport/express's types import Express's
  next: ["react", "react-dom"], // Next's own peers, at the workspace's versions rather than the newest
};
/** What every project has: a TypeScript host on Node (core's `/node` entry's types import node:http). */
const ALWAYS = ["@types/node"];

const cases = mergeSameInstalls(
  [...names.map((name): CaseRecipe => ({ name, picks: [name], own: true })), ...COMBINATIONS].map((recipe) =>
    caseOf(recipe, packagesDir, COMPANIONS, ALWAYS),
  ),
);
const concurrency = Number(process.env.HIREPORT_MATRIX_CONCURRENCY) || Math.min(2, availableParallelism());

interface ProbeEntry {
  specifier: string;
  require?: string[];
  import?: string[];
  requireError?: string;
  importError?: string;
}

interface TypecheckReport {
  typescript: string;
  /** Direct dependencies with nothing to `require` (Kysely 0.29): check.cts is then checked under node20. */
  esmOnly: string[];
  modes: Record<string, { files: string[]; checked: string[]; diagnostics: string[]; ms: number }>;
}

interface PackageLock {
  packages: Record<string, { version?: string }>;
}

/** What one case did, step by step (a step not reached is undefined). */
interface CaseRun {
  project: string;
  install?: CommandResult;
  /** Set when the registry could not be reached. */
  unavailable?: string;
  lock?: PackageLock;
  ls?: CommandResult;
  /** The entries it loads and checks, and those it expects to fail for want of their peer. */
  loads: string[];
  missingPeer: Map<string, string>;
  probe?: CommandResult;
  typecheck?: CommandResult;
  smoke?: CommandResult;
  /** An unexpected throw of the harness itself. */
  error?: unknown;
  ms: Record<string, number>;
}

let tmp: string | undefined;
let nowhere: HttpServer | undefined;
let nowhereUrl = "";
let npmEnv: NodeJS.ProcessEnv = {};
const tarballs = new Map<string, string>();
const versions = new Map<string, string>();
const runs = new Map<string, Promise<CaseRun>>();
const timings: [string, number][] = [];
let started = 0;
let warned = false;

const slug = (name: string) =>
  name
    .replace(/@hireport\//g, "")
    .replace(/[^a-z0-9]+/gi, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();

async function timed<T>(run: CaseRun, step: string, body: () => Promise<T>): Promise<T> {
  const begun = Date.now();
  try {
    return await body();
  } finally {
    run.ms[step] = Date.now() - begun;
  }
}

/** A registry that has no package at all: the fresh projects' `@hireport:registry`. */
async function startNowhere(): Promise<void> {
  nowhere = createServer((_request, response) => {
    response.writeHead(404, { "content-type": "application/json" });
    response.end(
      `${JSON.stringify({ error: "not found: the install matrix installs @hireport/* from tarballs only" })}\n`,
    );
  });
  await new Promise<void>((done) => nowhere?.listen(0, "127.0.0.1", done));
  const { port } = nowhere.address() as { port: number };
  nowhereUrl = `http://127.0.0.1:${port}/`;
}

/** Which entries of the installed `@hireport/*` packages load, and which need a peer the project lacks. */
function planEntries(project: string, each: MatrixCase): Pick<CaseRun, "loads" | "missingPeer"> {
  const loads: string[] = [];
  const missingPeer = new Map<string, string>();
  for (const name of each.hireport) {
    const manifest = readJson<PackageJson>(join(project, "node_modules", name, "package.json"));
    for (const entry of entryPoints(manifest)) {
      const peer = ENTRY_PEERS[entry];
      if (peer && !existsSync(join(project, "node_modules", peer, "package.json"))) missingPeer.set(entry, peer);
      else loads.push(entry);
    }
  }
  return { loads, missingPeer };
}

async function runCase(each: MatrixCase): Promise<CaseRun> {
  const project = join(tmp ?? "", "cases", slug(each.name));
  const run: CaseRun = { project, loads: [], missingPeer: new Map(), ms: {} };
  if (each.readmeErrors.length > 0) return run;
  try {
    await mkdir(project, { recursive: true });
    const manifest = { name: `matrix-${slug(each.name)}`, version: "1.0.0", private: true, type: "module" };
    await writeFile(join(project, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(project, ".npmrc"), `@hireport:registry=${nowhereUrl}\n`);
    const specs = [
      ...each.hireport.map((name) => tarballs.get(name) ?? name),
      ...each.thirdParty.map((name) => `${name}@${versions.get(name)}`),
    ];
    // Next's platform binaries (SWC, sharp: optional dependencies, over 100 MB) are not used here:
    // @hireport/next needs nothing of Next at run time.
    const omit = each.thirdParty.includes("next") ? ["--omit=optional"] : [];
    const args = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...omit, ...specs];
    const install = await timed(run, "install", () =>
      runCommand("npm", args, { cwd: project, env: npmEnv, timeout: 900_000 }),
    );
    run.install = install;
    if (install.code !== 0) {
      const network = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT)\b/.test(install.stderr);
      if (network && !install.stderr.includes(new URL(nowhereUrl).host)) {
        run.unavailable = `npm could not reach the registry, so "${each.name}" was NOT installed:\n${install.transcript}`;
      }
      return run;
    }
    run.lock = readJson<PackageLock>(join(project, "package-lock.json"));
    run.ls = await runCommand("npm", ["ls", "--all"], { cwd: project, env: npmEnv, timeout: 120_000 });
    Object.assign(run, planEntries(project, each));
    for (const fixture of ["probe.mjs", "smoke.mjs", "typecheck.mjs"]) {
      await copyFile(join(fixtures, fixture), join(project, fixture));
    }
    const options = { cwd: project, env: childEnv(), timeout: 600_000 };
    const typed = run.loads.filter((entry) => !entry.endsWith("/package.json"));
    const installed = [...each.hireport, ...each.thirdParty];
    await Promise.all([
      timed(run, "typecheck", async () => {
        run.typecheck = await runCommand(
          process.execPath,
          ["typecheck.mjs", typescriptDir, JSON.stringify(typed)],
          options,
        );
      }),
      (async () => {
        const entries = [...run.loads, ...run.missingPeer.keys()];
        run.probe = await timed(run, "load", () =>
          runCommand(process.execPath, ["probe.mjs", JSON.stringify({ entries, packages: [] })], options),
        );
        run.smoke = await timed(run, "smoke", () =>
          runCommand(process.execPath, ["smoke.mjs", JSON.stringify(installed)], options),
        );
      })(),
    ]);
  } catch (error) {
    run.error = error;
  }
  return run;
}

/** The run of a case, once it has finished; skips (elsewhere than CI) when the registry was out of reach. */
async function finished(each: MatrixCase, context: TestContext): Promise<CaseRun> {
  if (each.readmeErrors.length > 0) {
    throw new Error(`Nothing says what to install:\n${each.readmeErrors.join("\n")}`);
  }
  const pending = runs.get(each.name);
  if (!pending) throw new Error("the matrix did not start (see beforeAll)");
  const run = await pending;
  if (run.unavailable) {
    if (inCI()) throw new Error(`${run.unavailable}\nCI must run the install matrix: fix the registry access.`);
    if (!warned) {
      warned = true;
      console.warn(
        `\n${"!".repeat(100)}\n!!! ${run.unavailable}\n!!! (In CI this fails the run.)\n${"!".repeat(100)}\n`,
      );
    }
    context.skip(run.unavailable);
  }
  if (run.error) throw run.error;
  return run;
}

/** A later step of a case whose install failed is skipped: the install's test says why. */
function installed(run: CaseRun, context: TestContext): void {
  if (run.install?.code !== 0) context.skip("the install failed (see its test)");
}

beforeAll(async () => {
  started = Date.now();
  const unbuilt = packages.filter((pkg) => !existsSync(join(pkg.dir, "dist")));
  if (unbuilt.length > 0) {
    throw new Error(`Build first (pnpm test does): no dist in ${unbuilt.map((pkg) => pkg.dir).join(", ")}`);
  }
  const stale = staleBuilds(root, packages);
  if (stale.length > 0) {
    throw new Error(`Build first (pnpm test does): the dist of ${stale.join(", ")} is older than its sources`);
  }
  tmp = await mkdtemp(join(tmpdir(), "hireport-matrix-"));
  removeOnExit(tmp);
  await mkdir(join(tmp, "tarballs"));
  const packing = Date.now();
  await Promise.all(
    packages.map(async (pkg) =>
      tarballs.set(pkg.manifest.name, (await pack(pkg, join(tmp as string, "tarballs"))).filename),
    ),
  );
  timings.push(["pnpm pack of every package", Date.now() - packing]);
  for (const name of new Set(cases.flatMap((each) => each.thirdParty))) {
    versions.set(name, workspaceVersion(root, name));
  }
  // better-sqlite3 at the version its tests pass with on this Node, built from its compiled addon.
  const better = workspaceBetterSqlite(root);
  versions.set("better-sqlite3", better.version);
  const prebuilds = await localPrebuild(better, join(tmp, "prebuilds"));
  const headers = nodeHeaders();
  npmEnv = childEnv({
    npm_config_cache: npmCache,
    npm_config_update_notifier: "false",
    ...(prebuilds ? { npm_config_better_sqlite3_local_prebuilds: prebuilds } : {}),
    ...(headers ? { npm_config_nodedir: headers } : {}),
  });
  await startNowhere();
  const pending = limited(
    concurrency,
    cases.map((each) => () => runCase(each)),
  );
  cases.forEach((each, index) => {
    const run = pending[index];
    if (run) runs.set(each.name, run);
  });
}, 600_000);

afterAll(async () => {
  await Promise.allSettled(runs.values());
  await new Promise((done) => (nowhere ? nowhere.close(done) : done(undefined)));
  if (tmp) {
    await rm(tmp, { recursive: true, force: true });
    forgetTemporary(tmp);
  }
  if (started === 0) return;
  const lines = timings.map(([name, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);
  for (const each of cases) {
    const run = await runs.get(each.name)?.catch(() => undefined);
    if (!run) continue;
    const steps = Object.entries(run.ms).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`);
    lines.push(`  ${each.name}: ${steps.join(", ") || "not run"}`);
  }
  console.log(
    `install matrix on Node ${process.version}, ${concurrency} cases at a time:\n${lines.join("\n")}\n  ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  in all`,
  );
}, 900_000);

describe("the install matrix: what the READMEs say to install", () => {
  it.each(names)("%s: its README's Install section names it and can be read", (name) => {
    const { named } = readmeInstall(join(packagesDir, name.replace(/^@hireport\//, "")));
    expect(named, `${name}'s README, Install`).toContain(name);
  });

  it("covers every published package alone and every combination; names only packages of the workspace", () => {
    expect(COMBINATIONS.flatMap((combination) => combination.picks).filter((name) => !names.includes(name))).toEqual(
      [],
    );
    for (const name of names)
      expect(cases.some((each) => each.picks.length === 1 && each.picks[0] === name)).toBe(true);
    const unknown = cases.flatMap((each) => each.hireport.filter((name) => !names.includes(name)));
    expect(unknown, "@hireport packages a README names that the workspace does not publish").toEqual([]);
  });

  it.each(Object.entries(ENTRY_PEERS))(
    "%s needs %s: an entry of its exports map, an optional peer in its manifest, and its README names both in one paragraph",
    (entry, peer) => {
      const pkg = packages.find((each) => entry.startsWith(`${each.manifest.name}/`));
      expect(pkg, `no published package exports ${entry}`).toBeDefined();
      if (!pkg) return;
      expect(entryPoints(pkg.manifest), `${pkg.manifest.name}'s exports map`).toContain(entry);
      expect(
        pkg.manifest.peerDependencies?.[peer],
        `${pkg.manifest.name}: ${peer} among its peerDependencies`,
      ).toBeDefined();
      expect(
        pkg.manifest.peerDependenciesMeta?.[peer]?.optional,
        `${pkg.manifest.name}: ${peer} is an optional peer`,
      ).toBe(true);
      const paragraphs = readFileSync(join(pkg.dir, "README.md"), "utf8").split(/\n\s*\n/);
      const both = paragraphs.filter(
        (paragraph) =>
          new RegExp(`[\`"']${entry.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[\`"']`).test(paragraph) &&
          paragraph.includes(peer),
      );
      expect(both.length, `${pkg.manifest.name}'s README: a paragraph that names ${entry} and ${peer}`).toBeGreaterThan(
        0,
      );
    },
  );
});

for (const each of cases) {
  const thirdParty = each.thirdParty.join(", ");
  describe(`${each.name}: ${each.hireport.join(", ") || "(nothing)"}, with ${thirdParty}`, () => {
    it("npm installs them, those @hireport packages and no other (one copy each), npm ls --all clean", async (context) => {
      const run = await finished(each, context);
      expect(run.install?.code, run.install?.transcript).toBe(0);
      const hireport = Object.keys(run.lock?.packages ?? {}).filter((path) =>
        /node_modules\/@hireport\/[^/]+$/.test(path),
      );
      expect(hireport.sort(), "package-lock.json: the @hireport packages").toEqual(
        each.hireport.map((name) => `node_modules/${name}`).sort(),
      );
      expect(run.ls?.code, run.ls?.transcript).toBe(0);
    }, 1_800_000);

    it("every entry point loads with import() and require(); one whose optional peer is missing fails naming it", async (context) => {
      const run = await finished(each, context);
      installed(run, context);
      expect(run.probe?.code, run.probe?.transcript).toBe(0);
      const entries = (JSON.parse(run.probe?.stdout ?? "{}") as { entries: ProbeEntry[] }).entries;
      const problems: string[] = [];
      for (const entry of entries) {
        const peer = run.missingPeer.get(entry.specifier);
        const json = entry.specifier.endsWith("/package.json");
        const outcomes: [string, string | undefined, string[] | undefined][] = [
          ["require()", entry.requireError, entry.require],
          ...(json ? [] : [["import()", entry.importError, entry.import] as [string, string | undefined, string[]]]),
        ];
        for (const [how, error, exported] of outcomes) {
          if (peer && !error) problems.push(`${entry.specifier}: ${how} loaded without ${peer} installed`);
          else if (peer && !error?.includes(`'${peer}'`)) {
            problems.push(`${entry.specifier}: ${how} without ${peer} failed, but not naming it: ${error}`);
          } else if (!peer && error) problems.push(`${entry.specifier}: ${how} failed: ${error}`);
          else if (!peer && exported?.length === 0 && !json)
            problems.push(`${entry.specifier}: ${how} exports nothing`);
        }
        if (!peer && !json && !entry.requireError && !entry.importError) {
          expect(entry.require, `${entry.specifier}: the same exports through require() and import()`).toEqual(
            entry.import,
          );
        }
      }
      expect(problems).toEqual([]);
      expect(entries.map((entry) => entry.specifier).sort()).toEqual([...run.loads, ...run.missingPeer.keys()].sort());
      expect(run.loads).toEqual(expect.arrayContaining(each.hireport));
    }, 1_800_000);

    it("a file importing those entries type-checks, strict with skipLibCheck false: node16 (ESM and CommonJS; node20 for CommonJS on an ES-module-only Kysely) and bundler", async (context) => {
      const run = await finished(each, context);
      installed(run, context);
      expect(run.typecheck?.code, run.typecheck?.transcript).toBe(0);
      const report = JSON.parse(run.typecheck?.stdout ?? "{}") as TypecheckReport;
      // Each format checked once: node16 takes the ES module and, unless a dependency is an ES module
      // only, the CommonJS file too; node20 takes the CommonJS file otherwise (require of ES modules).
      expect(Object.keys(report.modes).sort()).toEqual(
        report.esmOnly.length === 0 ? ["bundler", "node16"] : ["bundler", "node16", "node20"],
      );
      expect(
        Object.values(report.modes)
          .flatMap((mode) => mode.files)
          .sort(),
      ).toEqual(["check.cts", "check.mts", "check.ts"]);
      for (const [mode, { checked, diagnostics }] of Object.entries(report.modes)) {
        expect(diagnostics, `${mode}: TypeScript ${report.typescript}`).toEqual([]);
        // Not checked in vain: the declarations of each package were read and checked.
        for (const name of each.hireport) {
          expect(
            checked.some((file) => file.startsWith(`node_modules/${name}/`)),
            `${mode}: ${name}'s .d.ts checked`,
          ).toBe(true);
        }
      }
    }, 1_800_000);

    it("starts: the smoke of what those packages make", async (context) => {
      const run = await finished(each, context);
      installed(run, context);
      expect(run.smoke?.code, run.smoke?.transcript).toBe(0);
      const steps = (run.smoke?.stdout ?? "").match(/^ok [a-z]+(?=:)/gm) ?? [];
      const expected = each.hireport
        .map((name) => name.replace(/^@hireport\//, ""))
        .filter((short) => short !== "kysely" || each.thirdParty.includes("better-sqlite3"));
      expect([...new Set(steps.map((step) => step.slice(3)))].sort(), run.smoke?.stdout).toEqual(expected.sort());
      expect(run.smoke?.stdout).toMatch(/^smoke done$/m);
    }, 1_800_000);
  });
}
