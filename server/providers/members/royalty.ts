import { formatCpf } from '../../lib/documents.js';
import { GatewayError } from '../../lib/errors.js';
import { royaltyErrorMessage } from '../../lib/providerMessages.js';
import type { Operation, TransactionInput } from '../../domain/types.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { TransactionsApiAdapter, type ApiTransactionRequest, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * ROYALTY (spec doc 2, group 2), a member of the transactions API family on
 * /user/transactions paths (§7) that requires a secret key (§5), sends an
 * 11-digit CPF formatted ddd.ddd.ddd-dd (§5) and words every provider failure
 * 'Royalty <operation> erro <status>: <body>' (§8). The /user/* paths are those
 * of the "AtivoB2B" platform (provider research F7: `x-api-key`); taken as
 * ROYALTY's auth, an inference the research marks as such.
 */
export const ROYALTY: TransactionsApiMember = {
  identity: { id: 'ROYALTY', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.royalty.com.br/api' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'apiKey', header: 'x-api-key' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'third-party' },
  sources:
    '/user/transactions paths, required secret key, formatted CPF, \'Royalty <operation> erro <status>: <body>\': spec (doc 2 §5/§7/§8); `x-api-key`: research (F7 "AtivoB2B" /user/* paths, an inference); host: placeholder',
  paths: { create: '/user/transactions', get: '/user/transactions/{id}', refund: { method: 'POST', path: '/user/transactions/{id}/refund' } },
};

/** The two hooks ROYALTY needs; every operation is the family's. */
export class RoyaltyAdapter extends TransactionsApiAdapter {
  protected override transactionBody(input: TransactionInput, ctx: AdapterContext): object {
    const body = super.transactionBody(input, ctx) as ApiTransactionRequest;
    if (!body.customer || body.customer.document.type !== 'cpf') return body;
    return { ...body, customer: { ...body.customer, document: { ...body.customer.document, number: formatCpf(body.customer.document.number) } } };
  }

  /** An HTTP answer is worded the spec's way; a failure without one (a timeout, a refused connection) keeps the common prefix. */
  protected override failure(operation: Operation, prefix: string, error: unknown): GatewayError {
    const common = super.failure(operation, prefix, error);
    const response = (error as { response?: { status?: number; data?: unknown } } | undefined)?.response;
    if (!response?.status) return common;
    return new GatewayError(common.code, royaltyErrorMessage(operation, response.status, response.data), common.details);
  }
}

export default member(RoyaltyAdapter, ROYALTY);
