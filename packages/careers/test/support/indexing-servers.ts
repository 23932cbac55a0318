/**
 * Local stand-ins for the search-engine services, checking the protocols as the services do: an
 * IndexNow endpoint that validates the body and fetches the key file from the careers site, a
 * Google token endpoint that verifies the service account's JWT assertion with its public key,
 * and an Indexing API whose publish call checks the bearer token and the body, and whose batch
 * endpoint reads the multipart/mixed body on its own (not with the notifier's reader), checks each
 * call's request line, headers and JSON, and answers multipart/mixed with each call's status.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportPKCS8, generateKeyPair, type JWTPayload, jwtVerify } from "jose";

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function listen(
  handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    handler(request, response).catch((error) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader("content-type", "application/json");
  response.end(JSON.stringify(body));
}

/** One submission the IndexNow server took (after its checks). */
export interface IndexNowSubmission {
  host: string;
  key: string;
  keyLocation: string;
  urlList: string[];
  /** The status it answered. */
  status: number;
}

export interface IndexNowServer {
  endpoint: string;
  /** Every POST that passed the checks, with the status it was answered. */
  submissions: IndexNowSubmission[];
  /** Bodies refused by the checks (400, 403 or 422), with the reason. */
  refused: string[];
  /** Statuses to answer next, one per POST, before the default. */
  script: number[];
  /** The status answered when the script is empty. @default 202 */
  status: number;
  close(): Promise<void>;
}

/** The IndexNow protocol: JSON body, key format, URLs of the host under the key's folder, the key file holding the key. */
export async function startIndexNowServer(): Promise<IndexNowServer> {
  const state: IndexNowServer = {
    endpoint: "",
    submissions: [],
    refused: [],
    script: [],
    status: 202,
    close: async () => undefined,
  };
  const refuse = (response: ServerResponse, status: number, reason: string) => {
    state.refused.push(reason);
    answer(response, status, { reason });
  };
  const { server, origin } = await listen(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/indexnow") return answer(response, 404, {});
    if (!/^application\/json; charset=utf-8$/i.test(request.headers["content-type"] ?? "")) {
      return refuse(response, 400, "content-type");
    }
    let body: Partial<IndexNowSubmission>;
    try {
      body = JSON.parse(await readBody(request)) as Partial<IndexNowSubmission>;
    } catch {
      return refuse(response, 400, "not JSON");
    }
    const { host, key, keyLocation, urlList } = body;
    if (typeof host !== "string" || typeof key !== "string" || typeof keyLocation !== "string") {
      return refuse(response, 400, "fields");
    }
    if (!Array.isArray(urlList) || urlList.length === 0 || urlList.length > 10_000)
      return refuse(response, 400, "urlList");
    if (!/^[a-zA-Z0-9-]{8,128}$/.test(key)) return refuse(response, 422, "key format");
    const folder = keyLocation.slice(0, keyLocation.lastIndexOf("/") + 1);
    for (const url of urlList) {
      if (typeof url !== "string" || new URL(url).host !== host || !url.startsWith(folder)) {
        return refuse(response, 422, `url ${url}`);
      }
    }
    if (new URL(keyLocation).host !== host) return refuse(response, 422, "keyLocation host");
    const keyFile = await fetch(keyLocation);
    if (keyFile.status !== 200 || (await keyFile.text()).trim() !== key) return refuse(response, 403, "key file");
    const status = state.script.shift() ?? state.status;
    state.submissions.push({ host, key, keyLocation, urlList, status });
    answer(response, status, {});
  });
  state.endpoint = `${origin}/indexnow`;
  state.close = () => closeServer(server);
  return state;
}

/** One notice the indexing server took. */
export interface GoogleNotice {
  url: string;
  type: "URL_UPDATED" | "URL_DELETED";
  status: number;
}

export interface GoogleServers {
  tokenUrl: string;
  publishUrl: string;
  /** The service account's JSON key, as Google hands it out (its public half stays here). */
  serviceAccountJson: string;
  clientEmail: string;
  /** Claims of every assertion that passed, in order. */
  assertions: JWTPayload[];
  /** Tokens handed out, in order. */
  tokens: string[];
  /** Notices that passed the checks, in order, with the status answered. */
  notices: GoogleNotice[];
  /** Reasons of refused token requests and publish calls. */
  refused: string[];
  /** Statuses the publish call answers next, before 200 (one per call, in a batch or not). */
  script: number[];
  /** The batch endpoint. */
  batchUrl: string;
  /** Batch requests that passed the checks: how many calls each held, and the status of the whole. */
  batches: { calls: number; status: number }[];
  /** Statuses the batch endpoint answers as a whole next, before 200 (a non-200 takes none of its calls). */
  batchScript: number[];
  /** Batch requests still to be answered 200 with a body that is not multipart/mixed (their calls taken by none). */
  unreadable: number;
  close(): Promise<void>;
}

