import { describe, expect, it } from '@jest/globals';
import { REDACTED, redactForLog, withoutCredentialHeaders, withoutCredentialParams } from '../../../../server/lib/http/index.js';

describe('redactForLog', () => {
  it('hides credentials in headers, whatever their case, and keeps the rest', () => {
    const headers = {
      Authorization: 'Bearer sk_live_abc',
      'X-Api-Key': 'key123',
      'x-client-secret': 's3cr3t',
      Cookie: 'sid=1',
      accept: 'application/json',
      'x-request-id': 'r-1',
    };
    expect(redactForLog(headers)).toEqual({
      Authorization: REDACTED,
      'X-Api-Key': REDACTED,
      'x-client-secret': REDACTED,
      Cookie: REDACTED,
      accept: 'application/json',
      'x-request-id': 'r-1',
    });
  });

  it("hides a webhook's credential header (Pluggou's X-Webhook-Code) in logs and never keeps it with a stored notification", () => {
    const headers = { 'x-webhook-code': 'whk-code-1', 'x-webhook-event-id': 'evt-1', 'user-agent': 'Pluggou-Webhook/1.0' };
    expect(redactForLog(headers)).toEqual({ ...headers, 'x-webhook-code': REDACTED });
    expect(withoutCredentialHeaders(headers)).toEqual({ 'x-webhook-event-id': 'evt-1', 'user-agent': 'Pluggou-Webhook/1.0' });
  });

  it("keeps of a URL's query only what is not credential-like, the first value of each name", () => {
    const query = new URLSearchParams('topic=chargebacks&id=217000087654321001&token=abc&api_key=k&Signature=s&pass=p&store=loja&topic=payment');
    expect(withoutCredentialParams(query)).toEqual({ topic: 'chargebacks', id: '217000087654321001', store: 'loja' });
  });

  it("hides a provider's own API-key header when told its name", () => {
    expect(redactForLog({ ci: 'client', cs: 'secret-value', other: 'x' }, ['CS'])).toEqual({ ci: 'client', cs: REDACTED, other: 'x' });
  });

  it('hides card number and CVV at any depth, but not a street number', () => {
    const body = {
      amount: 1000,
      card: { number: '4111 1111 1111 1111', cvv: '123', holderName: 'ANA', expirationMonth: '12' },
      payment: { credit_card: { card_number: '5555555555554444', security_code: '999' } },
      address: { street: 'Rua A', number: '1234' },
      items: [{ cardNumber: 4000000000000002, cvc: 321 }],
      creditCard: { holderName: 'ANA', number: '4111111111111111', expiryMonth: '12', ccv: '123' },
    };
    expect(redactForLog(body)).toEqual({
      amount: 1000,
      card: { number: REDACTED, cvv: REDACTED, holderName: 'ANA', expirationMonth: '12' },
      payment: { credit_card: { card_number: REDACTED, security_code: REDACTED } },
      address: { street: 'Rua A', number: '1234' },
      items: [{ cardNumber: REDACTED, cvc: REDACTED }],
      creditCard: { holderName: 'ANA', number: REDACTED, expiryMonth: '12', ccv: REDACTED },
    });
    expect(redactForLog('{"creditCard":{"ccv":"123"}}')).toBe(`{"creditCard":{"ccv":"${REDACTED}"}}`);
  });

  it("hides the card in Cel_Cash's PaymentMethodCreditCard.Card and the purchase platform's creditCard, object or text", () => {
    const celcash = { PaymentMethodCreditCard: { Card: { myId: 'c1', number: '5448280000000007', holder: 'ANA', expiresAt: '2031-03', cvv: '8316' } } };
    const purchase = { creditCard: { number: '5448280000000007', holder: 'ANA', expMonth: '03', expYear: '2031', cvv: '8316', installments: 3 } };
    expect(redactForLog(celcash)).toEqual({
      PaymentMethodCreditCard: { Card: { myId: 'c1', number: REDACTED, holder: 'ANA', expiresAt: '2031-03', cvv: REDACTED } },
    });
    expect(redactForLog(purchase)).toEqual({
      creditCard: { number: REDACTED, holder: 'ANA', expMonth: '03', expYear: '2031', cvv: REDACTED, installments: 3 },
    });
    for (const text of [JSON.stringify(celcash), JSON.stringify(purchase)]) {
      const redacted = String(redactForLog(text));
      expect([redacted.includes('5448280000000007'), redacted.includes('8316')]).toEqual([false, false]);
    }
  });

  it('hides OAuth tokens and client secrets in JSON answers and form bodies', () => {
    expect(redactForLog({ access_token: 'eyJhbGciOi', token_type: 'Bearer', expires_in: 3600, refresh_token: 'r' })).toEqual({
      access_token: REDACTED,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: REDACTED,
    });
    expect(redactForLog('grant_type=client_credentials&client_id=abc&client_secret=xyz')).toBe(
      `grant_type=client_credentials&client_id=abc&client_secret=${encodeURIComponent(REDACTED)}`,
    );
    expect(redactForLog(new URLSearchParams({ client_id: 'abc', client_secret: 'xyz' }))).toBe(`client_id=abc&client_secret=${encodeURIComponent(REDACTED)}`);
  });

  it('hides secrets in URL queries, JSON text and free text, and leaves harmless text alone', () => {
    expect(redactForLog('https://api.example.com/card-token?publicKey=pk&apiKey=secret&id=1')).toBe(
      `https://api.example.com/card-token?publicKey=pk&apiKey=${encodeURIComponent(REDACTED)}&id=1`,
    );
    expect(JSON.parse(redactForLog('{"cvv":"123","status":"paid"}') as string)).toEqual({ cvv: REDACTED, status: 'paid' });
    expect(redactForLog('rejected header Authorization: Basic dXNlcjpwYXNz')).toBe(`rejected header Authorization: Basic ${REDACTED}`);
    const qr = 'data:image/png;base64,iVBORw0KGgo+/AAA==';
    expect(redactForLog({ pixQrCode: qr, txid: 'abc=' })).toEqual({ pixQrCode: qr, txid: 'abc=' });
  });

  it('never mutates its input, summarises binary data and survives cycles', () => {
    const input: Record<string, unknown> = { secretKey: 'sk', nested: { password: 'p' }, pdf: Buffer.from('%PDF-1.4') };
    input.self = input;
    const output = redactForLog(input) as Record<string, unknown>;
    expect(output).toEqual({ secretKey: REDACTED, nested: { password: REDACTED }, pdf: '[binary 8 bytes]', self: '[circular]' });
    expect(input.secretKey).toBe('sk');
    expect((input.nested as { password: string }).password).toBe('p');
  });

  it('a shared (not circular) object is shown both times', () => {
    const customer = { name: 'Ana' };
    expect(redactForLog({ payer: customer, receiver: customer })).toEqual({ payer: { name: 'Ana' }, receiver: { name: 'Ana' } });
  });
});

