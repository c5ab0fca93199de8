import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Card, Group, Loader, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@connectrpc/connect-query';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { PaymentGatewayService, TimeBucket } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { EventSubject, TransactionStatus } from '../../../gen/es/gateway/v1/types_pb.js';
import { ErrorAlert } from '../errors.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { useLiveEvents } from '../live.js';
import { StatusBadge, When, scrollable } from '../ui.js';
import type { Measure } from './DashboardCharts.js';

const DashboardCharts = lazy(() => import('./DashboardCharts.js'));

type Range = 'week' | 'day';

/** Statuses of charges that were paid (refunds and chargebacks were paid first). */
const PAID = new Set([TransactionStatus.APPROVED, TransactionStatus.REFUNDED, TransactionStatus.CHARGEBACK]);

/**
 * The range ends at the end of the current day or hour and starts 7 days or
 * 24 hours before, so the request (and its cache key) only changes when a new
 * bucket begins, and a charge created now is inside it.
 */
function rangeOf(range: Range) {
  const end = new Date();
  if (range === 'week') end.setHours(24, 0, 0, 0);
  else end.setHours(end.getHours() + 1, 0, 0, 0);
  const start = new Date(end);
  if (range === 'week') start.setDate(start.getDate() - 7);
  else start.setHours(start.getHours() - 24);
  return { createdFrom: timestampFromDate(start), createdTo: timestampFromDate(end) };
}

/** Counts, volume and approval rate over the last 7 days or 24 hours, their charts, and the live feed of charges' and payouts' status changes. */
export default function Dashboard() {
  const { t } = useI18n();
  const [range, setRange] = useState<Range>('week');
  const [measure, setMeasure] = useState<Measure>('count');
  const span = rangeOf(range);
  const stats = useQuery(PaymentGatewayService.method.getTransactionStats, {
    ...span,
    bucket: range === 'week' ? TimeBucket.DAY : TimeBucket.HOUR,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  const data = stats.data;
  const decided = data?.byStatus.filter((s) => s.status !== TransactionStatus.PENDING).reduce((sum, s) => sum + s.count, 0n) ?? 0n;
  const paid = data?.byStatus.filter((s) => PAID.has(s.status)).reduce((sum, s) => sum + s.count, 0n) ?? 0n;
  const approvalRate = decided > 0n ? `${((Number(paid) * 100) / Number(decided)).toLocaleString(t.locale, { maximumFractionDigits: 1 })}%` : '—';

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>{t.nav.dashboard}</Title>
        <SegmentedControl
          aria-label={t.dashboard.range}
          value={range}
          onChange={(value) => setRange(value as Range)}
          data={[
            { value: 'week', label: t.dashboard.last7 },
            { value: 'day', label: t.dashboard.last24 },
          ]}
        />
      </Group>
      <ErrorAlert error={stats.error} />
      <div className="stat-cards">
        <Stat label={t.dashboard.count} value={data ? data.count.toString() : '…'} testId="stat-count" />
        <Stat label={t.dashboard.volume} value={data ? formatMoney(data.amount) : '…'} testId="stat-volume" />
        <Stat
          label={t.dashboard.approvalRate}
          value={data ? approvalRate : '…'}
          detail={data && t.dashboard.approvalBasis(paid.toString(), decided.toString())}
          testId="stat-approval"
        />
      </div>
      {data && (
        <Suspense fallback={<Loader aria-label={t.loading} />}>
          <DashboardCharts
            stats={data}
            hourly={range === 'day'}
            from={timestampDate(span.createdFrom)}
            to={timestampDate(span.createdTo)}
            measure={measure}
            onMeasure={setMeasure}
          />
        </Suspense>
      )}
      <Feed />
    </>
  );
}

/** A figure with its label, and what it is made of when that is not obvious. */
function Stat({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
      {detail && (
        <Text size="xs" c="dimmed" data-testid={`${testId}-detail`}>
          {detail}
        </Text>
      )}
    </Card>
  );
}

/** Charges' and payouts' status changes as they happen, each linking to its page. */
function Feed() {
  const { t } = useI18n();
  const events = useLiveEvents();
  return (
    <Card withBorder mt="md">
      <Title order={2} size="h4" mb="sm">
        {t.dashboard.feed}
      </Title>
      {events.length === 0 ? (
        <Text c="dimmed">{t.dashboard.feedEmpty}</Text>
      ) : (
        <div className="table-scroll" {...scrollable(t.dashboard.feed)}>
          <Table data-testid="feed">
            <Table.Tbody>
              {events.map((event) => {
                const payout = event.subject === EventSubject.WITHDRAWAL;
                return (
                  <Table.Tr key={event.eventId}>
                    <Table.Td>
                      <When at={event.occurredAt} />
                    </Table.Td>
                    <Table.Td>{payout ? t.dashboard.payout : t.dashboard.charge}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/${payout ? 'payouts' : 'transactions'}/${event.subjectId}`}>
                        {event.subjectId}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{payout ? <StatusBadge status={event.withdrawStatus} withdraw /> : <StatusBadge status={event.transactionStatus} />}</Table.Td>
                    <Table.Td>{t.source[event.source]}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Card>
  );
}
