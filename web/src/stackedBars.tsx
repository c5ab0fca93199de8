import { niceStep } from './chartScale.js';

/** One coloured part of every bar. */
export interface BarSeries {
  id: string;
  label: string;
  color: string;
}

/** One bar: its label on the axis and its parts' values, keyed by series id. */
export interface Bar {
  label: string;
  values: Map<string, number>;
}

// The drawing's own units; the SVG scales to its box, so these only set the proportions and the text's size.
const WIDTH = 400;
const HEIGHT = 200;
const LEFT = 96;
const RIGHT = 8;
const TOP = 8;
const BOTTOM = 22;
/** More labels than this under the bars would overlap; the others are skipped. */
const MAX_AXIS_LABELS = 8;

/**
 * A stacked bar chart drawn as SVG: a few hundred bytes of code where a chart library was 50 KB compressed. The
 * picture is one image to assistive technology, named by `label`; each bar's title (the browser's tooltip) gives its
 * parts' values, and the legend is text beside it.
 */
export function StackedBars({
  label,
  describedBy,
  testId,
  series,
  bars,
  format,
}: {
  label: string;
  describedBy: string;
  testId: string;
  series: BarSeries[];
  bars: Bar[];
  format: (value: number) => string;
}) {
  const totals = bars.map((bar) => series.reduce((sum, s) => sum + (bar.values.get(s.id) ?? 0), 0));
  const step = niceStep(Math.max(0, ...totals));
  const top = step * Math.max(1, Math.ceil(Math.max(0, ...totals) / step));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(1, bars.length);
  const barWidth = slot * 0.7;
  const labelEvery = Math.ceil(bars.length / MAX_AXIS_LABELS);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, index) => index * step);
  return (
    <>
      <svg
        className="chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={label}
        aria-describedby={describedBy}
        data-testid={`${testId}-canvas`}
        data-bars={bars.length}
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(tick)} y2={y(tick)} className="chart-grid" />
            <text x={LEFT - 6} y={y(tick)} textAnchor="end" dominantBaseline="middle" className="chart-text">
              {format(tick)}
            </text>
          </g>
        ))}
        {bars.map((bar, index) => {
          const x = LEFT + index * slot + (slot - barWidth) / 2;
          let base = 0;
          return (
            <g key={index} data-testid="bar">
              <title>{`${bar.label}: ${series.map((s) => `${s.label} ${format(bar.values.get(s.id) ?? 0)}`).join(', ')}`}</title>
              {/* Transparent, so the whole slot shows the bar's title, not only its coloured parts. */}
              <rect x={LEFT + index * slot} y={TOP} width={slot} height={plotHeight} fill="transparent" />
              {series.map((s) => {
                const value = bar.values.get(s.id) ?? 0;
                if (value <= 0) return null;
                const rect = <rect key={s.id} x={x} y={y(base + value)} width={barWidth} height={y(base) - y(base + value)} fill={s.color} />;
                base += value;
                return rect;
              })}
              {index % labelEvery === 0 && (
                <text x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle" className="chart-text">
                  {bar.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul className="chart-legend">
        {series.map((s) => (
          <li key={s.id}>
            <span className="chart-swatch" style={{ background: s.color }} aria-hidden="true" />
            {s.label}
          </li>
        ))}
      </ul>
    </>
  );
}
