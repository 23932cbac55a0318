import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  engines?: { node?: string };
  sideEffects?: boolean;
  files?: string[];
  main?: string;
  module?: string;
  types?: string;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
}

/** One published package of the workspace. */
export interface WorkspacePackage {
  /** Its folder in the workspace. */
  dir: string;
  manifest: PackageJson;
}

/** What one package's tarball holds, once installed in the temporary project. */
export interface InstalledPackage extends WorkspacePackage {
  /** Paths inside the tarball, as `pnpm pack` reports them (`package.json`, `dist/index.js`…). */
  files: string[];
  /** The package.json that was packed (workspace: ranges replaced). */
  packed: PackageJson;
  /** Where the tarball was unpacked: `<project>/node_modules/<name>`. */
  installedDir: string;
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** The packages of `<root>/packages` that are published (not private), by folder name. */
export function publishedPackages(root: string): WorkspacePackage[] {
  const packagesDir = join(root, "packages");
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(packagesDir, entry.name, "package.json")))
    .map((entry) => {
      const dir = join(packagesDir, entry.name);
      return { dir, manifest: readJson<PackageJson>(join(dir, "package.json")) };
    })
    .filter((pkg) => !pkg.manifest.private)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/** Every subpath of a package's exports map, as the specifier a host writes (`@hireport/core/memory`). */
export function entryPoints(manifest: PackageJson): string[] {
  return Object.keys(manifest.exports ?? {}).map((subpath) =>
    subpath === "." ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, "")}`,
  );
}

/** Packs one package with `pnpm pack` into `destination`: the tarball's path and the files it holds. */
export async function pack(pkg: WorkspacePackage, destination: string): Promise<{ filename: string; files: string[] }> {
  const { stdout } = await run("pnpm", ["pack", "--json", "--pack-destination", destination], {
    cwd: pkg.dir,
    timeout: 120_000,
    shell: process.platform === "win32",
  });
  const report = JSON.parse(stdout) as { filename: string; files: { path: string }[] };
  return { filename: report.filename, files: report.files.map((file) => file.path).sort() };
}

/**
 * Packs every published package with `pnpm pack` (what `changeset publish` uploads) and installs
 * the tarballs in `<tmp>/project/node_modules`, as a host's install would lay them out: one copy of
 * each `@hireport` package, side by side, so that the adapters find the host's `@hireport/core`.
 * Their other dependencies and peers are linked from the workspace's install (no registry needed).
 */
export async function installTarballs(packages: WorkspacePackage[], tmp: string): Promise<InstalledPackage[]> {
  const tarballs = join(tmp, "tarballs");
  const project = join(tmp, "project");
  const modules = join(project, "node_modules");
  await mkdir(tarballs, { recursive: true });
  await mkdir(modules, { recursive: true });
  await writeFile(join(project, "package.json"), `${JSON.stringify({ name: "host", private: true }, null, 2)}\n`);

  const installed = await Promise.all(
    packages.map(async (pkg) => {
      const { filename, files } = await pack(pkg, tarballs);
      const installedDir = join(modules, ...pkg.manifest.name.split("/"));
      await mkdir(installedDir, { recursive: true });
      await run("tar", ["-xzf", filename, "-C", installedDir, "--strip-components=1"], { timeout: 60_000 });
      const packed = readJson<PackageJson>(join(installedDir, "package.json"));
      return { ...pkg, files, packed, installedDir };
    }),
  );

  const linked = new Set(installed.map((pkg) => pkg.manifest.name));
  for (const pkg of installed) {
    const wanted = [...Object.keys(pkg.packed.dependencies ?? {}), ...Object.keys(pkg.packed.peerDependencies ?? {})];
    for (const name of wanted) {
      if (linked.has(name)) continue;
      const source = join(pkg.dir, "node_modules", name);
      if (!existsSync(source)) {
        throw new Error(`${pkg.manifest.name} needs ${name}, which is not installed in ${pkg.dir}: run pnpm install`);
      }
      const target = join(modules, name);
      await mkdir(dirname(target), { recursive: true });
      await symlink(await realpath(source), target, "junction");
      linked.add(name);
    }
  }
  return installed;
}
