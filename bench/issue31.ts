/**
 * Issue 31's figures in one table, beside the previous run's. Each bench of `npm run bench` notes what it measured
 * (noteFigure); bench/run.ts then prints the table, and a run that is not --quick writes it into docs/benchmarks.md
 * and keeps its figures in bench/lastRun.json, for the next run to stand beside. A figure a run did not measure (a
 * bench run alone, an --only or --backend run) is shown as not measured and the previous one is kept.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fixed, judge, writeSection } from './gateway/report.js';

export type FigureKey =
  | 'sandboxPix'
  | 'sandboxPixNoImage'
  | 'sandboxBillet'
  | 'standInPix'
  | 'baselineRatio'
  | 'baselineRatioNoImage'
  | 'cpuPerPix'
  | 'durableCommits'
  | 'p99At200'
  | 'npmStart'
  | 'embeddedPeakRss';

export interface Figure {
  value: number;
  /** How it was taken, in a few words (the concurrency, the repeats). */
  detail?: string;
}

interface Target {
  key: FigureKey;
  label: string;
  bound: number;
  kind: 'floor' | 'ceiling';
  unit: string;
  digits: number;
}

const floor = (key: FigureKey, label: string, bound: number, unit: string, digits: number): Target => ({ key, label, bound, kind: 'floor', unit, digits });
const ceiling = (key: FigureKey, label: string, bound: number, unit: string, digits: number): Target => ({ key, label, bound, kind: 'ceiling', unit, digits });

export const TARGETS: readonly Target[] = [
  floor('sandboxPix', 'PIX through SANDBOX, 16 in flight (PostgreSQL, QR image answered)', 1000, '/s', 0),
  floor('sandboxPixNoImage', 'PIX through SANDBOX, 16 in flight (PostgreSQL, `omit_pix_qr_image`)', 1000, '/s', 0),
  floor('sandboxBillet', 'BILLET through SANDBOX, 16 in flight (PostgreSQL)', 1000, '/s', 0),
  floor('standInPix', 'PIX against the zero-latency stand-in, best concurrency (PostgreSQL)', 1500, '/s', 0),
  floor('baselineRatio', 'gateway / bare two-commit baseline, same run (PIX, QR image answered)', 0.8, '', 2),
  floor('baselineRatioNoImage', 'gateway / bare two-commit baseline, same run (PIX, `omit_pix_qr_image`)', 0.8, '', 2),
  ceiling('cpuPerPix', 'gateway CPU per PIX charge (zero-latency stand-in, best concurrency, PostgreSQL)', 0.5, ' ms', 2),
  ceiling('durableCommits', 'durable commits a charge waits for (CreateTransaction, PostgreSQL)', 2, '', 1),
  ceiling('p99At200', 'added latency at 200/s, p99 (PIX, PostgreSQL)', 10, ' ms', 1),
  ceiling('npmStart', '`npm start` to healthy, build unchanged (embedded, median of the restarts)', 2, ' s', 2),
  ceiling('embeddedPeakRss', "embedded peak RSS under the bench's load (the gateway and its database)", 400, ' MB', 0),
];

export interface RunRecord {
  /** When and on which commit, and the machine's load average around the run. */
  run: string;
  figures: Partial<Record<FigureKey, Figure>>;
}

const noted: Partial<Record<FigureKey, Figure>> = {};

export function noteFigure(key: FigureKey, value: number, detail?: string): void {
  if (Number.isFinite(value)) noted[key] = { value, ...(detail ? { detail } : {}) };
}

export const notedFigures = (): Partial<Record<FigureKey, Figure>> => ({ ...noted });

const notedTexts: string[] = [];

/** Markdown a bench adds to issue 31's section, under its table (the baseline's profile: what bounds the ratio). */
export function noteIssue31Text(markdown: string): void {
  notedTexts.push(markdown);
}

const START_PREFIX = '<!-- issue31-targets:start';
const START_MARKER = `${START_PREFIX}: written by npm run bench (bench/issue31.ts); a rerun replaces everything down to the end marker -->`;
const END_MARKER = '<!-- issue31-targets:end -->';
const LAST_RUN = new URL('./lastRun.json', import.meta.url).pathname;

function shown(target: Target, figure: Figure | undefined): string {
  if (!figure) return 'not measured';
  return `${fixed(figure.value, target.digits)}${target.unit}${figure.detail ? ` (${figure.detail})` : ''}`;
}

/** The table: each figure of this run judged against its target, beside the previous run's figure. */
export function targetsTable(current: RunRecord, previous: RunRecord | undefined): string {
  const rows = TARGETS.map((target) => {
    const figure = current.figures[target.key];
    const verdict = figure ? judge(figure.value, target.bound, target.kind, target.unit, (value) => fixed(value, target.digits)) : 'not measured';
    const bound = `${target.kind === 'floor' ? '≥' : '≤'} ${target.bound}${target.unit}`;
    return `| ${target.label} | ${shown(target, previous?.figures[target.key])} | ${verdict}${figure?.detail ? ` (${figure.detail})` : ''} | ${bound} |`;
  });
  return [`| figure | previous run (${previous?.run ?? 'none on record'}) | this run (${current.run}) | target |`, '|---|---|---|---|', ...rows].join('\n');
}

export function readLastRun(path = LAST_RUN): RunRecord | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RunRecord;
  } catch {
    return undefined;
  }
}

/** This run's record: its figures, with the previous run's kept where this one measured nothing. */
export function nextRecord(current: RunRecord, previous: RunRecord | undefined): RunRecord {
  return { run: current.run, figures: { ...previous?.figures, ...current.figures } };
}

/** Issue 31's section of docs/benchmarks.md: its table, then what the benches noted under it (noteIssue31Text), in order. */
export function issue31Section(table: string, texts: readonly string[]): string {
  return [
    START_MARKER,
    "## Issue 31's figures, beside the previous run",
    '',
    "Written by `npm run bench` at its end: each figure from the bench that measures it (the sections above and below say how), judged against issue 31's target, beside the run before it (kept in bench/lastRun.json). A missed target says by how much; what a charge's CPU goes to in the gateway and in its bare baseline, measured in the same run, is under the table, and the sections written by hand below say what bounds each.",
    '',
    table,
    ...texts.flatMap((text) => ['', text]),
    END_MARKER,
  ].join('\n');
}

/** Prints issue 31's table; unless `quick`, writes it into docs/benchmarks.md and keeps this run in bench/lastRun.json. */
export function reportIssue31(quick: boolean, loadBefore: number[]): void {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  const current: RunRecord = {
    run: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${commit}, load average ${load(loadBefore)} before and ${load(loadavg())} after`,
    figures: notedFigures(),
  };
  const previous = readLastRun();
  const table = targetsTable(current, previous);
  console.log(`\nIssue 31's figures\n${table}`);
  if (quick) return;
  const section = issue31Section(table, notedTexts);
  writeSection(new URL('../docs/benchmarks.md', import.meta.url).pathname, section, {
    startPrefix: START_PREFIX,
    endMarker: END_MARKER,
    insertBefore: /^## The default path and the bare baseline/m,
  });
  writeFileSync(LAST_RUN, `${JSON.stringify(nextRecord(current, previous), null, 2)}\n`);
  console.log('docs/benchmarks.md: section "Issue 31\'s figures" written; bench/lastRun.json kept for the next run');
}
