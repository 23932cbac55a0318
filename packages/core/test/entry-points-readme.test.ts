/**
 * The README's "Entry points" lists every export of every entry point of the package, and nothing
 * else; the main entry stays small enough to hold in one's head (at most 60 names).
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The source of each entry of the exports map (as tsup.config.ts builds them). */
const SOURCES: Record<string, string> = {
  "@hireport/core": "src/index.ts",
  "@hireport/core/storage": "src/entries/storage.ts",
  "@hireport/core/schemas": "src/entries/schemas.ts",
  "@hireport/core/http": "src/entries/http.ts",
  "@hireport/core/extend": "src/entries/extend.ts",
  "@hireport/core/memory": "src/memory/index.ts",
  "@hireport/core/node": "src/node/index.ts",
  "@hireport/core/telemetry": "src/telemetry/index.ts",
  "@hireport/core/testing": "src/testing/index.ts",
};

/** Each entry the README lists, with the names it lists: `- **`name`** (count): …` then the names. */
function readmeEntries(): Map<string, { count: number; names: string[] }> {
  const readme = readFileSync(resolve(PACKAGE, "README.md"), "utf8");
  const section = readme.split("\n## Entry points\n")[1]?.split("\n## ")[0];
  if (section === undefined) throw new Error("README.md has no section ## Entry points");
  const entries = new Map<string, { count: number; names: string[] }>();
  for (const match of section.matchAll(/^- \*\*`([^`]+)`\*\* \((\d+)\): .*\n {2}(.*)$/gm)) {
    const [, name, count, list] = match as unknown as [string, string, string, string];
    entries.set(name, {
      count: Number(count),
      names: [...list.matchAll(/`([^`]+)`/g)].map((found) => found[1] as string),
    });
  }
  return entries;
}

function exportedNames(): Map<string, string[]> {
  const files = Object.values(SOURCES).map((source) => resolve(PACKAGE, source));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
  });
  const checker = program.getTypeChecker();
  const names = new Map<string, string[]>();
  for (const [entry, source] of Object.entries(SOURCES)) {
    const file = program.getSourceFile(resolve(PACKAGE, source));
    const symbol = file && checker.getSymbolAtLocation(file);
    if (!symbol) throw new Error(`${source}: no module`);
    names.set(
      entry,
      checker.getExportsOfModule(symbol).map((exported) => exported.name),
    );
  }
  return names;
}

describe("the README's entry points", () => {
  const listed = readmeEntries();
  const actual = exportedNames();

  it("names every entry of the exports map", () => {
    const manifest = JSON.parse(readFileSync(resolve(PACKAGE, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    };
    const entries = Object.keys(manifest.exports)
      .filter((key) => key !== "./package.json")
      .map((key) => (key === "." ? "@hireport/core" : `@hireport/core/${key.slice(2)}`));
    expect([...listed.keys()].sort()).toEqual(entries.sort());
    expect(Object.keys(SOURCES).sort()).toEqual(entries.sort());
    // The sources are the ones the build makes the entries from.
    const build = readFileSync(resolve(PACKAGE, "tsup.config.ts"), "utf8");
    for (const source of Object.values(SOURCES)) expect(build, source).toContain(`"${source}"`);
  });

  it("lists each entry's exports, all of them and no other, with their count", () => {
    for (const [entry, names] of actual) {
      const readme = listed.get(entry);
      expect(readme?.names.slice().sort(), entry).toEqual(names.slice().sort());
      expect(readme?.count, entry).toBe(names.length);
    }
  });

  it("keeps the main entry to at most 60 names, each exported once across the API entries", () => {
    expect((actual.get("@hireport/core") ?? []).length).toBeLessThanOrEqual(60);
    const api = [
      "@hireport/core",
      "@hireport/core/storage",
      "@hireport/core/schemas",
      "@hireport/core/http",
      "@hireport/core/extend",
    ];
    const all = api.flatMap((entry) => actual.get(entry) ?? []);
    expect(all.filter((name, index) => all.indexOf(name) !== index)).toEqual([]);
  });
});
