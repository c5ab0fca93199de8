import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpsRequest } from 'node:https';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { clearHttpsAgents, trustCertificateAuthority } from '../../server/lib/http/index.js';
import { PAGSTAR, PAGSTAR_PUBLIC, PagstarAdapter } from '../../server/providers/pagstar/adapter.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFileServer, testCertificates, type FileServer } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { CANCELLED_ERROR_CODE, type BacenPixStandIn } from './bacenpix.js';
import { PAGSTAR_SOURCES, startPagstarStandIn } from './pagstar.js';

/**
 * PAGSTAR's acceptance test on its public dialect (api_version 'public'):
 * the whole gateway, through its public gRPC contract, against a stand-in
 * written from docs.pagstar.com (tests/standins/pagstar.ts) over mTLS: the
 * JSON token, a PIX charge by the API Pix's cob (BR Code, validity, payer)
 * read back and known paid by GET /cob (Pagstar documents no cash-in
 * notification), a payout by /pix/payments/dict answered 202 and known by its
 * idempotency key, settled or cancelled by Pagstar's transfer webhook
 * confirmed by GET /pix/payments/idempotencyKey/{key}, a forged transfer
 * webhook that the read contradicts changing nothing, the PSP's refusal of a
 * cob reaching the caller, and refunds not offered (no devolução page).
 * Pagstar's payouts go to the Accounts API's own host, fixed in the
 * declaration: the same adapter is registered once more under a test id with
 * that host pointed at the stand-in.
 */

const CUSTOMER = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };
const CLIENT_ID = 'pagstar-standin-client';
const CLIENT_SECRET = 'pagstar-standin-secret-5b1e';
const CHAVE = '2f6c1a9e-7b3d-4c85-a0e4-9d12c3b4f5a6';
const CASHOUT_TEST_ID = 'PAGSTAR_CASHOUT_STANDIN';

let stack: TestStack;
let standIn: BacenPixStandIn;
let files: FileServer;
let untrust: () => void;
let accountId: string;
let payoutAccountId: string;
let chargeNotificationUrl: string;
let payoutNotificationUrl: string;

const createAccount = async (provider: string, extra: Record<string, unknown> = {}) =>
  (
    await stack.client.call('accounts', 'createProviderAccount', {
      provider,
      name: `${provider} against Pagstar's documented API`,
      publicKey: `${CLIENT_ID}|${CHAVE}`,
      secretKey: CLIENT_SECRET,
      baseUrl: standIn.url,
      certCashInUrl: files.url('/pagstar/client.pem'),
      certCashOutUrl: files.url('/pagstar/client.pem'),
      apiVersion: 'public',
      ...extra,
    })
  ).providerAccount;

beforeAll(async () => {
  const certificates = await testCertificates();
  // The certificate and key Pagstar issues its client, served where the account's certificate URLs point.
  files = await startFileServer({ '/pagstar/client.pem': certificates.clientPem });
  standIn = await startPagstarStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, chave: CHAVE, certificates });
  untrust = trustCertificateAuthority(certificates.ca);
  const cashOut = new PagstarAdapter(
    { ...PAGSTAR, identity: { ...PAGSTAR.identity, id: CASHOUT_TEST_ID } },
    {},
    { ...PAGSTAR_PUBLIC, identity: { ...PAGSTAR_PUBLIC.identity, id: CASHOUT_TEST_ID }, payout: { ...PAGSTAR_PUBLIC.payout!, baseUrl: standIn.url } },
  );
  stack = await startTestStack({ extraProviders: [cashOut] });
  const account = await createAccount('PAGSTAR');
  accountId = account.id;
  chargeNotificationUrl = account.notificationUrl;
  const payoutAccount = await createAccount(CASHOUT_TEST_ID);
  payoutAccountId = payoutAccount.id;
  payoutNotificationUrl = payoutAccount.notificationUrl;
});

afterEach(() => {
  // Every request the gateway made is one Pagstar documents, and the stand-in never failed on one.
  expect(standIn.unmatched.map((request) => `${request.method} ${request.path}`)).toEqual([]);
  expect(standIn.crashed).toEqual([]);
});

afterAll(async () => {
  await stack?.close();
  untrust?.();
  clearHttpsAgents();
  await standIn?.close();
  await files?.close();
});

const charge = async (amount: number, providerAccountId = accountId) =>
  (
    await stack.client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId,
        transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER, description: 'Pedido 42' },
      }),
    )
  ).transaction;
const read = async (id: string, refresh = false) =>
  (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id, refresh }))).transaction;
