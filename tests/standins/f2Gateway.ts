import { expect } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest, RefoundTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus, WebhookOutcome, type WebhookNotification } from '../../gen/ts-proto/gateway/v1/types.js';
import { eventually } from '../support/eventually.js';
import type { TestStack } from '../support/gateway.js';
import { f2Signature, type F2StandIn } from './f2Platform.js';

/**
 * The whole gateway driven through its public gRPC contract against a
 * "functions/v1" platform stand-in (BRPIXDIGITAL, FAIRPAY, MEDIUS): the steps
 * the members' tests share and what each must show.
 */
export function f2Journey(stack: () => TestStack, standIn: () => F2StandIn, accountId: () => string, prefix = '/functions/v1') {
  const client = () => stack().client;
  const customer = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };
  const charge = async (key: string, transaction: Record<string, unknown> = {}, account = accountId()) =>
    (
      await client().call(
        'gateway',
        'createTransaction',
        CreateTransactionRequest.fromPartial({
          providerAccountId: account,
          idempotencyKey: key,
          transaction: { customer, amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, ...transaction },
        }),
      )
    ).transaction;
  const read = async (id: string, refresh = false) =>
    (await client().call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
  const refund = (key: string, id: string, amount: number) =>
    client().call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId(), idempotencyKey: key, id, amount }));
  const notifications = async (subjectId: string) =>
    (
      await client().call('webhooks', 'listWebhookNotifications', {
        subjectId,
        providerAccountId: '',
        provider: '',
        outcome: 0,
        pageSize: 100,
        pageToken: '',
      })
    ).notifications;
  const reads = () => standIn().count('GET', `${prefix}/transactions/{id}`);

  return {
    charge,
    read,
    refund,
    notifications,

    /** A PIX charge as the platform documents it, read, paid: its signed postback APPROVES it. */
    async pixPaidBySignedPostback(key: string) {
      const created = await charge(key, { orderId: `order-${key}` });
      expect(created).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990, pixCode: expect.stringMatching(/^000201/) });
      expect(created.pixQrCode).toMatch(/^data:image\/png;base64,/);
      const atProvider = standIn().transaction(created.transactionId)!;
      expect(atProvider).toMatchObject({
        amount: 1990,
        paymentMethod: 'PIX',
        status: 'waiting_payment',
        customer: { document: { type: 'CPF', number: '12345678909' } },
      });
      expect(created.pixCode).toBe((atProvider.pix as { qrcode: string }).qrcode);
      expect(created.expiresAt).toEqual(new Date((atProvider.pix as { expirationDate: string }).expirationDate));
      expect((await read(created.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

      expect((await standIn().pay(created.transactionId)).ok).toBe(true);
      const paid = await eventually(
        async () => {
          const transaction = await read(created.id);
          return transaction.status === TransactionStatus.TRANSACTION_STATUS_APPROVED && transaction;
        },
        15_000,
        'the PIX charge APPROVED by its signed postback',
      );
      expect(paid.amount).toBe(1990);
      const [notification] = await notifications(created.id);
      expect(notification).toMatchObject({ outcome: WebhookOutcome.WEBHOOK_OUTCOME_APPLIED });
      return { created, atProvider };
    },

    /**
     * Postbacks that do not come from the platform: one signed with another
     * secret is refused at the door (401) and moves nothing; an unsigned one
     * claiming `paid` is confirmed with a read, which says waiting_payment.
     */
    async forgedPostbacksMoveNothing(key: string) {
      const created = await charge(key);
      const body = { ...standIn().transaction(created.transactionId)!, status: 'paid' };
      const text = JSON.stringify(body);
      const forged = await standIn().postAs(created.transactionId, body, { 'x-webhook-signature': f2Signature('not-the-secret', text) });
      expect(forged.status).toBe(401);

      const before = reads();
      expect((await standIn().postAs(created.transactionId, body)).ok).toBe(true);
      const unconfirmed = await eventually(
        async () => (await notifications(created.id)).find((n: WebhookNotification) => n.outcome === WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED),
        15_000,
        'the unsigned postback confirmed with the platform',
      );
      expect(unconfirmed.outcomeReason).toMatch(/PENDING/);
      expect(reads()).toBeGreaterThan(before);
      expect((await read(created.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
      expect(standIn().transaction(created.transactionId)!.status).toBe('waiting_payment');
      return created;
    },
  };
}
