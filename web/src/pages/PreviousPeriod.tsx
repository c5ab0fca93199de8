import { Text } from '@mantine/core';
import { useQuery } from '@connectrpc/connect-query';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { PaymentGatewayService, TimeBucket, type GetTransactionStatsResponse } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { formatCount, formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';

type Totals = Pick<GetTransactionStatsResponse, 'netAmount' | 'count' | 'approvedCount' | 'declinedCount'>;

/** The change from `before` as a signed percentage, or none when there was nothing before to compare with. */
function change(now: number, before: number, locale: string): string | undefined {
  if (before === 0) return undefined;
  const percent = ((now - before) * 100) / Math.abs(before);
  return `${percent > 0 ? '+' : ''}${percent.toLocaleString(locale, { maximumFractionDigits: 1 })}%`;
}

/** dd/mm/aaaa in both languages, as the back-office shows every day. */
const asDay = (date: Date): string => date.toLocaleDateString('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric' });

const rate = ({ approvedCount, declinedCount }: Totals): number | undefined => {
  const decided = Number(approvedCount + declinedCount);
  return decided > 0 ? (Number(approvedCount) * 100) / decided : undefined;
};

/**
 * The same figures over the period of the same length just before the shown one (the 7 days, 24 hours or custom days
 * before), and how the shown period compares: net volume and count in percent, conversion in percentage points.
 */
export function PreviousPeriod({ span, current, timeZone }: { span: { createdFrom: Timestamp; createdTo: Timestamp }; current?: Totals; timeZone: string }) {
  const { t } = useI18n();
  const [start, end] = [timestampDate(span.createdFrom), timestampDate(span.createdTo)];
  const previous = { createdFrom: timestampFromDate(new Date(2 * start.getTime() - end.getTime())), createdTo: span.createdFrom };
  const stats = useQuery(PaymentGatewayService.method.getTransactionStats, { ...previous, bucket: TimeBucket.DAY, timeZone });
  const before = stats.data;
  if (!before || !current) return null;
  const [rateNow, rateBefore] = [rate(current), rate(before)];
  const points =
    rateNow !== undefined && rateBefore !== undefined
      ? `${rateNow - rateBefore > 0 ? '+' : ''}${(rateNow - rateBefore).toLocaleString(t.locale, { maximumFractionDigits: 1 })} p.p.`
      : undefined;
  const item = (label: string, value: string, delta: string | undefined, testId: string) => (
    <li data-testid={testId}>
      {label}: {value}
      {delta && ` (${delta})`}
    </li>
  );
  return (
    <Text component="div" size="sm" mb="md" data-testid="previous-period">
      <Text size="sm" fw={600}>
        {t.dashboard.previousPeriod(asDay(timestampDate(previous.createdFrom)), asDay(new Date(start.getTime() - 1)))}
      </Text>
      <ul className="previous-period">
        {item(t.dashboard.volume, formatMoney(before.netAmount), change(Number(current.netAmount), Number(before.netAmount), t.locale), 'previous-volume')}
        {item(t.dashboard.count, formatCount(before.count, t.locale), change(Number(current.count), Number(before.count), t.locale), 'previous-count')}
        {item(
          t.dashboard.approvalRate,
          rateBefore === undefined ? '—' : `${rateBefore.toLocaleString(t.locale, { maximumFractionDigits: 1 })}%`,
          points,
          'previous-conversion',
        )}
      </ul>
    </Text>
  );
}
