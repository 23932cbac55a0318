import { existsSync, readFileSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";

export interface DuplicatedModule {
  /** The source module, as its path relative to the package (`src/errors.ts`). */
  source: string;
  /** The files of one format that each carry a copy of it. */
  files: string[];
}

/**
 * The modules compiled into more than one JavaScript file of the same format (`.cjs`, or `.js`/
 * `.mjs`) among `files`, read from their source maps. Two copies of a module in one format are two
 * classes, two caches, two registries for a host that loads both entries.
 */
export function duplicatedModules(packageDir: string, files: string[]): DuplicatedModule[] {
  const owners = new Map<string, Set<string>>();
  for (const relativeFile of files) {
    const extension = extname(relativeFile);
    if (![".js", ".mjs", ".cjs"].includes(extension)) continue;
    const file = resolve(packageDir, relativeFile);
    if (!existsSync(`${file}.map`)) continue;
    const map = JSON.parse(readFileSync(`${file}.map`, "utf8")) as { sourceRoot?: string; sources: string[] };
    const format = extension === ".cjs" ? "cjs" : "esm";
    for (const source of map.sources) {
      const path = resolve(dirname(file), map.sourceRoot ?? "", source);
      // tsup's CommonJS splitting names the chunk itself as a source (the code sucrase added).
      if (path === file) continue;
      const key = `${format}\0${path.slice(packageDir.length + 1)}`;
      const set = owners.get(key) ?? new Set<string>();
      set.add(relativeFile);
      owners.set(key, set);
    }
  }
  return [...owners]
    .filter(([, set]) => set.size > 1)
    .map(([key, set]) => ({ source: key.split("\0")[1] ?? key, files: [...set].sort() }));
}
