/**
 * Between the adapters' plain request and answer (`ApiRequest`, `ApiResponse`) and the SDK's Web
 * Standard transport (`Request`, `Response`).
 */
import type { ApiRequest } from "@hireport/core";
import type { ServedAnswer } from "@hireport/core/extend";

/** The request's body as text, and parsed when it is JSON (`undefined` otherwise: the transport answers). */
export function bodyOf(request: ApiRequest): { text: string | undefined; json: unknown } {
  if (request.body !== undefined) return { text: JSON.stringify(request.body), json: request.body };
  const raw = request.rawBody;
  if (raw === undefined) return { text: undefined, json: undefined };
  const text = typeof raw === "string" ? raw : new TextDecoder().decode(raw);
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text, json: undefined };
  }
}

export function webHeaders(headers: ApiRequest["headers"]): Headers {
  const result = new Headers();
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (typeof value === "string") result.append(name, value);
    else if (Array.isArray(value)) for (const item of value) result.append(name, item);
  }
  // The body is handed over as read (a host's parser may have read it): its length is the text's.
  result.delete("content-length");
  return result;
}

export function jsonRpcError(status: number, code: number, message: string): ServedAnswer {
  return {
    response: {
      status,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
      body: JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }),
    },
  };
}

/** The transport's `Response` as an adapter's answer; a streamed body (SSE) reports when it ends. */
export function toServed(response: Response): ServedAnswer {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const source = response.body;
  if (!source) return { response: { status: response.status, headers, body: "" } };
  let end: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    end = resolve;
  });
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          end();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        controller.error(error);
        end();
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return { response: { status: response.status, headers, body }, finished };
}
