/** One sample of the Prometheus text format: `name{label="value",…} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

const unescape = (value: string) => value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));

export function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [, name, labels = '', value] = SAMPLE.exec(line) ?? [];
      if (!name || value === undefined) throw new Error(`not a sample: ${line}`);
      return { name, labels: Object.fromEntries([...labels.matchAll(LABEL)].map(([, key, raw]) => [key!, unescape(raw!)])), value: Number(value) };
    });
}

/** GET `<metricsUrl>/metrics`, parsed. */
export async function scrape(metricsUrl: string): Promise<Sample[]> {
  const response = await fetch(`${metricsUrl}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  return parseMetrics(await response.text());
}

/** The samples of `name` whose labels include `labels`. */
export const samplesOf = (samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] =>
  samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));

/** The sum of those samples (0 when there are none: a counter not yet incremented has no series). */
export const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}): number =>
  samplesOf(samples, name, labels).reduce((sum, sample) => sum + sample.value, 0);
