/**
 * The build every published package shares (tsup: ESM and CJS with types, source maps, Node 20),
 * and the helpers of the packages that split CommonJS into chunks. Not published: `files` holds
 * `dist` only.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { Options } from "tsup";

/** Where every package builds to. */
export const OUT_DIR = "dist";

/**
 * tsup options of a published package: its entries in ESM and CJS with types and source maps.
 * `splitting` shares chunks between entries in CommonJS too (one copy of each module per format);
 * its source maps are then made relative (see {@link relativeSourceMaps}) before `onSuccess`.
 * `jsxImportSource` compiles JSX with the automatic runtime of that library.
 */
export function packageBuild(options: {
  entry: Record<string, string>;
  splitting?: boolean;
  external?: string[];
  jsxImportSource?: string;
  onSuccess?: () => Promise<void>;
}): Options {
  const { entry, splitting = false, external, jsxImportSource, onSuccess } = options;
  return {
    entry,
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    sourcemap: true,
    target: "node20",
    outDir: OUT_DIR,
    ...(external ? { external } : {}),
    ...(jsxImportSource
      ? {
          esbuildOptions(esbuild) {
            esbuild.jsx = "automatic";
            esbuild.jsxImportSource = jsxImportSource;
          },
        }
      : {}),
    ...(splitting
      ? {
          splitting: true,
          async onSuccess() {
            await relativeSourceMaps(OUT_DIR);
            await onSuccess?.();
          },
        }
      : onSuccess
        ? { onSuccess }
        : {}),
  };
}

/**
 * tsup splits CommonJS by converting ES chunks with sucrase, which names its chunks by absolute
 * path in the source maps (`file`, and a source): makes them relative, so that no build machine's
 * path is published.
 */
export async function relativeSourceMaps(outDir: string): Promise<void> {
  const dir = resolve(outDir);
  const local = (path: string) => (isAbsolute(path) ? relative(dir, path) : path);
  for (const name of await readdir(dir)) {
    if (!name.endsWith(".map")) continue;
    const file = join(dir, name);
    const text = await readFile(file, "utf8");
    if (!text.includes(dir)) continue;
    const map = JSON.parse(text) as { file?: string; sources: string[] };
    if (map.file !== undefined) map.file = local(map.file);
    map.sources = map.sources.map(local);
    await writeFile(file, JSON.stringify(map));
  }
}
