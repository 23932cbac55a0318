/**
 * The packages as npm installs them. Every published package is packed with `pnpm pack` (what
 * `changeset publish` uploads), unpacked into the node_modules of a temporary host project, and
 * loaded from there with require() and import() through its exports map:
 *
 * - on the lowest Node of each release line that `engines.node` admits (`^20.19.0 || >=22.12.0`:
 *   20.19.0 and 22.12.0), installed from the registry's `node@<version>` package into
 *   node_modules/.cache/hireport-node, the way .ci/run installs node@24. Below those, require() of
 *   an ES module (jose, p-retry, core's own testing entry) throws ERR_REQUIRE_ESM;
 * - on the Node running the tests.
 *
 * When a lowest Node cannot be installed (no registry), its checks fail in CI and are skipped with a
 * warning elsewhere. The tarballs' contents (LICENSE, exports targets, peer ranges) and the one copy
 * of each module per format are checked without any Node of their own.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import {
  entryPoints,
  type InstalledPackage,
  installTarballs,
  type PackageJson,
  publishedPackages,
  readJson,
} from "./support/install";
import { inCI, installNode, lowestVersions } from "./support/node-versions";
import { childEnv } from "./support/processes";
import { duplicatedModules } from "./support/source-maps";

const run = promisify(execFile);

const root = fileURLToPath(new URL("../../../", import.meta.url));
const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const rootManifest = readJson<PackageJson>(join(root, "package.json"));
const engines = rootManifest.engines?.node ?? "";
const packages = publishedPackages(root);
const names = packages.map((pkg) => pkg.manifest.name);
const nodeCache = join(root, "node_modules", ".cache", "hireport-node");

/** Packages that must install alone, with no other @hireport package (the API's callers' client). */
const STANDALONE = new Set(["@hireport/client"]);

/** Entry points that only load inside a vitest worker: checked by fixtures/testing-entry.mjs. */
const VITEST_ONLY = new Set(["@hireport/core/testing", "@hireport/webhooks/testing"]);

interface ProbeEntry {
  specifier: string;
  require?: string[];
  import?: string[];
  requireError?: string;
  importError?: string;
}

interface ProbeReport {
  node: string;
  entries: ProbeEntry[];
  commonjsCopies: Record<string, { files: string[]; duplicated: { source: string; files: string[] }[] }>;
  brand: Record<string, boolean> | null;
}

interface VitestReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; message?: string; assertionResults: { fullName: string; status: string }[] }[];
}

let tmp: string | undefined;
let project = "";
const installed = new Map<string, InstalledPackage>();

function tarball(name: string): InstalledPackage {
  const pkg = installed.get(name);
  if (!pkg) throw new Error(`${name} was not packed`);
  return pkg;
}

/** Runs a child process to its end, failing or not, and returns what it wrote. */
async function runChild(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, {
      cwd: project,
      env: childEnv(),
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof failure.code === "number" ? failure.code : 1,
      stdout: failure.stdout ?? "",
      stderr: failure.stderr || failure.message,
    };
  }
}

/** The file paths an exports map (and main, module, types) points at, without the leading "./". */
function targets(manifest: PackageJson): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === "string") found.add(value.replace(/^\.\//, ""));
    else if (value && typeof value === "object") for (const inner of Object.values(value)) walk(inner);
  };
  walk(manifest.exports);
  for (const field of [manifest.main, manifest.module, manifest.types]) walk(field);
  return [...found].sort();
}

