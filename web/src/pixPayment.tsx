import { Group } from '@mantine/core';
import { TransactionStatus, type Transaction } from '../../gen/es/gateway/v1/types_pb.js';
import { formatDocument } from './format.js';
import { useI18n } from './i18n.js';
import { Copy } from './ui.js';

/**
 * Whether a PIX charge can still be paid: only a PENDING one. Once paid, declined or canceled, its QR code, copy-and-paste
 * code and expiry are no longer shown: a payer reading them would pay a charge that no longer takes the payment.
 */
export const awaitsPixPayment = (tx: Transaction): boolean => tx.status === TransactionStatus.PENDING;

/**
 * A PIX charge's payment as its provider reported it, among the charge's method details: the end-to-end id (with a
 * copy button: support teams quote it to banks) and the payer's name, document (as the provider sent it, masked
 * ones included) and bank. Only what the provider stated; nothing for a charge not paid by PIX yet.
 */
export function PixPaymentFacts({ transaction: tx }: { transaction: Transaction }) {
  const { t } = useI18n();
  const payer = tx.pixPayer;
  const bank = payer && [payer.bankName, payer.bankIspb && t.detail.ispb(payer.bankIspb)].filter(Boolean).join(' · ');
  return (
    <>
      {tx.pixEndToEndId && (
        <>
          <dt>{t.detail.endToEndId}</dt>
          <dd>
            <Group gap="xs">
              <span data-testid="pix-end-to-end-id">{tx.pixEndToEndId}</span>
              <Copy value={tx.pixEndToEndId} what={t.detail.endToEndId} />
            </Group>
          </dd>
        </>
      )}
      {payer?.name && (
        <>
          <dt>{t.detail.pixPayer}</dt>
          <dd data-testid="pix-payer-name">{payer.name}</dd>
        </>
      )}
      {payer?.document && (
        <>
          <dt>{t.detail.pixPayerDocument}</dt>
          <dd data-testid="pix-payer-document">{formatDocument(payer.document)}</dd>
        </>
      )}
      {bank && (
        <>
          <dt>{t.detail.pixPayerBank}</dt>
          <dd data-testid="pix-payer-bank">{bank}</dd>
        </>
      )}
    </>
  );
}
