/**
 * `pnpm pack:all` and the root README's install from a checkout (step 1 of "Five minutes in your own
 * app", before the packages are published): the script's `pnpm pack` writes one tarball per
 * published package, named without a version, and the README's `npm install $HIREPORT/packed/…`
 * line, run as written in a fresh npm project, installs them with their dependencies from the
 * registry npm is configured with: one copy of @hireport/core, `npm ls --all` clean, every package
 * loading with import().
 *
 * Needs the build (`pnpm test` builds first; the script itself builds before it packs). When the
 * third-party packages cannot be installed (no registry), the install fails in CI and is skipped
 * with a loud warning elsewhere.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { type PackageJson, publishedPackages, readJson } from "./support/install";
import { localPrebuild, nodeHeaders, workspaceBetterSqlite } from "./support/native";
import { inCI } from "./support/node-versions";
import { childEnv, forgetTemporary, mustRun, removeOnExit, runCommand } from "./support/processes";
import { staleBuilds } from "./support/scratch";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const rootManifest = readJson<PackageJson & { scripts?: Record<string, string> }>(join(root, "package.json"));
const script = rootManifest.scripts?.["pack:all"] ?? "";
const packages = publishedPackages(root);
/** `@hireport/core` → `hireport-core.tgz`: what `--out packed/%s.tgz` names a tarball. */
const tarballOf = (name: string) => `${name.replace(/^@/, "").replace("/", "-")}.tgz`;
const npmCache = join(root, "node_modules", ".cache", "hireport-rehearsal", "npm");

let tmp: string | undefined;
afterAll(() => {
  if (!tmp) return;
  rmSync(tmp, { recursive: true, force: true });
  forgetTemporary(tmp);
});

describe("pnpm pack:all: the packages installed from a checkout", () => {
  it("is the build, then pnpm pack of every package of packages/ but the internal ones, into packed/ (ignored by git)", () => {
    expect(script).toBe(
      'pnpm run build && pnpm -r --filter "./packages/*" --filter "!@hireport-internal/*" pack --out packed/%s.tgz',
    );
    expect(readFileSync(join(root, ".gitignore"), "utf8").split("\n")).toContain("packed/");
  });

  it("writes one tarball per published package, named without its version; the README's npm install takes them", async (context) => {
    const stale = staleBuilds(root, packages);
    if (stale.length > 0)
      throw new Error(`Build first (pnpm test does): the dist of ${stale.join(", ")} is older than its sources`);
    tmp = await mkdtemp(join(tmpdir(), "hireport-pack-all-"));
    removeOnExit(tmp);

    // The script's pack command as written, its folder moved out of the checkout.
    const pack = script.split(" && ")[1] ?? "";
    await mustRun("sh", ["-c", pack.replace("--out packed/%s.tgz", `--out ${join(tmp, "packed")}/%s.tgz`)], {
      cwd: root,
      env: childEnv(),
      timeout: 300_000,
    });
    const made = readdirSync(join(tmp, "packed")).sort();
    expect(made).toEqual(packages.map((pkg) => tarballOf(pkg.manifest.name)).sort());

    // The README's line, word for word, in a fresh npm project, with HIREPORT the "checkout".
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const line = /^ *(npm install \$HIREPORT\/packed\/.*)$/m.exec(readme)?.[1];
    expect(line, "README.md: the npm install of the packed tarballs").toBeDefined();
    const better = workspaceBetterSqlite(root);
    // better-sqlite3 at the workspace's version, as the release rehearsal does: its compiled addon is reused.
    const command = (line as string).replace(/ better-sqlite3(?= |$)/, ` better-sqlite3@${better.version}`);
    const project = join(tmp, "app");
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, "package.json"),
      `${JSON.stringify({ name: "app", private: true, type: "module" })}\n`,
    );
    const prebuilds = await localPrebuild(better, join(tmp, "prebuilds"));
    const headers = nodeHeaders();
    const env = childEnv({
      HIREPORT: tmp,
      npm_config_cache: npmCache,
      npm_config_update_notifier: "false",
      npm_config_audit: "false",
      npm_config_fund: "false",
      ...(prebuilds ? { npm_config_better_sqlite3_local_prebuilds: prebuilds } : {}),
      ...(headers ? { npm_config_nodedir: headers } : {}),
    });
    const install = await runCommand("sh", ["-c", command], { cwd: project, env, timeout: 600_000 });
    if (install.code !== 0 && /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT)\b/.test(install.stderr)) {
      const unavailable = `The README's install from packed tarballs could not reach the registry, so it was NOT checked:\n${install.transcript}`;
      if (inCI()) throw new Error(unavailable);
      console.warn(`\n${"!".repeat(100)}\n!!! ${unavailable}\n!!! (In CI this fails the run.)\n${"!".repeat(100)}\n`);
      context.skip(unavailable);
    }
    expect(install.code, install.transcript).toBe(0);

    const installed = [...command.matchAll(/\$HIREPORT\/packed\/hireport-([a-z]+)\.tgz/g)].map(
      ([, name]) => `@hireport/${name}`,
    );
    expect(installed).toEqual(expect.arrayContaining(["@hireport/core", "@hireport/careers"]));
    for (const name of installed) {
      expect(existsSync(join(project, "node_modules", name, "package.json")), name).toBe(true);
    }
    const core = await runCommand("npm", ["ls", "@hireport/core", "--all", "--parseable"], {
      cwd: project,
      env,
      timeout: 60_000,
    });
    expect(core.code, core.transcript).toBe(0);
    expect([...new Set(core.stdout.split("\n").filter(Boolean))], "one copy of @hireport/core").toEqual([
      join(project, "node_modules", "@hireport", "core"),
    ]);
    const tree = await runCommand("npm", ["ls", "--all"], { cwd: project, env, timeout: 60_000 });
    expect(tree.code, tree.transcript).toBe(0);
    const load = `for (const name of ${JSON.stringify(installed)}) await import(name); console.log("loaded");`;
    const loaded = await mustRun(process.execPath, ["--input-type=module", "-e", load], {
      cwd: project,
      env,
      timeout: 60_000,
    });
    expect(loaded.stdout.trim()).toBe("loaded");
  }, 900_000);
});
