/**
 * A sender's trace context, read from a request's headers: through the host's propagator when it
 * registered one (or passed `propagator`), else from the W3C `traceparent` and `tracestate`
 * headers, parsed strictly. Anything invalid reads as no trace context, never as an error.
 */
import {
  type Context,
  createTraceState,
  isSpanContextValid,
  propagation,
  type SpanContext,
  type TextMapGetter,
  type TextMapPropagator,
  trace,
} from "@opentelemetry/api";
import type { HeaderBag } from "../base/http-types";

type Headers = HeaderBag | globalThis.Headers;

/** The sender's span, and the context that has it as its (remote) span. */
export interface IncomingTrace {
  spanContext: SpanContext;
  context: Context;
}

function isWebHeaders(headers: Headers): headers is globalThis.Headers {
  return typeof (headers as globalThis.Headers).get === "function";
}

/** Every value of a header, case-insensitive, as sent (a Web `Headers` joins repeats with ", "). */
function valuesOf(headers: Headers, name: string): string[] {
  if (isWebHeaders(headers)) {
    const value = headers.get(name);
    return value === null ? [] : [value];
  }
  let value = headers[name];
  if (value === undefined) {
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === name) {
        value = headers[key];
        break;
      }
    }
  }
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

const getter: TextMapGetter<Headers> = {
  keys: (headers) => (isWebHeaders(headers) ? [...headers.keys()] : Object.keys(headers)),
  get(headers, key) {
    const values = valuesOf(headers, key.toLowerCase());
    return values.length === 0 ? undefined : values.length === 1 ? values[0] : values;
  },
};

const HEX = /^[0-9a-f]+$/;
const ZEROS = /^0+$/;

/**
 * A `traceparent` value read as the W3C Trace Context rules say: `version-traceid-parentid-flags`
 * in lower-case hex; version `ff` is invalid; version `00` is exactly 55 characters; a later
 * version may add fields after a `-`; an all-zero trace id or parent id is invalid.
 */
function parseTraceparent(raw: string): Omit<SpanContext, "traceState"> | null {
  const value = raw.replace(/^[ \t]+|[ \t]+$/g, "");
  if (value.length < 55) return null;
  const version = value.slice(0, 2);
  if (!HEX.test(version) || version === "ff") return null;
  if (version === "00" ? value.length !== 55 : value.length > 55 && value[55] !== "-") return null;
  const [, traceId = "", spanId = "", flags = ""] = value.slice(0, 55).split("-");
  if (value[2] !== "-" || value[35] !== "-" || value[52] !== "-") return null;
  if (traceId.length !== 32 || spanId.length !== 16 || flags.length !== 2) return null;
  if (!HEX.test(traceId) || !HEX.test(spanId) || !HEX.test(flags)) return null;
  if (ZEROS.test(traceId) || ZEROS.test(spanId)) return null;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
}

/** The W3C headers, read by hireport: one `traceparent` (two or more are invalid), any `tracestate`. */
function fromW3cHeaders(headers: Headers, active: Context): IncomingTrace | null {
  const parents = valuesOf(headers, "traceparent");
  if (parents.length !== 1) return null;
  const parsed = parseTraceparent(parents[0] as string);
  if (!parsed) return null;
  const states = valuesOf(headers, "tracestate");
  // The API's trace state keeps the valid members (at most 32) and drops the rest.
  const spanContext: SpanContext =
    states.length > 0 ? { ...parsed, traceState: createTraceState(states.join(",")) } : parsed;
  return { spanContext, context: trace.setSpanContext(active, spanContext) };
}

/**
 * The trace context a request's headers carry: through `propagator`, else the global propagator
 * when one is registered (it names the fields it reads), else the W3C headers. Null when there is
 * none or it is invalid.
 */
export function incomingTrace(
  headers: Headers | undefined,
  active: Context,
  propagator: TextMapPropagator | undefined,
): IncomingTrace | null {
  if (!headers || typeof headers !== "object") return null;
  const chosen = propagator ?? (propagation.fields().length > 0 ? propagation : null);
  if (chosen === null) return fromW3cHeaders(headers, active);
  let extracted: Context;
  try {
    extracted = chosen.extract(active, headers, getter);
  } catch {
    return null;
  }
  const spanContext = trace.getSpanContext(extracted);
  if (!spanContext || !isSpanContextValid(spanContext) || spanContext === trace.getSpanContext(active)) return null;
  return { spanContext, context: extracted };
}
