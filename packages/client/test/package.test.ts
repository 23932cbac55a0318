/**
 * The package as a caller installs it: built by tsup (the same entry and formats as
 * tsup.config.ts) into a scratch folder, then
 * - the CommonJS build is `require`d by a separate Node process with require(esm) turned off (as
 *   on Node 20 before 20.19), and calls a real server: p-retry, which is ESM-only, must come in
 *   through the lazy `import()`;
 * - the ES module build does the same through `import`;
 * - the bundled `.d.ts` type-checks a caller's file in a folder with no node_modules at all: the
 *   published types need nothing of @hireport/core, zod or anything else at install time.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "tsup";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADAPTERS, startWorld, type World } from "./servers";

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
// Inside the package, so that the build's `require("p-retry")`/`import("p-retry")` resolve to its node_modules.
const OUT = join(PACKAGE, "node_modules", ".cache", "package-test");
const NO_REQUIRE_ESM = "--no-experimental-require-module";
const requireEsmFlag = process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM) ? [NO_REQUIRE_ESM] : [];

describe("the built package", () => {
  let world: World;

  beforeAll(async () => {
    rmSync(OUT, { recursive: true, force: true });
    await build({
      config: false,
      entry: { index: join(PACKAGE, "src/index.ts") },
      format: ["esm", "cjs"],
      dts: true,
      outDir: OUT,
      target: "node20",
      silent: true,
      tsconfig: join(PACKAGE, "tsconfig.json"),
      // What tsup does in the package's own folder (this runs from the repository root): the
      // dependencies stay imports, as a caller's install resolves them.
      external: Object.keys(JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")).dependencies ?? {}),
    });
    expect(readFileSync(join(OUT, "index.cjs"), "utf8")).toContain('import("p-retry")');
    world = await startWorld(ADAPTERS[0] as (typeof ADAPTERS)[number]);
  }, 60_000);

  afterAll(async () => {
    await world?.close();
    rmSync(OUT, { recursive: true, force: true });
  });

  const script = (load: string) => `
    ${load}
    const client = createClient({ baseUrl: ${JSON.stringify("BASE")}, key: ${JSON.stringify("KEY")} });
    client.jobs.create({ title: "From a separate process" })
      .then(async (job) => {
        const me = await client.me();
        console.log(JSON.stringify({ title: job.title, company: me.company.id }));
      })
      .catch((error) => { console.error(error); process.exit(1); });
  `;

  const fill = (text: string) => text.replace("BASE", world.baseUrl).replace("KEY", world.key);

  it("CommonJS: require() works with require(esm) turned off, and p-retry loads lazily", async () => {
    if (requireEsmFlag.length > 0) {
      // The flag has teeth: a static require of p-retry fails under it.
      const control = run(process.execPath, [...requireEsmFlag, "-e", 'require("p-retry")'], { cwd: OUT });
      await expect(control).rejects.toThrow(/ERR_REQUIRE_ESM|require\(\) of ES Module/);
    }
    const { stdout } = await run(
      process.execPath,
      [...requireEsmFlag, "-e", fill(script('const { createClient } = require("./index.cjs");'))],
      { cwd: OUT },
    );
    expect(JSON.parse(stdout)).toEqual({ title: "From a separate process", company: world.companyId });
  }, 30_000);

  it("ES module: import works", async () => {
    const { stdout } = await run(
      process.execPath,
      ["--input-type=module", "-e", fill(script('const { createClient } = await import("./index.js");'))],
      { cwd: OUT },
    );
    expect(JSON.parse(stdout).title).toBe("From a separate process");
  }, 30_000);

  it("the .d.ts and .d.cts import nothing: a caller type-checks with no node_modules", () => {
    for (const file of ["index.d.ts", "index.d.cts"]) {
      const text = readFileSync(join(OUT, file), "utf8");
      expect(text).not.toMatch(/^\s*import\s|from\s+["']|require\(|\/\/\/\s*<reference/m);
    }
    const dir = mkdtempSync(join(tmpdir(), "hireport-client-types-"));
    try {
      mkdirSync(join(dir, "client"));
      cpSync(join(OUT, "index.d.ts"), join(dir, "client", "index.d.ts"));
      writeFileSync(
        join(dir, "caller.ts"),
        `import { createClient, HireportApiError, type Job } from "./client/index";
const client = createClient({ baseUrl: "https://hr.example.com/api/public/v1", key: "svc_live_x" });
export async function main(): Promise<Job> {
  await client.applications.create({ job_id: "job_1", candidate: { name: "Ada", email: "ada@example.com" } });
  try {
    return await client.jobs.create({ title: "X" });
  } catch (error) {
    if (error instanceof HireportApiError && error.code === "missing_scope") throw new Error(error.requiredScope);
    throw error;
  }
}
// @ts-expect-error title is required
client.jobs.create({});
`,
      );
      const program = ts.createProgram([join(dir, "caller.ts")], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
        types: [],
        typeRoots: [],
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      expect(diagnostics).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
