import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type PackageJson, readJson } from "./install";
import { readmeInstall } from "./readme-install";

/** One fresh project of the install matrix. */
export interface MatrixCase {
  /** `@hireport/express` (its README alone), or a combination's name. */
  name: string;
  /** The packages whose README Install sections, together, say what the project installs. */
  picks: string[];
  /** The `@hireport/*` packages it installs (from the tarballs), sorted. */
  hireport: string[];
  /** The other packages it installs (from the registry, at the workspace's versions), sorted. */
  thirdParty: string[];
  /** Why a pick's README could not say what to install (its own case then installs nothing). */
  readmeErrors: string[];
}

export interface CaseRecipe {
  name: string;
  picks: string[];
  /** A package's own case: its README must say what to install. */
  own: boolean;
}

/**
 * The project of a recipe: every package named by the Install sections of its picks' READMEs, and
 * the picks themselves; plus, for each third-party package, what a host that has it also has
 * (`companions`: `@types/express` with Express), and what every TypeScript host on Node has
 * (`always`). A README that cannot be read fails its package's own case; in a combination, that
 * pick then adds itself only.
 */
export function caseOf(
  recipe: CaseRecipe,
  packagesDir: string,
  companions: Record<string, readonly string[]>,
  always: readonly string[],
): MatrixCase {
  const named = new Set<string>(recipe.picks);
  const readmeErrors: string[] = [];
  for (const pick of recipe.picks) {
    try {
      for (const name of readmeInstall(join(packagesDir, pick.replace(/^@hireport\//, ""))).named) named.add(name);
    } catch (error) {
      readmeErrors.push((error as Error).message);
    }
  }
  const hireport = [...named].filter((name) => name.startsWith("@hireport/")).sort();
  const thirdParty = new Set([...named].filter((name) => !name.startsWith("@hireport/")));
  for (const name of [...thirdParty]) for (const companion of companions[name] ?? []) thirdParty.add(companion);
  for (const name of always) thirdParty.add(name);
  return {
    name: recipe.name,
    picks: recipe.picks,
    hireport,
    thirdParty: [...thirdParty].sort(),
    readmeErrors: recipe.own ? readmeErrors : [],
  };
}

/** Cases that install the same packages become one, named after each. */
export function mergeSameInstalls(cases: MatrixCase[]): MatrixCase[] {
  const byInstall = new Map<string, MatrixCase>();
  for (const each of cases) {
    const key = JSON.stringify([each.hireport, each.thirdParty, each.readmeErrors.length > 0 ? each.name : ""]);
    const seen = byInstall.get(key);
    if (seen) seen.name = `${seen.name} = ${each.name}`;
    else byInstall.set(key, { ...each });
  }
  return [...byInstall.values()];
}

/**
 * The version of a third-party package that the workspace has installed, so that the fresh
 * projects get what the packages are tested with (CI's Node 24 run overrides better-sqlite3 and
 * kysely: the workspace then has those). Looked up in the node_modules of the workspace's packages
 * that declare it, published ones first, then at the root.
 */
export function workspaceVersion(root: string, name: string): string {
  const packagesDir = join(root, "packages");
  const workspace = readdirSync(packagesDir)
    .filter((folder) => existsSync(join(packagesDir, folder, "package.json")))
    .map((folder) => ({
      dir: join(packagesDir, folder),
      manifest: readJson<PackageJson>(join(packagesDir, folder, "package.json")),
    }));
  const declares = (manifest: PackageJson) =>
    [manifest.peerDependencies, manifest.dependencies, manifest.devDependencies].some((deps) => deps && name in deps);
  const dirs = [
    ...workspace.filter((pkg) => !pkg.manifest.private && declares(pkg.manifest)).map((pkg) => pkg.dir),
    ...workspace.filter((pkg) => pkg.manifest.private && declares(pkg.manifest)).map((pkg) => pkg.dir),
    root,
  ];
  for (const dir of dirs) {
    const manifest = join(dir, "node_modules", ...name.split("/"), "package.json");
    if (existsSync(manifest)) return readJson<PackageJson>(manifest).version;
  }
  throw new Error(`The workspace has no ${name} installed (looked in ${dirs.join(", ")}): run pnpm install`);
}

/** Runs `tasks` with at most `limit` at a time; each promise settles with its task. */
export function limited<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T>[] {
  let active = 0;
  const queue: (() => void)[] = [];
  const next = () => {
    if (active >= limit) return;
    const start = queue.shift();
    if (start) {
      active += 1;
      start();
    }
  };
  return tasks.map(
    (task) =>
      new Promise<T>((resolve, reject) => {
        queue.push(() => {
          task()
            .then(resolve, reject)
            .finally(() => {
              active -= 1;
              next();
            });
        });
        next();
      }),
  );
}
