/**
 * A V8 CPU profile (`node --cpu-prof`) summed by where the time went: each sample's function counted under the
 * package it lives in (node_modules/<package>), the gateway's folder (server/<layer>), garbage collection, the idle
 * loop, or Node itself. What a charge costs beyond the bare baseline is read off this table (issue 31,
 * point 7).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The bucket a function's own time goes to. */
export function bucketOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const ours = /\/(?:dist\/)?(server|gen|shared)\/([^/]+)\//.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  if (url.startsWith('node:')) return 'node (internals)';
  return url.replace(/^.*\//, '');
}

/** Buckets that are someone else's work when a package or a folder of ours called them (a socket write, a parse). */
const isUnowned = (bucket: string) => bucket === 'node (internals)' || bucket === '(native)';

/**
 * Milliseconds per bucket, largest first, with each one's share of the busy time (idle left out). Time in Node's
 * internals or in native code goes to the nearest caller that is a package or a folder of ours (axios's socket
 * writes are axios's), and stays Node's only when nothing of either called it (timers, the event loop).
 */
export function profileShares(path: string): { bucket: string; ms: number; share: number }[] {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const own = new Map(profile.nodes.map((node) => [node.id, bucketOf(node.callFrame.url, node.callFrame.functionName)]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const owner = (id: number): string => {
    const bucket = own.get(id) ?? '(unknown)';
    if (!isUnowned(bucket)) return bucket;
    for (let up = parent.get(id); up !== undefined; up = parent.get(up))
      if (!isUnowned(own.get(up) ?? '')) return own.get(up)!.startsWith('(') ? bucket : own.get(up)!;
    return bucket;
  };
  const bucketById = new Map(profile.nodes.map((node) => [node.id, owner(node.id)]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const bucket = bucketById.get(id) ?? '(unknown)';
    totals.set(bucket, (totals.get(bucket) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  totals.delete('(idle)');
  const busy = [...totals.values()].reduce((sum, ms) => sum + ms, 0);
  return [...totals.entries()].map(([bucket, ms]) => ({ bucket, ms, share: ms / busy })).sort((a, b) => b.ms - a.ms);
}
