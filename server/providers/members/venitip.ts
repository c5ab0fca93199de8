import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * VENITIP (spec doc 2, group 2): VenitPay again (provider research), with a
 * table of its own (doc 2 §4): only paid, received, confirmed are APPROVED;
 * refused, refunded, infraction are REJECTED; anything else PENDING. The
 * family's paths (§7; only VENIT uses the singular /transaction) and 'Erro ao
 * criar transação' on a failed charge (§8). Host and headers as VENIT's.
 */
export const VENITIP: TransactionsApiMember = {
  identity: { id: 'VENITIP', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://srv.venitpay.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'apiKey', header: 'x-secret-key' },
  headers: { 'x-public-key': 'publicKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
  evidence: { level: 'third-party' },
  sources: "status table, 'Erro ao criar transação': spec (doc 2 §4/§8); host and headers: research (VENITIP is VenitPay)",
  statuses: {
    transaction: {
      table: { paid: 'APPROVED', received: 'APPROVED', confirmed: 'APPROVED', refused: 'REJECTED', refunded: 'REJECTED', infraction: 'REJECTED' },
      unknown: 'PENDING',
    },
  },
  failures: { createTransaction: 'CREATE_TRANSACTION_FAILED' },
};

export default member(TransactionsApiAdapter, VENITIP);
