import { lookup as dnsLookup } from "node:dns/promises";
import type { Socket } from "node:net";
import { isIP } from "node:net";
import type { ConnectionOptions } from "node:tls";
import { buildConnector } from "undici";
import type { AddressPolicy } from "./address-policy";

/** Resolves a host name to its addresses. */
export type HostResolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** The system resolver (`getaddrinfo`, as `fetch` and `http.request` use it). */
export const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Thrown when the guard refuses a destination. The dispatcher records it as the attempt's error. */
export class BlockedAddressError extends Error {
  override readonly name = "BlockedAddressError";
  readonly code = "ERR_HIREPORT_BLOCKED_ADDRESS";
}

export interface GuardedConnectorOptions {
  /** Null turns the guard off (`allowPrivateAddresses`). */
  policy: AddressPolicy | null;
  resolve: HostResolver;
  /** TLS settings for the connection (`ca` for a private certificate authority in tests). */
  tls: Pick<ConnectionOptions, "ca"> | undefined;
  /** Connect timeout in milliseconds. */
  timeoutMs: number;
}

/**
 * Picks the address to connect to: resolves the name once, refuses it when any of its addresses is
 * not allowed, and returns the first address. The socket is then opened to exactly that address
 * (the name is kept only for SNI and certificate checks), so a DNS answer that changes between the
 * check and the connection (DNS rebinding) cannot slip through.
 */
export async function resolveAllowedAddress(
  hostname: string,
  policy: AddressPolicy | null,
  resolve: HostResolver,
): Promise<string> {
  const host = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  const literal = isIP(host) !== 0;
  const addresses = literal ? [{ address: host, family: isIP(host) }] : await resolve(host);
  const first = addresses[0];
  if (!first) throw new BlockedAddressError(`${host} did not resolve to any address`);
  if (policy) {
    for (const { address } of addresses) {
      const verdict = policy.check(address);
      if (!verdict.allowed) {
        throw new BlockedAddressError(
          literal ? `Refused to connect: ${verdict.reason}` : `Refused to connect to ${host}: ${verdict.reason}`,
        );
      }
    }
  }
  return first.address;
}

/**
 * An undici connector that resolves and checks the address itself and connects to the checked
 * address; after connecting it checks the socket's remote address once more.
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const base = buildConnector({ timeout: options.timeoutMs, ...(options.tls ?? {}) });
  return (connectOptions, callback) => {
    const { hostname } = connectOptions;
    resolveAllowedAddress(hostname, options.policy, options.resolve).then(
      (address) => {
        const servername = connectOptions.servername || (isIP(hostname) === 0 ? hostname : undefined);
        base({ ...connectOptions, hostname: address, ...(servername ? { servername } : {}) }, (error, socket) => {
          if (error || !socket) {
            callback(error ?? new Error("connection failed"), null);
            return;
          }
          const remote = (socket as Socket).remoteAddress;
          const verdict = options.policy && remote ? options.policy.check(remote) : { allowed: true as const };
          if (!verdict.allowed) {
            socket.destroy();
            callback(new BlockedAddressError(`Refused to connect: ${verdict.reason}`), null);
            return;
          }
          callback(null, socket);
        });
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  };
}
