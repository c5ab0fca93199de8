import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { invalidArgument } from '../errors.js';

/**
 * Addresses a URL taken from a caller must not reach: loopback, private,
 * shared (CGNAT), link-local (cloud metadata services live at 169.254.169.254),
 * "this network", benchmarking, multicast and reserved ranges, in IPv4 and
 * IPv6 (IPv4-mapped IPv6 addresses are checked as the IPv4 they carry). Held
 * in Node's own BlockList.
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
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv6');

/** Host names that are internal whatever they resolve to here. */
const INTERNAL_NAMES = /^(localhost|.*\.localhost|metadata|metadata\.google\.internal|.*\.internal|.*\.local)$/i;

/** Whether an IP address (v4 or v6) is one a caller's URL must not reach. */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
  const family = isIP(bare);
  if (family === 4) return INTERNAL.check(bare, 'ipv4');
  if (family === 6) return INTERNAL.check(bare, 'ipv6');
  return false;
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
  const refuse = () => invalidArgument(field, `${field} must not point at a loopback, private, link-local or metadata address (${options.setting} allows it)`);
  if (INTERNAL_NAMES.test(host)) throw refuse();
  if (isIP(host)) {
    if (isInternalAddress(host)) throw refuse();
    return;
  }
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    throw invalidArgument(field, `${field}: its host name could not be resolved`);
  }
  if (addresses.length === 0 || addresses.some(isInternalAddress)) throw refuse();
}
