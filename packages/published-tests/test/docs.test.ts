/**
 * The documentation a newcomer reads from a clean clone: the root README, docs/, and the README of
 * every package, example and the bench.
 *
 * - Every relative link resolves to a file or folder of the repository, never outside it, and a
 *   `#fragment` names a heading of its target.
 * - Nothing sends the reader to the team's own notes, which are not in the repository.
 * - The root README's "Five minutes in your own app" is the code the release rehearsal runs: every
 *   block marked `<!-- rehearsed -->` is in fixtures/host.mjs word for word, and together the blocks
 *   type-check as TypeScript against the workspace's packages (the README says `app.ts` works too).
 *
 * Needs no build.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const hostFixture = fileURLToPath(new URL("./fixtures/host.mjs", import.meta.url));

/**
 * Pages other branches add (the careers site, personal data): docs/README.md links them already.
 * Once they exist they are checked like every other page.
 */
function readmesIn(folder: string): string[] {
  const dir = join(root, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => join(folder, name, "README.md"))
    .filter((path) => existsSync(join(root, path)));
}

/** Every Markdown page a reader of the repository meets (paths relative to the root). */
const pages = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  ...readmesIn("packages"),
  ...readmesIn("examples"),
  "bench/README.md",
  "bench/RESULTS.md",
  ".changeset/README.md",
];

/** The text outside fenced code blocks and inline code spans: links in code are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^( *)(```|~~~)[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2… */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutCode = markdown.replace(/^( *)(```|~~~)[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, "");
  for (const match of withoutCode.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const text = (match[1] ?? "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** `[text](target)` and `[text](target "title")` links of a page's prose. */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] as string);
}

describe("the documentation stands alone", () => {
  it("docs/ has its index and the guides, each linked from the index", () => {
    const guides = [
      "api-reference.md",
      "host-guide.md",
      "production-guide.md",
      "receiver-guide.md",
      "careers.md",
      "personal-data.md",
    ];
    const index = readFileSync(join(root, "docs", "README.md"), "utf8");
    for (const page of guides) {
      expect(existsSync(join(root, "docs", page)), `docs/${page}`).toBe(true);
      expect(index).toContain(`(${page})`);
    }
  });

  it.each(pages)("%s: every relative link resolves inside the repository, anchors included", (page) => {
    const text = readFileSync(join(root, page), "utf8");
    const problems: string[] = [];
    for (const link of linksOf(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
      const [pathPart = "", fragment] = link.split("#");
      const target = pathPart === "" ? join(root, page) : resolve(dirname(join(root, page)), decodeURI(pathPart));
      const inRepo = relative(root, target);
      if (inRepo.startsWith("..")) {
        problems.push(`${link}: outside the repository`);
        continue;
      }
      if (!existsSync(target)) {
        problems.push(`${link}: no such file`);
        continue;
      }
      if (fragment !== undefined && statSync(target).isFile() && target.endsWith(".md")) {
        if (!anchorsOf(readFileSync(target, "utf8")).has(fragment)) problems.push(`${link}: no heading #${fragment}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(pages)("%s: sends nobody to the team's notes (they are not in the repository)", (page) => {
    const text = readFileSync(join(root, page), "utf8");
    expect(text).not.toMatch(/\.\.\/shared|shared\/(?:spec|DESIGN)|DESIGN\.md|ANCHORS\.md|public-api-v1\.md/);
    // "spec 2.7", "the spec's answers": a document the reader does not have.
    expect(prose(text)).not.toMatch(/\bspec\b|\bspec's\b/i);
  });

  it("the link and anchor checks do catch a broken link", () => {
    expect(linksOf("See [a](docs/x.md#y) and `[b](c)`.\n```\n[d](e)\n```\n")).toEqual(["docs/x.md#y"]);
    expect([...anchorsOf("# Paging and sync\n## `api.keys`\n## Errors\n## Errors\n")]).toEqual([
      "paging-and-sync",
      "apikeys",
      "errors",
      "errors-1",
    ]);
  });
});

describe("the README's host is the rehearsal's host", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/<!-- rehearsed -->\n( *)```ts\n([\s\S]*?)\n\1```/g)].map(
    ([, indent = "", body = ""]) =>
      body
        .split("\n")
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
        .join("\n"),
  );

  it("every block marked rehearsed is in fixtures/host.mjs, word for word, in order", () => {
    // Steps 2 to 6: the database, the dispatcher and the API, the bootstrap, the mount and the
    // receiver, the stop. Each is recognised by what it must show.
    const expected = ["migrateToLatest", "allowPrivateAddresses", "isKeyUsable", "verifySignature", "dispatcher.stop"];
    expect(blocks.map((block) => expected.find((word) => block.includes(word)))).toEqual(expected);
    const host = readFileSync(hostFixture, "utf8");
    let from = 0;
    for (const block of blocks) {
      const at = host.indexOf(block, from);
      expect(at, `not in host.mjs (or out of order):\n${block}`).toBeGreaterThanOrEqual(0);
      from = at + block.length;
    }
  });

  it("the blocks together type-check as TypeScript against the workspace's packages", () => {
    // Inside the demo's node_modules, so that express, better-sqlite3, kysely and their types
    // resolve as they would in a host app; @hireport/* resolve to the workspace's sources.
    const dir = join(root, "examples", "express-sqlite", "node_modules", ".cache", "readme-host");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "app.ts");
    writeFileSync(file, `${blocks.join("\n\n")}\n`);
    try {
      const base = ts.readConfigFile(join(root, "tsconfig.base.json"), (path) => ts.sys.readFile(path));
      const { options } = ts.parseJsonConfigFileContent(base.config, ts.sys, root);
      // @hireport/careers from its sources too (its pages are Preact components).
      const paths = { ...options.paths, "@hireport/careers": [join(root, "packages/careers/src/index.ts")] };
      const jsx = { jsx: ts.JsxEmit.ReactJSX, jsxImportSource: "preact" };
      const program = ts.createProgram([file], {
        ...options,
        ...jsx,
        paths,
        noEmit: true,
        declaration: false,
        sourceMap: false,
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // a whole program of the workspace's sources: a minute on a busy 2-core machine
});
