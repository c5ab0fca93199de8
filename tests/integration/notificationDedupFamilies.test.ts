import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest, GetWithdrawRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, TransactionStatus, WebhookOutcome, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { clearHttpsAgents, trustCertificateAuthority } from '../../server/lib/http/index.js';
import { startFakeProvider, startFileServer, testCertificates, type FakeProvider, type FileServer } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { listNotifications, processedNotifications } from '../support/webhookNotifications.js';

/**
 * Dedup only over what was proven (issue 32 §4), one forged-then-genuine pair per provider family beyond those of
 * notificationDedup.test.ts: the BACEN API Pix (VOLUTI, its charges and its payouts), the Cashtime platform
 * (CASHTIME), the PrimePag platform (PRIMEPAG), all unsigned and confirmed by a read, and Iugu (IUGU), unsigned
 * without a webhook secret and authenticated by its trigger's `authorization` with one. A forged notification,
 * stored first and refused by the read (or by its credential), must not make the genuine one a DUPLICATE: the genuine
 * one is checked and applied, and only then holds the key.
 *
 * Bodies and statuses as the spec gives them where it does (doc 2 §4: VOLUTI's RECEIVE/TRANSFER with LIQUIDATED, the cob's
 * ATIVA and CONCLUIDA, the common pattern's waiting and paid, reference_code, Iugu's event, data[id] and data[status]),
 * else as the family reads them (wire.ts of each family).
 */
const PIX_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***63041D3D';
const CUSTOMER = { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com', phone: '11987654321' };

let stack: TestStack;
/** Plain HTTP fake for the providers without client certificates. */
let fake: FakeProvider;
/** The BACEN API Pix members call with the platform's client certificate: an mTLS fake, and the certificate's URLs. */
let pixFake: FakeProvider;
let files: FileServer;
let untrust: (() => void) | undefined;

beforeAll(async () => {
  fake = await startFakeProvider();
  pixFake = await startFakeProvider({ tls: 'mtls' });
  const pki = await testCertificates();
  files = await startFileServer({ '/platform/cash-in.pem': pki.clientPem, '/platform/cash-out.pem': pki.clientPem });
  // The gateway runs in this process: its provider clients trust the mTLS fake's throwaway CA from here on.
  untrust = trustCertificateAuthority(pixFake.ca!);
  stack = await startTestStack({ env: { RECONCILE_AFTER_MS: '3600000' } });
});
afterAll(async () => {
  await stack?.close();
  untrust?.();
  clearHttpsAgents();
  await fake?.close();
  await pixFake?.close();
  await files?.close();
});

type Account = { id: string; notificationUrl: string };

const account = async (provider: string, fields: Record<string, string> = {}): Promise<Account> =>
  (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider,
      name: `${provider.toLowerCase()} dedup`,
      publicKey: 'pk',
      secretKey: `sk_${provider.toLowerCase()}_dedup`,
      baseUrl: fake.url,
      ...fields,
    })
  ).providerAccount as Account;

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });

const processed = (subjectId: string, count: number) => processedNotifications(stack.client, subjectId, count);
/** An account's notifications refused at intake for their credential (stored as evidence, holding no key). */
const rejectedAtIntake = async (providerAccountId: string) =>
  (await listNotifications(stack.client, { providerAccountId, outcome: WebhookOutcome.WEBHOOK_OUTCOME_REJECTED })).length;

const transactionStatus = async (id: string) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }))).transaction.status;
const withdrawalStatus = async (id: string) => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal.status;

async function pixCharge(accountId: string): Promise<{ id: string; transactionId: string }> {
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER },
    }),
  );
  return transaction;
}

/**
 * The pair for an unsigned provider: `send` posts the same notification twice. The first time the provider's read
 * (`refusing`) says the claim is false: UNCONFIRMED, nothing moves. The second time the read (`confirming`) agrees:
 * APPLIED, not a DUPLICATE of the forged one. A third delivery then is a DUPLICATE of the proven one, and asks nothing.
 */
async function forgedThenGenuine(
  provider: FakeProvider,
  subjectId: string,
  send: () => Promise<Response>,
  reads: { refusing: () => { done: boolean }; confirming: () => { done: boolean } },
) {
  const refused = reads.refusing();
  expect((await send()).status).toBe(200);
  const [forged] = await processed(subjectId, 1);
  expect(forged!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED);
  expect(refused.done).toBe(true);

  const confirmed = reads.confirming();
  expect((await send()).status).toBe(200);
  const [, genuine] = await processed(subjectId, 2);
  // The whole notification, so that a failure shows the reason it was given.
  expect(genuine).toMatchObject({ outcome: WebhookOutcome.WEBHOOK_OUTCOME_APPLIED });
  expect(confirmed.done).toBe(true);

  expect((await send()).status).toBe(200);
  const [, , again] = await processed(subjectId, 3);
  expect(again!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_DUPLICATE);
  provider.assertAllDone();
}

