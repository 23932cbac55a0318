/**
 * `@opentelemetry/api` is an optional peer: only `@hireport/core/telemetry` may load it. Guards
 * against an import of it (or of the telemetry entry) creeping into the main entry, which would
 * break every host without the package. Reads the build (`pnpm run build` first).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dist = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist");

/** Every bare specifier the ES module build of `entry` reaches through its relative imports. */
function reachedPackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:^|;|\n)\s*(?:import|export)\s[^"']*?["']([^"']+)["']/g)) {
      const specifier = match[1] as string;
      if (specifier.startsWith(".")) visit(join(dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(join(dist, entry));
  return packages;
}

describe.skipIf(!existsSync(join(dist, "index.js")))("core's main entry without @opentelemetry/api", () => {
  it("its ES module build reaches no @opentelemetry package, the telemetry entry does", () => {
    const main = [...reachedPackages("index.js")];
    expect(main).toContain("zod");
    expect(main.filter((name) => name.startsWith("@opentelemetry/"))).toEqual([]);
    expect([...reachedPackages("telemetry.js")]).toContain("@opentelemetry/api");
  });

  it("its CommonJS build loads no @opentelemetry module", () => {
    const loaded = execFileSync(
      process.execPath,
      [
        "-e",
        `require(${JSON.stringify(join(dist, "index.cjs"))}); console.log(JSON.stringify(Object.keys(require.cache)))`,
      ],
      { encoding: "utf8" },
    );
    const files = JSON.parse(loaded) as string[];
    expect(files.some((file) => file.endsWith("index.cjs"))).toBe(true);
    expect(files.filter((file) => file.includes("@opentelemetry"))).toEqual([]);
  });
});
