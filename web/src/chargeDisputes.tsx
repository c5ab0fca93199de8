import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@connectrpc/connect-query';
import { DisputeKind, DisputeService } from '../../gen/es/gateway/v1/dispute_service_pb.js';
import { PaymentMethod, TransactionStatus, type Transaction } from '../../gen/es/gateway/v1/types_pb.js';
import { DisputeTable } from './disputes.js';
import { ErrorAlert, useFieldViolations } from './errors.js';
import { DisputeAmountField, DisputeDeadlineField, DisputeReasonField } from './disputeFields.js';
import { dayStart } from './filters.js';
import { formatMoney, parseCents } from './format.js';
import { useI18n } from './i18n.js';

const DISPUTABLE = [TransactionStatus.APPROVED, TransactionStatus.REFUNDED, TransactionStatus.CHARGEBACK];

/**
 * A charge's disputes (links to each) for roles that read them, and for roles that may, a form to open one: a card
 * charge's is a chargeback, a PIX payment's an infraction (MED). Nothing is drawn for a charge with neither.
 */
export function ChargeDisputes({ transaction, canWrite }: { transaction: Transaction; canWrite: boolean }) {
  const { t } = useI18n();
  const list = useQuery(DisputeService.method.listDisputes, { transactionId: transaction.id });
  const disputes = list.data?.disputes ?? [];
  const kind = transaction.paymentMethod === PaymentMethod.PIX ? DisputeKind.PIX_INFRACTION : DisputeKind.CHARGEBACK;
  const canOpen = canWrite && DISPUTABLE.includes(transaction.status) && transaction.paymentMethod !== PaymentMethod.BILLET;
  if (!disputes.length && !canOpen) return null;
  return (
    <Card withBorder data-testid="charge-disputes">
      <Title order={2} size="h4" mb="sm">
        {t.disputes.ofCharge}
      </Title>
      <ErrorAlert error={list.error} />
      {disputes.length > 0 && <DisputeTable disputes={disputes} withCharge={false} />}
      {canOpen && <OpenDispute transaction={transaction} kind={kind} />}
    </Card>
  );
}

function OpenDispute({ transaction, kind }: { transaction: Transaction; kind: DisputeKind }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [reason, setReason] = useState('');
  const [reasonCode, setReasonCode] = useState('');
  const [amount, setAmount] = useState('');
  const [deadline, setDeadline] = useState('');
  const [badAmount, setBadAmount] = useState(false);
  const open = useMutation(DisputeService.method.openDispute, {
    onSuccess: (answer) => answer.dispute && navigate(`/disputes/${answer.dispute.id}`),
  });
  const violations = useFieldViolations(open.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = amount.trim() ? parseCents(amount) : 0n;
    setBadAmount(cents === null);
    if (cents === null) return;
    // Through the whole day chosen, in the operator's time zone.
    open.mutate({ transactionId: transaction.id, kind, reason, reasonCode, amount: cents, deadline: dayStart(deadline, true) });
  }

  return (
    <form onSubmit={submit} aria-label={t.disputes.openTitle}>
      <Stack gap="sm" mt="sm">
        <Text fw={600}>
          {t.disputes.openTitle}: {t.disputes.kind[kind]}
        </Text>
        <DisputeReasonField value={reason} onChange={setReason} error={violations.reason} />
        <Group grow wrap="wrap" align="flex-start">
          <TextInput label={t.disputes.reasonCode} value={reasonCode} onChange={(e) => setReasonCode(e.currentTarget.value)} maxLength={64} />
          <DisputeAmountField
            value={amount}
            onChange={setAmount}
            description={`${t.disputes.amountHint} (${formatMoney(transaction.amount - transaction.refundedAmount, transaction.currency)})`}
            error={badAmount ? t.detail.badAmount : violations.amount}
          />
          <DisputeDeadlineField value={deadline} onChange={setDeadline} hint={t.disputes.deadlineHint} error={violations.deadline} />
        </Group>
        <Group>
          <Button type="submit" loading={open.isPending}>
            {t.disputes.open}
          </Button>
        </Group>
        {open.error && !Object.keys(violations).length && <ErrorAlert error={open.error} />}
      </Stack>
    </form>
  );
}
