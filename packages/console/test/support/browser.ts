/**
 * The browser of the browser tests (this package's, and the careers site's, which imports this
 * module): Debian's Chromium driven by playwright-core.
 */
import { type Browser, chromium } from "playwright-core";

/** Where Chromium is: `HIREPORT_CHROMIUM`, else Debian's package. */
export const CHROMIUM = process.env.HIREPORT_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Starts Chromium for the browser test of `packageName`. Where it cannot start, the run fails with
 * CI=true; otherwise the answer is null, after a loud warning, and the test skips itself.
 */
export async function launchBrowser(packageName: string): Promise<Browser | null> {
  try {
    return await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
    });
  } catch (error) {
    if (process.env.CI === "true") {
      throw new Error(`[${packageName}] Chromium cannot start at ${CHROMIUM} and CI=true: failing the run.`, {
        cause: error,
      });
    }
    const line = "!".repeat(100);
    console.warn(
      `\n${line}\n!!! [${packageName}] CHROMIUM CANNOT START at ${CHROMIUM}: THE BROWSER TEST IS SKIPPED.\n!!! (${
        error instanceof Error ? error.message.split("\n")[0] : String(error)
      })\n!!! Install it (apt-get install chromium) or set HIREPORT_CHROMIUM; CI=true turns this into a failure.\n${line}\n`,
    );
    return null;
  }
}
