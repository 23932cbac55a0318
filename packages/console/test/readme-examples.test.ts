/**
 * The console's examples compile: every TypeScript block marked `<!-- typechecked -->` in this
 * package's README and in docs/host-guide.md is type-checked with the workspace's settings (strict)
 * against the packages' sources, after a preamble that declares what the examples leave to the host
 * (`api`, `dispatcher`, `app`, its session store). Guards the `authorize` examples: they read the
 * cookie with `getHeader(request.headers, "cookie")`, since `request.headers.cookie` does not
 * compile (`headers` is `HeaderBag | Headers`), which the last check shows.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const here = fileURLToPath(new URL(".", import.meta.url));

/** What the examples take from the host's own code. */
const PREAMBLE = `
import type { PublicApi } from "@hireport/core";
import type { WebhookDispatcher } from "@hireport/webhooks";
import type { Express } from "express";
interface HostUser { id: string; name: string; companyId: string; role: string }
declare const api: PublicApi;
declare const dispatcher: WebhookDispatcher;
declare const app: Express;
declare const sessions: { userOf(cookie: string | undefined): Promise<HostUser | null> };
declare function yourSession(cookie: string | undefined): Promise<HostUser | null>;
declare const companyId: string;
declare const user: HostUser;
`;

/** The blocks of `page` (a path from the repository's root) marked to be type-checked. */
function blocksOf(page: string): string[] {
  const text = readFileSync(join(root, page), "utf8");
  return [...text.matchAll(/<!-- typechecked -->\n```ts\n([\s\S]*?)\n```/g)].map((match) => match[1] as string);
}

/** Type-checks each source as a module of its own; the messages of each, in order. */
function typeCheck(sources: string[]): string[][] {
  // Inside the package, so that its dependencies (express's types) resolve as its tests' do.
  const dir = mkdtempSync(join(here, ".examples-"));
  try {
    const files = sources.map((source, index) => {
      const file = join(dir, `example-${index}.ts`);
      writeFileSync(file, `${PREAMBLE}\n${source}\nexport {};\n`);
      return file;
    });
    const base = ts.readConfigFile(join(root, "tsconfig.base.json"), (path) => ts.sys.readFile(path));
    const { options } = ts.parseJsonConfigFileContent(base.config, ts.sys, root);
    // The console's own sources are JSX (preact), as its tsconfig says.
    const jsx = { jsx: ts.JsxEmit.ReactJSX, jsxImportSource: "preact" };
    const program = ts.createProgram(files, { ...options, ...jsx, noEmit: true, declaration: false, sourceMap: false });
    return files.map((file) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the console's examples", () => {
  it("type-check, and an authorize that reads request.headers.cookie does not", () => {
    const readme = blocksOf("packages/console/README.md");
    const guide = blocksOf("docs/host-guide.md");
    // The mount example and the portal-link example; the host guide's console example.
    expect(readme).toHaveLength(2);
    expect(guide).toHaveLength(1);
    for (const block of [readme[0], guide[0]]) expect(block).toContain('getHeader(request.headers, "cookie")');
    const wrong = (readme[0] ?? "").replace('getHeader(request.headers, "cookie")', "request.headers.cookie");
    const [readmeMount, readmePortal, guideMount, wrongMount] = typeCheck([...readme, ...guide, wrong]);
    expect(readmeMount).toEqual([]);
    expect(readmePortal).toEqual([]);
    expect(guideMount).toEqual([]);
    expect(wrongMount?.join("\n")).toMatch(/Property 'cookie' does not exist on type/);
  }, 60_000);
});
