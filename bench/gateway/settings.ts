/**
 * The suite's command line: `npm run bench [-- --quick] [--soak-seconds N] [--backend postgres|embedded] [--write|--no-write] [--no-two-processes]
 * [--cpu-prof DIR] [--only webhooks|overload|start|apart] [--webhook-seconds N]`.
 */
import type { Method } from './clients.js';

export type Backend = 'postgres' | 'embedded';

export interface Settings {
  quick: boolean;
  /**
   * To iterate on one part (nothing is written): --only webhooks, the SQL count and the webhook intake and backlog;
   * --only overload, the PIX closed loops and the run at twice their capacity; --only start, start-to-healthy;
   * --only apart, webhook intake and processing in processes of their own (PostgreSQL).
   */
  only?: 'webhooks' | 'overload' | 'start' | 'apart';
  backends: Backend[];
  /** Charges' payment methods measured (PIX renders a QR image in the gateway; BILLET does not). */
  methods: Method[];
  /** Whether docs/benchmarks.md gets the figures (a full run does; --quick only with --write). */
  write: boolean;
  startCold: number;
  startWarm: number;
  sqlOperations: number;
  latencyRates: number[];
  latencySeconds: number;
  latencyRepeats: number;
  concurrencies: number[];
  throughputSeconds: number;
  warmupSeconds: number;
  throughputRepeats: number;
  webhookConcurrency: number;
  webhookSeconds: number;
  webhookRepeats: number;
  /** The longest wait for the stored notifications to be processed after an intake run. */
  drainTimeoutSeconds: number;
  soakSeconds: number;
  /** Two gateway processes on one PostgreSQL database, after the backends (off with --no-two-processes, or without PostgreSQL). */
  twoProcesses: boolean;
  /** Webhook intake and processing in processes of their own on PostgreSQL (bench/gateway/webhooksApart.ts); with the two processes, or --only apart. */
  webhooksApart: boolean;
  /** --cpu-prof DIR: the gateway under load writes a V8 CPU profile there when it stops (open it in Chrome's DevTools). */
  cpuProfileDir?: string;
}

export function readSettings(argv: readonly string[]): Settings {
  const value = (name: string) => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const number = (name: string, fallback: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} takes a number, got ${JSON.stringify(raw)}`);
    return parsed;
  };
  const quick = argv.includes('--quick');
  const backend = value('backend');
  const only = value('only');
  if (only !== undefined && only !== 'webhooks' && only !== 'overload' && only !== 'start' && only !== 'apart')
    throw new Error(`--only takes webhooks, overload, start or apart, got ${JSON.stringify(only)}`);
  if (backend !== undefined && backend !== 'postgres' && backend !== 'embedded')
    throw new Error(`--backend takes postgres or embedded, got ${JSON.stringify(backend)}`);
  return {
    quick,
    only: only as Settings['only'],
    // --only apart measures its own processes, on PostgreSQL, and no backend's.
    backends: only === 'apart' ? [] : backend ? [backend] : ['postgres', 'embedded'],
    methods: ['PIX', 'BILLET'],
    write: !only && (argv.includes('--write') || (!quick && !argv.includes('--no-write'))),
    startCold: quick ? 1 : 3,
    startWarm: quick ? 1 : 5,
    sqlOperations: quick ? 20 : 100,
    latencyRates: [50, 100, 200],
    latencySeconds: quick ? 2 : 10,
    latencyRepeats: quick ? 1 : 3,
    concurrencies: [8, 32, 64],
    throughputSeconds: quick ? 2 : 10,
    warmupSeconds: quick ? 0.5 : 2,
    throughputRepeats: quick ? 1 : 3,
    webhookConcurrency: 32,
    webhookSeconds: number('webhook-seconds', quick ? 2 : 10),
    webhookRepeats: quick ? 1 : 3,
    drainTimeoutSeconds: quick ? 120 : 600,
    soakSeconds: number('soak-seconds', quick ? 10 : 300),
    twoProcesses: !only && !argv.includes('--no-two-processes') && (backend === undefined || backend === 'postgres'),
    webhooksApart: only === 'apart' || (!only && !argv.includes('--no-two-processes') && (backend === undefined || backend === 'postgres')),
    cpuProfileDir: value('cpu-prof'),
  };
}
