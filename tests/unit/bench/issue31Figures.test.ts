import { describe, expect, it } from '@jest/globals';
import { issue31Section, nextRecord, targetsTable, TARGETS, type RunRecord } from '../../../bench/issue31.js';
import { spliceSection } from '../../../bench/gateway/report.js';

const previous: RunRecord = {
  run: 'at 45a3646',
  figures: { sandboxPix: { value: 140 }, cpuPerPix: { value: 0.74 }, embeddedPeakRss: { value: 777 } },
};
const current: RunRecord = {
  run: 'now',
  figures: { sandboxPix: { value: 1200, detail: 'p99 40 ms' }, cpuPerPix: { value: 0.61 }, durableCommits: { value: 2, detail: 'statements: insert 2.0' } },
};

describe("issue 31's figures", () => {
  it('judge each figure against its target beside the previous run, and say which were not measured', () => {
    const lines = targetsTable(current, previous).split('\n');
    expect(lines[0]).toBe('| figure | previous run (at 45a3646) | this run (now) | target |');
    expect(lines).toHaveLength(2 + TARGETS.length);
    const row = (label: string) => lines.find((line) => line.startsWith(`| ${label}`))!;
    expect(row('PIX through SANDBOX, 16 in flight (PostgreSQL, QR image answered)')).toBe(
      '| PIX through SANDBOX, 16 in flight (PostgreSQL, QR image answered) | 140/s | 1200/s: **met** (p99 40 ms) | ≥ 1000/s |',
    );
    expect(row('gateway CPU per PIX charge')).toContain('| 0.74 ms | 0.61 ms: missed by 0.11 ms (1.2× over) | ≤ 0.5 ms |');
    expect(row('durable commits')).toContain('| not measured | 2.0: **met** (statements: insert 2.0) | ≤ 2 |');
    expect(row('embedded peak RSS')).toContain('| 777 MB | not measured | ≤ 400 MB |');
  });

  it('keep the previous figure where this run measured nothing, and take the new one where it did', () => {
    const next = nextRecord(current, previous);
    expect(next.run).toBe('now');
    expect(next.figures.embeddedPeakRss).toEqual({ value: 777 });
    expect(next.figures.sandboxPix).toEqual({ value: 1200, detail: 'p99 40 ms' });
  });

  it('write their section in place of the previous one, or before the anchor the first time', () => {
    const markers = { startPrefix: '<!-- a:start', endMarker: '<!-- a:end -->', insertBefore: /^## Second/m };
    const document = '# Doc\n\n## First\n\ntext\n\n## Second\n\nmore\n';
    const first = spliceSection(document, '<!-- a:start -->\none\n<!-- a:end -->', markers);
    expect(first).toBe('# Doc\n\n## First\n\ntext\n\n<!-- a:start -->\none\n<!-- a:end -->\n\n## Second\n\nmore\n');
    expect(spliceSection(first, '<!-- a:start: x -->\ntwo\n<!-- a:end -->', markers)).toBe(
      '# Doc\n\n## First\n\ntext\n\n<!-- a:start: x -->\ntwo\n<!-- a:end -->\n\n## Second\n\nmore\n',
    );
  });

  it("carry what the benches noted under the table, in order, inside the section's markers", () => {
    const lines = issue31Section('| the table |', ['### The profile\n\n| a | b |', 'a closing word']).split('\n');
    expect(lines[0]).toMatch(/^<!-- issue31-targets:start/);
    expect(lines.at(-1)).toBe('<!-- issue31-targets:end -->');
    const table = lines.indexOf('| the table |');
    expect(lines.slice(table)).toEqual(['| the table |', '', '### The profile', '', '| a | b |', '', 'a closing word', '<!-- issue31-targets:end -->']);
  });
});
