import { describe, expect, it } from '@jest/globals';
import { CATALOGUE, failureMessage } from '../../server/lib/providerMessages.js';
import { MASKED_SECRET } from '../../server/providers/kit/bodySecrets.js';
import { FLOW2PAY, Flow2payAdapter } from '../../server/providers/flow2pay/adapter.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, notification, providerHarness, transactionInput } from './conformance/harness.js';

/**
 * FLOW2PAY (spec doc 3, group 3), a bespoke PIX adapter: login, POST
 * /qrcode/v2/gerar, POST /pix/v1/transferir-reverso (§7), PixIn/PixInReversal
 * (§4), both keys (§5), its three texts (§8), 24-hour PIX (§9); shapes from the
 * research's F9 (Sants Bank) where the spec is silent.
 */

const LOGIN = { method: 'POST', path: '/no-auth/autenticacao/v1/api/login', body: { clientId: 'f2p-id', clientSecret: 'f2p-secret' } };
const BEARER = { authorization: 'Bearer f2p-token' };
const EMV = '00020126580014br.gov.bcb.pix0136flow2pay-qr-id5204000053039865406019.905802BR5907FLOW2PAY6009SAO PAULO62070503***6304ABCD';

describe('FLOW2PAY (spec doc 3, group 3), a bespoke adapter', () => {
  const h = providerHarness({
    create: (runtime) => new Flow2payAdapter(FLOW2PAY, runtime),
    account: () => ({ publicKey: 'f2p-id', secretKey: 'f2p-secret', webhookSecret: 'hook-token' }),
  });
  const withLogin = () => h.fake.expect({ ...LOGIN, reply: { body: { sucesso: true, accessToken: 'f2p-token', mensagem: 'ok' } } });

  it('takes PIX charges, their refunds and notifications; no read (none is shown); the rest rejects with the spec text', async () => {
    expect(h.adapter.identity).toEqual({ id: 'FLOW2PAY', aliases: [], specGroup: 'document 3 (group 3)', defaultBaseUrl: 'https://api.pix.santsbank.com.br' });
    expect(h.adapter.operations).toEqual(['createTransaction', 'refoundTransaction', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Payment method not supported by FLOW2PAY',
    });
  });

  it.each([
    [{ publicKey: '', secretKey: 'f2p-secret' }, 'publicKey is required'],
    [{ publicKey: 'f2p-id', secretKey: ' ' }, 'secretKey is required'],
  ])('needs both keys (§5): %j is refused at the door and before any call', async (keys, message) => {
    expect(() => h.adapter.checkAccount(keys)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message }));
    expect(await failure(h.adapter.createTransaction({ ...h.ctx, ...keys }, transactionInput()))).toEqual({ code: 'FAILED_PRECONDITION', message });
    expect(h.fake.received).toHaveLength(0);
  });

  it('logs in, then creates a QR code valid 86400 s (§9) by POST /qrcode/v2/gerar, in cents, with the image asked for', async () => {
    const login = withLogin();
    h.fake.expect({
      method: 'POST',
      path: '/qrcode/v2/gerar',
      headers: BEARER,
      body: { valor: 1990, tempoExpiracao: 86400, comImagem: true, informacaoAdicional: 'Pedido 77' },
      reply: { body: { sucesso: true, mensagem: 'QRCode gerado', txId: 'tx-1', qrcode: { imagem: 'iVBORw0KGgo=', emv: EMV } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ description: 'Pedido 77' }))).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'tx-1', status: 'PENDING', amount: 1990, pixCode: EMV },
      ...{ expiresAt: new Date(NOW.getTime() + 86_400_000) },
    });
    // The token is reused for the next call of the same account.
    h.fake.expect({ method: 'POST', path: '/qrcode/v2/gerar', headers: BEARER, reply: { body: { sucesso: true, txid: 'tx-2', qrcode: { emv: EMV } } } });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toMatchObject({ transactionId: 'tx-2' });
    expect(login.calls).toHaveLength(1);
  });

  it("a refused login is 'Failed to authenticate with Flow2Pay' (§8)", async () => {
    h.fake.expect({ ...LOGIN, reply: { status: 401, body: { sucesso: false, mensagem: 'Credenciais inválidas' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual(CATALOGUE.FLOW2PAY_AUTHENTICATION_FAILED);
  });

  it("a refused charge is 'Erro ao criar transação PIX: …' with the provider's words, as HTTP error or as sucesso false (§8)", async () => {
    withLogin();
    h.fake.expect({ method: 'POST', path: '/qrcode/v2/gerar', reply: { status: 422, body: { mensagem: 'Valor inválido' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: failureMessage.CREATE_PIX_TRANSACTION('Valor inválido'),
    });
    h.fake.expect({ method: 'POST', path: '/qrcode/v2/gerar', reply: { body: { sucesso: false, erro: { motivo: 'Conta bloqueada' } } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: failureMessage.CREATE_PIX_TRANSACTION('Conta bloqueada'),
    });
  });

  it('refunds by POST /pix/v1/transferir-reverso {endToEnd, valor (cents)}', async () => {
    withLogin();
    h.fake.expect({
      method: 'POST',
      path: '/pix/v1/transferir-reverso',
      headers: BEARER,
      body: { endToEnd: 'E123', valor: 500 },
      reply: { body: { sucesso: true, idEnvio: 'dev-9' } },
    });
    expect(await h.adapter.refoundTransaction(h.ctx, 'E123', 500)).toEqual({ refundId: 'dev-9', status: true });
  });

  it("names the PIX received by the end-to-end id the gateway stored; the charge's id only while none is known", async () => {
    withLogin();
    const E2E = 'E18236120202611291012abcdefghijk';
    h.fake.expect({ method: 'POST', path: '/pix/v1/transferir-reverso', body: { endToEnd: E2E, valor: 500 }, reply: { body: { sucesso: true } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'tx-1', 500, 'key-1', { pixEndToEndId: E2E })).toEqual({ refundId: 'tx-1', status: true });
    h.fake.expect({ method: 'POST', path: '/pix/v1/transferir-reverso', body: { endToEnd: 'tx-1', valor: 500 }, reply: { body: { sucesso: true } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'tx-1', 500, 'key-2', {})).toEqual({ refundId: 'tx-1', status: true });
  });

  it("a refused refund is 'Erro ao solicitar devolução: …' (§8)", async () => {
    withLogin();
    h.fake.expect({ method: 'POST', path: '/pix/v1/transferir-reverso', reply: { status: 400, body: { mensagem: 'Saldo insuficiente' } } });
    expect(await failure(h.adapter.refoundTransaction(h.ctx, 'E123', 500))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: failureMessage.REQUEST_REFUND('Saldo insuficiente'),
    });
    h.fake.expect({ method: 'POST', path: '/pix/v1/transferir-reverso', reply: { body: { sucesso: false, mensagem: 'Já devolvido' } } });
    expect(await failure(h.adapter.refoundTransaction(h.ctx, 'E123', 500))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: failureMessage.REQUEST_REFUND('Já devolvido'),
    });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('a charge or refund answered with %s is UNAVAILABLE, never a result', async (_label, body) => {
    withLogin();
    h.fake.expect({ method: 'POST', path: '/qrcode/v2/gerar', reply: { body } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'POST', path: '/pix/v1/transferir-reverso', reply: { body } });
    expect((await failure(h.adapter.refoundTransaction(h.ctx, 'E123', 500))).code).toBe('UNAVAILABLE');
  });

  it.each([
    ['PixIn', 'APPROVED'],
    ['PixInReversal', 'CHARGEBACK'],
    ['PixOut', 'PENDING'],
  ])('a %s notification is %s (§4: otherwise PENDING)', async (evento, status) => {
    const body = { evento, txid: 'tx-1', endToEndId: 'E999', valor: 1990, token: 'hook-token' };
    // A PixIn's end-to-end id is the charge's PIX payment; a reversal's (maybe the devolução's) is not kept.
    const payment = evento === 'PixIn' ? { pixPayment: { endToEndId: 'E999' } } : {};
    expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'TRANSACTION', transactionId: 'tx-1', status, ...payment });
    expect(h.adapter.notificationKey(h.ctx, notification(body))).toBe(`transaction:tx-1/E999:${evento.toLowerCase()}`);
  });

  it('ignores notifications without an event or a txid, and unparseable ones', async () => {
    for (const body of [{ txid: 'tx-1' }, { evento: 'PixIn' }, '{not json', []])
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
  });

  it('stores a notification with its token masked, every other field kept; a masked one checked again is unsigned (intake kept the proof)', () => {
    const body = { evento: 'PixIn', txid: 'tx-1', endToEndId: 'E999', valor: 1990, token: 'hook-token' };
    const stored = h.adapter.storableBody(Buffer.from(JSON.stringify(body)));
    expect(stored.toString()).not.toContain('hook-token');
    expect(JSON.parse(stored.toString())).toEqual({ ...body, token: MASKED_SECRET });
    expect(h.adapter.verifyNotification(h.ctx, { headers: {}, body: stored })).toBe('unsigned');
  });

  it("checks the payload's token against the account's webhook secret; without a secret it is unsigned", () => {
    const body = { evento: 'PixIn', txid: 'tx-1' };
    expect(h.adapter.verifyNotification(h.ctx, notification({ ...body, token: 'hook-token' }))).toBe('valid');
    expect(h.adapter.verifyNotification(h.ctx, notification({ ...body, token: 'forged' }))).toBe('invalid');
    expect(h.adapter.verifyNotification(h.ctx, notification(body))).toBe('invalid');
    expect(h.adapter.verifyNotification({ ...h.ctx, webhookSecret: undefined }, notification({ ...body, token: 'x' }))).toBe('unsigned');
  });

  it.each([
    ['a numeric txId', { sucesso: true, txId: { id: 1 }, qrcode: { emv: EMV } }, 'txId'],
    ['no txId', { sucesso: true, qrcode: { emv: EMV } }, 'txId'],
    ['a numeric EMV', { sucesso: true, txId: 'tx-1', qrcode: { emv: 12345 } }, 'qrcode.emv'],
    ['sucesso as text', { sucesso: 'true', txId: 'tx-1', qrcode: { emv: EMV } }, 'sucesso'],
  ])("a charge answered with %s is the kit's bad answer under the charge's prefix (UNAVAILABLE), never a charge", async (_label, body, field) => {
    withLogin();
    h.fake.expect({ method: 'POST', path: '/qrcode/v2/gerar', reply: { body } });
    const { code, message } = await failure(h.adapter.createTransaction(h.ctx, transactionInput()));
    expect([code, message.startsWith(failureMessage.CREATE_PIX_TRANSACTION('')), message]).toEqual([
      'UNAVAILABLE',
      true,
      expect.stringContaining(`resposta do provedor em formato inesperado`),
    ]);
    expect(message).toContain(field);
  });

  it('a refund answered with sucesso true but a malformed id is UNAVAILABLE; a refusal whose words are no text stays a refusal', async () => {
    withLogin();
    h.fake.expect({ method: 'POST', path: '/pix/v1/transferir-reverso', reply: { body: { sucesso: true, idEnvio: [1] } } });
    expect(await failure(h.adapter.refoundTransaction(h.ctx, 'E123', 500))).toMatchObject({ code: 'UNAVAILABLE' });
    h.fake.expect({ method: 'POST', path: '/pix/v1/transferir-reverso', reply: { body: { sucesso: false, mensagem: 42 } } });
    expect((await failure(h.adapter.refoundTransaction(h.ctx, 'E123', 500))).code).toBe('FAILED_PRECONDITION');
  });

  it('ignores notifications whose event or txid has the wrong type', async () => {
    for (const body of [
      { evento: 7, txid: 'tx-1' },
      { evento: 'PixIn', txid: { id: 'tx-1' } },
      { evento: ' ', txid: 'tx-1' },
    ])
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    expect(h.adapter.verifyNotification(h.ctx, notification({ evento: 'PixIn', txid: 'tx-1', token: 123 }))).toBe('invalid');
  });
});
