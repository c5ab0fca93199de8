import { useId } from 'react';
import { Accordion, Card, DEFAULT_THEME, Group, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { GetTransactionStatsResponse, TimeBucketTotals } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { StackedBars } from '../stackedBars.js';
import { STATUS_COLORS, TableHead, scrollable } from '../ui.js';

/** What the bars add up: how many charges, or their cents. */
export type Measure = 'count' | 'amount';

interface Totals {
  count: bigint;
  amount: bigint;
}

/** One part of a stacked bar: a status, a provider, or the smaller providers together. */
interface Series {
  id: string;
  label: string;
  color: string;
  total: Totals;
}

/** One hour or day: its total and its parts, keyed by series id. */
interface Row {
  label: string;
  total: Totals;
  parts: Map<string, Totals>;
}

/** Beyond this many providers, the smaller ones are one "others" series (more colours would not tell them apart). */
const MAX_PROVIDERS = 7;
/** No provider id begins with a space. */
const OTHERS = ' others';
const shade = (color: string) => DEFAULT_THEME.colors[color]![6]!;
const PROVIDER_COLORS = ['blue', 'teal', 'grape', 'cyan', 'lime', 'pink', 'indigo'].map(shade);
const ZERO: Totals = { count: 0n, amount: 0n };

/** Totals added up under the id each item is given. */
function addUp<T extends Totals>(items: T[], idOf: (item: T) => string): Map<string, Totals> {
  const sums = new Map<string, Totals>();
  for (const item of items) {
    const sum = sums.get(idOf(item)) ?? ZERO;
    sums.set(idOf(item), { count: sum.count + item.count, amount: sum.amount + item.amount });
  }
  return sums;
}

/**
 * The dashboard's charts: charges by status and by provider over the range,
 * one stacked bar per hour or day, counted or added up in money.
 */
export default function DashboardCharts({
  stats,
  hourly,
  from,
  to,
  measure,
  onMeasure,
}: {
  stats: GetTransactionStatsResponse;
  hourly: boolean;
  from: Date;
  to: Date;
  /** Kept by the dashboard, so that it outlives a change of range (which reloads this). */
  measure: Measure;
  onMeasure: (measure: Measure) => void;
}) {
  const { t } = useI18n();
  const time = new Intl.DateTimeFormat(t.locale, hourly ? { hour: '2-digit', minute: '2-digit' } : { day: '2-digit', month: '2-digit' });
  // The gateway answers only buckets with charges; every hour or day of the range gets a row.
  const byStart = new Map(stats.buckets.map((b) => [b.start ? timestampDate(b.start).getTime() : 0, b]));
  const buckets: { label: string; bucket?: TimeBucketTotals }[] = [];
  for (const start = new Date(from); start < to; hourly ? start.setHours(start.getHours() + 1) : start.setDate(start.getDate() + 1))
    buckets.push({ label: time.format(start), bucket: byStart.get(start.getTime()) });
  const rows = (parts: (bucket: TimeBucketTotals) => Map<string, Totals>): Row[] =>
    buckets.map(({ label, bucket }) => ({ label, total: bucket ?? ZERO, parts: bucket ? parts(bucket) : new Map() }));

  const statusOf = (item: { status: number }) => String(item.status);
  const statuses: Series[] = stats.byStatus.map((s) => ({ id: statusOf(s), label: t.status[s.status], color: shade(STATUS_COLORS[s.status]), total: s }));

  const shown = new Set(stats.byProvider.slice(0, MAX_PROVIDERS).map((p) => p.provider));
  const providerOf = (item: { provider: string }) => (shown.has(item.provider) ? item.provider : OTHERS);
  const providerTotals = addUp(stats.byProvider, providerOf);
  const providers: Series[] = [...providerTotals].map(([id, total], index) => ({
    id,
    label: id === OTHERS ? t.dashboard.others : id,
    color: id === OTHERS ? shade('gray') : PROVIDER_COLORS[index]!,
    total,
  }));

  return (
    <>
      <Group justify="flex-end" mb="sm">
        <SegmentedControl
          aria-label={t.dashboard.measure}
          value={measure}
          onChange={(value) => onMeasure(value as Measure)}
          data={[
            { value: 'count', label: t.dashboard.byCount },
            { value: 'amount', label: t.dashboard.byVolume },
          ]}
        />
      </Group>
      <div className="charts">
        <StackedChart
          title={t.dashboard.byStatus}
          testId="chart-status"
          series={statuses}
          total={stats}
          rows={rows((bucket) => addUp(bucket.byStatus, statusOf))}
          measure={measure}
          hourly={hourly}
        />
        <StackedChart
          title={t.dashboard.byProvider}
          testId="chart-provider"
          series={providers}
          total={stats}
          rows={rows((bucket) => addUp(bucket.byProvider, providerOf))}
          measure={measure}
          hourly={hourly}
        />
      </div>
    </>
  );
}

/** A stacked bar chart, and the same numbers as a table (for screen readers and exact figures). */
function StackedChart({
  title,
  testId,
  series,
  total,
  rows,
  measure,
  hourly,
}: {
  title: string;
  testId: string;
  series: Series[];
  /** The whole range's. */
  total: Totals;
  rows: Row[];
  measure: Measure;
  hourly: boolean;
}) {
  const { t } = useI18n();
  const hintId = useId();
  const shown = (value: number | bigint) => (measure === 'amount' ? formatMoney(typeof value === 'bigint' ? value : Math.round(value)) : value.toString());
  const cell = (totals: Totals | undefined) => shown((totals ?? ZERO)[measure]);
  const bars = rows.map((row) => ({
    label: row.label,
    values: new Map(series.map((s) => [s.id, Number((row.parts.get(s.id) ?? ZERO)[measure])])),
  }));
  return (
    <Card withBorder data-testid={testId}>
      <Title order={2} size="h4">
        {title}
      </Title>
      <Text id={hintId} size="sm" c="dimmed" mb="sm">
        {`${measure === 'amount' ? t.dashboard.byVolume : t.dashboard.byCount}, ${hourly ? t.dashboard.perHour : t.dashboard.perDay}. ${t.dashboard.tableBelow}`}
      </Text>
      <StackedBars
        label={`${title}: ${t.dashboard.total} ${cell(total)}`}
        describedBy={hintId}
        testId={testId}
        series={series}
        bars={bars}
        format={(value) => shown(value)}
      />
      <Accordion mt="sm">
        <Accordion.Item value="table">
          <Accordion.Control aria-label={`${t.dashboard.showTable}: ${title}`}>{t.dashboard.showTable}</Accordion.Control>
          <Accordion.Panel>
            <div className="table-scroll" {...scrollable(title)}>
              <Table data-testid={`${testId}-table`}>
                <Table.Caption>{title}</Table.Caption>
                <TableHead columns={[hourly ? t.dashboard.hour : t.dashboard.day, ...series.map((s) => s.label), t.dashboard.total]} />
                <Table.Tbody>
                  {rows.map((row, index) => (
                    <Table.Tr key={index}>
                      <Table.Th scope="row">{row.label}</Table.Th>
                      {series.map((s) => (
                        <Table.Td key={s.id}>{cell(row.parts.get(s.id))}</Table.Td>
                      ))}
                      <Table.Td>{cell(row.total)}</Table.Td>
                    </Table.Tr>
                  ))}
                  <Table.Tr data-testid="total">
                    <Table.Th scope="row">{t.dashboard.total}</Table.Th>
                    {series.map((s) => (
                      <Table.Td key={s.id}>{cell(s.total)}</Table.Td>
                    ))}
                    <Table.Td>{cell(total)}</Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </div>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Card>
  );
}
