import { execFile } from "node:child_process";
import { lstatSync, readdirSync, statSync } from "node:fs";
import { copyFile, cp, mkdir, readlink, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { WorkspacePackage } from "./install";

const run = promisify(execFile);

/**
 * Copies the repository's work tree as it is now into `destination`: the files git tracks (less
 * those deleted) and the untracked ones that .gitignore does not ignore, so an uncommitted change is
 * rehearsed too. Nothing is written to the repository. Returns how many files were copied.
 */
export async function copyWorkTree(root: string, destination: string): Promise<number> {
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  const files = [...new Set(stdout.split("\0").filter(Boolean))];
  let copied = 0;
  for (const file of files) {
    const source = join(root, file);
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(source);
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    const target = join(destination, file);
    await mkdir(dirname(target), { recursive: true });
    if (stats.isSymbolicLink()) await symlink(await readlink(source), target);
    else if (stats.isFile()) await copyFile(source, target);
    else continue;
    copied += 1;
  }
  return copied;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The packages whose `dist` is older than what their build reads (src/, package.json, the tsup
 * config and the shared core/tsup.shared.ts): `pnpm build` has not run since they changed.
 */
export function staleBuilds(root: string, packages: WorkspacePackage[]): string[] {
  const shared = join(root, "packages", "core", "tsup.shared.ts");
  return packages
    .filter((pkg) => {
      const inputs = [
        ...files(join(pkg.dir, "src")),
        join(pkg.dir, "package.json"),
        join(pkg.dir, "tsup.config.ts"),
        shared,
      ].filter((path) => {
        try {
          return statSync(path).isFile();
        } catch {
          return false;
        }
      });
      const newestInput = Math.max(...inputs.map((path) => statSync(path).mtimeMs));
      const outputs = files(join(pkg.dir, "dist"));
      const oldestOutput = Math.min(...outputs.map((path) => statSync(path).mtimeMs));
      return outputs.length === 0 || oldestOutput < newestInput;
    })
    .map((pkg) => pkg.manifest.name);
}

/** Copies each package's `dist` into the same package of the scratch copy. */
export async function copyBuilds(root: string, scratch: string, packages: WorkspacePackage[]): Promise<void> {
  for (const pkg of packages) {
    const relativeDir = pkg.dir.slice(root.length).replace(/^[\\/]+/, "");
    await cp(join(pkg.dir, "dist"), join(scratch, relativeDir, "dist"), { recursive: true });
  }
}
