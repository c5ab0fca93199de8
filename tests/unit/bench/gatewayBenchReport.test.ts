import { describe, expect, it } from '@jest/globals';
import { percentile } from '../../../bench/gateway/load.js';
import { END_MARKER, section, spliceSection, START_MARKER, type Machine } from '../../../bench/gateway/report.js';
import type { BackendResult } from '../../../bench/gateway/scenario.js';
import { readSettings } from '../../../bench/gateway/settings.js';
import { statementShape } from '../../../bench/gateway/statementShape.js';

const machine: Machine = {
  date: '2026-11-25 12:00 UTC',
  cores: 2,
  cpuModel: 'Test CPU',
  ramGiB: 24,
  os: 'Linux',
  node: 'v24.0.0',
  postgres: 'PostgreSQL 15',
  durability: 'fsync on',
  commit: 'abc1234',
  loadBefore: [0.5, 0.4, 0.3],
  loadAfter: [1, 1, 1],
};

const run = (rate: number, cpuMsPerOp: number) => ({ rate: [rate], p50: [1], p99: [2], cpuMsPerOp: [cpuMsPerOp], gatewayCores: [0.5], errors: {} });
const statements = { operations: 1, perOperation: 2, byKind: { select: 2 }, statements: [{ text: 'select ?', perOperation: 2 }] };

/** A backend whose figures meet some targets and miss others. */
function result(backend: BackendResult['backend']): BackendResult {
  return {
    backend,
    start: { cold: [3000], warm: [1500, 2500, 1800] },
    sql: { createTransaction: statements, getTransaction: statements, webhook: statements },
    latency: [
      {
        rate: 200,
        direct: { p50: [1], p99: [4] },
        grpc: { PIX: { p50: [2.5], p99: [20], saturated: 0 }, BILLET: { p50: [1.5], p99: [9], saturated: 1 } },
        errors: {},
      },
    ],
    create: [
      { ...run(1600, 0.5), method: 'PIX', concurrency: 32, pool: '' },
      { ...run(900, 1.4), method: 'BILLET', concurrency: 32, pool: '' },
    ],
    get: [{ ...run(4000, 0.2), concurrency: 8 }],
    webhook: {
      ...run(6000, 0.3),
      concurrency: 32,
      notifications: [60000],
      drainMs: [1000],
      totalMs: [11000],
      distinctCharges: 100,
      outcomes: { APPLIED: 100 },
      undrained: 0,
    },
    rss: {
      idle: 100,
      peakUnderLoad: 300,
      highWater: 320,
      soak: { seconds: 60, operations: {}, errors: {}, rssEarly: 200, rssLate: 205, rssMax: 210, heapEarly: 50, heapLate: 52, afterSoak: 204 },
    },
    loadGeneratorCores: 0.3,
    fakeProviderCores: 0.1,
  };
}

describe('the bench command line', () => {
  it('runs one part alone with --only, writing nothing and leaving the two-process run out', () => {
    for (const only of ['webhooks', 'overload', 'start'] as const)
      expect(readSettings(['--only', only])).toMatchObject({ only, write: false, twoProcesses: false, webhooksApart: false });
    expect(() => readSettings(['--only', 'soak'])).toThrow('--only takes webhooks, overload, start or apart, got "soak"');
  });

  it('measures webhooks in processes of their own on PostgreSQL: in a full run, or alone with --only apart', () => {
    expect(readSettings([])).toMatchObject({ twoProcesses: true, webhooksApart: true });
    expect(readSettings(['--backend', 'embedded'])).toMatchObject({ webhooksApart: false });
    expect(readSettings(['--no-two-processes'])).toMatchObject({ webhooksApart: false });
    expect(readSettings(['--only', 'apart'])).toMatchObject({ only: 'apart', backends: [], write: false, twoProcesses: false, webhooksApart: true });
  });
});

