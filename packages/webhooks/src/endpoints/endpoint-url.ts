import { isIP } from "node:net";
import { type FieldError, HireportError } from "@hireport/core";
import type { AddressPolicy } from "../network/address-policy";
import type { HostResolver } from "../network/ssrf-guard";

/** Longest accepted endpoint address, as every address field of the API (docs/host-guide.md, `dispatcher.endpoints`). */
export const MAX_URL_LENGTH = 2048;

export interface UrlCheckOptions {
  /** Null when private addresses (and http:) are allowed. */
  policy: AddressPolicy | null;
  resolve: HostResolver;
}

/**
 * Said after a refusal the SSRF guard makes (http:, localhost, a non-public address), in the error's
 * message only: the developer who meets it with a local receiver learns the option that allows it,
 * while `fields` keeps the short text a host may show its users.
 */
const PRIVATE_ADDRESS_HINT =
  "for a local receiver in development, create the dispatcher with allowPrivateAddresses: true";

function invalid(field: string, message: string, hint?: string): HireportError {
  const fields: FieldError[] = [{ field, message }];
  const text = hint ? `${message} (${hint})` : message;
  return new HireportError("invalid", `The webhook endpoint is not valid: ${text}`, { fields });
}

/**
 * Checks an endpoint address when it is created or changed, and returns it normalized.
 * https only (http: too when the guard is off), no user name or password, no fragment, and, with
 * the guard on, a host that is neither a blocked IP literal, `localhost`, nor a name resolving to a
 * blocked address. This is early feedback only: the guard checks the address again on every
 * connection, since DNS answers change.
 */
export async function checkEndpointUrl(value: unknown, options: UrlCheckOptions, field = "url"): Promise<string> {
  if (typeof value !== "string" || value.trim() === "") throw invalid(field, "an https address is required");
  if (value.length > MAX_URL_LENGTH) throw invalid(field, `at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw invalid(field, "not a valid absolute URL");
  }
  const allowHttp = options.policy === null;
  if (url.protocol !== "https:" && !(allowHttp && url.protocol === "http:")) {
    const guardRefusedHttp = !allowHttp && url.protocol === "http:";
    throw invalid(
      field,
      allowHttp ? "must use https: or http:" : "must use https:",
      guardRefusedHttp ? PRIVATE_ADDRESS_HINT : undefined,
    );
  }
  if (url.username || url.password) throw invalid(field, "must not contain a user name or password");
  if (url.hash) throw invalid(field, "must not contain a fragment (#…)");
  if (options.policy) {
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const lower = host.toLowerCase().replace(/\.$/, "");
    if (lower === "localhost" || lower.endsWith(".localhost")) {
      throw invalid(field, "must not point to localhost", PRIVATE_ADDRESS_HINT);
    }
    if (isIP(host) !== 0) {
      const verdict = options.policy.check(host);
      if (!verdict.allowed) {
        throw invalid(field, `must be a public address (${verdict.reason})`, PRIVATE_ADDRESS_HINT);
      }
    } else {
      let addresses: Array<{ address: string }> = [];
      try {
        addresses = await options.resolve(host);
      } catch {
        // A name that does not resolve yet is accepted; deliveries fail and retry until it does.
      }
      for (const { address } of addresses) {
        const verdict = options.policy.check(address);
        if (!verdict.allowed) {
          throw invalid(field, `must resolve to a public address (${verdict.reason})`, PRIVATE_ADDRESS_HINT);
        }
      }
    }
  }
  return url.href;
}