beforeAll(async () => {
  const unbuilt = packages.filter((pkg) => !existsSync(join(pkg.dir, "dist")));
  if (unbuilt.length > 0) {
    throw new Error(`Build first (pnpm test does): no dist in ${unbuilt.map((pkg) => pkg.dir).join(", ")}`);
  }
  tmp = await mkdtemp(join(tmpdir(), "hireport-published-"));
  for (const pkg of await installTarballs(packages, tmp)) installed.set(pkg.manifest.name, pkg);
  project = join(tmp, "project");
  await copyFile(join(fixtures, "probe.mjs"), join(project, "probe.mjs"));
  await copyFile(join(fixtures, "testing-entry.mjs"), join(project, "testing-entry.test.mjs"));
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("the tarballs", () => {
  it("are the published packages of the workspace, and engines.node names a lowest Node per line", () => {
    expect(names).toContain("@hireport/core");
    expect(lowestVersions(engines).length).toBeGreaterThan(0);
    const vitestOnly = [...VITEST_ONLY].filter(
      (entry) => !packages.some((pkg) => entryPoints(pkg.manifest).includes(entry)),
    );
    expect(vitestOnly, "VITEST_ONLY names entry points that no package exports").toEqual([]);
  });

  it.each(names)("%s holds LICENSE (the root's), README.md, package.json and dist/ only", async (name) => {
    const pkg = tarball(name);
    expect(pkg.files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
    expect(pkg.files.filter((file) => !/^(LICENSE|README\.md|package\.json|dist\/.+)$/.test(file))).toEqual([]);
    const rootLicense = await readFile(join(root, "LICENSE"), "utf8");
    expect(await readFile(join(pkg.installedDir, "LICENSE"), "utf8")).toBe(rootLicense);
    expect(rootLicense).toMatch(/^MIT License\n\nCopyright \(c\) 2026 hireport contributors\n/);
    expect(pkg.packed.license).toBe("MIT");
  });

  it.each(names)("%s: its exports map, main, module and types point at files of the tarball", (name) => {
    const pkg = tarball(name);
    expect(pkg.packed.exports?.["./package.json"]).toBe("./package.json");
    expect(targets(pkg.packed).filter((target) => !pkg.files.includes(target))).toEqual([]);
  });

  it.each(names)("%s: engines, sideEffects and files; @hireport/core only as a peer", (name) => {
    const { packed } = tarball(name);
    expect(packed.engines?.node).toBe(engines);
    expect(packed.sideEffects).toBe(false);
    expect(packed.files).toEqual(["dist"]);
    expect(JSON.stringify(packed)).not.toContain("workspace:");
    const internal = Object.keys(packed.dependencies ?? {}).filter((dep) => dep.startsWith("@hireport/"));
    expect(internal, "a @hireport package as a dependency can give the host a second copy").toEqual([]);
    if (STANDALONE.has(name)) {
      // Installs alone on a caller's server: nothing of hireport, not even as a peer.
      const peers = Object.keys(packed.peerDependencies ?? {}).filter((dep) => dep.startsWith("@hireport/"));
      expect(peers).toEqual([]);
    } else if (name !== "@hireport/core") {
      expect(packed.peerDependencies?.["@hireport/core"]).toMatch(/^[\^~>=<\d]/);
    }
  });

  it.each(names)("%s: one copy of each module per format, and no other package's code compiled in", (name) => {
    const pkg = tarball(name);
    expect(duplicatedModules(pkg.installedDir, pkg.files)).toEqual([]);
    const foreign: string[] = [];
    for (const file of pkg.files.filter((path) => /\.(c|m)?js\.map$/.test(path))) {
      const map = JSON.parse(readFileSync(join(pkg.installedDir, file), "utf8")) as { sources: string[] };
      const dir = join(pkg.installedDir, file, "..");
      for (const source of map.sources) {
        const path = relative(pkg.installedDir, join(dir, source));
        if (path.startsWith("..")) foreign.push(`${file}: ${source}`);
      }
    }
    expect(foreign, "sources from outside the package: a bundled copy of another package").toEqual([]);
  });
});

const nodes = [
  ...lowestVersions(engines).map((version) => ({ version, label: `${version}, the lowest of ${engines}` })),
  { version: undefined, label: `${process.version.slice(1)}, the running one` },
].filter((node, index, all) => all.findIndex((other) => other.version === node.version) === index);

for (const node of nodes) {
  describe(`on Node ${node.label}`, () => {
    let unavailable: string | undefined;
    let probe: ProbeReport | undefined;
    let probeOutput = "";
    let probeStderr = "";
    let vitest: VitestReport | undefined;
    let vitestOutput = "";

    beforeAll(async () => {
      let bin = process.execPath;
      if (node.version) {
        try {
          bin = await installNode(node.version, nodeCache);
        } catch (error) {
          unavailable = `node@${node.version} could not be installed from the registry, so the packages were NOT checked on the lowest Node of engines (${engines}): ${(error as Error).message}`;
          if (inCI()) throw new Error(`${unavailable}\nCI must run this check: fix the registry access.`);
          console.warn(
            `\n${"!".repeat(100)}\n!!! ${unavailable}\n!!! (In CI this fails the run.)\n${"!".repeat(100)}\n`,
          );
          return;
        }
      }
      const entries = [...installed.values()].flatMap((pkg) => entryPoints(pkg.packed));
      const request = { entries: entries.filter((entry) => !VITEST_ONLY.has(entry)), packages: names };
      const probeRun = await runChild(bin, ["probe.mjs", JSON.stringify(request)]);
      probeStderr = probeRun.stderr;
      probeOutput = `exit ${probeRun.code}\n${probeRun.stderr}\n${probeRun.stdout.slice(0, 4000)}`;
      const last = probeRun.stdout.trim().split("\n").at(-1);
      if (probeRun.code === 0 && last) probe = JSON.parse(last) as ProbeReport;

      const out = join(project, `vitest-${node.version ?? "running"}.json`);
      const vitestBin = join(project, "node_modules", "vitest", "vitest.mjs");
      const vitestRun = await runChild(bin, [
        vitestBin,
        "run",
        "--root",
        project,
        "--reporter=json",
        `--outputFile=${out}`,
      ]);
      vitestOutput = `exit ${vitestRun.code}\n${vitestRun.stderr}\n${vitestRun.stdout.slice(0, 4000)}`;
      if (existsSync(out)) vitest = JSON.parse(await readFile(out, "utf8")) as VitestReport;
    });

    /** Skips the test, loudly, when the Node is missing outside CI (in CI the hook failed). */
    function requireNode(context: TestContext): void {
      if (unavailable) context.skip(unavailable);
    }

    it("require() and import() load every entry point of every package, with the same exports", (context) => {
      requireNode(context);
      expect(probe, probeOutput).toBeDefined();
      if (!probe) return;
      if (node.version) expect(probe.node).toBe(`v${node.version}`);
      const problems: string[] = [];
      for (const entry of probe.entries) {
        if (entry.requireError) problems.push(`require("${entry.specifier}"): ${entry.requireError}`);
        if (entry.importError) problems.push(`import("${entry.specifier}"): ${entry.importError}`);
        if (entry.require && entry.import && entry.require.join() !== entry.import.join()) {
          problems.push(`${entry.specifier}: require() gives [${entry.require}], import() gives [${entry.import}]`);
        }
        if (entry.require?.length === 0) problems.push(`${entry.specifier}: no exports`);
      }
      expect(problems).toEqual([]);
      const probed = new Set([...probe.entries.map((entry) => entry.specifier), ...VITEST_ONLY]);
      const all = [...installed.values()].flatMap((pkg) => entryPoints(pkg.packed));
      expect(all.filter((entry) => !probed.has(entry))).toEqual([]);
      expect(probeStderr, "require() of an ES module must not warn from node_modules").not.toMatch(
        /ExperimentalWarning/,
      );
    });

    it("every entry of a package required together loads one copy of each module", (context) => {
      requireNode(context);
      expect(probe, probeOutput).toBeDefined();
      for (const name of names) {
        expect(probe?.commonjsCopies[name]?.duplicated, name).toEqual([]);
      }
      // core's CommonJS entries are a few lines each over shared chunks (tsup splitting).
      expect(probe?.commonjsCopies["@hireport/core"]?.files.some((file) => file.startsWith("chunk-"))).toBe(true);
    });

    it("isHireportError accepts a HireportError of the other format", (context) => {
      requireNode(context);
      // Each format has its own HireportError class (sameClass is false): the brand bridges them.
      expect(probe?.brand, probeOutput.slice(0, 600)).toMatchObject({
        commonjsAcceptsEsm: true,
        esmAcceptsCommonjs: true,
        commonjsRefusesPlainError: true,
        esmRefusesPlainError: true,
      });
    });

    it("@hireport/core/testing and @hireport/webhooks/testing: require() and import() give one module; the conformance suites pass on the memory storages of both formats", (context) => {
      requireNode(context);
      expect(vitest, vitestOutput).toBeDefined();
      if (!vitest) return;
      const failed = vitest.testResults.flatMap((file) => [
        ...(file.message ? [`${file.name}: ${file.message}`] : []),
        ...file.assertionResults.filter((test) => test.status !== "passed").map((test) => test.fullName),
      ]);
      expect(failed, vitestOutput).toEqual([]);
      const passed = vitest.testResults.flatMap((file) => file.assertionResults.map((test) => test.fullName));
      expect(passed).toContain("require() and import() of @hireport/core/testing give one module");
      expect(passed.filter((test) => test.includes("memory storage, CommonJS")).length).toBeGreaterThan(50);
      expect(passed.filter((test) => test.includes("memory storage, ES module")).length).toBeGreaterThan(50);
      expect(passed).toContain("require() and import() of @hireport/webhooks/testing give one module");
      expect(passed.filter((test) => test.includes("memory webhook storage, CommonJS")).length).toBeGreaterThan(40);
      expect(passed.filter((test) => test.includes("memory webhook storage, ES module")).length).toBeGreaterThan(40);
      expect(vitest.numPassedTests).toBe(vitest.numTotalTests);
    });
  });
}
