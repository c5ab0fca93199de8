import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { Alert, Button, Card, Group, Stack, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { TransactionStatus, type Transaction } from '../../../gen/es/gateway/v1/types_pb.js';
import { PaymentInstructions, SimulatePayment, TransactionFacts } from '../charges.js';
import { ErrorAlert, fieldViolations } from '../errors.js';
import { parseCents } from '../format.js';
import { useI18n } from '../i18n.js';
import { AmountInput, PageHeader, StatusHistory } from '../ui.js';

/** One charge: its amounts, status history, PIX code or boleto line, a partial refund, and on the sandbox a simulated payment. Live: a status change refetches it. */
export default function TransactionDetail() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const detail = useQuery(PaymentGatewayService.method.getTransaction, { id });
  const tx = detail.data?.transaction;

  return (
    <>
      <PageHeader title={t.detail.title} back={{ to: '/transactions', label: t.detail.back }} />
      <ErrorAlert error={detail.error} />
      {tx && (
        <Stack>
          <TransactionFacts transaction={tx} />
          <SimulatePayment transaction={tx} />
          <PaymentInstructions transaction={tx} />

          <StatusHistory changes={tx.statusHistory} />

          {tx.status === TransactionStatus.APPROVED && <RefundForm transaction={tx} />}
        </Stack>
      )}
    </>
  );
}

function RefundForm({ transaction }: { transaction: Transaction }) {
  const { t } = useI18n();
  const [amount, setAmount] = useState('');
  const [invalid, setInvalid] = useState(false);
  // One key per intended refund: a retry of the same submission is the same refund.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const queryClient = useQueryClient();
  const refund = useMutation(PaymentGatewayService.method.refoundTransaction, {
    onSuccess: () => {
      setAmount('');
      setIdempotencyKey(crypto.randomUUID());
      void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: PaymentGatewayService, cardinality: undefined }) });
    },
  });
  const violations = fieldViolations(refund.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseCents(amount);
    setInvalid(cents === null);
    if (cents === null) return;
    refund.mutate({ id: transaction.id, providerAccountId: transaction.providerAccountId, idempotencyKey, amount: cents });
  }

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.detail.refund}
      </Title>
      <form onSubmit={submit}>
        <Group align="flex-start">
          <AmountInput
            label={t.detail.refundAmount}
            value={amount}
            onChange={(value) => {
              setAmount(value);
              refund.reset();
            }}
            invalid={invalid}
            violation={violations.amount}
          />
          <Button type="submit" mt={25} loading={refund.isPending}>
            {t.detail.refundSubmit}
          </Button>
        </Group>
      </form>
      {refund.isSuccess && (
        <Alert color="green" mt="sm" role="status">
          {t.detail.refunded} {refund.data.refund?.refundId}
        </Alert>
      )}
      {refund.error && !violations.amount && <ErrorAlert error={refund.error} />}
    </Card>
  );
}
