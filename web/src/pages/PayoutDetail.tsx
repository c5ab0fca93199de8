import { useParams } from 'react-router';
import { Card, Stack } from '@mantine/core';
import { useQuery } from '@connectrpc/connect-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ErrorAlert } from '../errors.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { PageHeader, StatusBadge, StatusHistory, When } from '../ui.js';

/** One payout: its amount, status and status history. Live: a status change refetches it. */
export default function PayoutDetail() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const detail = useQuery(PaymentGatewayService.method.getWithdraw, { id });
  const payout = detail.data?.withdrawal;

  return (
    <>
      <PageHeader title={t.payout.title} back={{ to: '/payouts', label: t.payout.back }} />
      <ErrorAlert error={detail.error} />
      {payout && (
        <Stack>
          <Card withBorder>
            <dl className="facts" data-testid="payout">
              <dt>{t.transactions.id}</dt>
              <dd>{payout.id}</dd>
              <dt>{t.transactions.status}</dt>
              <dd>
                <StatusBadge status={payout.status} withdraw />
              </dd>
              <dt>{t.transactions.amount}</dt>
              <dd data-testid="amount">{formatMoney(payout.amount)}</dd>
              <dt>{t.transactions.method}</dt>
              <dd>{t.withdrawMethod[payout.paymentMethod]}</dd>
              <dt>{t.transactions.provider}</dt>
              <dd>{payout.provider}</dd>
              <dt>{t.payout.providerId}</dt>
              <dd>{payout.withdrawId}</dd>
              <dt>{t.transactions.created}</dt>
              <dd>
                <When at={payout.createdAt} />
              </dd>
              {payout.approvedAt && (
                <>
                  <dt>{t.payout.approvedAt}</dt>
                  <dd>
                    <When at={payout.approvedAt} />
                  </dd>
                </>
              )}
            </dl>
          </Card>
          <StatusHistory changes={payout.statusHistory} withdraw />
        </Stack>
      )}
    </>
  );
}
