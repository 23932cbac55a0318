/**
 * `diskFileStore` of `@hireport/core/node` against the file-store conformance suite, in a fresh
 * folder; plus what is particular to a folder: an upload that breaks off leaves no temporary file,
 * a file is written atomically (never seen half written), and a read closes its file on every path
 * (to the end, an error, a cancel, never read at all) instead of leaving it to the garbage collector.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newId } from "../src/model/ids";
import { diskFileStore } from "../src/node";
import { runFileStoreConformance } from "../src/testing";

const directory = mkdtempSync(join(tmpdir(), "hireport-files-"));
const store = diskFileStore({ directory });

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
    const listing = () => readdirSync(directory, { recursive: true, encoding: "utf8" }).sort();
    const before = listing();
    expect(await store.get("co_a", "../../etc/passwd")).toBeNull();
    expect(await store.delete("co_a", "fil_../x")).toBe(false);
    expect(listing()).toEqual(before);
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

/** The stored files this process holds open now, read from /proc/self/fd (Linux). */
function openStoredFiles(): string[] {
  const open: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(join("/proc/self/fd", fd));
      if (target.startsWith(directory)) open.push(target);
    } catch {
      // the descriptor of readdir itself, closed by now
    }
  }
  return open;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

// Regression: a body that was never read, or whose last bytes were read without a further read,
// kept its FileHandle open until the garbage collector closed it (DEP0137 in the test output).
describe.skipIf(!existsSync("/proc/self/fd"))("diskFileStore closes every file it opens", () => {
  const big = new Uint8Array(200 * 1024).fill(7); // four reads of 64 KiB
  const put = (bytes: Uint8Array) =>
    store.put({ companyId: "co_fd", filename: "cv.pdf", contentType: "application/pdf", body: bytes });

  it("opens nothing for a body nobody reads", async () => {
    const { id } = await put(big);
    const file = await store.get("co_fd", id);
    expect(file).not.toBeNull();
    await settle();
    expect(openStoredFiles()).toEqual([]);
  });

  it("closes the file with the last bytes, before the reader asks for the end", async () => {
    const { id } = await put(new Uint8Array(1000).fill(1));
    const reader = (await store.get("co_fd", id))?.body.getReader();
    const first = await reader?.read();
    expect(first?.value?.byteLength).toBe(1000);
    expect(openStoredFiles()).toEqual([]);
    expect((await reader?.read())?.done).toBe(true);
  });

  it("closes the file when the reader cancels half way", async () => {
    const { id } = await put(big);
    const reader = (await store.get("co_fd", id))?.body.getReader();
    await reader?.read();
    expect(openStoredFiles()).toHaveLength(1); // the check does see an open file
    await reader?.cancel();
    expect(openStoredFiles()).toEqual([]);
  });

  it("closes the file when the reader cancels while it is being opened", async () => {
    const { id } = await put(big);
    const reader = (await store.get("co_fd", id))?.body.getReader();
    const reading = reader?.read();
    await reader?.cancel();
    expect((await reading)?.done).toBe(true);
    await settle();
    expect(openStoredFiles()).toEqual([]);
  });

  it("closes the file when it is deleted while being read", async () => {
    const { id } = await put(big);
    const reader = (await store.get("co_fd", id))?.body.getReader();
    await reader?.read();
    rmSync(join(directory, Buffer.from("co_fd").toString("base64url"), id));
    // The open handle still reads the unlinked file to its end; then it is closed.
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read());
    expect(openStoredFiles()).toEqual([]);
  });

  it("closes the file when a read fails (the file was cut short under it)", async () => {
    const { id } = await put(big);
    const reader = (await store.get("co_fd", id))?.body.getReader();
    await reader?.read();
    truncateSync(join(directory, Buffer.from("co_fd").toString("base64url"), id), 1000);
    await expect(reader?.read()).rejects.toThrow(/ended early/);
    expect(openStoredFiles()).toEqual([]);
  });
});
