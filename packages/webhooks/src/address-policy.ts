import { BlockList, isIP } from "node:net";

/**
 * Which network addresses a webhook may connect to. Every range that reaches the host's own
 * machine, its private network or its cloud provider's internals is refused: loopback, private
 * (RFC 1918), CGNAT, link-local (and with it the metadata address 169.254.169.254), multicast,
 * broadcast, unspecified, reserved and documentation ranges, IPv6 ULA, link-local, site-local and
 * multicast. IPv6 forms that embed an IPv4 address (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`,
 * 6to4 `2002::/16`) are judged by the embedded IPv4 address.
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

const BLOCKED_IPV6: ReadonlyArray<readonly [string, number, string]> = [
  ["::", 96, "unspecified / loopback / IPv4-compatible"],
  ["64:ff9b:1::", 48, "local-use NAT64"],
  ["100::", 64, "discard-only"],
  ["2001::", 23, "IETF protocol assignments"],
  ["2001:db8::", 32, "documentation"],
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

/** The IPv4 address an IPv6 address carries (mapped, NAT64 well-known prefix, 6to4), if any. */
function embeddedIpv4(groups: readonly number[]): string | null {
  const g = (index: number) => groups[index] ?? 0;
  const fromGroups = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  // ::ffff:a.b.c.d (IPv4-mapped)
  if (g(0) === 0 && g(1) === 0 && g(2) === 0 && g(3) === 0 && g(4) === 0 && g(5) === 0xffff) {
    return fromGroups(g(6), g(7));
  }
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix)
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 0 && g(3) === 0 && g(4) === 0 && g(5) === 0) {
    return fromGroups(g(6), g(7));
  }
  // 2002:AABB:CCDD::/48 (6to4)
  if (g(0) === 0x2002) return fromGroups(g(1), g(2));
  return null;
}

/** Decides whether webhook traffic may go to a given IP address. Build it once per dispatcher. */
export interface AddressPolicy {
  check(address: string): AddressVerdict;
}

/**
 * The default policy: refuses every non-public range listed above. Anything that is not an IP
 * address at all is refused too (the caller must resolve names first).
 */
export function createAddressPolicy(): AddressPolicy {
  const v4 = new BlockList();
  const v6 = new BlockList();
  const v4Reasons = BLOCKED_IPV4.map(([network, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, "ipv4");
    v4.addSubnet(network, prefix, "ipv4");
    return { list, reason };
  });
  const v6Reasons = BLOCKED_IPV6.map(([network, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, "ipv6");
    v6.addSubnet(network, prefix, "ipv6");
    return { list, reason };
  });

  const checkV4 = (address: string): AddressVerdict => {
    if (!v4.check(address, "ipv4")) return { allowed: true };
    const hit = v4Reasons.find(({ list }) => list.check(address, "ipv4"));
    return { allowed: false, reason: `${address} is a ${hit?.reason ?? "non-public"} address` };
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
      const canonical = groups.map((group) => group.toString(16)).join(":");
      if (!v6.check(canonical, "ipv6")) return { allowed: true };
      const hit = v6Reasons.find(({ list }) => list.check(canonical, "ipv6"));
      return { allowed: false, reason: `${address} is a ${hit?.reason ?? "non-public"} address` };
    },
  };
}
