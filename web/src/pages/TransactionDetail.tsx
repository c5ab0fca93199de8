import { useRef, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { Alert, Button, Card, Group, Loader, Modal, Radio, Stack, Table, Text, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { TransactionStatus, type RoutingDecision, type Transaction } from '../../../gen/es/gateway/v1/types_pb.js';
import { PaymentInstructions, SimulatePayment, TransactionFacts } from '../charges.js';
import { ChargeCustomer, ChargeItems, ChargeRefunds } from '../chargeDetails.js';
import { ChargeDisputes } from '../chargeDisputes.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { formatMoney, parseCents } from '../format.js';
import { useI18n } from '../i18n.js';
import { ChargeDeliveries, ChargeNotifications } from '../notifications.js';
import { AmountInput, PageHeader, StatusHistory, TableHead, scrollable, useProviderAccounts } from '../ui.js';

/**
 * One charge: its amounts, card or decline reason, customer and items, status history, route and attempts, PIX code
 * or boleto line, its refunds as records and a full or partial refund behind a confirmation,
 * on the sandbox a simulated payment, the provider's notifications about it (raw, with reprocess) and the gateway's
 * deliveries to its webhook_url, its disputes and (for roles that may) a form to open one. Live: a status change refetches it.
 * A loader until it arrives.
 */
export default function TransactionDetail({
  canRefund,
  canReprocess,
  canReadDisputes,
  canOpenDispute,
}: {
  canRefund: boolean;
  canReprocess: boolean;
  canReadDisputes: boolean;
  canOpenDispute: boolean;
}) {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const detail = useQuery(PaymentGatewayService.method.getTransaction, { id });
  const tx = detail.data?.transaction;

  return (
    <>
      <PageHeader title={t.detail.title} back={{ to: '/transactions', label: t.detail.back }} />
      <ErrorAlert error={detail.error} />
      {detail.isPending && (
        <Group justify="center" my="md">
          <Loader role="status" aria-label={t.loading} data-testid="transaction-loading" />
        </Group>
      )}
      {tx && (
        <Stack>
          <TransactionFacts transaction={tx} />
          <SimulatePayment transaction={tx} />
          <ChargeCustomer transaction={tx} />
          <ChargeItems transaction={tx} />
          <PaymentInstructions transaction={tx} />

          <StatusHistory changes={tx.statusHistory} />
          {tx.routing && <RouteAttempts routing={tx.routing} />}

          <ChargeRefunds transaction={tx} />
          {canRefund && tx.status === TransactionStatus.APPROVED && tx.amount > tx.refundedAmount && <RefundForm transaction={tx} />}
          {canReadDisputes && <ChargeDisputes transaction={tx} canWrite={canOpenDispute} />}
          <ChargeNotifications transactionId={tx.id} canReprocess={canReprocess} />
          <ChargeDeliveries transactionId={tx.id} />
        </Stack>
      )}
    </>
  );
}

/** Full (what is left after earlier partial refunds) or partial; nothing is sent before the operator confirms the amount. */
function RefundForm({ transaction }: { transaction: Transaction }) {
  const { t } = useI18n();
  const refundable = transaction.amount - transaction.refundedAmount;
  const money = (cents: bigint) => formatMoney(cents, transaction.currency);
  const [kind, setKind] = useState<'full' | 'partial'>('full');
  const [amount, setAmount] = useState('');
  const [invalid, setInvalid] = useState<boolean | string>(false);
  const [confirming, setConfirming] = useState<bigint | null>(null);
  // One key per intended refund: confirming the same amount again after a failure is the same refund (the gateway
  // answers it once); another amount is another refund, with a key of its own.
  const lastAttempt = useRef<{ amount: bigint; idempotencyKey: string } | null>(null);
  const queryClient = useQueryClient();
  const refund = useMutation(PaymentGatewayService.method.refoundTransaction, {
    onSuccess: () => {
      setAmount('');
      lastAttempt.current = null;
      void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: PaymentGatewayService, cardinality: undefined }) });
    },
    onSettled: () => setConfirming(null),
  });
  const violations = useFieldViolations(refund.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    refund.reset();
    if (kind === 'full') return setConfirming(refundable);
    const cents = parseCents(amount);
    const problem = cents === null || cents === 0n ? true : cents > refundable ? t.detail.refundTooMuch(money(refundable)) : false;
    setInvalid(problem);
    if (!problem) setConfirming(cents);
  }

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.detail.refund}
      </Title>
      <dl className="facts" data-testid="refund-figures">
        <dt>{t.detail.refundedSoFar}</dt>
        <dd data-testid="refunded">{money(transaction.refundedAmount)}</dd>
        <dt>{t.detail.refundable}</dt>
        <dd data-testid="refundable">{money(refundable)}</dd>
      </dl>
      <form onSubmit={submit}>
        <Stack gap="sm" mt="sm">
          <Radio.Group
            label={t.detail.refundKind}
            value={kind}
            onChange={(value) => {
              setKind(value as 'full' | 'partial');
              setInvalid(false);
              refund.reset();
            }}
          >
            <Group mt={4}>
              <Radio value="full" label={t.detail.refundFull(money(refundable))} />
              <Radio value="partial" label={t.detail.refundPartial} />
            </Group>
          </Radio.Group>
          {kind === 'partial' && (
            <AmountInput
              label={t.detail.refundAmount}
              value={amount}
              onChange={(value) => {
                setAmount(value);
                setInvalid(false);
                refund.reset();
              }}
              invalid={invalid}
              violation={violations.amount}
            />
          )}
          <Group>
            <Button type="submit">{t.detail.refundSubmit}</Button>
          </Group>
        </Stack>
      </form>
      {refund.isSuccess && (
        <Alert color="green" mt="sm" role="status">
          {t.detail.refunded} {refund.data.refund?.refundId}
        </Alert>
      )}
      {refund.error && !violations.amount && <ErrorAlert error={refund.error} />}
      <Modal
        opened={confirming !== null}
        onClose={() => !refund.isPending && setConfirming(null)}
        title={t.detail.confirmRefundTitle}
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t.close }}
      >
        {confirming !== null && (
          <Stack>
            <Text data-testid="refund-confirmation">{t.detail.confirmRefund(money(confirming), money(transaction.amount))}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)} disabled={refund.isPending}>
                {t.cancel}
              </Button>
              <Button
                color="red"
                loading={refund.isPending}
                onClick={() => {
                  const idempotencyKey = lastAttempt.current?.amount === confirming ? lastAttempt.current.idempotencyKey : crypto.randomUUID();
                  lastAttempt.current = { amount: confirming, idempotencyKey };
                  refund.mutate({ id: transaction.id, providerAccountId: transaction.providerAccountId, idempotencyKey, amount: confirming });
                }}
              >
                {t.detail.confirmRefundButton(money(confirming))}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Card>
  );
}

