import { describe, expect, it } from '@jest/globals';
import { ORBITA } from '../../server/providers/members/orbita.js';
import { f1MemberStack } from './f1Gateway.js';
import { startOrbitaStandIn } from './orbita.js';

/** ORBITA against its platform's stand-in, through the gateway's public contract. */

const KEYS = { publicKey: 'pk_orbita_standin', secretKey: 'sk_orbita_standin' };
const member = f1MemberStack('ORBITA', KEYS, startOrbitaStandIn);
const { journey } = member;

describe('ORBITA against the stand-in of its platform', () => {
  const basic = `Basic ${Buffer.from(`${KEYS.secretKey}:${KEYS.publicKey}`).toString('base64')}`;

  it("charges by PIX with its Basic pair; its unsigned postback (the platform's envelope) is confirmed by a read and APPROVES it", async () => {
    await journey.pix();
    expect(member.standIn.received.every((request) => request.headers.authorization === basic)).toBe(true);
  });

  it('refuses a postback the platform did not send: unsigned, it is checked with a read and moves nothing', async () => {
    await journey.forgedPostback();
  });

  it('charges by boleto (expiring on the date it sent) and by card hash (the platform takes no card id), decided at once', async () => {
    await journey.boleto();
    await journey.card('orbita-card-once');
  });

  it("a card the platform declines ('refused', with its refusedReason) reaches the caller REJECTED", async () => {
    await journey.refusedCard();
  });

  it('refunds a card charge partly, then what is left (POST /transactions/{id}/refund): REFUNDED', async () => {
    await journey.cardAndRefunds();
  });

  it('claims no documentation it was not written from', () => {
    // The read, the refund, the PIX and boleto objects come from the platform's public clients, not its documentation.
    expect(ORBITA.evidence).toBeUndefined();
  });
});
