import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * VENIT (spec doc 2, group 2), a member of the transactions API family: POST
 * /transaction, singular (doc 2 §7), and 'Erro ao criar transação' on a failed
 * charge (§8). From the provider research (VenitPay's public integrations):
 * host srv.venitpay.com.br/v1, the keys in `x-public-key` and `x-secret-key`.
 */
export const VENIT: TransactionsApiMember = {
  identity: { id: 'VENIT', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://srv.venitpay.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'apiKey', header: 'x-secret-key' },
  headers: { 'x-public-key': 'publicKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
  evidence: { level: 'third-party' },
  sources:
    "singular path, 'Erro ao criar transação': spec (doc 2 §7/§8); host `srv.venitpay.com.br/v1`, `x-public-key`/`x-secret-key`, camelCase body: research (VenitPay's public integrations)",
  paths: { create: '/transaction' },
  failures: { createTransaction: 'CREATE_TRANSACTION_FAILED' },
};

export default member(TransactionsApiAdapter, VENIT);
