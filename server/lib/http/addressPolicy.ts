import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { invalidArgument } from '../errors.js';

/**
 * Addresses a URL taken from a caller must not reach: loopback, private,
 * shared (CGNAT), link-local (cloud metadata services live at 169.254.169.254),
 * "this network", benchmarking, multicast and reserved ranges, in IPv4 and
 * IPv6 (IPv6 addresses that carry an IPv4 one are checked as the IPv4 they
 * carry: see `embeddedIPv4`). Held in Node's own BlockList.
 */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv6');

/** Host names that are internal whatever they resolve to here. */
const INTERNAL_NAMES = /^(localhost|.*\.localhost|metadata|metadata\.google\.internal|.*\.internal|.*\.local)$/i;

/** An IPv6 address's eight 16-bit groups (the text is one `isIP` calls IPv6; a dotted IPv4 tail is two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted
    ? `${address.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : address;
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 addresses an IPv6 address carries, which a packet to it may reach: IPv4-mapped `::ffff:a.b.c.d`,
 * IPv4-translated `::ffff:0:a.b.c.d`, the deprecated IPv4-compatible `::a.b.c.d` (so `[::127.0.0.1]`), 6to4
 * `2002:AABB:CCDD::/48` (the relay delivers to AA.BB.CC.DD), and Teredo `2001:0::/32` (its server, and its client
 * stored inverted in the last 32 bits).
 */
function embeddedIPv4(address: string): string[] {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return [ipv4Of(g[6]!, g[7]!)];
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2]!, g[3]!), ipv4Of(~g[6]! & 0xffff, ~g[7]! & 0xffff)];
  return [];
}

/** Whether an IP address (v4 or v6) is one a caller's URL must not reach. */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return INTERNAL.check(bare, 'ipv4');
  if (family !== 6) return false;
  return INTERNAL.check(bare, 'ipv6') || embeddedIPv4(bare).some((ipv4) => INTERNAL.check(ipv4, 'ipv4'));
}

/** Resolves a host name to every address it has (tests replace it). */
export type Resolver = (host: string) => Promise<string[]>;
const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Refuses (INVALID_ARGUMENT naming `field`) an http(s) URL whose host is, or
 * resolves to, an internal address, unless `allowInternal`. The message says
 * which rule it broke, never what answers there; a host that does not resolve
 * is refused too (it could not be checked). Names are checked as they resolve
 * now: a name re-pointed later (DNS rebinding) is not caught here.
 */
export async function assertPublicUrl(
  field: string,
  value: string | undefined,
  options: { allowInternal: boolean; setting: string; resolve?: Resolver },
): Promise<void> {
  if (!value || options.allowInternal) return;
  const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
  const refuse = () =>
    invalidArgument(field, `${field} must not point at a loopback, private, link-local or metadata address (${options.setting} allows it)`, 'INVALID_URL');
  if (INTERNAL_NAMES.test(host)) throw refuse();
  if (isIP(host)) {
    if (isInternalAddress(host)) throw refuse();
    return;
  }
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    throw invalidArgument(field, `${field}: its host name could not be resolved`, 'INVALID_URL');
  }
  if (addresses.length === 0 || addresses.some(isInternalAddress)) throw refuse();
}
