import { z } from 'zod';
import { digitsOnly, inferDocumentType } from '../../lib/documents.js';
import type { ReceiverInput, ReceiverResult, WithdrawInput } from '../../domain/types.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { TransactionsApiAdapter, enveloped, moneyIn, wireDate, type AmountReader, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { absentable, wireId } from '../kit/answers.js';
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

// ---- wire: recipients and their balance (no public material: the gateway's decision)

/** A recipient, bare or under `data`: ACTIVE once it carries a creation timestamp (doc 2 §4). */
export const villetRecipient = enveloped(
  z.object({
    id: wireId,
    name: absentable(z.string()),
    email: absentable(z.string()),
    document: absentable(z.string()),
    createdAt: absentable(wireDate),
  }),
);
export type VilletRecipient = z.output<typeof villetRecipient>;

/** GET balance/available: `{available}` (or `{amount}`) in the member's unit, bare or under `data`; read as cents by `toCents`. */
export function villetBalance(toCents: AmountReader) {
  const money = moneyIn(toCents);
  return enveloped(z.union([z.object({ available: money }), z.object({ amount: money })])).transform((balance) =>
    'available' in balance ? balance.available : balance.amount,
  );
}

export const toApiRecipient = (input: ReceiverInput) => ({
  name: input.name,
  email: input.email,
  document: digitsOnly(input.document),
  documentType: input.documentType ?? inferDocumentType(input.document),
  ...(input.bankAccount ? { bankAccount: input.bankAccount } : {}),
});

/** The recipient and its available balance → our receiver. ACTIVE only with a creation timestamp (doc 2 §4). */
export function fromApiRecipient(recipient: VilletRecipient, balance: number): ReceiverResult {
  const document = recipient.document?.trim() ?? '';
  return {
    receiverId: recipient.id,
    receiverProvider: 'VILLET',
    name: recipient.name?.trim() ?? '',
    document,
    documentType: inferDocumentType(document),
    email: recipient.email?.trim() ?? '',
    status: recipient.createdAt ? 'ACTIVE' : 'PENDING',
    balance,
  };
}

/** Recipients are VILLET's own operations; the rest, and the transfer body hook, are the family's. */
export class VilletAdapter extends TransactionsApiAdapter {
  /** Transfers go to a recipient: {amount, recipientId}. */
  protected override withdrawalBody(input: WithdrawInput): object {
    return { amount: this.toProviderAmount(input.amount), recipientId: input.receiverId };
  }

  private readonly balance = villetBalance((value) => this.fromProviderAmount(value));

  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    const prefix = this.prefixFor('createReceiver');
    const recipient = await this.exchange('createReceiver', prefix, () => this.http(ctx).post<unknown>('/recipients', toApiRecipient(input)), villetRecipient);
    return fromApiRecipient(recipient, 0);
  }

  override async getReceiver(ctx: AdapterContext, receiverId: string): Promise<ReceiverResult> {
    const prefix = this.prefixFor('getReceiver');
    const recipient = await this.exchange(
      'getReceiver',
      prefix,
      () => this.http(ctx).get<unknown>(`/recipients/${encodeURIComponent(receiverId)}`),
      villetRecipient,
    );
    const balance = await this.exchange(
      'getReceiver',
      prefix,
      () => this.http(ctx).get<unknown>('/balance/available', { params: { recipientId: receiverId } }),
      this.balance,
    );
    return fromApiRecipient(recipient, balance);
  }
}

export default member(VilletAdapter, VILLET);