const withdraw = (idempotencyKey: string, pixKey = '(11) 98765-4321', pixType = PixKeyType.PIX_KEY_TYPE_PHONE) =>
  stack.client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId: payoutAccountId,
      idempotencyKey,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 1050, pixKey, pixType, document: '123.456.789-09' },
    }),
  );
const readWithdraw = async (id: string) => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal;
const posted = () => standIn.received.filter((request) => request.method === 'POST' && request.path === '/pix/payments/dict');

describe("PAGSTAR on api_version 'public' against a stand-in written from docs.pagstar.com", () => {
  it('declares the public dialect beside the specification’s, at the documented hosts, and the documentation it was verified against', () => {
    expect(PAGSTAR.apiVersions).toEqual(['specification', 'public']);
    expect(standIn.sources).toEqual(Object.values(PAGSTAR_SOURCES));
    expect(PAGSTAR.evidence?.level).toBe('documented');
    const addresses = PAGSTAR.evidence && 'addresses' in PAGSTAR.evidence ? PAGSTAR.evidence.addresses : [];
    expect(addresses).toEqual(expect.arrayContaining([PAGSTAR_SOURCES.auth, PAGSTAR_SOURCES.cashOut, PAGSTAR_SOURCES.transferWebhook]));
    for (const address of addresses) expect(Object.values(PAGSTAR_SOURCES)).toContain(address);
    expect(PAGSTAR_PUBLIC.identity.defaultBaseUrl).toBe('https://api.pix.pagstar.com');
    expect(PAGSTAR_PUBLIC.payout?.baseUrl).toBe('https://secureapi.pagstar-prod.onz.software/api/v2');
  });

  it('PIX: the JSON token, the cob with its BR Code, validity and payer, read back, and known paid by GET /cob', async () => {
    const transaction = await charge(2500);
    const token = standIn.received.find((request) => request.path === '/oauth/token')!;
    expect(token.headers['content-type']).toMatch(/^application\/json/);
    expect(token.body).toEqual({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET });

    const cob = standIn.cob(transaction.transactionId)!;
    expect(transaction).toMatchObject({ provider: 'PAGSTAR', status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 2500, pixCode: cob.pixCopiaECola });
    expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
    expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect(cob).toMatchObject({
      status: 'ATIVA',
      chave: CHAVE,
      valor: { original: '25.00' },
      devedor: { cpf: '12345678909', nome: 'Ana Souza' },
      solicitacaoPagador: 'Pedido 42',
      calendario: { expiracao: 86_400 },
    });
    const calendario = cob.calendario as { criacao: string; expiracao: number };
    expect(transaction.expiresAt).toEqual(new Date(new Date(calendario.criacao).getTime() + calendario.expiracao * 1000));
    expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

    // Paid: Pagstar documents no cash-in notification; the charge's read (GET /cob/{txid}, CONCLUIDA) says so.
    await standIn.pay(transaction.transactionId);
    expect(standIn.delivered).toEqual([]);
    const paid = await read(transaction.id, true);
    expect(paid.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    expect(paid.statusHistory.map((change: { status: number; source: number }) => [change.status, change.source])).toEqual([
      [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
      [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_POLL],
    ]);
    expect(Number(paid.amount)).toBe(2500);
  });

  it('refunds are not offered: no docs.pagstar.com page on the devolução could be read; nothing is asked of Pagstar', async () => {
    const transaction = await charge(1500);
    await standIn.pay(transaction.transactionId);
    await read(transaction.id, true);
    const before = standIn.received.length;
    expect(
      await failureOf(
        stack.client.call(
          'gateway',
          'refoundTransaction',
          RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transaction.id, amount: 500, idempotencyKey: 'pagstar-refund-1' }),
        ),
      ),
    ).toMatchObject({ message: 'Method not implemented.' });
    expect(standIn.received.length).toBe(before);
  });

  it('payout by /pix/payments/dict answered 202, known by its idempotency key, settled by the transfer webhook confirmed by the read', async () => {
    standIn.webhookUrl = payoutNotificationUrl;
    const created = (await withdraw('pagstar-payout-1')).withdrawal;
    expect(created).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_PENDING, amount: 1050 });
    const sent = posted().at(-1)!;
    // Pagstar's 202 carries nothing to know the payout by but the key it was sent with.
    expect(created.withdrawId).toBe(sent.headers['x-idempotency-key']);
    expect(sent.body).toMatchObject({ pixKey: '+5511987654321', creditorDocument: '12345678909', payment: { currency: 'BRL', amount: 10.5 } });
    expect(standIn.payout(created.withdrawId)).toMatchObject({ idempotencyKey: created.withdrawId, status: 'PROCESSING', payment: { amount: 10.5 } });

    // Sent again with its key: the gateway answers the first payout; Pagstar is not asked twice.
    expect((await withdraw('pagstar-payout-1')).withdrawal.id).toBe(created.id);
    expect(posted().length).toBe(posted().indexOf(sent) + 1);

    const reads = standIn.count('GET', '/pix/payments/idempotencyKey/{key}');
    await standIn.settlePayout(created.withdrawId, 'LIQUIDATED');
    expect(standIn.delivered.at(-1)).toEqual({ type: 'TRANSFER', status: 200 });
    const settled = await eventually(
      async () => {
        const current = await readWithdraw(created.id);
        return current.status === WithdrawStatus.WITHDRAW_STATUS_APPROVED && current;
      },
      15_000,
      'the payout APPROVED',
    );
    expect(settled.status).toBe(WithdrawStatus.WITHDRAW_STATUS_APPROVED);
    // Unsigned, as Pagstar's docs say: the gateway checked it with GET /pix/payments/idempotencyKey/{key}, as they advise.
    expect(standIn.count('GET', '/pix/payments/idempotencyKey/{key}')).toBeGreaterThan(reads);
  });

  it('a payout Pagstar cancels (CANCELED, errorCode AB03) is CANCELED by the transfer webhook, with AB03 as its reason', async () => {
    standIn.webhookUrl = payoutNotificationUrl;
    const created = (await withdraw('pagstar-payout-2', 'ana@example.com', PixKeyType.PIX_KEY_TYPE_EMAIL)).withdrawal;
    expect(posted().at(-1)!.body).toMatchObject({ pixKey: 'ana@example.com' });
    await standIn.settlePayout(created.withdrawId, 'CANCELED');
    const cancelled = await eventually(
      async () => {
        const current = await readWithdraw(created.id);
        return current.status === WithdrawStatus.WITHDRAW_STATUS_CANCELED && current;
      },
      15_000,
      'the payout CANCELED',
    );
    expect(cancelled.status).toBe(WithdrawStatus.WITHDRAW_STATUS_CANCELED);
    // The transfer details and the webhook both name the SPI code that cancelled it: the payout's page shows it.
    expect(standIn.payout(created.withdrawId)).toMatchObject({ status: 'CANCELED' });
    expect(cancelled.refusalReason).toBe(CANCELLED_ERROR_CODE);
  });

  it('a forged transfer webhook claiming LIQUIDATED for a payout still PROCESSING changes nothing: the read contradicts it', async () => {
    const created = (await withdraw('pagstar-payout-3')).withdrawal;
    const forged = await fetch(payoutNotificationUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        data: {
          id: 1,
          idempotencyKey: created.withdrawId,
          endToEndId: 'E99999999202601010000forged0001',
          status: 'LIQUIDATED',
          payment: { currency: 'BRL', amount: 10.5 },
        },
        type: 'TRANSFER',
      }),
    });
    await forged.text();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await readWithdraw(created.id)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
    expect(standIn.payout(created.withdrawId)).toMatchObject({ status: 'PROCESSING' });
  });

  it("a cob Pagstar refuses (a chave that is not the client's) reaches the caller with the API Pix's reason", async () => {
    const other = await createAccount('PAGSTAR', { publicKey: `${CLIENT_ID}|outra-chave@example.com` });
    expect(await failureOf(charge(1000, other.id))).toEqual({
      code: 'INVALID_ARGUMENT',
      message:
        'Erro ao criar transação: A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.',
    });
  });

  it('a public account needs the client id, the secret and the certificates Pagstar issues; a client without one is refused in the handshake', async () => {
    expect(
      await failureOf(
        stack.client.call('accounts', 'createProviderAccount', {
          provider: 'PAGSTAR',
          name: 'no certificate',
          publicKey: `${CLIENT_ID}|${CHAVE}`,
          secretKey: CLIENT_SECRET,
          baseUrl: standIn.url,
          apiVersion: 'public',
        }),
      ),
    ).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const refusedBefore = standIn.refusedHandshakes;
    const certificates = await testCertificates();
    await expect(
      new Promise((resolve, reject) => {
        const request = httpsRequest(`${standIn.url}/oauth/token`, { method: 'POST', ca: certificates.ca }, resolve);
        request.on('error', reject);
        request.end();
      }),
    ).rejects.toThrow();
    await eventually(async () => standIn.refusedHandshakes > refusedBefore, 5_000, 'the handshake refused');
    expect(new Set(standIn.clientCertificates)).toEqual(new Set(['platform-client']));
    expect(chargeNotificationUrl).toContain('/webhooks/PAGSTAR/');
  });
});
