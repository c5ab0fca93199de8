import { describe, expect, it } from '@jest/globals';
import { LYNXPAY, LynxpayAdapter } from '../../server/providers/members/lynxpay.js';
import { failure, providerHarness } from './conformance/harness.js';
import { transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const AUTH = `Basic ${Buffer.from('sk_lx:x').toString('base64')}`;
transactionsApiConformance(LYNXPAY, {
  keys: { publicKey: 'pk_lx', secretKey: 'sk_lx' },
  authHeaders: { authorization: AUTH },
  create: (runtime) => new LynxpayAdapter(LYNXPAY, runtime),
});

describe('LYNXPAY card tokens (spec doc 2 §5, §7)', () => {
  const h = providerHarness({ create: (runtime) => new LynxpayAdapter(LYNXPAY, runtime), account: () => ({ publicKey: 'pk_lx', secretKey: 'sk_lx' }) });
  const card = { cardNumber: '4111 1111 1111 1111', holderName: 'Ana Souza', holderDocument: '', expMonth: '7', expYear: '30', cvv: '123' };

  it('posts the card to /v1/card-token with the public key in the query', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v1/card-token',
      query: { publicKey: 'pk_lx' },
      headers: { authorization: AUTH },
      body: { card: { number: '4111111111111111', holderName: 'Ana Souza', expirationMonth: 7, expirationYear: 2030, cvv: '123' } },
      reply: { body: { token: 'lx_tok_1' } },
    });
    expect(await h.adapter.createCardToken(h.ctx, card)).toBe('lx_tok_1');
  });

  it.each([
    ['no card', undefined, 'card é obrigatório.'],
    ['no number', { ...card, cardNumber: ' ' }, 'card.number é obrigatório.'],
    ['a holder without a last name', { ...card, holderName: 'Ana' }, 'card.holderName é inválido. Precisa ter nome e sobrenome.'],
    ['a three-character month', { ...card, expMonth: '007' }, 'card.expirationMonth é inválido. Precisa ter no máximo 2 caracteres.'],
    ['a three-digit year', { ...card, expYear: '203' }, 'card.expirationYear é inválido. Precisa ter 4 caracteres.'],
    ['a five-digit cvv', { ...card, cvv: '12345' }, 'card.cvv é inválido. Precisa ter entre 3 e 4 caracteres.'],
  ])('refuses %s before sending anything', async (_label, input, message) => {
    expect(await failure(h.adapter.createCardToken(h.ctx, input as never))).toEqual({ code: 'INVALID_ARGUMENT', message });
    expect(h.fake.received).toHaveLength(0);
  });
});