/** The headers of a block of `Name: value` lines, by lower-case name (a repeated header is refused). */
function headerBlock(block: string): Record<string, string> | null {
  const entries: [string, string][] = [];
  for (const line of block.split("\r\n")) {
    const match = /^([A-Za-z0-9-]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!match?.[1] || match[2] === undefined) return null;
    entries.push([match[1].toLowerCase(), match[2]]);
  }
  const result = Object.fromEntries(entries);
  return Object.keys(result).length === entries.length ? result : null;
}

/** One call of a batch request, checked as Google checks a publish call: request line, headers, JSON. */
function batchCall(chunk: string): { id: string; notice: Partial<GoogleNotice> } | string {
  // Each part sits between CRLFs; its headers, its request head and its body are split by empty lines.
  if (!chunk.startsWith("\r\n") || !chunk.endsWith("\r\n")) return "part line ends";
  const [partHead, requestHead, ...rest] = chunk.slice(2, -2).split("\r\n\r\n");
  const partHeaders = headerBlock(partHead ?? "");
  if (partHeaders?.["content-type"] !== "application/http") return "part content-type";
  const id = /^<([^<>]+)>$/.exec(partHeaders["content-id"] ?? "")?.[1];
  if (!id) return "part content-id";
  const [requestLine, ...requestHeaderLines] = (requestHead ?? "").split("\r\n");
  if (requestLine !== "POST /v3/urlNotifications:publish HTTP/1.1") return `request line ${requestLine}`;
  const requestHeaders = headerBlock(requestHeaderLines.join("\r\n"));
  if (!requestHeaders?.["content-type"]?.startsWith("application/json")) {
    return "call content-type";
  }
  const body = rest.join("\r\n\r\n");
  if (requestHeaders["content-length"] !== String(Buffer.byteLength(body))) return "call content-length";
  try {
    return { id, notice: JSON.parse(body) as Partial<GoogleNotice> };
  } catch {
    return "call body not JSON";
  }
}

/**
 * Google's token endpoint (jwt-bearer grant; the assertion verified with the account's public key
 * at the test clock's time) and its Indexing API publish call (bearer token, JSON body).
 */
