import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Every metric the dashboard, the alert rules and the workers' autoscaler ask for is one a running gateway serves: a
 * renamed metric would otherwise leave an empty panel and an alert that can never fire.
 */
let stack: TestStack;
/** The metric families /metrics declares (# TYPE), with their type: declared even before they have a sample. */
let served: Map<string, string>;

beforeAll(async () => {
  stack = await startTestStack();
  const text = await (await fetch(`${stack.gateway.metricsUrl}/metrics`)).text();
  served = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [name!, type!]));
});

afterAll(async () => {
  await stack?.close();
});

/** The gateway's and the process's metric names a PromQL expression reads. */
const namesIn = (expr: string) => [...expr.matchAll(/\b(?:gateway|process|nodejs)_[a-z0-9_]+\b/g)].map(([name]) => name);

/** Whether /metrics serves the name: a family, or a histogram's _bucket, _sum or _count. */
function isServed(name: string): boolean {
  if (served.has(name)) return true;
  const histogram = /^(.+)_(bucket|sum|count)$/.exec(name);
  return histogram !== null && served.get(histogram[1]!) === 'histogram';
}

function queried(): Map<string, string> {
  const where = new Map<string, string>();
  const dashboard = JSON.parse(readFileSync('deploy/grafana/payment-gateway.json', 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };
  for (const panel of dashboard.panels)
    for (const target of panel.targets ?? []) for (const name of namesIn(target.expr)) where.set(name, `dashboard panel "${panel.title}"`);
  const alerts = parse(readFileSync('deploy/prometheus/alerts.yml', 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] };
  for (const rule of alerts.groups.flatMap((group) => group.rules)) for (const name of namesIn(rule.expr)) where.set(name, `alert ${rule.alert}`);
  for (const name of namesIn(readFileSync('deploy/k8s/base/horizontalpodautoscalers.yaml', 'utf8'))) where.set(name, 'the workers’ autoscaler');
  return where;
}

it('serves every metric the dashboard, the alerts and the autoscaler read', () => {
  const where = queried();
  expect(where.size).toBeGreaterThan(20);
  const missing = [...where].filter(([name]) => !isServed(name)).map(([name, place]) => `${name} (${place})`);
  expect(missing).toEqual([]);
});

it('finds a name the gateway does not serve', () => {
  expect(isServed('gateway_webhook_queue_depth')).toBe(true);
  expect(isServed('gateway_rpc_duration_seconds_bucket')).toBe(true);
  expect(isServed('gateway_webhook_queue_depth_bucket')).toBe(false);
  expect(isServed('gateway_provider_certificate_expiry_seconds')).toBe(false);
});

it('gives every dashboard panel its own id and queries the data source chosen on import', () => {
  const dashboard = JSON.parse(readFileSync('deploy/grafana/payment-gateway.json', 'utf8')) as {
    panels: { id: number; targets?: { datasource: { uid: string } }[] }[];
    templating: { list: { name: string; type: string }[] };
  };
  expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
  expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: 'datasource', type: 'datasource' }));
  for (const target of dashboard.panels.flatMap((panel) => panel.targets ?? [])) expect(target.datasource.uid).toBe('${datasource}');
});
