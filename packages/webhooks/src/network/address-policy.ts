import { BlockList, isIP } from "node:net";

/**
 * Which network addresses a webhook may connect to. Every range that reaches the host's own
 * machine, its private network or its cloud provider's internals is refused, and so is every
 * address the IANA special-purpose registries mark as not globally reachable.
 *
 * IPv4: loopback, private (RFC 1918), CGNAT, link-local (with the metadata address
 * 169.254.169.254), multicast, broadcast, unspecified, reserved, documentation and benchmarking.
 *
 * IPv6: only global unicast (`2000::/3`) is allowed, less its special-purpose blocks; everything
 * outside it (loopback, unspecified, the rest of `::/8`, `100::/64`, ULA, link-local, site-local,
 * multicast, SRv6 SIDs, local-use NAT64…) is reserved or local. Forms that carry an IPv4 address
 * are judged by that address: IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`
 * (RFC 2765), NAT64 `64:ff9b::/96` and 6to4 `2002::/16`.
 */

const BLOCKED_IPV4: ReadonlyArray<readonly [string, number, string]> = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local / cloud metadata"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "6to4 relay anycast"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved / broadcast"],
];

/** An IPv6 block: its first address, prefix length and what it is. */
type Ipv6Block = readonly [network: string, prefix: number, reason: string];

/** The only IPv6 space with public hosts (IANA's IPv6 address space registry). */
const GLOBAL_UNICAST = ["2000::", 3] as const;

/**
 * Inside global unicast: the special-purpose blocks IANA marks as not globally reachable. The
 * first matching entry decides, so the globally reachable parts of `2001::/23` come before it.
 */
const SPECIAL_IN_GLOBAL: ReadonlyArray<readonly [...Ipv6Block, allowed: boolean]> = [
  ["2001:1::1", 128, "Port Control Protocol anycast", true],
  ["2001:1::2", 128, "TURN anycast", true],
  ["2001:1::3", 128, "DNS-SD service registration anycast", true],
  ["2001:3::", 32, "AMT", true],
  ["2001:4:112::", 48, "AS112-v6", true],
  ["2001:20::", 28, "ORCHIDv2", true],
  ["2001:30::", 28, "drone remote ID", true],
  ["2001::", 32, "Teredo", false],
  ["2001:2::", 48, "benchmarking", false],
  ["2001:10::", 28, "deprecated ORCHID", false],
  ["2001:db8::", 32, "documentation", false],
  ["2001::", 23, "IETF protocol assignments", false],
  ["3fff::", 20, "documentation", false],
];

/** Outside global unicast: names for the reason of a refusal (anything else there is IETF-reserved). */
const NAMED_OUTSIDE_GLOBAL: readonly Ipv6Block[] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["::", 96, "IPv4-compatible (deprecated)"],
  ["64:ff9b:1::", 48, "local-use NAT64"],
  ["100::", 64, "discard-only"],
  ["100:0:0:1::", 64, "dummy prefix"],
  ["5f00::", 16, "SRv6 SID"],
  ["fc00::", 7, "unique local (ULA)"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"],
];

