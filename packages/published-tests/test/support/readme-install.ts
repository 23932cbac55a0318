import { readFileSync } from "node:fs";
import { join } from "node:path";

/** What the Install section of a package's README tells a user to install. */
export interface ReadmeInstall {
  /** Every package it names, in order, once: on a `pnpm add`/`npm install` line or as a peer "your app already has". */
  named: string[];
  /** The lines it was read from, for a failure's message. */
  lines: string[];
}

const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const INSTALL_LINE = /^(?:pnpm add|npm install)\s+(.+)$/;
/** `# express ^4.21 or ^5 is a peer dependency: the one your app already has` */
const PEER_COMMENT = /^#\s*(\S+)\b.*\bis a peer dependency\b.*\bthe one your app already has\b/;

/**
 * The text of the `## Install` section of a README (up to the next `#` or `##` heading outside a
 * fenced block: a shell comment is no heading), or undefined.
 */
export function installSection(readme: string): string | undefined {
  const lines = readme.split("\n");
  let fenced = false;
  const headings = lines.map((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    return !fenced && /^#{1,2}\s/.test(line);
  });
  const start = lines.findIndex((line, index) => headings[index] && /^##\s+Install\s*$/.test(line));
  if (start === -1) return undefined;
  const end = headings.findIndex((heading, index) => index > start && heading);
  return lines.slice(start + 1, end === -1 ? undefined : end).join("\n");
}

/**
 * Reads what the `## Install` section of `packages/<folder>/README.md` names: the package names of
 * each `pnpm add …` or `npm install …` line of its `sh` blocks (a trailing `# or: pg` comment gives
 * alternatives, which are not installed), and the peers of comment lines such as `# express ^5 is a
 * peer dependency: the one your app already has`. Other comment lines are skipped, but one that speaks
 * of a peer in other words, any other line in those blocks, a flag, a version or a section without an
 * install line throws, naming the line: the README stays the one source of what a
 * user installs, and a change to its shape is met here rather than read wrongly.
 */
export function readmeInstall(packageDir: string): ReadmeInstall {
  const path = join(packageDir, "README.md");
  const section = installSection(readFileSync(path, "utf8"));
  if (section === undefined) throw new Error(`${path} has no "## Install" section`);
  const blocks = [...section.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");
  const named: string[] = [];
  const lines: string[] = [];
  const add = (name: string, line: string) => {
    if (!PACKAGE_NAME.test(name)) {
      throw new Error(
        `${path}, Install: ${JSON.stringify(name)} in ${JSON.stringify(line)} is not a bare package name`,
      );
    }
    if (!named.includes(name)) named.push(name);
  };
  for (const raw of blocks.flatMap((block) => block.split("\n"))) {
    const line = raw.trim();
    if (line === "") continue;
    lines.push(line);
    const peer = PEER_COMMENT.exec(line);
    if (peer?.[1]) {
      add(peer[1], line);
      continue;
    }
    // Any other comment installs nothing; but one about a peer that the pattern misses is refused.
    if (line.startsWith("#") && !/\bpeer\b/i.test(line)) continue;
    const install = INSTALL_LINE.exec(line.replace(/\s+#.*$/, ""));
    if (!install?.[1]) {
      throw new Error(
        `${path}, Install: cannot read ${JSON.stringify(line)} (expected "pnpm add <names>", "npm install <names>" or "# <name> … is a peer dependency: the one your app already has")`,
      );
    }
    for (const name of install[1].trim().split(/\s+/)) add(name, line);
  }
  if (named.length === 0) throw new Error(`${path}: its Install section has no pnpm add or npm install line`);
  return { named, lines };
}
