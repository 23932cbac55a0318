/**
 * `runStorageConformance` refuses a target without a complete `inspect` (the raw reads it checks
 * counters, cascades and erasures with, and the removal of its rows), and `runFileStoreConformance`
 * one without `countStored`: they fail before their first test instead of passing those checks.
 * Runs the suites on such targets in a child vitest (`test/fixtures/no-inspect`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const vitestBin = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
const scratch = mkdtempSync(join(tmpdir(), "hireport-no-inspect-"));

interface JsonReport {
  success: boolean;
  numTotalTests: number;
  numPassedTests: number;
}

describe("conformance suites without their raw reads", () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("fails each such target with an error naming what is missing, and passes none of its tests", () => {
    const reportFile = join(scratch, "report.json");
    const run = spawnSync(
      process.execPath,
      [
        vitestBin,
        "run",
        "--config",
        join(here, "fixtures/no-inspect/vitest.config.ts"),
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${reportFile}`,
      ],
      { cwd: join(here, ".."), encoding: "utf8", env: { ...process.env, NO_COLOR: "1", CI: "1" }, timeout: 60_000 },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(1);
    expect(output).toContain('Storage conformance "memory without inspect": setup() returned no `inspect`.');
    expect(output).toContain('Storage conformance "memory without findText": `inspect` lacks findText.');
    expect(output).toContain('Storage conformance "memory without removeRows": `inspect` lacks removeRows.');
    expect(output).toContain('File store conformance "memory without countStored": setup() returned no `countStored`.');
    expect(output).toContain("erasing a candidate leaves their personal data nowhere");
    const report = JSON.parse(readFileSync(reportFile, "utf8")) as JsonReport;
    expect(report.success).toBe(false);
    expect(report.numTotalTests).toBeGreaterThan(100);
    expect(report.numPassedTests).toBe(0);
  }, 90_000);
});