export async function startGoogleServers(now: () => Date): Promise<GoogleServers> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const clientEmail = "indexer@hireport-test.iam.gserviceaccount.com";
  const state = {
    assertions: [] as JWTPayload[],
    tokens: [] as string[],
    notices: [] as GoogleNotice[],
    refused: [] as string[],
    script: [] as number[],
    batches: [] as { calls: number; status: number }[],
    batchScript: [] as number[],
    unreadable: 0,
  };
  let tokenUrl = "";
  const token = await listen(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/token") return answer(response, 404, {});
    if (request.headers["content-type"] !== "application/x-www-form-urlencoded") {
      state.refused.push("token content-type");
      return answer(response, 400, { error: "invalid_request" });
    }
    const form = new URLSearchParams(await readBody(request));
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      state.refused.push("grant_type");
      return answer(response, 400, { error: "unsupported_grant_type" });
    }
    try {
      const { payload, protectedHeader } = await jwtVerify(form.get("assertion") ?? "", publicKey, {
        algorithms: ["RS256"],
        issuer: clientEmail,
        audience: tokenUrl,
        currentDate: now(),
        requiredClaims: ["iat", "exp", "scope"],
      });
      if (protectedHeader.alg !== "RS256") throw new Error("alg");
      if (payload.scope !== "https://www.googleapis.com/auth/indexing") throw new Error("scope");
      if ((payload.exp ?? 0) - (payload.iat ?? 0) > 3600) throw new Error("lifetime over an hour");
      if (Math.abs((payload.iat ?? 0) - now().getTime() / 1000) > 300) throw new Error("iat");
      state.assertions.push(payload);
    } catch (error) {
      state.refused.push(`assertion: ${String(error)}`);
      return answer(response, 400, { error: "invalid_grant" });
    }
    const issued = `ya29.test-token-${state.tokens.length + 1}`;
    state.tokens.push(issued);
    answer(response, 200, { access_token: issued, expires_in: 3599, token_type: "Bearer" });
  });
  tokenUrl = `${token.origin}/token`;
  const noticeAnswer = (notice: GoogleNotice) =>
    notice.status === 200
      ? { urlNotificationMetadata: { url: notice.url, latestUpdate: { url: notice.url, type: notice.type } } }
      : { error: { code: notice.status, message: "Scripted" } };
  const indexing = await listen(async (request, response) => {
    const isBatch = request.url === "/batch";
    if (request.method !== "POST" || (!isBatch && request.url !== "/v3/urlNotifications:publish")) {
      return answer(response, 404, {});
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!bearer || !state.tokens.includes(bearer)) {
      state.refused.push("bearer");
      return answer(response, 401, { error: { code: 401, status: "UNAUTHENTICATED" } });
    }
    if (isBatch) {
      const boundary = /^multipart\/mixed; boundary=([0-9A-Za-z_-]{1,70})$/.exec(
        request.headers["content-type"] ?? "",
      )?.[1];
      if (!boundary) {
        state.refused.push("batch content-type");
        return answer(response, 400, {});
      }
      const chunks = (await readBody(request)).split(`--${boundary}`);
      // Nothing before the first delimiter; the close delimiter, then a line end, after the last.
      if (chunks.length < 3 || chunks[0] !== "" || chunks.at(-1) !== "--\r\n") {
        state.refused.push("batch framing");
        return answer(response, 400, {});
      }
      const calls = chunks.slice(1, -1).map(batchCall);
      const refused = calls.find((call) => typeof call === "string");
      if (refused !== undefined || calls.length > 100) {
        state.refused.push(`batch: ${refused ?? "over 100 calls"}`);
        return answer(response, 400, {});
      }
      const whole = state.batchScript.shift() ?? 200;
      state.batches.push({ calls: calls.length, status: whole });
      if (whole !== 200) return answer(response, whole, { error: { code: whole, message: "Scripted batch" } });
      if (state.unreadable > 0) {
        state.unreadable--;
        return answer(response, 200, { note: "not a batch answer" });
      }
      const parts: string[] = [];
      for (const call of calls as { id: string; notice: Partial<GoogleNotice> }[]) {
        const { url, type } = call.notice;
        let status = 400;
        let json = JSON.stringify({ error: { code: 400, message: "Invalid body" } });
        if (typeof url === "string" && (type === "URL_UPDATED" || type === "URL_DELETED")) {
          status = state.script.shift() ?? 200;
          state.notices.push({ url, type, status });
          json = JSON.stringify(noticeAnswer({ url, type, status }));
        } else {
          state.refused.push("batch call body");
        }
        parts.push(
          [
            "Content-Type: application/http",
            `Content-ID: <response-${call.id}>`,
            "",
            `HTTP/1.1 ${status} Scripted`,
            "Content-Type: application/json; charset=UTF-8",
            "",
            json,
          ].join("\r\n"),
        );
      }
      // Google answers in the calls' order; answering in reverse checks that Content-ID, not order, matches them.
      const answerBoundary = "batch_Ab-12cD";
      response.statusCode = 200;
      response.setHeader("content-type", `multipart/mixed; boundary="${answerBoundary}"`);
      response.end(
        `${parts
          .reverse()
          .map((part) => `--${answerBoundary}\r\n${part}\r\n`)
          .join("")}--${answerBoundary}--\r\n`,
      );
      return;
    }
    if (!(request.headers["content-type"] ?? "").startsWith("application/json")) {
      state.refused.push("publish content-type");
      return answer(response, 400, {});
    }
    const body = JSON.parse(await readBody(request)) as Partial<GoogleNotice>;
    if (typeof body.url !== "string" || (body.type !== "URL_UPDATED" && body.type !== "URL_DELETED")) {
      state.refused.push("publish body");
      return answer(response, 400, { error: { code: 400, message: "Invalid body" } });
    }
    const status = state.script.shift() ?? 200;
    state.notices.push({ url: body.url, type: body.type, status });
    answer(response, status, noticeAnswer({ url: body.url, type: body.type, status }));
  });
  const serviceAccountJson = JSON.stringify({
    type: "service_account",
    client_email: clientEmail,
    private_key: await exportPKCS8(privateKey),
    token_uri: tokenUrl,
  });
  // The state itself, so that what a test sets (as `unreadable`) reaches the handlers.
  return Object.assign(state, {
    tokenUrl,
    publishUrl: `${indexing.origin}/v3/urlNotifications:publish`,
    batchUrl: `${indexing.origin}/batch`,
    serviceAccountJson,
    clientEmail,
    close: async () => {
      await closeServer(token.server);
      await closeServer(indexing.server);
    },
  });
}