/** A routed charge's route, rule and every account tried, in order, with what came of each and why. */
function RouteAttempts({ routing }: { routing: RoutingDecision }) {
  const { t } = useI18n();
  const accounts = useProviderAccounts();
  const accountName = (id: string) => accounts.data?.providerAccounts.find((a) => a.id === id)?.name ?? id;
  return (
    <Card withBorder data-testid="route-attempts">
      <Title order={2} size="h4" mb="xs">
        {t.routes.attemptsTitle}
      </Title>
      <Text mb="xs">{t.routes.attemptsRoute(routing.routeName, routing.ruleIndex, routing.strategy)}</Text>
      <div className="table-scroll" {...scrollable(t.routes.attemptsTitle)}>
        <Table>
          <TableHead columns={['#', t.routes.attemptAccount, t.routes.attemptProvider, t.routes.attemptOutcome, t.routes.attemptReason]} />
          <Table.Tbody>
            {routing.attempts.map((attempt, index) => (
              <Table.Tr key={index}>
                <Table.Td>{index + 1}</Table.Td>
                <Table.Td>{accountName(attempt.providerAccountId)}</Table.Td>
                <Table.Td>{attempt.provider}</Table.Td>
                <Table.Td>{t.routes.outcome[attempt.outcome] ?? attempt.outcome}</Table.Td>
                <Table.Td>{attempt.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </Card>
  );
}
