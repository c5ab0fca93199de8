import { afterAll, afterEach, beforeAll, expect } from '@jest/globals';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import type { F1StandIn } from './f1Platform.js';

/**
 * The whole gateway driven through its public gRPC contract against an F1
 * platform stand-in (PODPAY2, PAYSHARKGATEWAY, HAWKPAY): what each step must
 * show, the steps shared by the members' tests.
 */
export function f1Journey(stack: () => TestStack, standIn: () => F1StandIn, accountId: () => string) {
  const client = () => stack().client;
  const customer = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };
  const charge = async (key: string, transaction: Record<string, unknown>) =>
    (
      await client().call(
        'gateway',
        'createTransaction',
        CreateTransactionRequest.fromPartial({ providerAccountId: accountId(), idempotencyKey: key, transaction: { customer, ...transaction } }),
      )
    ).transaction;
  const read = async (id: string, refresh = false) =>
    (await client().call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
  const readPayout = async (id: string, refresh = false) =>
    (await client().call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id, refresh }))).withdrawal;

  return {
    charge,
    read,
    readPayout,

    /** A PIX charge, read, paid at the provider: its unsigned postback is confirmed with a read and the charge is APPROVED. */
    async pix() {
      const created = await charge('f1-pix', { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, orderId: 'order-pix' });
      expect(created).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 1990, pixCode: expect.stringMatching(/^000201/) });
      expect(created.pixQrCode).toMatch(/^data:image\/png;base64,/);
      const atProvider = standIn().transaction(created.transactionId)!;
      expect(atProvider).toMatchObject({ amount: 1990, paymentMethod: 'pix', externalRef: 'order-pix' });
      expect(created.pixCode).toBe((atProvider.pix as { qrcode: string }).qrcode);
      expect((await read(created.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

      const reads = standIn().count('GET', '/v1/transactions/{id}');
      expect((await standIn().pay(created.transactionId)).ok).toBe(true);
      const paid = await eventually(
        async () => {
          const transaction = await read(created.id);
          return transaction.status === TransactionStatus.TRANSACTION_STATUS_APPROVED && transaction;
        },
        15_000,
        'the PIX charge APPROVED by its postback',
      );
      expect(paid.amount).toBe(1990);
      // Unsigned: the gateway asked the provider before approving.
      expect(standIn().count('GET', '/v1/transactions/{id}')).toBeGreaterThan(reads);
      return paid;
    },

    /** A boleto: its line, URL and the provider's expiry date. */
    async boleto() {
      const created = await charge('f1-boleto', { amount: 123456, paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET });
      expect(created).toMatchObject({
        status: TransactionStatus.TRANSACTION_STATUS_PENDING,
        amount: 123456,
        billetCode: '23790123456789012345678901234567890123456789012',
        billetUrl: expect.stringMatching(/\.pdf$/),
      });
      const atProvider = standIn().transaction(created.transactionId)!;
      expect(created.expiresAt).toEqual(new Date((atProvider.boleto as { expirationDate: string }).expirationDate));
      return created;
    },

    /** A card charge by its hash (the platform's `card.hash`), decided at once: APPROVED. */
    async card(key = 'f1-card') {
      const created = await charge(key, {
        amount: 7000,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
        cardId: 'card_hash_abc',
        installments: 2,
      });
      expect(created.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
      expect(standIn().transaction(created.transactionId)).toMatchObject({ paymentMethod: 'credit_card', installments: 2, card: { lastDigits: '1111' } });
      const sent = standIn()
        .received.filter((request) => request.method === 'POST' && request.path === '/v1/transactions')
        .at(-1);
      expect(sent?.body).toMatchObject({ card: { hash: 'card_hash_abc' } });
      return created;
    },

    /** A card the platform declines: created `refused` with its `refusedReason`, REJECTED for the caller. */
    async refusedCard() {
      const created = await charge('f1-card-refused', {
        amount: 4100,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
        cardId: 'refused_card_hash',
      });
      expect(created).toMatchObject({ status: TransactionStatus.TRANSACTION_STATUS_REJECTED, amount: 4100 });
      const refusedReason = standIn().transaction(created.transactionId)?.refusedReason;
      expect(standIn().transaction(created.transactionId)).toMatchObject({ status: 'refused', refusedReason: expect.any(String) });
      // The platform's refusedReason is the decline's reason and its text: its own words, so the gateway's category is `other`.
      expect(created).toMatchObject({ declineReason: refusedReason, declineMessage: refusedReason, declineCategory: 'other' });
      return created;
    },

    /**
     * A PIX charge and a postback no platform sent, in its documented envelope, claiming it paid: the
     * platform signs nothing, so the gateway asks it, and the charge stays PENDING.
     */
    async forgedPostback() {
      const created = await charge('f1-pix-forged', { amount: 990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX });
      const atProvider = standIn().transaction(created.transactionId)!;
      const reads = standIn().count('GET', '/v1/transactions/{id}');
      const forged = await fetch(atProvider.postbackUrl as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          id: 1,
          type: 'transaction',
          objectId: String(atProvider.id),
          url: atProvider.postbackUrl,
          data: { ...atProvider, status: 'paid' },
        }),
      });
      expect(forged.status).toBeLessThan(500);
      await eventually(
        async () => standIn().count('GET', '/v1/transactions/{id}') > reads,
        15_000,
        'the gateway asking the platform about the forged postback',
      );
      expect((await read(created.id)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
      return created;
    },

    /** A card charge refunded partly, then what is left: REFUNDED. */
    async cardAndRefunds() {
      const created = await this.card();
      const refund = (key: string, amount: number) =>
        client().call(
          'gateway',
          'refoundTransaction',
          RefoundTransactionRequest.fromPartial({ providerAccountId: accountId(), idempotencyKey: key, id: created.id, amount }),
        );
      const partial = await refund('f1-refund-1', 2500);
      expect(partial.refund.status).toBe(true);
      expect(partial.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
      expect(standIn().transaction(created.transactionId)).toMatchObject({ refundedAmount: 2500, status: 'paid' });

      const rest = await refund('f1-refund-2', 4500);
      expect(rest.refund.status).toBe(true);
      expect(rest.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_REFUNDED);
      expect(standIn().transaction(created.transactionId)).toMatchObject({ refundedAmount: 7000, status: 'refunded' });
      return created;
    },

    /** A PIX payout with the withdraw key, read, settled at the provider: its postback is confirmed with GET /transfers/{id}. */
    async payout(pixType: PixKeyType | undefined) {
      const { withdrawal } = await client().call(
        'gateway',
        'withdraw',
        WithdrawRequest.fromPartial({
          providerAccountId: accountId(),
          idempotencyKey: `f1-payout-${pixType ?? 'untyped'}`,
          withdraw: {
            paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX,
            amount: 2500,
            pixKey: pixType === PixKeyType.PIX_KEY_TYPE_EMAIL ? 'ana@example.com' : '123e4567-e12b-12d1-a456-426655440000',
            ...(pixType !== undefined ? { pixType } : {}),
          },
        }),
      );
      expect(withdrawal).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 2500 });
      expect((await readPayout(withdrawal.id, true)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);

      const reads = standIn().count('GET', '/v1/transfers/{id}');
      expect((await standIn().settleTransfer(withdrawal.withdrawId)).ok).toBe(true);
      const settled = await eventually(
        async () => {
          const payout = await readPayout(withdrawal.id);
          return payout.status === WithdrawStatus.WITHDRAW_STATUS_APPROVED && payout;
        },
        15_000,
        'the payout APPROVED by its postback',
      );
      expect(settled.amount).toBe(2500);
      expect(standIn().count('GET', '/v1/transfers/{id}')).toBeGreaterThan(reads);
      return { withdrawal, atProvider: standIn().transfer(withdrawal.withdrawId)! };
    },
  };
}