describe('card data inside free text', () => {
  it('hides Luhn-valid card numbers, plain or grouped by spaces or dashes, and keeps order numbers', () => {
    expect(redactForLog('card 4111111111111111 was declined')).toBe(`card ${REDACTED} was declined`);
    expect(redactForLog('card 4111 1111 1111 1111 was declined')).toBe(`card ${REDACTED} was declined`);
    expect(redactForLog('Amex 3782-822463-10005 refused')).toBe(`Amex ${REDACTED} refused`);
    expect(redactForLog('order 4111111111111112 not found')).toBe('order 4111111111111112 not found');
    expect(redactForLog('boleto 23793381286000000000300000000401')).toBe('boleto 23793381286000000000300000000401');
    expect(redactForLog({ message: 'duplicate 5555555555554444' })).toEqual({ message: `duplicate ${REDACTED}` });
  });

  it('leaves a UUID whole even when its digits line up into a Luhn-valid run, and still hides a card beside it', () => {
    // 127613-0833-457 reads as 1276130833457, which passes the Luhn check.
    const id = 'fc127613-0833-457c-9b8c-17f6ed5c467e';
    expect(redactForLog(`dispute ${id}: every document already reached MERCADOPAGO`)).toBe(`dispute ${id}: every document already reached MERCADOPAGO`);
    expect(redactForLog(`charge 12345678-1234-1234-1234-123456789012 card 4111111111111111`)).toBe(
      `charge 12345678-1234-1234-1234-123456789012 card ${REDACTED}`,
    );
    expect(redactForLog(`4111111111111111${id}`)).toBe(`${REDACTED}${id}`);
  });

  it('hides security codes given as key and value inside text', () => {
    expect(redactForLog('invalid field cvv=123 (expected 3 digits)')).toBe(`invalid field cvv=${REDACTED} (expected 3 digits)`);
    expect(redactForLog('card[security_code]=4321 rejected')).toBe(`card[security_code]=${REDACTED} rejected`);
    expect(redactForLog('bad cardCvc: 999')).toBe(`bad cardCvc: ${REDACTED}`);
    expect(redactForLog(`got "securityCode": "777" from you`)).toBe(`got "securityCode": "${REDACTED}" from you`);
  });

  it('walks a request a provider echoed inside its error text', () => {
    const echoed = 'Invalid request {"card":{"holder":"ANA","pan":"4000000000000002","cvv":"123"},"amount":100} at 12:00';
    const shown = redactForLog(echoed) as string;
    expect(shown).not.toMatch(/4000000000000002|"123"/);
    expect(shown).toBe(`Invalid request {"card":{"holder":"ANA","pan":"${REDACTED}","cvv":"${REDACTED}"},"amount":100} at 12:00`);
  });

  it('hides card data in query text and in form values under harmless names', () => {
    expect(redactForLog('https://psp.example/pay?number=4111111111111111&cvv=123&id=7 failed')).toBe(
      `https://psp.example/pay?number=${encodeURIComponent(REDACTED)}&cvv=${encodeURIComponent(REDACTED)}&id=7 failed`,
    );
    expect(redactForLog('error=card+4111111111111111+refused&code=51')).toBe(`error=card+${encodeURIComponent(REDACTED)}+refused&code=51`);
  });
});

