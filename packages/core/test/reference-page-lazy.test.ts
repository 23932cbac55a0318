/**
 * The reference page's renderer (`src/docs/reference-page.ts`, with Preact and
 * `preact-render-to-string`) is loaded on the first request of the page, not when the API is
 * created. From the sources (a module mock that counts loads of the real module), and from the
 * build in both formats: a copy of `dist` next to a `node_modules` without Preact serves the API but
 * not the page, and the CommonJS build has loaded no Preact module until the page is asked for.
 * The build checks read `dist` (`pnpm run build` first).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";

const core = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(core, "dist");
const SECRET = "reference-secret-0123456789-abcdefghijk";
const quiet = { warn: () => undefined, error: () => undefined };

describe("the reference page renderer, from the sources", () => {
  it("is loaded by the first request of the page, once, and not by creating the API", async () => {
    vi.resetModules();
    let loads = 0;
    vi.doMock("../src/docs/reference-page", async (importOriginal) => {
      loads += 1;
      return importOriginal();
    });
    try {
      const { createPublicApi } = await import("../src/setup/create-public-api");
      const { memoryStorage } = await import("../src/memory");
      const api = createPublicApi({
        storage: memoryStorage(),
        publicBaseUrl: "https://careers.example.com",
        fileTokenSecret: SECRET,
        logger: quiet,
      });
      const openapi = await api.fetch(new Request("https://api.example.com/api/public/v1/openapi.json"));
      expect(openapi.status).toBe(200);
      expect(loads).toBe(0);
      const page = await api.fetch(new Request("https://api.example.com/api/public/v1/reference"));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<!doctype html>");
      expect(loads).toBe(1);
      expect(await api.reference()).toContain("<!doctype html>");
      expect(loads).toBe(1);
    } finally {
      vi.doUnmock("../src/docs/reference-page");
      vi.resetModules();
    }
  });
});

/**
 * Creates the API from the build under `root` in a child Node, and answers the statuses of GET
 * openapi.json and GET reference, and (CommonJS) the renderer's modules loaded before the page.
 */
function probe(format: "esm" | "cjs", root: string): { openapi: number; reference: number; loaded: string[] } {
  const ext = format === "esm" ? "js" : "cjs";
  const load =
    format === "esm"
      ? `const core = await import(${JSON.stringify(join(root, `dist/index.${ext}`))});
         const { memoryStorage } = await import(${JSON.stringify(join(root, `dist/memory.${ext}`))});`
      : `const core = require(${JSON.stringify(join(root, `dist/index.${ext}`))});
         const { memoryStorage } = require(${JSON.stringify(join(root, `dist/memory.${ext}`))});`;
  const loaded =
    format === "cjs" ? "Object.keys(require.cache).filter((file) => /preact|reference-page/.test(file))" : "[]";
  const script = `(async () => {
    ${load}
    const api = core.createPublicApi({ storage: memoryStorage(), publicBaseUrl: "https://careers.example.com",
      fileTokenSecret: ${JSON.stringify(SECRET)}, logger: { warn() {}, error() {} } });
    const get = async (path) => (await api.fetch(new Request("https://api.example.com/api/public/v1/" + path))).status;
    const openapi = await get("openapi.json");
    const before = ${loaded};
    const reference = await get("reference");
    console.log(JSON.stringify({ openapi, reference, loaded: before }));
  })().catch((error) => { console.error(error); process.exit(1); });`;
  const args = format === "esm" ? ["--input-type=module", "-e", script] : ["--input-type=commonjs", "-e", script];
  // Without NODE_PATH (pnpm sets it to its hoisted packages, where `require` would find Preact).
  const { NODE_PATH: _hoisted, ...env } = process.env;
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8", cwd: root, env }));
}

describe.skipIf(!existsSync(join(dist, "index.js")))("the reference page renderer, in the build", () => {
  const scratch = mkdtempSync(join(tmpdir(), "hireport-lazy-reference-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** `dist` and `package.json` of core beside a `node_modules` with core's dependencies but Preact. */
  function withoutPreact(): string {
    const root = join(scratch, "core");
    mkdirSync(join(root, "node_modules"), { recursive: true });
    cpSync(dist, join(root, "dist"), { recursive: true });
    cpSync(join(core, "package.json"), join(root, "package.json"));
    for (const name of ["zod", "jose"]) {
      symlinkSync(realpathSync(join(core, "node_modules", name)), join(root, "node_modules", name), "dir");
    }
    return root;
  }

  it.each(["esm", "cjs"] as const)("%s: serves the API without Preact installed, and the page with it", (format) => {
    expect(probe(format, core)).toMatchObject({ openapi: 200, reference: 200 });
    const root = existsSync(join(scratch, "core")) ? join(scratch, "core") : withoutPreact();
    // Without Preact only the page fails (500): nothing else needed the renderer.
    expect(probe(format, root)).toMatchObject({ openapi: 200, reference: 500 });
  });

  it("cjs: no Preact module and no renderer chunk is loaded until the page is asked for", () => {
    expect(probe("cjs", core)).toEqual({ openapi: 200, reference: 200, loaded: [] });
  });
});
