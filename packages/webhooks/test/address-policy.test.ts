import { describe, expect, it } from "vitest";
import { createAddressPolicy } from "../src/network/address-policy";
import { PUBLIC_IPV6, RESERVED_IPV6 } from "./support/ipv6-cases";

const policy = createAddressPolicy();

describe("address policy (the private and reserved ranges an endpoint may not reach)", () => {
  it.each<readonly [string, string]>([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["169.254.0.1", "link-local"],
    ["100.64.0.1", "CGNAT"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["198.18.0.1", "benchmarking"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with zone"],
    ["fc00::1", "ULA"],
    ["fd00:ec2::254", "AWS metadata (ULA)"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex form"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["64:ff9b::a9fe:a9fe", "NAT64 of 169.254.169.254"],
    ["2002:7f00:1::", "6to4 of 127.0.0.1"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["2001:db8::1", "documentation"],
    ["not-an-ip", "not an address"],
    ...RESERVED_IPV6,
  ])("refuses %s (%s)", (address) => {
    expect(policy.check(address).allowed).toBe(false);
  });

  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "169.253.255.255",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    ...PUBLIC_IPV6.map(([address]) => address),
  ])("allows the public address %s", (address) => {
    expect(policy.check(address)).toEqual({ allowed: true });
  });

  it("names the IPv4 address an IPv6 form carries, and the block of a reserved one", () => {
    expect(policy.check("::ffff:0:7f00:1")).toEqual({
      allowed: false,
      reason: "::ffff:0:7f00:1 embeds 127.0.0.1 is a loopback address",
    });
    expect(policy.check("100::1")).toEqual({ allowed: false, reason: "100::1 is a discard-only address" });
    expect(policy.check("2001:2::1")).toEqual({ allowed: false, reason: "2001:2::1 is a benchmarking address" });
    expect(policy.check("4000::1")).toEqual({
      allowed: false,
      reason: "4000::1 is an IETF-reserved (not global unicast) address",
    });
  });

  it("names the range in the reason", () => {
    expect(policy.check("169.254.169.254")).toEqual({
      allowed: false,
      reason: "169.254.169.254 is a link-local / cloud metadata address",
    });
  });
});