describe('a forged notification stored first does not silence the genuine one, per provider family', () => {
  describe('VOLUTI (BACEN API Pix family): unsigned, confirmed by GET /cob/{txid} and GET /pix/payments/{id}', () => {
    const CHAVE = 'c873834c-ed18-4e63-8e5d-90190392b744';
    let voluti: Account;

    beforeAll(async () => {
      pixFake.expect({ method: 'POST', path: '/oauth/token', times: Infinity, reply: { body: { access_token: 'dedup-token', expires_in: 3600 } } });
      voluti = await account('VOLUTI', {
        publicKey: `voluti-dedup|${CHAVE}`,
        secretKey: 'voluti-dedup-secret',
        baseUrl: pixFake.url,
        certCashInUrl: files.url('/platform/cash-in.pem'),
        certCashOutUrl: files.url('/platform/cash-out.pem'),
      });
    });

    it('a forged RECEIVE LIQUIDATED does not block the genuine one', async () => {
      const txid = 'dedupvoluti0000000000000000001';
      const cob = (status: string) => ({ txid, revisao: 0, status, valor: { original: '19.90' }, chave: CHAVE, pixCopiaECola: PIX_CODE });
      pixFake.expect({ method: 'POST', path: '/cob', reply: { status: 201, body: cob('ATIVA') } });
      const charge = await pixCharge(voluti.id);
      expect(charge.transactionId).toBe(txid);
      const endToEndId = 'E00416968202601010000dedup0001';
      const read = (answer: object) => () => pixFake.expect({ method: 'GET', path: `/cob/${txid}`, reply: { body: answer } });
      // VOLUTI's notification as the spec reads it (doc 2 §4): RECEIVE, APPROVED only when data.status is LIQUIDATED.
      const receive = {
        type: 'RECEIVE',
        data: { id: 6750828, txId: txid, pixKey: CHAVE, status: 'LIQUIDATED', payment: { amount: '19.90', currency: 'BRL' }, refunds: [], endToEndId },
      };

      await forgedThenGenuine(pixFake, charge.id, () => postJson(voluti.notificationUrl, receive), {
        refusing: read(cob('ATIVA')),
        confirming: read({ ...cob('CONCLUIDA'), pix: [{ endToEndId, txid, valor: '19.90', horario: '2026-01-01T00:00:00Z' }] }),
      });
      expect(await transactionStatus(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    });

    it('a payout: a forged TRANSFER LIQUIDATED does not block the genuine one', async () => {
      const endToEndId = 'E00416968202601010000dedup0002';
      pixFake.expect({
        method: 'POST',
        path: '/pix/payments/dict',
        reply: { body: { endToEndId, id: 1448625, status: 'PROCESSING', payment: { currency: 'BRL', amount: 10.5 } } },
      });
      const { withdrawal } = await stack.client.call(
        'gateway',
        'withdraw',
        WithdrawRequest.fromPartial({
          providerAccountId: voluti.id,
          withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 1050, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
        }),
      );
      expect(withdrawal.withdrawId).toBe(endToEndId);
      const read = (status: string) => () =>
        pixFake.expect({
          method: 'GET',
          path: `/pix/payments/${endToEndId}`,
          reply: { body: { endToEndId, id: 1448625, status, payment: { currency: 'BRL', amount: 10.5 } } },
        });
      const transfer = { type: 'TRANSFER', data: { id: 1448625, endToEndId, status: 'LIQUIDATED', payment: { amount: 10.5, currency: 'BRL' } } };

      await forgedThenGenuine(pixFake, withdrawal.id, () => postJson(voluti.notificationUrl, transfer), {
        refusing: read('PROCESSING'),
        confirming: read('LIQUIDATED'),
      });
      expect(await withdrawalStatus(withdrawal.id)).toBe(WithdrawStatus.WITHDRAW_STATUS_APPROVED);
    });
  });

  it('CASHTIME (Cashtime platform family): unsigned, confirmed by GET /details/orders/{id}', async () => {
    const cashtime = await account('CASHTIME');
    fake.expect({ method: 'POST', path: '/transactions', reply: { body: { id: 'ct_dedup_1', status: 'pending', amount: 1990, pix: { payload: PIX_CODE } } } });
    const charge = await pixCharge(cashtime.id);
    const read = (status: string) => () =>
      fake.expect({ method: 'GET', path: '/details/orders/ct_dedup_1', reply: { body: { id: 'ct_dedup_1', status, amount: 1990 } } });
    // The postback read as the order object (the platform's postbacks are not shown anywhere: docs/decisions.md).
    const postback = { id: 'ct_dedup_1', status: 'paid', amount: 1990 };

    await forgedThenGenuine(fake, charge.id, () => postJson(cashtime.notificationUrl, postback), { refusing: read('waiting'), confirming: read('paid') });
    expect(await transactionStatus(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  it('PRIMEPAG (PrimePag platform family): unsigned, confirmed by GET /v1/pix/qrcodes/{reference_code}', async () => {
    const primepag = await account('PRIMEPAG', { publicKey: 'primepag-client-id', secretKey: 'primepag-client-secret' });
    const referenceCode = '7a2b9c1d-3e4f-4a5b-8c6d-0e1f2a3b4c5d';
    fake.expect({ method: 'POST', path: '/auth/generate_token', times: Infinity, reply: { body: { access_token: 'primepag-token', expires_in: 3600 } } });
    fake.expect({ method: 'POST', path: '/v1/pix/qrcodes', reply: { status: 201, body: { qrcode: { reference_code: referenceCode, content: PIX_CODE } } } });
    const charge = await pixCharge(primepag.id);
    const read = (status: string) => () =>
      fake.expect({ method: 'GET', path: `/v1/pix/qrcodes/${referenceCode}`, reply: { body: { reference_code: referenceCode, status, value_cents: 1990 } } });
    // A pix_qrcode delivery keyed by reference_code (doc 2 §4's identifying fields); its md5 proves nothing (the family's notes).
    const delivery = {
      notification_type: 'pix_qrcode',
      message: { reference_code: referenceCode, status: 'paid', value_cents: 1990, end_to_end: 'E00416968202601010000dedup0003' },
      md5: '0f343b0931126a20f133d67c2b018a3b',
    };

    await forgedThenGenuine(fake, charge.id, () => postJson(primepag.notificationUrl, delivery), {
      refusing: read('waiting'),
      confirming: read('paid'),
    });
    expect(await transactionStatus(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  });

  describe('IUGU (Iugu family)', () => {
    const IUGU_ACCOUNT = 'A083919DEE244A0FA2705E309B378CD0';
    const invoice = (id: string, status: string) => ({
      id,
      status,
      total_cents: 1990,
      payable_with: 'pix',
      pix: { qrcode: `https://qr.iugu.com/public/v1/qr_codes/image/${id}`, qrcode_text: PIX_CODE },
    });
    const iuguCharge = async (accountId: string, id: string) => {
      fake.expect({ method: 'POST', path: '/invoices', reply: { body: invoice(id, 'pending') } });
      return pixCharge(accountId);
    };
    const readInvoice = (id: string, status: string) => () => fake.expect({ method: 'GET', path: `/invoices/${id}`, reply: { body: invoice(id, status) } });
    // Iugu's trigger as the spec reads it (doc 2 §4): the event field, data[id] and data[status].
    const statusChanged = (id: string) => ({ event: 'invoice.status_changed', 'data[id]': id, 'data[status]': 'paid' });

    it('without a webhook secret, unsigned: confirmed by GET /invoices/{id}', async () => {
      const iugu = await account('IUGU', { publicKey: IUGU_ACCOUNT, secretKey: 'live_iugu_dedup' });
      const charge = await iuguCharge(iugu.id, 'DEDUP00000000000000000000000001');
      await forgedThenGenuine(fake, charge.id, () => postForm(iugu.notificationUrl, statusChanged('DEDUP00000000000000000000000001')), {
        refusing: readInvoice('DEDUP00000000000000000000000001', 'pending'),
        confirming: readInvoice('DEDUP00000000000000000000000001', 'paid'),
      });
      expect(await transactionStatus(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    });

    describe('with a webhook secret: a trigger with a wrong authorization does not block the one with the right authorization', () => {
      const AUTHORIZATION = 'iugu-dedup-trigger-key';
      let iugu: Account;
      beforeAll(async () => {
        iugu = await account('IUGU', { publicKey: IUGU_ACCOUNT, secretKey: 'live_iugu_dedup_signed', webhookSecret: AUTHORIZATION });
      });

      it('an invoice: the authenticated trigger is applied (its amount read from GET /invoices/{id}), its re-delivery a DUPLICATE', async () => {
        const id = 'DEDUP00000000000000000000000002';
        const charge = await iuguCharge(iugu.id, id);
        const send = (authorization: string) => postForm(iugu.notificationUrl, statusChanged(id), { authorization });

        const refusedBefore = await rejectedAtIntake(iugu.id);
        expect((await send('Basic guessed-key')).status).toBe(401);
        expect(await rejectedAtIntake(iugu.id)).toBe(refusedBefore + 1);
        // The trigger carries no amount: the read lends it, once, for the authenticated trigger.
        const amountRead = readInvoice(id, 'paid')();
        expect((await send(`Basic ${AUTHORIZATION}`)).status).toBe(200);
        const [genuine] = await processed(charge.id, 1);
        // The whole notification, so that a failure shows the reason it was given.
        expect(genuine).toMatchObject({ outcome: WebhookOutcome.WEBHOOK_OUTCOME_APPLIED });
        expect(amountRead.done).toBe(true);
        expect(await transactionStatus(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);

        expect((await send(`Basic ${AUTHORIZATION}`)).status).toBe(200);
        const [, again] = await processed(charge.id, 2);
        expect(again!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_DUPLICATE);
        fake.assertAllDone();
      });

      it('an invoice: a trigger without the authorization, refused by the read, does not block the authenticated one', async () => {
        const id = 'DEDUP00000000000000000000000003';
        const charge = await iuguCharge(iugu.id, id);
        const send = (headers: Record<string, string>) => postForm(iugu.notificationUrl, statusChanged(id), headers);

        // Without the header a trigger is a hint (an invoice's notification_url sends none): the read refuses this one.
        const refused = readInvoice(id, 'pending')();
        expect((await send({})).status).toBe(200);
        const [forged] = await processed(charge.id, 1);
        expect(forged!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_UNCONFIRMED);
        expect(refused.done).toBe(true);
        expect(await transactionStatus(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

        const amountRead = readInvoice(id, 'paid')();
        expect((await send({ authorization: `Basic ${Buffer.from(AUTHORIZATION).toString('base64')}` })).status).toBe(200);
        const [, genuine] = await processed(charge.id, 2);
        // The whole notification, so that a failure shows the reason it was given.
        expect(genuine).toMatchObject({ outcome: WebhookOutcome.WEBHOOK_OUTCOME_APPLIED });
        expect(amountRead.done).toBe(true);
        expect(await transactionStatus(charge.id)).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
        fake.assertAllDone();
      });

      it('a payout (withdraw request, no lookup): the authenticated trigger is applied, not a DUPLICATE', async () => {
        fake.expect({ method: 'POST', path: `/accounts/${IUGU_ACCOUNT}/request_withdraw`, reply: { body: { id: 'WR-DEDUP-1', amount: '50.00' } } });
        const { withdrawal } = await stack.client.call(
          'gateway',
          'withdraw',
          WithdrawRequest.fromPartial({ providerAccountId: iugu.id, withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_BANK_ACCOUNT, amount: 5000 } }),
        );
        const accepted = { event: 'withdraw_request.status_changed', 'data[withdraw_request_id]': 'WR-DEDUP-1', 'data[status]': 'accepted' };
        const send = (authorization: string) => postForm(iugu.notificationUrl, accepted, { authorization });

        const refusedBefore = await rejectedAtIntake(iugu.id);
        expect((await send('forged')).status).toBe(401);
        expect(await rejectedAtIntake(iugu.id)).toBe(refusedBefore + 1);
        expect((await send(AUTHORIZATION)).status).toBe(200);
        const [genuine] = await processed(withdrawal.id, 1);
        // The whole notification, so that a failure shows the reason it was given.
        expect(genuine).toMatchObject({ outcome: WebhookOutcome.WEBHOOK_OUTCOME_APPLIED });
        expect(await withdrawalStatus(withdrawal.id)).toBe(WithdrawStatus.WITHDRAW_STATUS_APPROVED);

        expect((await send(AUTHORIZATION)).status).toBe(200);
        const [, again] = await processed(withdrawal.id, 2);
        expect(again!.outcome).toBe(WebhookOutcome.WEBHOOK_OUTCOME_DUPLICATE);
        fake.assertAllDone();
      });
    });
  });
});
