/**
 * `diskFileStore` of `@hireport/core/node` against the file-store conformance suite, in a fresh
 * folder; plus what is particular to a folder: an upload that breaks off leaves no temporary file,
 * and a file is written atomically (never seen half written).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newId } from "../src/ids";
import { diskFileStore } from "../src/node";
import { runFileStoreConformance } from "../src/testing";

const directory = mkdtempSync(join(tmpdir(), "hireport-files-"));
const store = diskFileStore({ directory });
/** Files on disk of a company (any folder) plus temporary files left behind. */
function countStored(): number {
  let count = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isDirectory()) count += readdirSync(join(directory, entry.name)).length;
  }
  return count;
}

runFileStoreConformance({
  name: "diskFileStore",
  async setup() {
    // Each company has its own folder; the temporary folder must be empty whenever the suite counts.
    return {
      fileStore: store,
      countStored: async (companyId) => {
        const folder = join(directory, Buffer.from(companyId).toString("base64url"));
        let own = 0;
        try {
          own = readdirSync(folder).length;
        } catch {
          own = 0;
        }
        let temporary = 0;
        try {
          temporary = readdirSync(join(directory, ".tmp")).length;
        } catch {
          temporary = 0;
        }
        return own + temporary;
      },
      // A temporary file is named by the id its put drew when it started.
      async leaveUnfinished(startedAt) {
        mkdirSync(join(directory, ".tmp"), { recursive: true });
        writeFileSync(join(directory, ".tmp", `${newId("fil", startedAt)}.0123456789ab`), "half a CV");
      },
      teardown: async () => undefined,
    };
  },
});

describe("diskFileStore on disk", () => {
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("refuses ids that are not its own before touching the disk", async () => {
    expect(await store.get("co_a", "../../etc/passwd")).toBeNull();
    expect(await store.delete("co_a", "fil_../x")).toBe(false);
    expect(countStored()).toBeGreaterThanOrEqual(0);
  });

  it("never shows a file before its last byte is on disk", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 1) await gate;
        if (sent === 2) {
          controller.close();
          return;
        }
        sent += 1;
        controller.enqueue(new Uint8Array(1000).fill(sent));
      },
    });
    const putting = store.put({
      companyId: "co_atomic",
      filename: "a.bin",
      contentType: "application/octet-stream",
      body,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readdirSync(join(directory, Buffer.from("co_atomic").toString("base64url")))).toEqual([]);
    release();
    const put = await putting;
    expect(readdirSync(join(directory, Buffer.from("co_atomic").toString("base64url")))).toEqual([put.id]);
    expect(readdirSync(join(directory, ".tmp"))).toEqual([]);
  });
});
