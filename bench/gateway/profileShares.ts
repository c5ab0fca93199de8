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

/** A profile's nodes by id, and each node's parent (the function that called it). */
interface ProfileTree {
  byId: Map<number, ProfileNode>;
  parent: Map<number, number>;
}

/**
 * The profile at `path` read once: each sample's time (microseconds) summed under the label `labelOf` gives the node
 * it was taken in, worked out once a node; a null label leaves the sample out.
 */
function timeByLabel(path: string, labelOf: (id: number, tree: ProfileTree) => string | null): Map<string, number> {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const tree: ProfileTree = { byId: new Map(profile.nodes.map((node) => [node.id, node])), parent: new Map() };
  for (const node of profile.nodes) for (const child of node.children ?? []) tree.parent.set(child, node.id);
  const labels = new Map(profile.nodes.map((node) => [node.id, labelOf(node.id, tree)]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const label = labels.get(id);
    if (label != null) totals.set(label, (totals.get(label) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return totals;
}

/**
 * Milliseconds per bucket, largest first, with each one's share of the busy time (idle left out). Time in Node's
 * internals or in native code goes to the nearest caller that is a package or a folder of ours (axios's socket
 * writes are axios's), and stays Node's only when nothing of either called it (timers, the event loop).
 */
export function profileShares(path: string): { bucket: string; ms: number; share: number }[] {
  const own = ({ byId }: ProfileTree, id: number) => {
    const { url, functionName } = byId.get(id)!.callFrame;
    return bucketOf(url, functionName);
  };
  const owner = (id: number, tree: ProfileTree): string | null => {
    const bucket = own(tree, id);
    if (bucket === '(idle)') return null;
    if (!isUnowned(bucket)) return bucket;
    for (let up = tree.parent.get(id); up !== undefined; up = tree.parent.get(up)) {
      const caller = own(tree, up);
      if (!isUnowned(caller)) return caller.startsWith('(') ? bucket : caller;
    }
    return bucket;
  };
  const totals = new Map([...timeByLabel(path, owner)].map(([bucket, time]) => [bucket, time / 1000]));
  const busy = [...totals.values()].reduce((sum, ms) => sum + ms, 0);
  return [...totals.entries()].map(([bucket, ms]) => ({ bucket, ms, share: ms / busy })).sort((a, b) => b.ms - a.ms);
}

/**
 * What a charge's CPU went to, named as issue 31 (point 7) lists what the gateway does beyond its bare baseline.
 * A sample goes to the first function up its stack, from where it was taken, that lives in a file (a package's or
 * ours): Node's internals and native code go to that caller, as above. The first rule that names the file wins, so
 * the specific come before the general (the tracing of a provider call before the provider's HTTP client).
 */
const ACTIVITY_RULES: readonly { activity: string; file: RegExp }[] = [
  { activity: 'the PIX QR image', file: /\/server\/lib\/(pixQrCode|qrSymbol)\./ },
  {
    activity: 'authentication and access',
    file: /\/server\/(gateway\/(access|accessControl|sharedKeys)|transport\/(permissions|callerRateLimit))\.|\/node_modules\/rate-limiter-flexible\//,
  },
  { activity: 'validation (the request guard, zod)', file: /\/node_modules\/zod\/|\/server\/(transport\/requestGuard|gateway\/validation)\./ },
  { activity: "idempotency (the request's hash)", file: /\/server\/gateway\/idempotency\./ },
  { activity: 'audit', file: /\/server\/(gateway\/callAudit|db\/auditedBy)\./ },
  { activity: 'metrics', file: /\/node_modules\/prom-client\/|\/server\/observability\/metrics\./ },
  {
    activity: 'tracing',
    file: /\/node_modules\/@opentelemetry\/|\/server\/(lib\/tracing|observability\/tracing|transport\/rpcSpans|lib\/http\/exchangeSpan)\./,
  },
  { activity: 'logging', file: /\/node_modules\/(pino|pino-[a-z-]+|sonic-boom)\/|\/server\/lib\/(logger|http\/requestLog)\./ },
  { activity: "the provider's HTTP call", file: /\/node_modules\/(axios|cockatiel)\/|\/server\/lib\/http\/|\/bench\/gateway\/clients\./ },
  {
    activity: 'the database client (node-postgres, MikroORM, repositories)',
    file: /\/node_modules\/(pg|pg-[a-z-]+|@mikro-orm\/[^/]+|kysely)\/|\/server\/db\//,
  },
  { activity: 'gRPC (grpc-js, HTTP/2)', file: /\/node_modules\/@grpc\/[^/]+\// },
  {
    activity: 'serialisation (protobuf, mappers)',
    file: /\/node_modules\/(@bufbuild\/protobuf|protobufjs|long)\/|\/gen\/|\/server\/transport\/(protoMapper|enums)\./,
  },
  { activity: "the provider's adapter (its request and answer)", file: /\/server\/providers\// },
  { activity: "the call's guard and handler (deadline, shedding, errors)", file: /\/server\/transport\// },
  { activity: "the charge's own code (use cases, domain; the baseline's handler)", file: /\/server\/|\/bench\/gateway\// },
];

/** Where a sample with no file of a package or of ours up its stack went. */
export const RUNTIME_ACTIVITY = "Node's runtime (event loop, timers, microtasks)";
export const GC_ACTIVITY = 'garbage collection';
export const NATIVE_ACTIVITY = 'native code outside JavaScript (V8, libuv)';
export const OTHER_ACTIVITY = 'other packages';
/** Native functions that write to a socket: a sample in one is the thread in a system call (the kernel's CPU, or waiting for a CPU). */
const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString', 'writeUcs2String']);
const SOCKET_WRITES_LABEL = 'socket writes';

/** The bench's probe (probe.ts, compiled to probe.mjs): its frames are the profiler's stopping and writing, not the server's work. */
export const PROBE_ACTIVITY = "the bench's probe";
const PROBE_FILE = /\/probe\.(mjs|ts)$/;

/** The activity a function's file names, or undefined for Node's internals and native code (no file). */
export function activityOfFile(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  if (PROBE_FILE.test(url)) return PROBE_ACTIVITY;
  return ACTIVITY_RULES.find(({ file }) => file.test(url))?.activity ?? OTHER_ACTIVITY;
}

export interface ActivityShares {
  /** Each activity's share of the profile's busy time less its socket writes, largest first. */
  shares: { activity: string; share: number }[];
  /** The socket writes' share of the busy time (left out of `shares`: their CPU is the kernel's, read apart). */
  socketWrites: number;
}

/**
 * A profile's busy time by activity, the probe's own left out. The socket writes are set apart: V8 samples wall time, and a thread in a write
 * to a loopback socket is in the kernel (system CPU, which /proc reads apart) or waiting for a core that PostgreSQL
 * or the bench's client holds; counted in, they made the database client look a third of the gateway's time.
 */
export function activityShares(path: string): ActivityShares {
  const activityOf = (id: number, { byId, parent }: ProfileTree): string | null => {
    const leaf = byId.get(id)!.callFrame;
    if (leaf.functionName === '(idle)') return null;
    if (leaf.functionName === '(garbage collector)') return GC_ACTIVITY;
    if (leaf.functionName === '(program)') return NATIVE_ACTIVITY;
    if (!leaf.url && SOCKET_WRITES.has(leaf.functionName)) return SOCKET_WRITES_LABEL;
    for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
      const activity = activityOfFile(byId.get(up)!.callFrame.url);
      if (activity) return activity === PROBE_ACTIVITY ? null : activity;
    }
    return RUNTIME_ACTIVITY;
  };
  const totals = timeByLabel(path, activityOf);
  const busy = [...totals.values()].reduce((sum, time) => sum + time, 0);
  const writes = totals.get(SOCKET_WRITES_LABEL) ?? 0;
  totals.delete(SOCKET_WRITES_LABEL);
  const rest = busy - writes;
  return {
    shares: [...totals.entries()].map(([activity, time]) => ({ activity, share: rest > 0 ? time / rest : 0 })).sort((a, b) => b.share - a.share),
    socketWrites: busy > 0 ? writes / busy : 0,
  };
}
