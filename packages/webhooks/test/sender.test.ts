import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSender, RESPONSE_BODY_LIMIT, type SenderOptions } from "../src/network/sender";
import { type Receiver, startReceiver } from "./support/receiver";

/**
 * The sender alone, against a real local receiver over plain http (no address policy): what it
 * makes of each way an answer can go, and when it gives up.
 */
describe("sender", () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  const senderWith = (options: Partial<SenderOptions> = {}) =>
    createSender({
      policy: null,
      resolve: async () => [{ address: "127.0.0.1", family: 4 }],
      tls: undefined,
      timeoutMs: 5_000,
      ...options,
    });
  const outgoing = (path: string, host = "127.0.0.1") => ({
    url: `http://${host}:${receiver.port}${path}`,
    payload: '{"hello":"wörld"}',
    headers: { "content-type": "application/json", "x-test": "yes" },
  });

  it("sends the payload and headers, and stores a 2xx answer's body", async () => {
    receiver.setHandler((_request, response) => response.writeHead(202).end("accepted ✓"));
    const sender = senderWith();
    try {
      const result = await sender.send(outgoing("/plain?x=1"));
      expect(result).toMatchObject({
        succeeded: true,
        statusCode: 202,
        responseBody: "accepted ✓",
        error: null,
        retryAfter: null,
      });
      const arrived = receiver.requests.at(-1);
      expect(arrived?.path).toBe("/plain?x=1");
      expect(arrived?.method).toBe("POST");
      expect(arrived?.headers["x-test"]).toBe("yes");
      expect(arrived?.body.toString("utf8")).toBe('{"hello":"wörld"}');
    } finally {
      await sender.close();
    }
  });

  it("skips informational answers and reads the final status and its Retry-After", async () => {
    receiver.setHandler((_request, response) => {
      response.writeProcessing();
      response.writeHead(503, { "retry-after": "120" }).end("busy");
    });
    const sender = senderWith();
    try {
      const result = await sender.send(outgoing("/busy"));
      expect(result).toMatchObject({ succeeded: false, statusCode: 503, responseBody: "busy", retryAfter: "120" });
      expect(result.error).toMatch(/HTTP 503/);
    } finally {
      await sender.close();
    }
  });

  it("keeps the first 4 KiB of an answer that never ends, without waiting for the rest", async () => {
    receiver.setHandler((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.write("y".repeat(RESPONSE_BODY_LIMIT + 100));
      // Never ended: only the stored part is read.
    });
    const sender = senderWith({ timeoutMs: 10_000 });
    try {
      const started = Date.now();
      const result = await sender.send(outgoing("/endless"));
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(result).toMatchObject({ succeeded: true, statusCode: 200, error: null });
      expect(result.responseBody).toBe("y".repeat(RESPONSE_BODY_LIMIT));
    } finally {
      await sender.close();
    }
  });

  it("keeps a status that arrived in time when the deadline cuts its body short", async () => {
    receiver.setHandler((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.write("partial");
    });
    const sender = senderWith({ timeoutMs: 300 });
    try {
      const result = await sender.send(outgoing("/slow-body"));
      expect(result).toMatchObject({ succeeded: true, statusCode: 200, responseBody: "", error: null });
      expect(result.durationMs).toBeGreaterThanOrEqual(290);
    } finally {
      await sender.close();
    }
  });

  it("gives up at the deadline while the receiver's name is still being looked up, and never sends it later", async () => {
    receiver.setHandler((_request, response) => response.writeHead(200).end("ok"));
    const before = receiver.requests.length;
    let looked = false;
    const sender = senderWith({
      timeoutMs: 300,
      resolve: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        looked = true;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    try {
      const started = Date.now();
      const result = await sender.send(outgoing("/late-name", "slow-name.test"));
      expect(Date.now() - started).toBeLessThan(1_400);
      expect(result).toMatchObject({ succeeded: false, statusCode: null, responseBody: "" });
      expect(result.error).toMatch(/No answer within 300 ms/);
      // Once the name resolves and the connection opens, the abandoned request is not written.
      await expect.poll(() => looked, { timeout: 5_000 }).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.requests.length).toBe(before);
    } finally {
      await sender.close();
    }
  });

  it("stops when the caller's signal aborts, and names its reason", async () => {
    receiver.setHandler(() => {
      // never answers
    });
    const sender = senderWith();
    const controller = new AbortController();
    try {
      setTimeout(() => controller.abort(new Error("dispatcher stopping")), 100);
      const result = await sender.send(outgoing("/never"), controller.signal);
      expect(result).toMatchObject({ succeeded: false, statusCode: null, error: "dispatcher stopping" });
      const already = await sender.send(outgoing("/never"), controller.signal);
      expect(already).toMatchObject({ succeeded: false, statusCode: null, error: "dispatcher stopping" });
    } finally {
      await sender.close();
    }
  });

  it("describes an address that cannot be parsed instead of throwing", async () => {
    const sender = senderWith();
    try {
      const result = await sender.send({ url: "http://exa mple.com/", payload: "{}", headers: {} });
      expect(result).toMatchObject({ succeeded: false, statusCode: null });
      expect(result.error).toMatch(/Invalid URL/);
    } finally {
      await sender.close();
    }
  });
});
