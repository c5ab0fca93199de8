import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Alert, Anchor, Button, Card, Group, Stack, Table, TextInput, Textarea, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { TransactionStatus, type Transaction } from '../../../gen/es/gateway/v1/types_pb.js';
import { ErrorAlert, fieldViolations } from '../errors.js';
import { formatMoney, parseCents } from '../format.js';
import { useI18n } from '../i18n.js';
import { Copy, StatusBadge, TableHead, When } from '../ui.js';

/** One charge: its amounts, status history, PIX code and a partial refund. Live: a status change refetches it. */
export default function TransactionDetail() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const detail = useQuery(PaymentGatewayService.method.getTransaction, { id });
  const tx = detail.data?.transaction;

  return (
    <>
      <Anchor component={Link} to="/transactions" size="sm">
        ← {t.detail.back}
      </Anchor>
      <Title order={1} my="md">
        {t.detail.title}
      </Title>
      <ErrorAlert error={detail.error} />
      {tx && (
        <Stack>
          <Card withBorder>
            <dl className="facts" data-testid="transaction">
              <dt>{t.transactions.id}</dt>
              <dd>{tx.id}</dd>
              <dt>{t.transactions.status}</dt>
              <dd>
                <StatusBadge status={tx.status} />
              </dd>
              <dt>{t.transactions.amount}</dt>
              <dd data-testid="amount">{formatMoney(tx.amount, tx.currency)}</dd>
              <dt>{t.transactions.method}</dt>
              <dd>{t.method[tx.paymentMethod]}</dd>
              <dt>{t.transactions.provider}</dt>
              <dd>{tx.provider}</dd>
              <dt>{t.detail.providerId}</dt>
              <dd>{tx.transactionId}</dd>
              <dt>{t.transactions.order}</dt>
              <dd>{tx.orderId || '—'}</dd>
              <dt>{t.transactions.created}</dt>
              <dd>
                <When at={tx.createdAt} />
              </dd>
              {tx.expiresAt && (
                <>
                  <dt>{t.detail.expires}</dt>
                  <dd>
                    <When at={tx.expiresAt} />
                  </dd>
                </>
              )}
            </dl>
          </Card>

          {tx.pixCode && (
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                {t.detail.pixCode}
              </Title>
              <Group align="flex-start">
                {tx.pixQrCode.startsWith('data:image/') && <img className="pix-qr" src={tx.pixQrCode} alt={t.detail.pixQr} />}
                <Stack flex={1} miw={0}>
                  <Textarea label={t.detail.pixCode} value={tx.pixCode} readOnly autosize data-testid="pix-code" />
                  <Group>
                    <Copy value={tx.pixCode} />
                  </Group>
                </Stack>
              </Group>
            </Card>
          )}

          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t.detail.history}
            </Title>
            <div className="table-scroll">
              <Table data-testid="history">
                <TableHead columns={[t.detail.when, t.transactions.status, t.detail.source]} />
                <Table.Tbody>
                  {tx.statusHistory.map((change, index) => (
                    <Table.Tr key={index}>
                      <Table.Td>
                        <When at={change.changedAt} />
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={change.status} />
                      </Table.Td>
                      <Table.Td>{t.source[change.source]}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </div>
          </Card>

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
          <TextInput
            label={t.detail.refundAmount}
            inputMode="decimal"
            placeholder="0,00"
            value={amount}
            onChange={(e) => {
              setAmount(e.currentTarget.value);
              refund.reset();
            }}
            error={invalid ? t.detail.badAmount : violations.amount}
            required
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