describe('card security codes next to their words in free text', () => {
  // [text, what is shown]: the code goes, its word and every other number stay.
  const redacted: Array<[string, string]> = [
    ['CVV 9731 inválido', `CVV ${REDACTED} inválido`],
    ['cvv: 123', `cvv: ${REDACTED}`],
    ['CVC=4321 recusado', `CVC=${REDACTED} recusado`],
    ['cvv2 123 does not match', `cvv2 ${REDACTED} does not match`],
    ['CVC2 1234.', `CVC2 ${REDACTED}.`],
    ['cvv2123 rejected', `cvv${REDACTED} rejected`],
    ['Código de segurança 123 inválido', `Código de segurança ${REDACTED} inválido`],
    ['CÓDIGO DE SEGURANÇA: 4321', `CÓDIGO DE SEGURANÇA: ${REDACTED}`],
    ['codigo de seguranca "987"', `codigo de seguranca "${REDACTED}"`],
    // Decomposed accents: a letter, then its combining mark.
    ['co\u0301digo de seguranc\u0327a 555 errado', `co\u0301digo de seguranc\u0327a ${REDACTED} errado`],
    ['Security code 0123 is wrong', `Security code ${REDACTED} is wrong`],
    ['invalid card.cvv 456', `invalid card.cvv ${REDACTED}`],
    ["o cvv '456' está errado", `o cvv '${REDACTED}' está errado`],
    ['cvv (789) inválido', `cvv (${REDACTED}) inválido`],
    ['the code 9731 (CVV) was refused', `the code ${REDACTED} (CVV) was refused`],
    ['recusado: 1234 código de segurança', `recusado: ${REDACTED} código de segurança`],
    ['validade 12/2030 CVV 777', `validade 12/2030 CVV ${REDACTED}`],
    ['card 4111 1111 1111 1111 cvv 123', `card ${REDACTED} cvv ${REDACTED}`],
  ];
  it.each(redacted)('%j is shown as %j', (text, shown) => {
    expect(redactForLog(text)).toBe(shown);
  });

  // Numbers that are not a code next to its word are left as they are.
  const untouched = [
    'transação 9731 recusada',
    // Only a code right next to its word: a sentence in between keeps the number.
    '9731 é o cvv? recusado',
    'amount 1999 at 2026-11-28 12:30, order 123456',
    'cvv inválido para o pedido 1234',
    'CVV 12345 has five digits',
    'CVV 12 has two',
    'valor 1.234,56 cvv',
    'CVV 2026-11-28',
    'cvv 10/2030',
    'cvv 123,45',
    'R$ 123,45 cvv ok',
    'ordem 4111 1111 1111 1112 cvv',
    'installments 1234 of 5678',
    'service code 123',
    'códigos 123',
  ];
  it.each(untouched)('%j is left as it was', (text) => {
    expect(redactForLog(text)).toBe(text);
  });

  it('reads the same when redacted twice (a provider reader, then the answer or the log)', () => {
    const once = redactForLog('Cartão 4111 1111 1111 1111 recusado: CVV 9731 inválido (card.cvv=9731, cvc: "123")') as string;
    expect(once).toBe(`Cartão ${REDACTED} recusado: CVV ${REDACTED} inválido (card.cvv=${REDACTED}, cvc: "${REDACTED}")`);
    expect(redactForLog(once)).toBe(once);
  });

  it('takes the code out of error texts inside objects, and keys with accents', () => {
    expect(redactForLog({ message: 'Erro ao criar transação: CVV 9731 inválido', amount: 9731 })).toEqual({
      message: `Erro ao criar transação: CVV ${REDACTED} inválido`,
      amount: 9731,
    });
    expect(redactForLog({ código_segurança: '123', número: '12' })).toEqual({ código_segurança: REDACTED, número: '12' });
  });
});
