import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GENERATED_FILE, generateTypes } from "../scripts/generate-types";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("the client's types are core's OpenAPI document", () => {
  it("src/generated/openapi.ts is what openapi-typescript makes of buildOpenApiDocument() today (run `pnpm --filter @hireport/client generate` after a change in core)", async () => {
    // `vitest run -u` (the generate script) rewrites the file; without -u any drift fails here.
    await expect(await generateTypes()).toMatchFileSnapshot(fileURLToPath(new URL(GENERATED_FILE, import.meta.url)));
  }, 30_000);

  it("the published code imports nothing of @hireport/* or zod, types included: only p-retry and its own files", () => {
    const imports = new Set<string>();
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) imports.add(match[1] as string);
    }
    const external = [...imports].filter((specifier) => !specifier.startsWith("."));
    expect(external).toEqual(["p-retry"]);
  });
});
