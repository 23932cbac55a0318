/**
 * Core's folders read as floors (CONTRIBUTING.md, "Core's floors"): a file imports only from its own
 * folder and the floors below it, never from a floor above, and no circle of imports spans more
 * than three files. The imports are read by TypeScript's own pre-processor (static, `export … from`
 * and dynamic `import()` alike, type-only ones included: a type that runs back up is a floor that
 * leans on the one above it just the same).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/**
 * Bottom first. Folders on one floor import nothing from each other's floor-mates but may share
 * the floors below. The entry points (`index.ts`, `entries/`, `memory/`, `testing/`, `node/`,
 * `telemetry/`) stand on top.
 */
const FLOORS: readonly (readonly string[])[] = [
  ["base"], // clock, logger, errors, the adapters' request and response contract, telemetry's types
  ["fields"], // the field declarations and the schemas of their values
  ["model"], // domain records, ids, cursors, paging, the public-job rule
  ["schemas"], // request and response schemas, query parsing
  ["storage"], // the storage contract
  ["wire"], // records to the wire: the serializer, file links
  ["events"], // event envelopes, the outbox's fan-out, the poll loop
  ["runtime"], // what one createPublicApi instance shares, and runChange
  ["access", "applications"], // keys, scopes, limits, usage; application rules, erasure
  ["services"], // the business operations
  ["http"], // routing, the pipeline, handlers
  ["docs"], // the OpenAPI document, the reference page, the event catalog
  ["setup"], // createPublicApi, the host API, options
  ["memory"],
  ["testing"],
  ["node", "telemetry", "entries", "."],
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The floor of a file: its first folder below src (`.` for the files at the top). */
function folderOf(file: string): string {
  const parts = relative(SRC, file).split("/");
  return parts.length === 1 ? "." : (parts[0] as string);
}

function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const base = resolve(dirname(from), specifier).replace(/\.js$/, "");
  return [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => files.has(candidate));
}

/** Each source file and the source files it imports. */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => {
        const target = resolveImport(file, specifier, known);
        if (target === undefined) throw new Error(`${relative(SRC, file)}: cannot resolve ${specifier}`);
        return target;
      });
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.map((path) => relative(SRC, path)).sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe("core's floors", () => {
  const graph = importGraph();
  const level = new Map(FLOORS.flatMap((floor, at) => floor.map((folder) => [folder, at] as const)));

  it("every folder of src has its floor", () => {
    const folders = [...new Set([...graph.keys()].map(folderOf))].sort();
    expect(folders.filter((folder) => !level.has(folder))).toEqual([]);
    // The list names no folder that is gone.
    expect([...level.keys()].filter((folder) => !folders.includes(folder))).toEqual([]);
  });

  it("no import runs up a floor, nor sideways between folders of one floor", () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      for (const target of targets) {
        const to = folderOf(target);
        if (to === from) continue;
        if ((level.get(to) as number) >= (level.get(from) as number)) {
          wrong.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // Not checked in vain: the graph has the imports it should.
    expect(graph.get(join(SRC, "setup/create-public-api.ts"))).toContain(join(SRC, "runtime/runtime.ts"));
  });

  it("no circle of imports spans more than three files", () => {
    expect(circles(graph).filter((circle) => circle.length > 3)).toEqual([]);
  });

  it("base imports nothing of core but itself", () => {
    for (const [file, targets] of graph) {
      if (folderOf(file) !== "base") continue;
      expect(
        targets.filter((target) => folderOf(target) !== "base"),
        relative(SRC, file),
      ).toEqual([]);
    }
  });
});
