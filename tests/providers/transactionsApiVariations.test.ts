import { describe, expect, it } from '@jest/globals';
import { SECONDS_PER_DAY } from '../../server/lib/expiry.js';
import { royaltyErrorMessage } from '../../server/lib/providerMessages.js';
import { GatewayError } from '../../server/lib/errors.js';
import { SPEC_GROUPS } from '../../server/providers/adapter.js';
import type { Operation } from '../../server/domain/types.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../../server/providers/families/transactionsApi/index.js';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { failure, providerHarness } from './conformance/harness.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

/**
 * The family's extension points, exercised by declarations shaped like the
 * members the spec names (doc 2 §4–§9) before those members are written:
 * VENIT's path and fixed text, FAIRPAY's DELETE refund, NEWLEVEL's /cashout,
 * 2-day PIX and refused payouts, GATYWAY's card tokens and 'Unsupported payment
 * method', VENITIP's own table, amounts in reais, and ROYALTY's hook.
 */
const VARIANT: TransactionsApiMember = {
  identity: { id: 'VARIANT', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'http://127.0.0.1:1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD'], withdrawMethods: ['PIX'], refunds: true, cardTokens: true, webhooks: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'reais',
  sources: 'a test declaration',
  expiry: { pixSeconds: 2 * SECONDS_PER_DAY },
  paths: { create: '/transaction', refund: { method: 'DELETE', path: '/transactions/{id}' }, withdraw: '/cashout' },
  statuses: {
    transaction: {
      table: { paid: 'APPROVED', received: 'APPROVED', confirmed: 'APPROVED', refused: 'REJECTED', refunded: 'REJECTED', infraction: 'REJECTED' },
      unknown: 'PENDING',
    },
  },
  failures: { createTransaction: 'CREATE_TRANSACTION_FAILED', withdraw: 'ERROR_ON_WITHDRAW', unsupportedPaymentMethod: 'UNSUPPORTED_PAYMENT_METHOD' },
  withdrawalRefusalIsError: true,
};

transactionsApiConformance(VARIANT, { keys: { publicKey: 'pk', secretKey: 'sk_variant' }, authHeaders: { authorization: 'Bearer sk_variant' } });

/** The fourth group's shape (FastSoft, ByNet): /user paths, an API-key header, its own prefixes and method text. */
const FOURTH: TransactionsApiMember = {
  identity: { id: 'FOURTHLIKE', specGroup: SPEC_GROUPS.DOC3_GROUP4, defaultBaseUrl: 'http://127.0.0.1:1' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
  auth: { type: 'apiKey', header: 'x-api-key' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  sources: 'a test declaration',
  paths: {
    create: '/user/transactions',
    get: '/user/transactions/{id}',
    refund: { method: 'POST', path: '/user/transactions/{id}/refund' },
    withdraw: '/user/cashout',
  },
  failures: { unsupportedPaymentMethod: { notImplementedFor: 'FastSoft' } },
  failurePrefixes: { withdraw: 'WITHDRAW_FOURTH_GROUP', refoundTransaction: 'REFUND_FOURTH_GROUP' },
};

transactionsApiConformance(FOURTH, { keys: { publicKey: 'pk', secretKey: 'key_fourth' }, authHeaders: { 'x-api-key': 'key_fourth' } });

/** ROYALTY's shape: one hook overridden, no operation copied. */
class RoyaltyLike extends TransactionsApiAdapter {
  constructor(runtime: AdapterRuntime) {
    super({ ...VARIANT, identity: { ...VARIANT.identity, id: 'ROYALTYLIKE' }, failures: {} }, runtime);
  }
  /** PodPay2's shape: a payout carries a key of its own in a header. */
  protected override withdrawalHeaders(ctx: AdapterContext): Record<string, string> {
    return { 'withdraw-key': `wk-${ctx.publicKey}` };
  }
  /** BRPIX Digital's shape: the refund says why. */
  protected override refundBody(amount: number): object {
    return { amount: this.toProviderAmount(amount), reason: 'requested_by_customer' };
  }
  protected override failure(operation: Operation, prefix: string, error: unknown): GatewayError {
    const status = (error as { response?: { status?: number; data?: unknown } }).response;
    if (!status?.status) return super.failure(operation, prefix, error);
    return new GatewayError(super.failure(operation, prefix, error).code, royaltyErrorMessage(operation, status.status, status.data));
  }
}

describe('the extension points beyond the conformance suite', () => {
  const h = providerHarness({
    create: (runtime) => new TransactionsApiAdapter(VARIANT, runtime),
    account: () => ({ publicKey: 'pk', secretKey: 'sk_variant' }),
  });

  it("refuses a payment method it does not offer with the declared text ('Unsupported payment method')", async () => {
    expect(
      await failure(
        h.adapter.createTransaction(h.ctx, { amount: 100, paymentMethod: 'BILLET', items: [], installments: 1, fingerPrints: [], splits: [], currency: 'BRL' }),
      ),
    ).toEqual({ code: 'UNIMPLEMENTED', message: 'Unsupported payment method' });
  });

  it("turns a payout the provider refuses into the declared 'Error on withdraw'", async () => {
    h.fake.expect({ method: 'POST', path: '/cashout', reply: { body: { id: 'wd_2', status: 'REFUSED', amount: 25 } } });
    expect(await failure(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: 'a@b.c', pixType: 'EMAIL' }))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Error on withdraw',
    });
  });

  it('tokenises a card by POST /card-token and answers the token', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/card-token',
      headers: { authorization: 'Bearer sk_variant' },
      body: { number: '4111111111111111', holderName: 'ANA SOUZA', expirationMonth: 12, expirationYear: 2030, cvv: '123' },
      reply: { body: { token: 'tok_1' } },
    });
    expect(
      await h.adapter.createCardToken(h.ctx, {
        cardNumber: '4111 1111 1111 1111',
        holderName: 'ANA SOUZA',
        holderDocument: '',
        expMonth: '12',
        expYear: '30',
        cvv: '123',
      }),
    ).toBe('tok_1');
  });
});

describe('a member that needs code overrides one hook', () => {
  const h = providerHarness({ create: (runtime) => new RoyaltyLike(runtime), account: () => ({ publicKey: 'pk', secretKey: 'sk_variant' }) });

  it("words failures its own way: 'Royalty <operation> erro <status>: <body>'", async () => {
    h.fake.expect({ method: 'GET', path: '/transactions/tx_1', reply: { status: 404, body: { error: 'not found' } } });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'tx_1'))).toEqual({
      code: 'NOT_FOUND',
      message: 'Royalty getTransaction erro 404: {"error":"not found"}',
    });
  });
});
