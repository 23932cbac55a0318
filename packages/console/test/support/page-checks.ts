/**
 * Page checks of the browser tests (this package's, and the careers site's, which imports this
 * module): every kind of page a test collects goes through the Nu HTML checker (`vnu-jar`, run once
 * on all the pages) and axe-core (run in the Chromium page as it is shown).
 *
 * - Nu HTML checker: messages of type `error` fail the test. Warnings (`info` with subType
 *   `warning`) are printed and do not fail it; a warning that is a real defect is fixed in the page.
 * - axe-core: the rules tagged `wcag2a`, `wcag2aa`, `wcag21a`, `wcag21aa` (WCAG 2.0 and 2.1, levels
 *   A and AA) and `best-practice`. Any violation fails the test.
 *
 * Where Java cannot run, the check fails with CI=true, and is skipped with a loud warning otherwise
 * (as `launchBrowser` does for Chromium).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import axe from "axe-core";
import type { Page, Response } from "playwright-core";

/** Where Java is: `HIREPORT_JAVA`, else `java` on the PATH. */
export const JAVA = process.env.HIREPORT_JAVA ?? "java";

/** The jar of the `vnu-jar` package (its main export is the jar's path). */
const VNU_JAR = String(createRequire(import.meta.url)("vnu-jar"));

/** The axe-core rule set: WCAG 2.0 and 2.1 at levels A and AA, and axe's best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] as const;

/** A message of the Nu HTML checker, with the page it is about. */
export interface HtmlMessage {
  page: string;
  type: "error" | "warning" | "info";
  line: number | undefined;
  column: number | undefined;
  message: string;
  extract: string | undefined;
}

/** An axe-core violation on a page, with the elements it found. */
export interface AxeViolation {
  page: string;
  rule: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * Whether Java runs. With CI=true a missing Java throws; otherwise the answer is false, after a
 * loud warning, and the test skips itself.
 */
export function javaRuns(packageName: string): boolean {
  const run = spawnSync(JAVA, ["-version"], { encoding: "utf8" });
  if (run.status === 0) return true;
  const reason = run.error?.message ?? run.stderr?.split("\n")[0] ?? `exit ${run.status}`;
  if (process.env.CI === "true") {
    throw new Error(`[${packageName}] Java cannot run (${JAVA}: ${reason}) and CI=true: failing the run.`);
  }
  const line = "!".repeat(100);
  console.warn(
    `\n${line}\n!!! [${packageName}] JAVA CANNOT RUN (${JAVA}: ${reason}): THE PAGE CHECKS ARE SKIPPED.\n!!! Install it (apt-get install default-jre-headless) or set HIREPORT_JAVA; CI=true turns this into a failure.\n${line}\n`,
  );
  return false;
}

/** Runs the Nu HTML checker once on every page given (`name` → HTML) and returns its messages. */
export async function checkHtml(pages: ReadonlyMap<string, string>): Promise<HtmlMessage[]> {
  const dir = mkdtempSync(join(tmpdir(), "hireport-page-checks-"));
  try {
    const byFile = new Map<string, string>();
    const files: string[] = [];
    let index = 0;
    for (const [name, html] of pages) {
      const file = `${String(++index).padStart(2, "0")}.html`;
      writeFileSync(join(dir, file), html);
      files.push(join(dir, file));
      byFile.set(file, name);
    }
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(JAVA, ["-jar", VNU_JAR, "--format", "json", "--stdout", "--exit-zero-always", ...files]);
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      child.on("error", reject);
      child.on("close", (code) => {
        if (code === 0) resolve(stdout);
        else reject(new Error(`the Nu HTML checker exited with ${code}: ${stderr || stdout}`));
      });
    });
    const report = JSON.parse(output) as {
      messages: {
        type: string;
        subType?: string;
        url?: string;
        lastLine?: number;
        firstColumn?: number;
        message: string;
        extract?: string;
      }[];
    };
    return report.messages.map((item) => ({
      page: (item.url && byFile.get(basename(item.url))) ?? item.url ?? "(no page)",
      type:
        item.type === "error" || item.type === "non-document-error"
          ? "error"
          : item.subType === "warning"
            ? "warning"
            : "info",
      line: item.lastLine,
      column: item.firstColumn,
      message: item.message,
      extract: item.extract,
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs axe-core on the page Chromium shows and returns its violations. axe's source is evaluated
 * over the DevTools protocol, not added as a `<script>`: the pages' Content Security Policy refuses
 * inline scripts, and stays on while they are checked.
 */
export async function checkAccessibility(page: Page, name: string): Promise<AxeViolation[]> {
  await page.evaluate(axe.source);
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: typeof axe }).axe.run(document, {
        runOnly: { type: "tag", values: tags },
        // Only the violations are read: axe then keeps one element for each other result.
        resultTypes: ["violations"],
      }),
    [...AXE_TAGS],
  );
  return results.violations.map((violation) => ({
    page: name,
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(" ")),
  }));
}

/** The messages as lines to print (`page:line:column: message`), one a line; empty when none. */
export function formatHtmlMessages(messages: readonly HtmlMessage[]): string {
  return messages
    .map((item) => {
      const extract = item.extract ? `\n    ${item.extract.replace(/\s+/g, " ").trim()}` : "";
      return `${item.page}:${item.line ?? "?"}:${item.column ?? "?"}: ${item.type}: ${item.message}${extract}`;
    })
    .join("\n");
}

/** The violations as lines to print (`page: rule (impact): help — elements`); empty when none. */
export function formatViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((item) => `${item.page}: ${item.rule} (${item.impact ?? "?"}): ${item.help} — ${item.targets.join(", ")}`)
    .join("\n");
}

/**
 * Collects the pages a browser test shows: `watch` a tab, and after each step `collect` names the
 * page it shows; the HTML checked is the server's answer for the tab's last document (as sent, not
 * as the browser rebuilt it), and axe runs on the page as shown. `checkHtml` then runs the Nu HTML
 * checker once on them all.
 */
export class PageCollector {
  readonly pages = new Map<string, string>();
  readonly violations: AxeViolation[] = [];
  readonly #last = new WeakMap<Page, Response>();
  readonly #taken = new WeakSet<Response>();

  /** Records the tab's document answers (redirects aside). */
  watch(page: Page): Page {
    page.on("response", (response) => {
      const request = response.request();
      if (request.frame() !== page.mainFrame() || !request.isNavigationRequest()) return;
      if (response.status() >= 300 && response.status() < 400) return;
      this.#last.set(page, response);
    });
    return page;
  }

  /** Takes the page `page` shows under `name`, after checking that its answer had `status`. */
  async collect(page: Page, name: string, status = 200): Promise<void> {
    if (this.pages.has(name)) throw new Error(`two pages named ${name}`);
    await page.waitForLoadState();
    const answer = this.#last.get(page);
    if (!answer) throw new Error(`${name}: no page answer seen (watch the tab first)`);
    // The step led to a new page, the one the tab shows (not the one before it).
    if (this.#taken.has(answer) || answer.url() !== page.url())
      throw new Error(`${name}: the tab shows ${page.url()}, and no new answer of it was seen`);
    this.#taken.add(answer);
    if (answer.status() !== status)
      throw new Error(`${name}: ${answer.url()} answered ${answer.status()}, not ${status}`);
    this.pages.set(name, await answer.text());
    this.violations.push(...(await checkAccessibility(page, name)));
  }

  /** The Nu HTML checker's messages on every page collected. */
  async checkHtml(): Promise<HtmlMessage[]> {
    return checkHtml(this.pages);
  }
}