describe('the gateway bench report', () => {
  it('says for each target whether it was met, or by how much it was missed', () => {
    const settings = readSettings(['--backend', 'postgres', '--soak-seconds', '60']);
    const text = section([result('postgres')], settings, machine);
    const row = (target: string) => text.split('\n').find((line) => line.startsWith(`| ${target}`));
    expect(row('CreateTransaction ≥ 1,500/s durable (PIX')).toContain('1,600/s: **met** (×32)');
    expect(row('CreateTransaction ≥ 1,500/s durable (BILLET')).toContain('900/s: missed by 600/s (1.7× short)');
    expect(row('Gateway CPU ≤ 0.7 ms per charge (BILLET')).toContain('1.40 ms: missed by 0.70 ms (2.0× over)');
    expect(row('Added latency at 200/s, p50 ≤ 2 ms (PIX')).toContain('1.50 ms: **met**');
    expect(row('Added latency at 200/s, p99 ≤ 10 ms (PIX')).toContain('16.0 ms: missed by 6.0 ms (1.6× over)');
    expect(row('Added latency at 200/s, p99 ≤ 10 ms (BILLET')).toContain('5.0 ms: **met** (saturated in 1 of 3 runs');
    expect(row('GetTransaction ≥ 5,000/s')).toContain('4,000/s: missed by 1,000/s');
    expect(row('RSS ≤ 250 MB')).toContain('300 MB: missed by 50 MB');
    expect(row('No RSS growth over the soak (60 s')).toContain('5.0 MB: **met** (200 → 205 MB)');
    expect(row('Start-to-healthy')).toContain('1.80 s: **met**');
    expect(text.startsWith(START_MARKER)).toBe(true);
    expect(text.endsWith(END_MARKER)).toBe(true);
  });

  it('judges webhook intake with processing in another process on PostgreSQL, and shows both parts', () => {
    const settings = readSettings([]);
    const apart = {
      concurrency: 32,
      intake: { rate: [6900, 7300, 7100], p50: [3], p99: [14, 25, 19], cpuMsPerAck: [0.12], errors: {} },
      processing: { notifications: 20000, seconds: 25, cpuMsPerNotification: 0.9, outcomes: { APPLIED: 20000 }, left: 0 },
    };
    const text = section([result('postgres'), result('embedded')], settings, machine, undefined, apart);
    const row = (target: string) => text.split('\n').find((line) => line.startsWith(`| ${target}`));
    expect(row('Webhook intake ≥ 5,000 ack/s, processing in another process')).toContain('| 7,100/s: **met** | (one process only) |');
    expect(row('Webhook acknowledgement p99 ≤ 20 ms, processing in another process')).toContain('19.0 ms: **met**');
    expect(text).toContain('| processing (worker process) | 800/s (25.0 s for 20,000) |');
  });

  it('goes before the first section of a document without one, and a rerun replaces only it', () => {
    const document = '# Benchmarks\n\nIntro.\n\n## Lists\n\nHand-written figures.\n';
    const first = spliceSection(document, `${START_MARKER}\nfirst run\n${END_MARKER}`);
    expect(first).toBe(`# Benchmarks\n\nIntro.\n\n${START_MARKER}\nfirst run\n${END_MARKER}\n\n## Lists\n\nHand-written figures.\n`);
    const second = spliceSection(first, `${START_MARKER}\nsecond run\n${END_MARKER}`);
    expect(second).toBe(first.replace('first run', 'second run'));
  });

  it('counts a statement by its shape, whatever values MikroORM wrote into it', () => {
    expect(statementShape(`select "t0".* from "transactions" as "t0" where "t0"."id" = 'a-b''c' limit 1`)).toBe(
      'select "t0".* from "transactions" as "t0" where "t0"."id" = ? limit ?',
    );
    expect(statementShape("insert into t (a, b)\n  values (1, 2.5), (3, 'x')")).toBe('insert into t (a, b) values (?…), (?…)');
    expect(statementShape('select pg_advisory_xact_lock(7370001)')).toBe('select pg_advisory_xact_lock(?)');
  });

  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
