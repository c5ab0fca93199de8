import { readFileSync } from 'node:fs';
import { expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { runCiTool } from '../support/ciTool.js';

/**
 * The alert rules (deploy/prometheus/alerts.yml) as Prometheus itself reads them: promtool checks their syntax and
 * runs their unit tests (alerts.test.yml), and every runbook they link is a heading of docs/operations.md.
 */
type Rule = { alert: string; expr: string; annotations: { runbook_url: string } };
const rules = (parse(readFileSync('deploy/prometheus/alerts.yml', 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((group) => group.rules);

it('passes promtool check rules', () => {
  const output = runCiTool('promtool', ['check', 'rules', 'deploy/prometheus/alerts.yml'], 'prometheus');
  expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
});

it("passes promtool's unit tests, which fire every alert and hold each back below its threshold", () => {
  const output = runCiTool('promtool', ['test', 'rules', 'alerts.test.yml'], 'prometheus', { cwd: 'deploy/prometheus' });
  expect(output).toContain('SUCCESS');
  const tested = new Set([...readFileSync('deploy/prometheus/alerts.test.yml', 'utf8').matchAll(/alertname: (\w+)/g)].map(([, name]) => name));
  expect([...tested].sort()).toEqual(rules.map((rule) => rule.alert).sort());
});

it('links each alert to its own runbook, a heading of docs/operations.md', () => {
  // GitHub's anchors: the heading lower-cased, punctuation dropped, spaces as hyphens.
  const anchors = new Set(
    [...readFileSync('docs/operations.md', 'utf8').matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
      heading!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
  const links = rules.map((rule) => rule.annotations.runbook_url);
  expect(new Set(links).size).toBe(rules.length);
  for (const link of links) {
    const [file, anchor] = link.split('#');
    expect({ link, file, known: anchors.has(anchor!) }).toEqual({ link, file: 'docs/operations.md', known: true });
  }
});
