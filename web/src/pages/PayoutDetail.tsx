import { useState } from 'react';
import { useParams } from 'react-router';
import { Alert, Button, Card, Group, Stack, TextInput } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { PayoutReviewOutcome, WithdrawStatus, type Withdrawal } from '../../../gen/es/gateway/v1/types_pb.js';
import { ErrorAlert } from '../errors.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { payoutDestination } from '../payouts.js';
import { optionalFact, PageHeader, StatusBadge, StatusHistory, When } from '../ui.js';

/**
 * One payout: amount, status, where it went, who asked and who reviewed it,
 * why it was refused, and its status history. Live: a status change refetches
 * it. A payout awaiting approval offers approve and reject to the roles that
 * may pay out; the operator who asked for it sees why they cannot approve it.
 */
export default function PayoutDetail({ canReview, operatorId }: { canReview: boolean; operatorId: string }) {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const detail = useQuery(PaymentGatewayService.method.getWithdraw, { id });
  const payout = detail.data?.withdrawal;

  return (
    <>
      <PageHeader title={t.payout.title} back={{ to: '/payouts', label: t.payout.back }} loading={detail.isPending} />
      <ErrorAlert error={detail.error} />
      {payout && (
        <Stack>
          <Card withBorder>
            <PayoutFacts payout={payout} />
          </Card>
          {payout.status === WithdrawStatus.AWAITING_APPROVAL && (
            <Review payout={payout} canReview={canReview} ownRequest={payout.requestedById !== '' && payout.requestedById === operatorId} />
          )}
          <StatusHistory changes={payout.statusHistory} withdraw />
        </Stack>
      )}
    </>
  );
}

function PayoutFacts({ payout }: { payout: Withdrawal }) {
  const { t } = useI18n();
  const review = payout.review;
  return (
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
      {optionalFact(t.payout.destination, payoutDestination(payout, t), 'destination')}
      {optionalFact(t.payout.recipient, payout.request?.name, 'recipient')}
      {optionalFact(t.payout.description, payout.request?.description, 'description')}
      <dt>{t.transactions.provider}</dt>
      <dd>{payout.provider}</dd>
      {optionalFact(t.payout.providerId, payout.withdrawId, 'provider-id')}
      {optionalFact(t.payout.requestedBy, payout.requestedBy, 'requested-by')}
      {review && optionalFact(review.outcome === PayoutReviewOutcome.REJECTED ? t.payout.rejectedBy : t.payout.approvedBy, review.reviewedBy, 'reviewed-by')}
      {review?.reviewedAt && (
        <>
          <dt>{t.payout.reviewedAt}</dt>
          <dd>
            <When at={review.reviewedAt} />
          </dd>
        </>
      )}
      {optionalFact(t.payout.refusalReason, payout.refusalReason, 'refusal-reason')}
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
  );
}

/** Approve (the payout is then sent) or reject (with an optional reason) a payout held for a second operator. */
function Review({ payout, canReview, ownRequest }: { payout: Withdrawal; canReview: boolean; ownRequest: boolean }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const refetch = () => void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: PaymentGatewayService, cardinality: undefined }) });
  const approve = useMutation(PaymentGatewayService.method.approveWithdraw, { onSettled: refetch });
  const reject = useMutation(PaymentGatewayService.method.rejectWithdraw, { onSettled: refetch });
  const busy = approve.isPending || reject.isPending;

  return (
    <Card withBorder>
      <Stack>
        <Alert color="yellow" data-testid="awaiting-approval">
          {t.payout.awaiting}
        </Alert>
        {ownRequest && <Alert color="blue">{t.payout.ownRequest}</Alert>}
        <ErrorAlert error={approve.error ?? reject.error} />
        {canReview && (
          <Group>
            {/* The gateway refuses self-approval too; the button says so before the operator tries. */}
            <Button onClick={() => approve.mutate({ id: payout.id })} loading={approve.isPending} disabled={ownRequest || busy}>
              {t.payout.approve}
            </Button>
            <Button variant="default" color="red" onClick={() => setRejecting(true)} disabled={busy}>
              {t.payout.reject}
            </Button>
          </Group>
        )}
        {canReview && rejecting && (
          <Group align="flex-end">
            <TextInput label={t.payout.rejectReason} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={500} />
            <Button color="red" onClick={() => reject.mutate({ id: payout.id, reason })} loading={reject.isPending} disabled={busy}>
              {t.payout.confirmReject}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
