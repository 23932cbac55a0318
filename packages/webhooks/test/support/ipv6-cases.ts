/**
 * IPv6 addresses for the SSRF tests, one per block of the IANA special-purpose registry (and the
 * space outside global unicast), with the public addresses beside them that must stay allowed.
 */

/** Reserved, local or carrying a blocked IPv4 address: refused as a literal and as a DNS answer. */
export const RESERVED_IPV6: ReadonlyArray<readonly [address: string, why: string]> = [
  ["::ffff:0:127.0.0.1", "IPv4-translated loopback (RFC 2765), dotted"],
  ["::ffff:0:7f00:1", "IPv4-translated loopback, hex"],
  ["::ffff:0:a9fe:a9fe", "IPv4-translated metadata address"],
  ["::ffff:0:10.0.0.1", "IPv4-translated private"],
  ["::8.8.8.8", "IPv4-compatible (deprecated), even of a public address"],
  ["::2", "the rest of ::/96"],
  ["::1:0:0:1", "the rest of ::/8"],
  ["0:0:1::1", "the rest of ::/8"],
  ["ff:ffff::1", "the end of ::/8"],
  ["64:ff9b:1::a9fe:a9fe", "local-use NAT64"],
  ["64:ff9b::7f00:1", "NAT64 of loopback"],
  ["64:ff9b::a00:1", "NAT64 of a private address"],
  ["100::1", "discard-only"],
  ["100:0:0:1::1", "dummy prefix"],
  ["2001::1", "Teredo"],
  ["2001:2::1", "benchmarking"],
  ["2001:10::1", "deprecated ORCHID"],
  ["2001:100::1", "IETF protocol assignments, unassigned part"],
  ["2001:1::4", "IETF protocol assignments, beside the anycast addresses"],
  ["2001:db8:1234::1", "documentation"],
  ["3fff::1", "documentation (RFC 9637)"],
  ["2002:a9fe:a9fe::1", "6to4 of the metadata address"],
  ["2002:a00:1::1", "6to4 of a private address"],
  ["4000::1", "IETF-reserved, outside global unicast"],
  ["5f00::1", "SRv6 SID"],
  ["8000::1", "IETF-reserved"],
  ["fc00::1", "unique local"],
  ["fdff:ffff::1", "unique local"],
  ["fe80::abcd", "link-local"],
  ["febf::1", "link-local, end"],
  ["fec0::1", "site-local"],
  ["ff0e::1", "global-scope multicast"],
];

/** Public: allowed as a literal and as a DNS answer. */
export const PUBLIC_IPV6: ReadonlyArray<readonly [address: string, why: string]> = [
  ["2606:4700:4700::1111", "public unicast"],
  ["2a00:1450:4001:82a::200e", "public unicast"],
  ["2001:1::1", "Port Control Protocol anycast"],
  ["2001:3::1", "AMT"],
  ["2001:4:112::1", "AS112-v6"],
  ["2001:200::1", "right after 2001::/23"],
  ["2002:808:808::1", "6to4 of a public address"],
  ["64:ff9b::808:808", "NAT64 of a public address"],
  ["::ffff:0:8.8.8.8", "IPv4-translated public address"],
  ["3ffe::1", "global unicast, before 3fff::/20"],
];
