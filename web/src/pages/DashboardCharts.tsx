import { Card, Title } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { GetTransactionStatsResponse } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';

interface Point {
  name: string;
  count: number;
  amount: number;
}

/** The charts of the dashboard, in a chunk of their own (the chart library is the heaviest part of the app). */
export default function DashboardCharts({ stats, hourly, from, to }: { stats: GetTransactionStatsResponse; hourly: boolean; from: Date; to: Date }) {
  const { t } = useI18n();
  const time = new Intl.DateTimeFormat(t.locale, hourly ? { hour: '2-digit', minute: '2-digit' } : { day: '2-digit', month: '2-digit' });
  // The gateway answers only buckets with charges; every hour or day of the range gets a point.
  const byStart = new Map(stats.buckets.map((b) => [b.start ? timestampDate(b.start).getTime() : 0, b]));
  const overTime: Point[] = [];
  for (const start = new Date(from); start < to; hourly ? start.setHours(start.getHours() + 1) : start.setDate(start.getDate() + 1)) {
    const bucket = byStart.get(start.getTime());
    overTime.push({ name: time.format(start), count: Number(bucket?.count ?? 0n), amount: Number(bucket?.amount ?? 0n) });
  }
  const byStatus = stats.byStatus.map((s) => ({ name: t.status[s.status], count: Number(s.count), amount: Number(s.amount) }));
  const byProvider = stats.byProvider.map((p) => ({ name: p.provider, count: Number(p.count), amount: Number(p.amount) }));
  return (
    <div className="charts">
      <Chart title={t.dashboard.overTime} data={overTime} line />
      <Chart title={t.dashboard.byStatus} data={byStatus} />
      <Chart title={t.dashboard.byProvider} data={byProvider} />
    </div>
  );
}

function Chart({ title, data, line }: { title: string; data: Point[]; line?: boolean }) {
  const { t } = useI18n();
  const money = (cents: number) => formatMoney(Math.round(cents));
  const Series = line ? ComposedChart : BarChart;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      <div className="chart" role="img" aria-label={title}>
        <ResponsiveContainer>
          <Series data={data}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="name" />
            <YAxis yAxisId="count" allowDecimals={false} />
            <YAxis yAxisId="amount" orientation="right" tickFormatter={money} width={90} />
            <Tooltip formatter={(value, name) => (name === t.dashboard.volume ? money(Number(value)) : String(value))} />
            <Legend />
            <Bar yAxisId="count" dataKey="count" name={t.dashboard.count} fill="#228be6" />
            {line ? (
              <Line yAxisId="amount" dataKey="amount" name={t.dashboard.volume} stroke="#40c057" />
            ) : (
              <Bar yAxisId="amount" dataKey="amount" name={t.dashboard.volume} fill="#40c057" />
            )}
          </Series>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}
