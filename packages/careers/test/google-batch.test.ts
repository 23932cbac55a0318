/**
 * Google's batch format: the request body the notifier writes, and its strict reader of the
 * multipart/mixed answer (what it takes, and what it refuses).
 */
import { describe, expect, it } from "vitest";
import { BatchFormatError, batchBody, batchBoundary, parseBatchAnswer } from "../src/indexing/google-batch";

const CRLF = "\r\n";

/** An answer as Google writes one: CRLF lines, a quoted boundary, parts out of order. */
const googleAnswer = [
  "--batch_xyZ-1",
  "Content-Type: application/http",
  "Content-ID: <response-notice-2>",
  "",
  "HTTP/1.1 429 Too Many Requests",
  "Content-Type: application/json; charset=UTF-8",
  "Vary: Origin",
  "",
  '{"error":{"code":429,"message":"Quota exceeded"}}',
  "--batch_xyZ-1",
  "Content-Type: application/http",
  "Content-ID: <response-notice-1>",
  "",
  "HTTP/1.1 200 OK",
  "Content-Type: application/json; charset=UTF-8",
  "",
  '{"urlNotificationMetadata":{"url":"https://example.com/jobs/1"}}',
  "--batch_xyZ-1--",
  "",
].join(CRLF);

describe("Google batch body", () => {
  it("writes one application/http part per call, with its Content-ID, request line, headers and JSON", () => {
    const body = batchBody(
      "/v3/urlNotifications:publish",
      [
        { id: "notice-1", body: '{"url":"https://example.com/jobs/é","type":"URL_UPDATED"}' },
        { id: "notice-2", body: '{"url":"https://example.com/jobs/2","type":"URL_DELETED"}' },
      ],
      "b0",
    );
    expect(body.split(CRLF)).toEqual([
      "--b0",
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      "Content-ID: <notice-1>",
      "",
      "POST /v3/urlNotifications:publish HTTP/1.1",
      "Content-Type: application/json",
      // The length in bytes: "é" takes two.
      "Content-Length: 58",
      "",
      '{"url":"https://example.com/jobs/é","type":"URL_UPDATED"}',
      "--b0",
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      "Content-ID: <notice-2>",
      "",
      "POST /v3/urlNotifications:publish HTTP/1.1",
      "Content-Type: application/json",
      "Content-Length: 57",
      "",
      '{"url":"https://example.com/jobs/2","type":"URL_DELETED"}',
      "--b0--",
      "",
    ]);
  });

  it("makes a new boundary each time, within RFC 2046's 70 characters", () => {
    const [a, b] = [batchBoundary(), batchBoundary()];
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9A-Za-z_]{1,70}$/);
  });
});

describe("Google batch answer", () => {
  it("reads each part's Content-ID, status and body, in the answer's order", () => {
    expect(parseBatchAnswer('multipart/mixed; boundary="batch_xyZ-1"', googleAnswer)).toEqual([
      { id: "notice-2", status: 429, body: '{"error":{"code":429,"message":"Quota exceeded"}}' },
      { id: "notice-1", status: 200, body: '{"urlNotificationMetadata":{"url":"https://example.com/jobs/1"}}' },
    ]);
  });

  it("skips a preamble and an epilogue, takes LF line ends, an unquoted boundary and a body-less answer", () => {
    const answer = [
      "preamble, ignored",
      "--b1  ",
      "content-type: application/http; msgtype=response",
      "content-id: response-n1",
      "",
      "HTTP/1.1 204 No Content",
      "",
      "--b1--",
      "epilogue, ignored",
    ].join("\n");
    expect(parseBatchAnswer("Multipart/Mixed; charset=utf-8; boundary=b1", answer)).toEqual([
      { id: "n1", status: 204, body: "" },
    ]);
  });

  it("refuses what does not follow the format", () => {
    const cases: [string | null, string, RegExp][] = [
      ["application/json", googleAnswer, /not multipart\/mixed/],
      [null, googleAnswer, /not multipart\/mixed/],
      ["multipart/mixed; charset=utf-8", googleAnswer, /no boundary/],
      ['multipart/mixed; boundary="bad\u0001"', googleAnswer, /boundary is not valid/],
      ["multipart/mixed; boundary=other", googleAnswer, /no part/],
      ["multipart/mixed; boundary=batch_xyZ-1", googleAnswer.replace("--batch_xyZ-1--", "--batch_xyZ-"), /no closing/],
      ["multipart/mixed; boundary=batch_xyZ-1", "--batch_xyZ-1--\r\n", /no part/],
      [
        "multipart/mixed; boundary=batch_xyZ-1",
        googleAnswer.replace("application/http", "text/plain"),
        /application\/http/,
      ],
      [
        "multipart/mixed; boundary=batch_xyZ-1",
        googleAnswer.replace("<response-notice-2>", "<notice-2>"),
        /Content-ID/,
      ],
      [
        "multipart/mixed; boundary=batch_xyZ-1",
        googleAnswer.replace("HTTP/1.1 429 Too", "HTTX 429 Too"),
        /status line/,
      ],
      ["multipart/mixed; boundary=batch_xyZ-1", googleAnswer.replace("Vary: Origin", "Vary Origin"), /not a header/],
      [
        "multipart/mixed; boundary=batch_xyZ-1",
        googleAnswer.replace("--batch_xyZ-1\r\nContent", "--batch_xyZ-1xContent"),
        /line end/,
      ],
    ];
    for (const [contentType, body, reason] of cases) {
      let thrown: unknown = null;
      try {
        parseBatchAnswer(contentType, body);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, `${contentType} ${reason}`).toBeInstanceOf(BatchFormatError);
      expect((thrown as Error).message).toMatch(reason);
    }
  });
});