/**
 * The setup every F1 member's stand-in test shares: a gateway, the member's stand-in, one account on it (keys as the
 * member's Basic pair takes them), and after each test no request the platform does not know and no crash.
 */
export function f1MemberStack(
  provider: string,
  keys: { publicKey: string; secretKey: string },
  start: (keys: { publicKey: string; secretKey: string }) => Promise<F1StandIn>,
) {
  const state = {} as { stack: TestStack; standIn: F1StandIn; accountId: string };
  beforeAll(async () => {
    state.stack = await startTestStack();
    state.standIn = await start(keys);
    const { providerAccount } = await state.stack.client.call('accounts', 'createProviderAccount', {
      provider,
      name: `${provider} stand-in`,
      publicKey: keys.publicKey,
      secretKey: keys.secretKey,
      baseUrl: `${state.standIn.url}/v1`,
    });
    state.accountId = providerAccount.id;
  }, 60_000);
  afterEach(() => {
    expect(state.standIn.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
    expect(state.standIn.crashed).toEqual([]);
  });
  afterAll(async () => {
    await state.standIn?.close();
    await state.stack?.close();
  });
  return {
    get stack() {
      return state.stack;
    },
    get standIn() {
      return state.standIn;
    },
    get accountId() {
      return state.accountId;
    },
    journey: f1Journey(
      () => state.stack,
      () => state.standIn,
      () => state.accountId,
    ),
  };
}