/** The verdict on one address. */
export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** Splits an IPv6 address into its eight 16-bit groups (an embedded dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = ipv4Octets(last);
    if (!v4) return null;
    tail = [((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0)];
    text = `${text.slice(0, lastColon + 1)}${tail.length ? "0:0" : ""}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string | undefined): number[] =>
    part
      ? part
          .split(":")
          .filter((group) => group !== "")
          .map((group) => Number.parseInt(group, 16))
      : [];
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  if (tail.length) groups.splice(6, 2, ...tail);
  return groups.some((group) => Number.isNaN(group) || group < 0 || group > 0xffff) ? null : groups;
}

function ipv4Octets(address: string): number[] | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  const octets = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : Number.NaN));
  return octets.some((octet) => Number.isNaN(octet) || octet > 255) ? null : octets;
}

/** The 128-bit value of an address's groups. */
function toBits(groups: readonly number[]): bigint {
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** A block ready to match: the network's bits above the prefix, and how far to shift an address. */
interface Matcher {
  shift: bigint;
  network: bigint;
}

function matcher(network: string, prefix: number): Matcher {
  const shift = BigInt(128 - prefix);
  return { shift, network: toBits(ipv6Groups(network) ?? []) >> shift };
}

const matches = (address: bigint, block: Matcher): boolean => address >> block.shift === block.network;

/**
 * The IPv4 address an IPv6 address carries, if any: IPv4-mapped `::ffff:0:0/96`, IPv4-translated
 * `::ffff:0:0:0/96` (RFC 2765), the NAT64 well-known prefix `64:ff9b::/96` (RFC 6052), 6to4
 * `2002::/16`. (IPv4-compatible `::a.b.c.d` is deprecated and refused as such.)
 */
function embeddedIpv4(groups: readonly number[]): string | null {
  const g = (index: number) => groups[index] ?? 0;
  const fromGroups = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g(5) === 0xffff) return fromGroups(g(6), g(7));
  if (zeros(0, 4) && g(4) === 0xffff && g(5) === 0) return fromGroups(g(6), g(7));
  if (g(0) === 0x64 && g(1) === 0xff9b && zeros(2, 6)) return fromGroups(g(6), g(7));
  if (g(0) === 0x2002) return fromGroups(g(1), g(2));
  return null;
}

/** Decides whether webhook traffic may go to a given IP address. Build it once per dispatcher. */
export interface AddressPolicy {
  check(address: string): AddressVerdict;
}

/**
 * The default policy: refuses every range listed above. Anything that is not an IP address at all
 * is refused too (the caller must resolve names first).
 */
export function createAddressPolicy(): AddressPolicy {
  const v4 = new BlockList();
  const v4Reasons = BLOCKED_IPV4.map(([network, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, "ipv4");
    v4.addSubnet(network, prefix, "ipv4");
    return { list, reason };
  });

  const checkV4 = (address: string): AddressVerdict => {
    if (!v4.check(address, "ipv4")) return { allowed: true };
    const hit = v4Reasons.find(({ list }) => list.check(address, "ipv4"));
    return { allowed: false, reason: `${address} is a ${hit?.reason ?? "non-public"} address` };
  };

  const globalUnicast = matcher(...GLOBAL_UNICAST);
  const outside = NAMED_OUTSIDE_GLOBAL.map(([network, prefix, reason]) => ({ ...matcher(network, prefix), reason }));
  const special = SPECIAL_IN_GLOBAL.map(([network, prefix, reason, allowed]) => ({
    ...matcher(network, prefix),
    reason,
    allowed,
  }));

  const checkV6 = (address: string, groups: readonly number[]): AddressVerdict => {
    const bits = toBits(groups);
    if (!matches(bits, globalUnicast)) {
      const named = outside.find((block) => matches(bits, block));
      const reason = named ? `a ${named.reason}` : "an IETF-reserved (not global unicast)";
      return { allowed: false, reason: `${address} is ${reason} address` };
    }
    const hit = special.find((block) => matches(bits, block));
    if (!hit || hit.allowed) return { allowed: true };
    return { allowed: false, reason: `${address} is a ${hit.reason} address` };
  };

  return {
    check(address) {
      const family = isIP(address);
      if (family === 4) return checkV4(address);
      if (family !== 6) return { allowed: false, reason: `${address} is not an IP address` };
      const groups = ipv6Groups(address);
      if (!groups) return { allowed: false, reason: `${address} is not a valid IPv6 address` };
      const embedded = embeddedIpv4(groups);
      if (embedded) {
        const verdict = checkV4(embedded);
        return verdict.allowed ? verdict : { allowed: false, reason: `${address} embeds ${verdict.reason}` };
      }
      return checkV6(address, groups);
    },
  };
}
