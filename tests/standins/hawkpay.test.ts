import { describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest, RefoundTransactionRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { HAWKPAY } from '../../server/providers/members/hawkpay.js';
import { failureOf } from '../support/clients.js';
import { f1MemberStack } from './f1Gateway.js';
import { startHawkPayStandIn } from './hawkpay.js';

/** HAWKPAY against its platform's stand-in, through the gateway's public contract (PROVIDERS.md §3). */

const KEYS = { publicKey: 'pk_hawk_standin', secretKey: 'sk_hawk_standin' };
const member = f1MemberStack('HAWKPAY', KEYS, startHawkPayStandIn);
const { journey } = member;

describe('HAWKPAY against the stand-in of its platform', () => {
  it("charges by PIX with Basic publicKey:secretKey; its unsigned postback (the platform's envelope) is confirmed by a read and APPROVES it", async () => {
    await journey.pix();
    const expected = `Basic ${Buffer.from(`${KEYS.publicKey}:${KEYS.secretKey}`).toString('base64')}`;
    expect(member.standIn.received.every((request) => request.headers.authorization === expected)).toBe(true);
  });

  it('refuses a postback the platform did not send: unsigned, it is checked with a read and moves nothing', async () => {
    await journey.forgedPostback();
  });

  it('charges by boleto (expiring on the date it sent) and by card hash, decided at once', async () => {
    await journey.boleto();
    await journey.card();
  });

  it("a card the platform declines ('refused', with its refusedReason) reaches the caller REJECTED", async () => {
    await journey.refusedCard();
  });

  it("refuses what the platform's documentation does not take, in its error shape; a refusal reaches the caller with its message", async () => {
    const auth = `Basic ${Buffer.from(`${KEYS.publicKey}:${KEYS.secretKey}`).toString('base64')}`;
    const valid = {
      amount: 1000,
      paymentMethod: 'credit_card',
      customer: { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321', document: { type: 'cpf', number: '12345678909' } },
      items: [{ title: 'Pedido', unitPrice: 1000, quantity: 1, tangible: false }],
      card: { hash: 'card_hash_abc' },
    };
    const post = (body: unknown, authorization = auth) =>
      fetch(`${member.standIn.url}/v1/transactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify(body),
      });
    const refusals = [
      { ...valid, card: { token: 'tok_abc' } },
      { ...valid, amount: 10.5 },
      { ...valid, customer: { ...valid.customer, phone: undefined } },
      { ...valid, customer: { ...valid.customer, document: { type: 'cpf', number: '123' } } },
      { ...valid, items: [{ title: 'Pedido', unitPrice: 1000, quantity: 1 }] },
      { ...valid, metadata: { order: 'x' } },
      { ...valid, paymentMethod: 'pix', pix: { expiresInDays: 1.5 } },
    ];
    for (const body of refusals) {
      const answer = await post(body);
      expect([answer.status, await answer.json()]).toEqual([400, { statusCode: 400, error: 'Bad Request', message: expect.any(String) }]);
    }
    expect((await post(valid, `Basic ${Buffer.from(`${KEYS.publicKey}:wrong`).toString('base64')}`)).status).toBe(401);
    expect((await post({ ...valid, installments: '1', metadata: '{"order":"x"}', traceable: false })).status).toBe(200);

    const posts = member.standIn.count('POST', '/v1/transactions');
    const refused = await failureOf(
      member.stack.client.call(
        'gateway',
        'createTransaction',
        CreateTransactionRequest.fromPartial({
          providerAccountId: member.accountId,
          idempotencyKey: 'hawk-no-phone',
          transaction: {
            customer: { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '' },
            amount: 990,
            paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
          },
        }),
      ),
    );
    // The platform's own refusal (the phone is required there), not the gateway's: the request reached it.
    expect(member.standIn.count('POST', '/v1/transactions')).toBe(posts + 1);
    expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('customer.phone') });
  });

  it('has no refund and no payout (doc 3 §7): both are refused before anything reaches the platform', async () => {
    const card = await journey.card('hawk-card-no-refund');
    const before = member.standIn.received.length;
    const refund = await failureOf(
      member.stack.client.call(
        'gateway',
        'refoundTransaction',
        RefoundTransactionRequest.fromPartial({ providerAccountId: member.accountId, idempotencyKey: 'hawk-refund', id: card.id, amount: 1000 }),
      ),
    );
    expect(refund.code).toMatch(/UNIMPLEMENTED|FAILED_PRECONDITION|INVALID_ARGUMENT/);
    const payout = await failureOf(
      member.stack.client.call(
        'gateway',
        'withdraw',
        WithdrawRequest.fromPartial({
          providerAccountId: member.accountId,
          idempotencyKey: 'hawk-payout',
          withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 2500, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
        }),
      ),
    );
    expect(payout.code).toMatch(/UNIMPLEMENTED|FAILED_PRECONDITION|INVALID_ARGUMENT/);
    expect(member.standIn.received).toHaveLength(before);
  });

  it('claims no documentation it was not written from', () => {
    // The read, the PIX and boleto objects and the boleto's request come from the platform's public clients, not its documentation.
    expect(HAWKPAY.evidence).toBeUndefined();
  });
});
