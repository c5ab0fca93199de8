import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Card, Group, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { skipToken, useQuery } from '@connectrpc/connect-query';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import {
  PaymentGatewayService,
  TimeBucket,
  type DeclineCategoryTotals,
  type PaymentMethodOutcomes,
  type ProviderOutcomes,
} from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { EventSubject } from '../../../gen/es/gateway/v1/types_pb.js';
import { ErrorAlert } from '../errors.js';
import { formatCount, formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { useLiveEvents } from '../live.js';
import { StatusBadge, TableHead, When, scrollable } from '../ui.js';
import { dayStart, DayInput } from '../filters.js';
import { useUrlStates } from '../urlState.js';
import { isoDayOrEmpty } from '../days.js';
import DashboardCharts, { type Measure } from './DashboardCharts.js';
import { PreviousPeriod } from './PreviousPeriod.js';

type Range = 'week' | 'day' | 'custom';
type Span = { createdFrom: Timestamp; createdTo: Timestamp };

/**
 * The range ends at the end of the current day or hour and starts 7 days or
 * 24 hours before, so the request (and its cache key) only changes when a new
 * bucket begins, and a charge created now is inside it. A custom range runs
 * from the start of its first day to the end of its last, in the reader's time
 * zone; none until both days are given, in order.
 */
function rangeOf(range: Range, from: string, to: string): Span | undefined {
  if (range === 'custom') {
    const [start, end] = [dayStart(from), dayStart(to, true)];
    return start && end && timestampDate(start) < timestampDate(end) ? { createdFrom: start, createdTo: end } : undefined;
  }
  const end = new Date();
  if (range === 'week') end.setHours(24, 0, 0, 0);
  else end.setHours(end.getHours() + 1, 0, 0, 0);
  const start = new Date(end);
  if (range === 'week') start.setDate(start.getDate() - 7);
  else start.setHours(start.getHours() - 24);
  return { createdFrom: timestampFromDate(start), createdTo: timestampFromDate(end) };
}

/** Approved over decided (approved and declined; pending and canceled left out) as a percentage, or a dash when none was decided. */
export function conversionOf({ approvedCount, declinedCount }: { approvedCount: bigint; declinedCount: bigint }, locale: string): string {
  const decided = approvedCount + declinedCount;
  return decided > 0n ? `${((Number(approvedCount) * 100) / Number(decided)).toLocaleString(locale, { maximumFractionDigits: 1 })}%` : '—';
}

/**
 * The net volume (approved less refunded and charged back, each on the day it happened, as the statement counts them)
 * as the headline, with its parts and a line saying so;
 * the count of charges created, conversion over all and per payment method and provider, over the last 7 days or 24
 * hours; their charts, and the live feed of charges' and payouts' status changes.
 */
export default function Dashboard() {
  const { t } = useI18n();
  const [address, setAddress] = useUrlStates(['range', 'from', 'to']);
  const range: Range = address.range === 'day' || address.range === 'custom' ? address.range : 'week';
  const [from, to] = [isoDayOrEmpty(address.from), isoDayOrEmpty(address.to)];
  const [measure, setMeasure] = useState<Measure>('count');
  const span = rangeOf(range, from, to);
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const stats = useQuery(
    PaymentGatewayService.method.getTransactionStats,
    span ? { ...span, bucket: range === 'day' ? TimeBucket.HOUR : TimeBucket.DAY, timeZone } : skipToken,
  );
  const data = span && stats.data;

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>{t.nav.dashboard}</Title>
        <SegmentedControl
          aria-label={t.dashboard.range}
          value={range}
          onChange={(value) => setAddress({ range: value === 'week' ? '' : value, from, to })}
          data={[
            { value: 'week', label: t.dashboard.last7 },
            { value: 'day', label: t.dashboard.last24 },
            { value: 'custom', label: t.dashboard.custom },
          ]}
        />
      </Group>
      {range === 'custom' && (
        <Group mb="md" align="flex-start" data-testid="custom-range">
          <DayInput label={t.dashboard.from} value={from} onChange={(day) => setAddress({ range, from: day, to })} />
          <DayInput label={t.dashboard.to} value={to} onChange={(day) => setAddress({ range, from, to: day })} />
          {!span && (
            <Text size="sm" c="dimmed" mt="xl">
              {t.dashboard.chooseDays}
            </Text>
          )}
        </Group>
      )}
      <ErrorAlert error={span && stats.error} />
      {span && <PreviousPeriod span={span} current={data} timeZone={timeZone} />}
      <div className="stat-cards">
        <Card withBorder className="stat-headline">
          <Text size="sm" c="dimmed">
            {t.dashboard.volume}
          </Text>
          <Text size="xl" fw={700} data-testid="stat-volume">
            {data ? formatMoney(data.netAmount) : '…'}
          </Text>
          {data && (
            <dl className="facts stat-parts" data-testid="stat-volume-parts">
              <dt>{t.dashboard.gross}</dt>
              <dd data-testid="stat-gross">{formatMoney(data.approvedAmount)}</dd>
              <dt>{t.dashboard.refunded}</dt>
              <dd data-testid="stat-refunded">{formatMoney(-data.refundedAmount)}</dd>
              <dt>{t.dashboard.chargeback}</dt>
              <dd data-testid="stat-chargeback">{formatMoney(-data.chargebackAmount)}</dd>
            </dl>
          )}
          <Text size="xs" c="dimmed" mt="xs" data-testid="stat-volume-meaning">
            {t.dashboard.volumeMeaning}
          </Text>
        </Card>
        <Stat
          label={t.dashboard.count}
          value={data ? formatCount(data.count, t.locale) : '…'}
          detail={data && t.dashboard.createdVolume(formatMoney(data.amount))}
          testId="stat-count"
        />
        <Stat
          label={t.dashboard.approvalRate}
          value={data ? conversionOf(data, t.locale) : '…'}
          detail={data && t.dashboard.approvalBasis(formatCount(data.approvedCount, t.locale), formatCount(data.approvedCount + data.declinedCount, t.locale))}
          testId="stat-approval"
        />
      </div>
      {data && <Conversion byMethod={data.outcomesByPaymentMethod} byProvider={data.outcomesByProvider} declines={data.declinesByCategory} />}
      {span && data && (
        <DashboardCharts
          stats={data}
          hourly={range === 'day'}
          from={timestampDate(span.createdFrom)}
          to={timestampDate(span.createdTo)}
          measure={measure}
          onMeasure={setMeasure}
        />
      )}
      <Feed />
    </>
  );
}

