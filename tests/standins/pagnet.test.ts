import { describe, expect, it } from '@jest/globals';
import { RefoundTransactionRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PixKeyType, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { PAGNET } from '../../server/providers/members/pagnet.js';
import { failureOf } from '../support/clients.js';
import { f1MemberStack } from './f1Gateway.js';
import { startPagnetStandIn } from './pagnet.js';

/** PAGNET against its platform's stand-in, through the gateway's public contract. */

const KEYS = { publicKey: 'pk_pagnet_standin', secretKey: 'sk_pagnet_standin' };
const member = f1MemberStack('PAGNET', KEYS, startPagnetStandIn);
const { journey } = member;

describe('PAGNET against the stand-in of its platform', () => {
  const basic = `Basic ${Buffer.from(`${KEYS.publicKey}:${KEYS.secretKey}`).toString('base64')}`;

  it("charges by PIX with its Basic pair; its unsigned postback (the platform's envelope) is confirmed by a read and APPROVES it", async () => {
    await journey.pix();
    expect(member.standIn.received.every((request) => request.headers.authorization === basic)).toBe(true);
  });

  it('refuses a postback the platform did not send: unsigned, it is checked with a read and moves nothing', async () => {
    await journey.forgedPostback();
  });

  it('charges by boleto (expiring on the date it sent) and by card hash (the platform takes no card id), decided at once', async () => {
    await journey.boleto();
    await journey.card();
  });

  it("a card the platform declines ('refused', with its refusedReason) reaches the caller REJECTED", async () => {
    await journey.refusedCard();
  });

  it('has no refund and no payout (doc 3 §7): both are refused before anything reaches the platform', async () => {
    const card = await journey.card('pagnet-card-no-refund');
    const before = member.standIn.received.length;
    const refund = await failureOf(
      member.stack.client.call(
        'gateway',
        'refoundTransaction',
        RefoundTransactionRequest.fromPartial({ providerAccountId: member.accountId, idempotencyKey: 'pagnet-refund', id: card.id, amount: 1000 }),
      ),
    );
    expect(refund.code).toMatch(/UNIMPLEMENTED|FAILED_PRECONDITION|INVALID_ARGUMENT/);
    const payout = await failureOf(
      member.stack.client.call(
        'gateway',
        'withdraw',
        WithdrawRequest.fromPartial({
          providerAccountId: member.accountId,
          idempotencyKey: 'pagnet-payout',
          withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 2500, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
        }),
      ),
    );
    expect(payout.code).toMatch(/UNIMPLEMENTED|FAILED_PRECONDITION|INVALID_ARGUMENT/);
    expect(member.standIn.received).toHaveLength(before);
  });

  it('claims no documentation it was not written from', () => {
    // The read, the PIX and boleto objects and the boleto's request come from the platform's public clients, not its documentation.
    expect(PAGNET.evidence).toBeUndefined();
  });
});
