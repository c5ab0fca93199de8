import { Anchor, Button, Card, Group, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation } from '@connectrpc/connect-query';
import { SandboxService } from '../../gen/es/gateway/v1/sandbox_service_pb.js';
import { PaymentMethod, TransactionStatus, type Transaction } from '../../gen/es/gateway/v1/types_pb.js';
import { ErrorAlert } from './errors.js';
import { formatMoney } from './format.js';
import { useI18n, type Messages } from './i18n.js';
import { awaitsPixPayment, PixPaymentFacts } from './pixPayment.js';
import { Copy, StatusBadge, When } from './ui.js';

/** Brand names as the gateway answers them (Transaction.card_brand), written as the brands write them in any language. */
const CARD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  elo: 'Elo',
  amex: 'American Express',
  hipercard: 'Hipercard',
  diners: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
};

/**
 * A charge's facts: ids, status, amount, method (a PIX payment's end-to-end id and payer; a card's brand, last 4 and
 * installments), a decline's reason, provider, order, description and dates (a boleto's expiry is its due date).
 */
export function TransactionFacts({ transaction: tx }: { transaction: Transaction }) {
  const { t } = useI18n();
  return (
    <Card withBorder>
      <dl className="facts" data-testid="transaction">
        <dt>{t.transactions.id}</dt>
        <dd>
          <Group gap="xs">
            <span data-testid="transaction-id">{tx.id}</span>
            <Copy value={tx.id} what={t.transactions.id} />
          </Group>
        </dd>
        <dt>{t.transactions.status}</dt>
        <dd>
          <StatusBadge status={tx.status} />
        </dd>
        <dt>{t.transactions.amount}</dt>
        <dd data-testid="amount">{formatMoney(tx.amount, tx.currency)}</dd>
        <dt>{t.transactions.method}</dt>
        <dd>{t.method[tx.paymentMethod]}</dd>
        <PixPaymentFacts transaction={tx} />
        {tx.cardLast4 && (
          <>
            <dt>{t.detail.card}</dt>
            <dd data-testid="card">{t.detail.cardNumber(CARD_BRANDS[tx.cardBrand] ?? t.detail.unknownBrand, tx.cardLast4)}</dd>
          </>
        )}
        {tx.paymentMethod === PaymentMethod.CREDIT_CARD && (
          <>
            <dt>{t.charge.installments}</dt>
            <dd data-testid="installments">{tx.installments}</dd>
          </>
        )}
        {tx.status === TransactionStatus.REJECTED && (
          <>
            <dt>{t.detail.declineReason}</dt>
            <dd data-testid="decline-reason">
              {declineText(t, tx)}
              {declineMessageOf(tx) && <span data-testid="decline-message"> — {declineMessageOf(tx)}</span>}
            </dd>
          </>
        )}
        <dt>{t.transactions.provider}</dt>
        <dd>{tx.provider}</dd>
        <dt>{t.detail.providerId}</dt>
        <dd>{tx.transactionId}</dd>
        <dt>{t.transactions.order}</dt>
        <dd>{tx.orderId || '—'}</dd>
        {tx.description && (
          <>
            <dt>{t.detail.description}</dt>
            <dd data-testid="description">{tx.description}</dd>
          </>
        )}
        <dt>{t.transactions.created}</dt>
        <dd>
          <When at={tx.createdAt} />
        </dd>
        {tx.expiresAt && (tx.paymentMethod !== PaymentMethod.PIX || awaitsPixPayment(tx)) && (
          <>
            <dt>{tx.paymentMethod === PaymentMethod.BILLET ? t.detail.dueDate : t.detail.expires}</dt>
            <dd>
              <When at={tx.expiresAt} />
            </dd>
          </>
        )}
      </dl>
    </Card>
  );
}

/** Why a declined charge was declined, in the reader's words with the provider's code; empty for a charge not declined. */
export function declineText(t: Messages, tx: Transaction): string {
  if (tx.status !== TransactionStatus.REJECTED) return '';
  if (!tx.declineReason) return t.detail.declineNotGiven;
  return `${t.detail.declineCategories[tx.declineCategory] ?? t.detail.declineCategories.other} (${t.detail.providerCode(tx.declineReason)})`;
}

/**
 * The decline in the provider's own words, where it gave them and they say more than its code: a provider with no code
 * gives its text as the reason too, shown once.
 */
export function declineMessageOf(tx: Transaction): string {
  if (tx.status !== TransactionStatus.REJECTED || !tx.declineReason || tx.declineMessage === tx.declineReason) return '';
  return tx.declineMessage;
}

/** The provider whose charges SandboxService.SimulatePayment can pay. */
const SANDBOX = 'SANDBOX';

/**
 * What the payer needs, as the provider answered it: the PIX QR image and
 * copy-and-paste code while the charge can still be paid, or the boleto's
 * digitable line and link. Shared by the new-charge page (shown at once) and
 * the transaction's detail.
 */
export function PaymentInstructions({ transaction: tx }: { transaction: Transaction }) {
  const { t } = useI18n();
  return (
    <>
      {tx.pixCode && awaitsPixPayment(tx) && (
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t.detail.pixCode}
          </Title>
          <Group align="flex-start">
            {tx.pixQrCode.startsWith('data:image/') && <img className="pix-qr" src={tx.pixQrCode} alt={t.detail.pixQr} data-testid="pix-qr" />}
            <Stack flex={1} miw="min(100%, 14rem)">
              <Textarea label={t.detail.pixCode} value={tx.pixCode} readOnly autosize data-testid="pix-code" />
              <Group>
                <Copy value={tx.pixCode} what={t.detail.pixCode} />
              </Group>
            </Stack>
          </Group>
        </Card>
      )}
      {tx.billetCode && (
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t.charge.billet}
          </Title>
          <Stack>
            <TextInput label={t.charge.billetCode} value={tx.billetCode} readOnly data-testid="billet-code" />
            <Group>
              <Copy value={tx.billetCode} what={t.charge.billetCode} />
              {/^https?:\/\//.test(tx.billetUrl) && (
                <Anchor href={tx.billetUrl} target="_blank" rel="noopener noreferrer" data-testid="billet-url">
                  {t.charge.billetUrl}
                </Anchor>
              )}
            </Group>
          </Stack>
        </Card>
      )}
    </>
  );
}

/**
 * For a pending SANDBOX charge: pays it on the sandbox, which notifies the
 * gateway as a real provider would. The new status reaches the page through
 * the live events (live.tsx), like any payment.
 */
export function SimulatePayment({ transaction: tx }: { transaction: Transaction }) {
  const { t } = useI18n();
  const simulate = useMutation(SandboxService.method.simulatePayment);
  if (tx.provider !== SANDBOX || tx.status !== TransactionStatus.PENDING) return null;
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="light" color="green" loading={simulate.isPending} onClick={() => simulate.mutate({ id: tx.id })}>
          {t.charge.simulate}
        </Button>
      </Group>
      <ErrorAlert error={simulate.error} />
    </Stack>
  );
}