/**
 * Conversion and net volume per payment method and per provider, and the declines by reason, as three tables (largest
 * count first, as the server sends them).
 */
function Conversion({
  byMethod,
  byProvider,
  declines,
}: {
  byMethod: PaymentMethodOutcomes[];
  byProvider: ProviderOutcomes[];
  declines: DeclineCategoryTotals[];
}) {
  const { t } = useI18n();
  const table = (title: string, first: string, testId: string, rows: { key: string; name: string; outcomes: PaymentMethodOutcomes | ProviderOutcomes }[]) => (
    <div className="table-scroll" {...scrollable(title)}>
      <Table data-testid={testId}>
        <Table.Caption>{title}</Table.Caption>
        <TableHead columns={[first, t.dashboard.approved, t.dashboard.declined, t.dashboard.pending, t.dashboard.conversion, t.dashboard.volume]} />
        <Table.Tbody>
          {rows.map(({ key, name, outcomes }) => (
            <Table.Tr key={key} data-key={key}>
              <Table.Th scope="row">{name}</Table.Th>
              <Table.Td>{formatCount(outcomes.approvedCount, t.locale)}</Table.Td>
              <Table.Td>{formatCount(outcomes.declinedCount, t.locale)}</Table.Td>
              <Table.Td>{formatCount(outcomes.pendingCount, t.locale)}</Table.Td>
              <Table.Td>{conversionOf(outcomes, t.locale)}</Table.Td>
              <Table.Td className="money">{formatMoney(outcomes.netAmount)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
  return (
    <Card withBorder mb="md" data-testid="conversion">
      <Title order={2} size="h4">
        {t.dashboard.conversionTitle}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t.dashboard.conversionHint}
      </Text>
      <div className="conversion-tables">
        {table(
          t.dashboard.byMethod,
          t.dashboard.method,
          'conversion-method',
          byMethod.map((outcomes) => ({ key: String(outcomes.paymentMethod), name: t.method[outcomes.paymentMethod], outcomes })),
        )}
        {table(
          t.dashboard.byProviderConversion,
          t.dashboard.provider,
          'conversion-provider',
          byProvider.map((outcomes) => ({ key: outcomes.provider, name: outcomes.provider, outcomes })),
        )}
        {declines.length > 0 && (
          <div className="table-scroll" {...scrollable(t.dashboard.declinesTitle)}>
            <Table data-testid="declines-by-reason">
              <Table.Caption>{t.dashboard.declinesTitle}</Table.Caption>
              <TableHead columns={[t.detail.declineReason, t.dashboard.declined, t.dashboard.declinedAmount]} />
              <Table.Tbody>
                {declines.map(({ category, count, amount }) => (
                  <Table.Tr key={category} data-key={category}>
                    <Table.Th scope="row">{category ? (t.detail.declineCategories[category] ?? category) : t.detail.declineNotGiven}</Table.Th>
                    <Table.Td>{formatCount(count, t.locale)}</Table.Td>
                    <Table.Td className="money">{formatMoney(amount)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        )}
      </div>
    </Card>
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
