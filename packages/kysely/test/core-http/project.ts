/**
 * The vitest project that runs core's HTTP suite (packages/core/test/http, every endpoint through
 * `api.handle()` and `api.fetch()`) on one dialect through @hireport/kysely, named
 * `core-http:<dialect>` so the output shows the count per dialect.
 *
 * The suite takes its storage from `test/http/storage.ts` of core (the memory storage); here that one
 * module, and only it, resolves to `./<dialect>.ts`. Nothing in core knows about this package.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineProject, type Plugin, type UserWorkspaceConfig } from "vitest/config";
import { hireportAliases } from "../../../../vitest.shared";
import type { TestDialect } from "../helpers/databases";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const CORE_HTTP_STORAGE = here("../../../core/test/http/storage.ts");

/** Resolves core's HTTP test storage module, imported as `./storage` by its harness, to `entry`. */
function redirectStorage(entry: string): Plugin {
  return {
    name: "hireport:core-http-storage",
    enforce: "pre",
    resolveId(source, importer) {
      if (!importer || !source.startsWith(".")) return null;
      const target = resolve(dirname(importer.split("?")[0] as string), source);
      return target === CORE_HTTP_STORAGE || `${target}.ts` === CORE_HTTP_STORAGE ? entry : null;
    },
  };
}

export function coreHttpProject(dialect: TestDialect): UserWorkspaceConfig {
  return defineProject({
    plugins: [redirectStorage(here(`./${dialect}.ts`))],
    resolve: { alias: hireportAliases },
    test: {
      name: `core-http:${dialect}`,
      root: here("../../../core"),
      include: ["test/http/**/*.test.ts"],
      // Each test's world migrates a database: slow on a busy 2-core machine.
      hookTimeout: 60_000,
    },
  });
}
