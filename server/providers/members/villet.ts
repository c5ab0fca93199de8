import { digitsOnly, inferDocumentType } from '../../lib/documents.js';
import { ProviderCallError } from '../../lib/http/index.js';
import { isRecord } from '../../lib/json.js';
import { dateOf, idText, textOf } from '../../lib/values.js';
import type { ReceiverInput, ReceiverResult, WithdrawInput } from '../../domain/types.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { TransactionsApiAdapter, unwrap, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * VILLET (spec doc 2, group 2): the transactions API family's charges (POST
 * /transactions, GET /transactions/{id}, POST /transactions/{id}/refund with the
 * amount) plus recipients (POST /recipients, GET /recipients/{id}), their
 * available balance (GET balance/available?recipientId) and transfers to them
 * (POST /transfers {amount, recipientId}) (doc 2 §7). A recipient is ACTIVE when
 * the provider returns a creation timestamp, otherwise PENDING (doc 2 §4). No
 * public material (provider research): the family's Basic secret-key auth and
 * bodies, a placeholder host accounts override; recipient bodies are the
 * gateway's decision (docs/decisions.md).
 */
export const VILLET: TransactionsApiMember = {
  identity: { id: 'VILLET', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.villet.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], withdrawMethods: ['RECEIVER'], refunds: true, receivers: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources:
    "paths, receiver-status rule: spec (doc 2 §4/§7); recipient and balance bodies: the gateway's decision; the rest the family's dialect (no public material); host: placeholder",
  paths: { withdraw: '/transfers' },
};

/** Wire shapes of the recipient calls. */
interface ApiRecipient {
  id?: string | number;
  name?: string;
  email?: string;
  document?: string;
  createdAt?: string;
  data?: ApiRecipient;
}

export const toApiRecipient = (input: ReceiverInput) => ({
  name: input.name,
  email: input.email,
  document: digitsOnly(input.document),
  documentType: input.documentType ?? inferDocumentType(input.document),
  ...(input.bankAccount ? { bankAccount: input.bankAccount } : {}),
});

/** The recipient and its available balance → our receiver; undefined without an id. ACTIVE only with a creation timestamp (doc 2 §4). */
export function fromApiRecipient(body: unknown, balance: number): ReceiverResult | undefined {
  const recipient = unwrap<ApiRecipient>(body);
  const receiverId = idText(recipient.id);
  if (!receiverId) return undefined;
  const document = textOf(recipient.document) ?? '';
  return {
    receiverId,
    receiverProvider: 'VILLET',
    name: textOf(recipient.name) ?? '',
    document,
    documentType: inferDocumentType(document),
    email: textOf(recipient.email) ?? '',
    status: dateOf(recipient.createdAt) ? 'ACTIVE' : 'PENDING',
    balance,
  };
}

/** Recipients are VILLET's own operations; the rest, and the transfer body hook, are the family's. */
export class VilletAdapter extends TransactionsApiAdapter {
  /** Transfers go to a recipient: {amount, recipientId}. */
  protected override withdrawalBody(input: WithdrawInput): object {
    return { amount: this.toProviderAmount(input.amount), recipientId: input.receiverId };
  }

  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    const prefix = this.prefixFor('createReceiver');
    const data = await this.exchange('createReceiver', prefix, () => this.http(ctx).post<unknown>('/recipients', toApiRecipient(input)));
    return this.receiver('createReceiver', prefix, data, 0);
  }

  override async getReceiver(ctx: AdapterContext, receiverId: string): Promise<ReceiverResult> {
    const prefix = this.prefixFor('getReceiver');
    const data = await this.exchange('getReceiver', prefix, () => this.http(ctx).get<unknown>(`/recipients/${encodeURIComponent(receiverId)}`));
    const balance = await this.exchange('getReceiver', prefix, () =>
      this.http(ctx).get<unknown>('/balance/available', { params: { recipientId: receiverId } }),
    );
    return this.receiver('getReceiver', prefix, data, this.availableCents(balance));
  }

  /** GET balance/available answers {available} (or {amount}) in the member's unit; anything else is no balance to report. */
  private availableCents(body: unknown): number {
    const answer = isRecord(body) ? unwrap<{ available?: unknown; amount?: unknown; id?: unknown; data?: never }>(body) : {};
    const value = answer.available ?? answer.amount;
    return this.mapped('getReceiver', this.prefixFor('getReceiver'), () => {
      if (value === undefined || value === null)
        throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'resposta do provedor sem saldo disponível');
      return this.fromProviderAmount(value);
    });
  }

  private receiver(operation: 'createReceiver' | 'getReceiver', prefix: string, data: unknown, balance: number): ReceiverResult {
    const result = fromApiRecipient(data, balance);
    if (!result)
      throw this.failure(operation, prefix, new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'resposta do provedor sem id do recebedor'));
    return result;
  }
}

export default member(VilletAdapter, VILLET);
