import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OPERATIONS, type Operation, type PixPayment, type TransactionStatus, type WebhookResult, type WithdrawInput } from '../../../server/domain/types.js';
import { clearHttpsAgents } from '../../../server/lib/http/index.js';
import { CATALOGUE, FAILURE_PREFIXES } from '../../../server/lib/providerMessages.js';
import { declaredStatusTable, type StatusTable } from '../../../server/lib/statusTable.js';
import { capabilitiesOf } from '../../../server/providers/adapter.js';
import {
  BacenPixAdapter,
  COB_STATUSES,
  DICT_PAYMENT_PATH,
  IDEMPOTENCY_HEADER,
  PAYOUT_STATUSES,
  REFUND_OUTCOMES,
  payoutIdempotencyKey,
  type BacenPixMember,
  type BacenPixRefund,
} from '../../../server/providers/families/bacenPix/index.js';
import { fillPath } from '../../../server/providers/kit/declaration.js';
import { brCodeCrcIsValid } from '../../support/brCode.js';
import {
  absent,
  BODIES_WITHOUT_RESOURCE,
  GARBAGE_2XX_BODIES,
  startFileServer,
  testCertificates,
  type Expectation,
  type FileServer,
} from '../../support/fakeProvider.js';
import { expectUnsupportedOperationsRejected, failure, failureText, NOW, notification, providerHarness, transactionInput, type Harness } from './harness.js';

/**
 * The BACEN API Pix family's conformance suite (spec doc 2 §4, §5, §7, §8):
 * what every member must do, against a fake of its API that requires the
 * platform's client certificate (mTLS), the cash-in and cash-out certificates
 * served from their URLs. What the member declares decides what the suite
 * expects: the token request of its auth, its status tables (the family's
 * and its overrides), its refund kind, its payouts, its untyped notifications;
 * the parts it does not declare do not run, and the operations it does not
 * offer must reject with 'Method not implemented.'.
 *
 * A member's test calls it once with its declaration, its account keys and the
 * canned answers its PSP gives differently from the family's dialect, then
 * tests only what the spec says about it through the returned harness.
 */

/** The suite's charge is R$ 19,90, its refund R$ 7,50, its payout R$ 10,50: canned answers that carry amounts agree. */
const CHARGE_CENTS = 1990;
const REFUND_CENTS = 750;
const PAYOUT_CENTS = 1050;
const PIX_ONE_DAY = 86_400;
const TXID = '7978c0c97ea847e78e8849634473c1f1';
const PAYOUT_E2E = 'E33053580202503101200212912f6b8';

/** Canned answers keep the fields a PSP sends that the family does not read. */
type MoreFields = Record<string, unknown>;
/** A cob as a PSP writes it (the fields the suite sets). */
type CobAnswer = {
  txid?: string;
  status?: string;
  calendario?: { criacao?: string; expiracao?: number | string };
  valor?: { original?: string };
  pixCopiaECola?: string;
  pix?: Array<{ endToEndId?: string } & MoreFields>;
};
/** A payment-initiation answer as a PSP writes it. */
type DictPaymentAnswer = {
  id?: number | string;
  endToEndId?: string;
  status?: string;
  eventDate?: string;
  payment?: { currency?: string; amount?: number | string };
};

/** The answers the suite's fake gives; a member passes those its PSP gives differently. */
export interface BacenPixAnswers {
  tokenResponse: { access_token: string } & MoreFields;
  /** POST /cob: ATIVA, with a valid BR Code. */
  createdCob: CobAnswer & { txid: string; pixCopiaECola: string } & MoreFields;
  /** GET /cob/{txid} once paid, for the same txid: CONCLUIDA with its Pix. */
  paidCob: CobAnswer & { pix: Array<{ endToEndId: string }> } & MoreFields;
  /** A refund by POST path: the PSP's id. */
  postRefund: { id: string } & MoreFields;
  /** A devolução (PUT /pix/{e2eid}/devolucao/{id}): its rtrId. */
  devolucao: { rtrId: string } & MoreFields;
  /** POST /pix/payments/dict. */
  createdPayout: DictPaymentAnswer & { endToEndId: string } & MoreFields;
  /** The payout lookup once paid, for the same endToEndId. */
  liquidatedPayout: DictPaymentAnswer & { eventDate: string } & MoreFields;
}

/** The family's canned answers (Active Merchant style): the Banco Central's API Pix and the payment-initiation API. */
const DIALECT: BacenPixAnswers = {
  tokenResponse: { access_token: 'pix-token', token_type: 'Bearer', expires_in: 3600 },
  createdCob: {
    txid: TXID,
    revisao: 0,
    calendario: { criacao: '2025-03-10T12:00:00.000Z', expiracao: PIX_ONE_DAY },
    status: 'ATIVA',
    valor: { original: '19.90' },
    location: 'pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25',
    pixCopiaECola:
      '00020126760014br.gov.bcb.pix2554pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca255204000053039865802BR5910LOJA TESTE6009SAO PAULO62070503***6304D37C',
  },
  paidCob: {
    txid: TXID,
    status: 'CONCLUIDA',
    valor: { original: '19.90' },
    pix: [{ endToEndId: 'E00416968202503101205abcdefghijk', txid: TXID, valor: '19.90', horario: '2025-03-10T12:05:00.000Z' }],
  },
  postRefund: { id: 'refund-77', status: 'PROCESSING' },
  devolucao: {
    id: 'dev1',
    rtrId: 'D00416968202503101210a1b2c3d4e5f',
    valor: '7.50',
    horario: { solicitacao: '2025-03-10T12:10:00Z' },
    status: 'EM_PROCESSAMENTO',
  },
  createdPayout: { endToEndId: PAYOUT_E2E, id: 1448625, status: 'PENDING', payment: { currency: 'BRL', amount: 10.5 } },
  liquidatedPayout: {
    endToEndId: PAYOUT_E2E,
    id: 1448625,
    status: 'LIQUIDATED',
    eventDate: '2025-03-10T12:00:02.000Z',
    payment: { currency: 'BRL', amount: 10.5 },
  },
};

export interface BacenPixFixtures {
  /** The account's keys: publicKey 'clientId|chave', secretKey 'clientSecret'. */
  keys: { clientId: string; clientSecret: string; chave: string };
  /** The answers the member's PSP gives differently from the family's dialect. */
  answers?: Partial<BacenPixAnswers>;
}

const WITHDRAWAL: WithdrawInput = {
  paymentMethod: 'PIX',
  amount: PAYOUT_CENTS,
  pixKey: '(11) 98765-4321',
  pixType: 'PHONE',
  description: 'Saque de R$ 10,50',
  document: '123.456.789-09',
};
/** Onz's idempotency key: `[a-zA-Z0-9]{1,50}`, no hyphens (the Onz Infopago v2 write-up, research groups 3–4). */
const ALPHANUMERIC_KEY = /^[a-zA-Z0-9]{1,50}$/;
const EVENT_E2E = 'E11275560202410261929IvFSvxqf4cs';

/** Every entry of a status table (upper case, as the PSPs send them) and an unknown status with the table's default. */
const statusCases = <S extends string>(table: StatusTable<S>): Array<[string, S]> => [
  ...Object.entries(table.entries).map(([status, mapped]): [string, S] => [status.toUpperCase(), mapped]),
  ['STATUS_NAO_PREVISTO', table.unknown],
];

/** The contract's operations a declaration offers, restated here from the contract (adapter.ts) rather than computed by it. */
function offeredOperations(member: BacenPixMember): Operation[] {
  const c = capabilitiesOf(member.capabilities);
  const offered: Record<Operation, boolean> = {
    createCardToken: c.cardTokens,
    createCardId: c.savedCards,
    createTransaction: c.paymentMethods.length > 0,
    getTransaction: c.paymentMethods.length > 0,
    refoundTransaction: c.refunds,
    withdraw: c.withdrawMethods.length > 0,
    getWithdraw: c.withdrawalLookup,
    createReceiver: c.receivers,
    getReceiver: c.receivers,
    processWebhook: c.webhooks,
    calculateInstallments: c.installments,
    getAccountBalance: c.balances,
  };
  return OPERATIONS.filter((operation) => offered[operation]);
}

export function bacenPixConformance(member: BacenPixMember, fixtures: BacenPixFixtures): Harness<BacenPixAdapter> {
  const { keys } = fixtures;
  const answers = { ...DIALECT, ...fixtures.answers };
  const { createdCob, paidCob } = answers;
  const id = member.identity.id;
  const txid = createdCob.txid;
  const bearer = `Bearer ${answers.tokenResponse.access_token}`;
  const operations = offeredOperations(member);
  const refund = member.capabilities.refunds ? member.refund : undefined;
  const payout = member.capabilities.withdrawMethods?.includes('PIX') ? member.payout : undefined;
  const lookupPath = member.capabilities.withdrawalLookup ? member.payout?.lookupPath : undefined;
  const paidE2e = paidCob.pix?.find((pix) => pix.endToEndId)?.endToEndId;
  const charge = transactionInput({ description: 'Pedido 42' });
  /** A failure's text: the member's declared fixed text for the operation (or its not-found text for a 404), else '<prefix>: <provider message>'. */
  const failed = (operation: Operation, prefix: string, providerText: string, notFound = false) =>
    failureText((notFound ? member.notFound?.[operation] : undefined) ?? member.failures?.[operation], prefix, providerText);
  /** The refund statuses the family reads as refused (upper case, as the PSPs send them). */
  const refused = Object.entries(REFUND_OUTCOMES.entries)
    .filter(([, outcome]) => outcome === 'refused')
    .map(([status]) => status.toUpperCase());

  let files: FileServer;
  beforeAll(async () => {
    const pki = await testCertificates();
    files = await startFileServer({ '/platform/cash-in.pem': pki.clientPem, '/platform/cash-out.pem': pki.clientPem });
  });
  afterAll(async () => {
    clearHttpsAgents();
    await files?.close();
  });
  const h = providerHarness({
    tls: 'mtls',
    retry: false,
    create: (runtime) => new BacenPixAdapter(member, runtime),
    account: () => ({
      publicKey: `${keys.clientId}|${keys.chave}`,
      secretKey: keys.clientSecret,
      platformId: 'platform-1',
      certCashInUrl: files.url('/platform/cash-in.pem'),
      certCashOutUrl: files.url('/platform/cash-out.pem'),
    }),
  });

  /** The token request exactly as the member's auth declares it: path, encoding, where the client credentials go. */
  const tokenRequest = (): Expectation => {
    if (member.auth.type !== 'oauth2') throw new Error(`${id}: the BACEN API Pix family authenticates by OAuth2`);
    const { tokenPath, body, clientAuth, scope } = member.auth;
    const basic = clientAuth === 'basic';
    return {
      method: 'POST',
      path: tokenPath,
      headers: {
        'content-type': body === 'json' ? /^application\/json/ : /^application\/x-www-form-urlencoded/,
        authorization: basic ? `Basic ${Buffer.from(`${keys.clientId}:${keys.clientSecret}`).toString('base64')}` : absent,
      },
      body: {
        grant_type: 'client_credentials',
        ...(scope ? { scope } : {}),
        ...(basic ? {} : { client_id: keys.clientId, client_secret: keys.clientSecret }),
      },
      reply: { body: answers.tokenResponse },
    };
  };
  /** This test's account, which takes one token on its first call. */
  const withToken = () => h.fake.expect(tokenRequest());
  const everyCallPresentedTheCertificate = () =>
    expect(new Set(h.fake.received.map((request) => request.clientCertificate))).toEqual(new Set(['platform-client']));

  describe(`${id}: the BACEN API Pix family`, () => {
    it('offers exactly the operations its capabilities declare; the others reject with the spec text and send nothing', async () => {
      expect(h.adapter.identity).toEqual({ ...member.identity, aliases: member.identity.aliases ?? [] });
      expect(h.adapter.operations).toEqual(operations);
      await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    });

    it('takes one token as its auth declares over the cash-in certificate, creates the cob (POST /cob) and reads it back', async () => {
      const token = withToken();
      const ctx = { ...h.ctx, certCashOutUrl: undefined };
      const create = h.fake.expect({
        method: 'POST',
        path: '/cob',
        headers: { authorization: bearer },
        body: {
          calendario: { expiracao: member.expiry?.pixSeconds ?? PIX_ONE_DAY },
          devedor: { cpf: '12345678909', nome: 'Ana Souza' },
          valor: { original: '19.90' },
          chave: keys.chave,
          solicitacaoPagador: 'Pedido 42',
        },
        reply: { status: 201, body: createdCob },
      });
      h.fake.expect({ method: 'GET', path: `/cob/${txid}`, headers: { authorization: bearer }, reply: { body: paidCob } });

      const created = await h.adapter.createTransaction(ctx, charge);
      const criacao = createdCob.calendario?.criacao ? new Date(createdCob.calendario.criacao) : NOW;
      const expiracao = Number(createdCob.calendario?.expiracao ?? member.expiry?.pixSeconds ?? PIX_ONE_DAY);
      expect(created).toMatchObject({
        paymentMethod: 'PIX',
        transactionId: txid,
        status: 'PENDING',
        amount: CHARGE_CENTS,
        pixCode: createdCob.pixCopiaECola,
        expiresAt: new Date(criacao.getTime() + expiracao * 1000),
      });
      expect(brCodeCrcIsValid(created.pixCode!)).toBe(true);
      // The image is drawn from the code at the gateway's edge (tests/integration/pixQrImages.test.ts).
      expect(created.pixQrCode).toBeUndefined();
      await expect(h.adapter.getTransaction(ctx, txid)).resolves.toMatchObject({ transactionId: txid, status: 'APPROVED', amount: CHARGE_CENTS });
      expect([token.calls.length, create.calls.length, h.fake.received.length]).toEqual([1, 1, 3]);
      everyCallPresentedTheCertificate();
    });

    it.each(statusCases(declaredStatusTable(COB_STATUSES, member.statuses?.transaction)))('GET /cob/{txid} answering %s is %s', async (status, expected) => {
      withToken();
      h.fake.expect({ method: 'GET', path: `/cob/${txid}`, reply: { body: { ...createdCob, status } } });
      await expect(h.adapter.getTransaction(h.ctx, txid)).resolves.toMatchObject({ transactionId: txid, status: expected });
      if (status === 'STATUS_NAO_PREVISTO')
        expect(h.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: id, providerStatus: status }), expect.any(String));
    });

    it('a 5xx is UNAVAILABLE with the spec prefix (or the declared text); a cob without pixCopiaECola is a bad answer, not a charge nobody can pay', async () => {
      withToken();
      h.fake.expect({ method: 'POST', path: '/cob', reply: { status: 503, body: { message: 'Serviço temporariamente indisponível' } } });
      expect(await failure(h.adapter.createTransaction(h.ctx, charge))).toEqual({
        code: 'UNAVAILABLE',
        message: failed('createTransaction', FAILURE_PREFIXES.CREATE_TRANSACTION, 'Serviço temporariamente indisponível'),
      });
      h.fake.expect({ method: 'POST', path: '/cob', reply: { status: 201, body: { ...createdCob, pixCopiaECola: undefined } } });
      expect(await failure(h.adapter.createTransaction(h.ctx, charge))).toEqual({
        code: 'UNAVAILABLE',
        message: failed(
          'createTransaction',
          FAILURE_PREFIXES.CREATE_TRANSACTION,
          'resposta do provedor em formato inesperado (pixCopiaECola: esperado string)',
        ),
      });
    });

    it("GET /cob/{txid} answered 404 is NOT_FOUND with the provider's message (or the declared not-found text)", async () => {
      withToken();
      const problem = {
        type: 'https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado',
        title: 'Cobrança não encontrada',
        status: 404,
        detail: 'Cobrança não encontrada para o txid informado.',
      };
      h.fake.expect({ method: 'GET', path: `/cob/${txid}`, reply: { status: 404, body: problem } });
      expect(await failure(h.adapter.getTransaction(h.ctx, txid))).toEqual({
        code: 'NOT_FOUND',
        message: failed('getTransaction', FAILURE_PREFIXES.GET_TRANSACTION, problem.detail, true),
      });
    });

    /** The specification's refund, and the public material's where the member has one (an account chooses it by api_version). */
    const refundDialects: Array<[dialect: BacenPixRefund, apiVersion: string | undefined]> = [
      ...(refund ? [[refund, undefined] as [BacenPixRefund, undefined]] : []),
      ...(refund && member.publicRefund ? [[member.publicRefund, 'public'] as [BacenPixRefund, string]] : []),
    ];
    for (const [dialect, apiVersion] of refundDialects) {
      const on = apiVersion ? ` (api_version ${apiVersion})` : '';
      const ctxOf = () => (apiVersion ? { ...h.ctx, apiVersion } : h.ctx);
      if (dialect.kind === 'post') {
        const path = fillPath(dialect.path, { id: txid });
        it(`refunds by POST ${dialect.path} {amount in reais}; a failed status is false; a 4xx keeps the provider's message${on}`, async () => {
          withToken();
          const made = h.fake.expect({
            method: 'POST',
            path,
            headers: { authorization: bearer },
            body: { amount: REFUND_CENTS / 100 },
            reply: { body: answers.postRefund },
          });
          // PROCESSING: taken and still carried out, so its cents stay reserved (a refund in progress, docs/decisions.md).
          await expect(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS)).resolves.toEqual({
            refundId: answers.postRefund.id,
            status: true,
            pending: true,
          });
          for (const body of [...refused.map((status) => ({ ...answers.postRefund, status })), { success: false, error: 'recusado' }]) {
            h.fake.expect({ method: 'POST', path, reply: { body } });
            await expect(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS)).resolves.toMatchObject({ status: false });
          }
          h.fake.expect({ method: 'POST', path, reply: { body: { ...answers.postRefund, status: 'REFUNDED' } } });
          await expect(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS)).resolves.toEqual({ refundId: answers.postRefund.id, status: true });
          h.fake.expect({ method: 'POST', path, reply: { status: 422, body: { message: 'Venda já estornada' } } });
          expect(await failure(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: failed('refoundTransaction', FAILURE_PREFIXES.REFUND_TRANSACTION, 'Venda já estornada'),
          });
          expect(made.calls).toHaveLength(1);
          everyCallPresentedTheCertificate();
        });
      }

      if (dialect.kind === 'devolucao') {
        const put = {
          method: 'PUT',
          path: new RegExp(`/pix/${paidE2e}/devolucao/[a-zA-Z0-9]{1,35}`),
          headers: { authorization: bearer },
          body: { valor: '7.50' },
        };
        it(`refunds by devolução: the Pix of GET /cob/{txid}, then PUT /pix/{e2eid}/devolucao/{id} {valor}; EM_PROCESSAMENTO in progress, DEVOLVIDO done, a failed status false${on}`, async () => {
          withToken();
          const read = h.fake.expect({ method: 'GET', path: `/cob/${txid}`, times: 3 + refused.length, reply: { body: paidCob } });
          h.fake.expect({ ...put, reply: { status: 201, body: answers.devolucao } });
          await expect(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS)).resolves.toEqual({
            refundId: answers.devolucao.rtrId,
            status: true,
            pending: true,
          });
          h.fake.expect({ ...put, reply: { status: 201, body: { ...answers.devolucao, status: 'DEVOLVIDO' } } });
          await expect(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS)).resolves.toEqual({ refundId: answers.devolucao.rtrId, status: true });
          for (const status of refused) {
            h.fake.expect({ ...put, reply: { status: 201, body: { ...answers.devolucao, status } } });
            await expect(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS)).resolves.toMatchObject({ status: false });
          }
          h.fake.expect({ ...put, reply: { status: 400, body: { title: 'Valor acima do devolvível' } } });
          expect(await failure(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: failed('refoundTransaction', FAILURE_PREFIXES.REFUND_TRANSACTION, 'Valor acima do devolvível'),
          });
          expect(read.calls).toHaveLength(3 + refused.length);
          everyCallPresentedTheCertificate();
        });

        it(`a devolução sent again with its key names the same id; refused as already used, the one made first is read back by GET (none: the refusal stands)${on}`, async () => {
          withToken();
          h.fake.expect({ method: 'GET', path: `/cob/${txid}`, times: 4, reply: { body: paidCob } });
          const first = h.fake.expect({ ...put, reply: { status: 201, body: answers.devolucao } });
          await expect(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS, 'refund-key-1')).resolves.toMatchObject({ status: true });
          const idUsed = {
            type: 'https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida',
            title: 'Devolução inválida.',
            status: 400,
            detail: 'id já utilizado',
          };
          const again = h.fake.expect({ ...put, reply: { status: 400, body: idUsed } });
          const readBack = h.fake.expect({ method: 'GET', path: first.calls[0]!.path, reply: { body: answers.devolucao } });
          await expect(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS, 'refund-key-1')).resolves.toEqual({
            refundId: answers.devolucao.rtrId,
            status: true,
            pending: true,
          });
          expect([again.calls[0]!.path, readBack.calls.length]).toEqual([first.calls[0]!.path, 1]);
          // Another key is another devolução; refused, and none made under its id: the refusal is the answer.
          h.fake.expect({ ...put, reply: { status: 400, body: idUsed } });
          h.fake.expect({ method: 'GET', path: put.path, reply: { status: 404, body: { title: 'Não Encontrado' } } });
          expect(await failure(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS, 'refund-key-2'))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: failed('refoundTransaction', FAILURE_PREFIXES.REFUND_TRANSACTION, 'id já utilizado'),
          });
          // Without a key nothing ties two calls: a fresh id.
          const keyless = h.fake.expect({ ...put, reply: { status: 201, body: answers.devolucao } });
          await expect(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS)).resolves.toMatchObject({ status: true });
          expect(keyless.calls[0]!.path).not.toBe(first.calls[0]!.path);
        });

        it(`a charge with no Pix received has nothing to return: FAILED_PRECONDITION, nothing PUT${on}`, async () => {
          withToken();
          h.fake.expect({ method: 'GET', path: `/cob/${txid}`, reply: { body: createdCob } });
          expect(await failure(h.adapter.refoundTransaction(ctxOf(), txid, REFUND_CENTS))).toEqual({
            code: 'FAILED_PRECONDITION',
            message: failed('refoundTransaction', FAILURE_PREFIXES.REFUND_TRANSACTION, `a cobrança ${txid} não tem Pix recebido`),
          });
        });
      }
    }

    if (payout) {
      const path = payout.path ?? DICT_PAYMENT_PATH;
      const header = payout.idempotencyHeader ?? IDEMPOTENCY_HEADER;
      it(`pays out by POST ${path} over the cash-out certificate; ${header} (Onz's [a-zA-Z0-9]{1,50}): derived from the idempotency key, else the withdraw reference, else fresh`, async () => {
        withToken();
        const ctx = { ...h.ctx, certCashInUrl: undefined };
        const paid = h.fake.expect({
          method: 'POST',
          path,
          times: 4,
          headers: { authorization: bearer, [header]: (key) => ALPHANUMERIC_KEY.test(key ?? '') },
          body: {
            pixKey: '+5511987654321',
            description: 'Saque de R$ 10,50',
            creditorDocument: '12345678909',
            paymentFlow: 'INSTANT',
            payment: { currency: 'BRL', amount: PAYOUT_CENTS / 100 },
          },
          reply: { status: 201, body: answers.createdPayout },
        });
        const status = payout.statusAtCreation === 'approved' ? 'APPROVED' : 'PENDING';
        const expected = { withdrawId: answers.createdPayout.endToEndId, amount: PAYOUT_CENTS, status };
        await expect(h.adapter.withdraw(ctx, { ...WITHDRAWAL, idempotencyKey: 'idem-1', withdrawReference: 'saque-123' })).resolves.toMatchObject(expected);
        await expect(h.adapter.withdraw(ctx, { ...WITHDRAWAL, withdrawReference: 'saque-123' })).resolves.toMatchObject(expected);
        await h.adapter.withdraw(ctx, WITHDRAWAL);
        await h.adapter.withdraw(ctx, WITHDRAWAL);
        const sent = paid.calls.map((call) => call.headers[header]);
        // The same key (or reference) on the same account is the same header: a payout sent again is the same payout at the PSP.
        expect(sent.slice(0, 2)).toEqual([payoutIdempotencyKey(h.ctx.accountId, 'idem-1'), payoutIdempotencyKey(h.ctx.accountId, 'saque-123')]);
        expect(payoutIdempotencyKey('another-account', 'idem-1')).not.toBe(sent[0]);
        expect(sent[2]).not.toBe(sent[3]);
        everyCallPresentedTheCertificate();
      });

      it("a refused payout keeps the provider's message; a method other than PIX, or no PIX key, is refused before sending", async () => {
        withToken();
        h.fake.expect({ method: 'POST', path, reply: { status: 400, body: { title: 'Saldo insuficiente' } } });
        expect(await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL))).toEqual({
          code: 'INVALID_ARGUMENT',
          message: failed('withdraw', FAILURE_PREFIXES.WITHDRAW, 'Saldo insuficiente'),
        });
        await expect(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, paymentMethod: 'BANK_ACCOUNT' })).rejects.toMatchObject(
          CATALOGUE.WITHDRAW_METHOD_NAO_IMPLEMENTADO,
        );
        await expect(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, pixKey: ' ' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      });
    }

    if (lookupPath) {
      const withdrawId = answers.createdPayout.endToEndId;
      it(`reads a payout back by GET ${lookupPath} over the cash-out certificate: LIQUIDATED is APPROVED at its eventDate`, async () => {
        withToken();
        h.fake.expect({
          method: 'GET',
          path: fillPath(lookupPath, { id: withdrawId }),
          headers: { authorization: bearer },
          reply: { body: answers.liquidatedPayout },
        });
        await expect(h.adapter.getWithdraw({ ...h.ctx, certCashInUrl: undefined }, withdrawId)).resolves.toEqual({
          withdrawId,
          amount: PAYOUT_CENTS,
          status: 'APPROVED',
          approvedAt: new Date(answers.liquidatedPayout.eventDate),
        });
      });

      it.each(statusCases(declaredStatusTable(PAYOUT_STATUSES, member.statuses?.withdrawal)))(
        `GET ${lookupPath} answering %s is %s`,
        async (status, expected) => {
          withToken();
          h.fake.expect({ method: 'GET', path: fillPath(lookupPath, { id: withdrawId }), reply: { body: { ...answers.liquidatedPayout, status } } });
          await expect(h.adapter.getWithdraw(h.ctx, withdrawId)).resolves.toMatchObject({ withdrawId, status: expected });
        },
      );
    }

    describe('a 2xx answer that is not the resource is UNAVAILABLE, never a status or a success', () => {
      type Garbage = [operation: Operation, label: string, body: unknown];
      const garbage = (operation: Operation, bodies: ReadonlyArray<[string, unknown]>, suffix = ''): Garbage[] =>
        operations.includes(operation) ? bodies.map(([label, body]): Garbage => [operation, `${label}${suffix}`, body]) : [];
      const cases = [
        ...garbage('createTransaction', GARBAGE_2XX_BODIES),
        ...garbage('getTransaction', GARBAGE_2XX_BODIES),
        // A POST refund's failure flag is the PSP refusing it (status false, above), not a missing answer.
        ...garbage('refoundTransaction', refund?.kind === 'post' ? BODIES_WITHOUT_RESOURCE : GARBAGE_2XX_BODIES),
        ...(refund?.kind === 'devolucao' ? garbage('refoundTransaction', GARBAGE_2XX_BODIES, ' (GET /cob)') : []),
        ...garbage('withdraw', GARBAGE_2XX_BODIES),
        ...garbage('getWithdraw', GARBAGE_2XX_BODIES),
      ];
      const prefix: Partial<Record<Operation, string>> = {
        createTransaction: FAILURE_PREFIXES.CREATE_TRANSACTION,
        getTransaction: FAILURE_PREFIXES.GET_TRANSACTION,
        refoundTransaction: FAILURE_PREFIXES.REFUND_TRANSACTION,
        withdraw: FAILURE_PREFIXES.WITHDRAW,
        getWithdraw: FAILURE_PREFIXES.GET_WITHDRAW,
      };
      it.each(cases)('%s answered with %s', async (operation, label, body) => {
        withToken();
        const answer = { reply: { status: 201, body } };
        const run: Partial<Record<Operation, () => Promise<unknown>>> = {
          createTransaction: () => h.adapter.createTransaction(h.ctx, charge),
          getTransaction: () => h.adapter.getTransaction(h.ctx, txid),
          refoundTransaction: () => h.adapter.refoundTransaction(h.ctx, txid, REFUND_CENTS),
          withdraw: () => h.adapter.withdraw(h.ctx, WITHDRAWAL),
          getWithdraw: () => h.adapter.getWithdraw(h.ctx, 'E1'),
        };
        if (operation === 'createTransaction') h.fake.expect({ method: 'POST', path: '/cob', ...answer });
        if (operation === 'getTransaction') h.fake.expect({ method: 'GET', path: `/cob/${txid}`, ...answer });
        if (operation === 'refoundTransaction' && refund?.kind === 'post')
          h.fake.expect({ method: 'POST', path: fillPath(refund.path, { id: txid }), ...answer });
        if (operation === 'refoundTransaction' && refund?.kind === 'devolucao') {
          const cobAnswer = label.endsWith('(GET /cob)');
          h.fake.expect({ method: 'GET', path: `/cob/${txid}`, reply: { body: cobAnswer ? body : paidCob } });
          if (!cobAnswer) h.fake.expect({ method: 'PUT', path: new RegExp(`/pix/${paidE2e}/devolucao/\\w+`), ...answer });
        }
        if (operation === 'withdraw') h.fake.expect({ method: 'POST', path: payout?.path ?? DICT_PAYMENT_PATH, ...answer });
        if (operation === 'getWithdraw') h.fake.expect({ method: 'GET', path: fillPath(lookupPath!, { id: 'E1' }), ...answer });
        const { code, message } = await failure(run[operation]!());
        const fixed = member.failures?.[operation];
        expect([code, fixed ? message === CATALOGUE[fixed].message : message.startsWith(`${prefix[operation]}: `)]).toEqual(['UNAVAILABLE', true]);
      });
    });

    it("'Unauthorized.' without the platform's certificate for the direction, and nothing reaches the provider", async () => {
      const noCashIn = { ...h.ctx, certCashInUrl: undefined };
      const noCashOut = { ...h.ctx, certCashOutUrl: undefined };
      const calls: Array<[Operation, () => Promise<unknown>]> = [
        ['createTransaction', () => h.adapter.createTransaction(noCashIn, charge)],
        ['getTransaction', () => h.adapter.getTransaction(noCashIn, txid)],
        ['refoundTransaction', () => h.adapter.refoundTransaction(noCashIn, txid, REFUND_CENTS)],
        ['withdraw', () => h.adapter.withdraw(noCashOut, WITHDRAWAL)],
        ['getWithdraw', () => h.adapter.getWithdraw(noCashOut, 'E1')],
      ];
      // A member whose cash-out host asks for the platform record says so (payout.requirePlatform).
      if (payout?.requirePlatform) calls.push(['withdraw', () => h.adapter.withdraw({ ...h.ctx, platformId: undefined }, WITHDRAWAL)]);
      for (const [, call] of calls.filter(([operation]) => operations.includes(operation))) {
        expect(await failure(call())).toEqual({ code: CATALOGUE.UNAUTHORIZED.code, message: CATALOGUE.UNAUTHORIZED.message });
      }
      expect(h.fake.received).toHaveLength(0);
    });

    describe('notifications: unsigned, so the gateway confirms with GET /cob', () => {
      const event = (type: string | undefined, data: object) => ({
        ...(type ? { type } : {}),
        data: { id: 557737461, txId: txid, pixKey: keys.chave, payment: { amount: '19.90', currency: 'BRL' }, refunds: [], endToEndId: EVENT_E2E, ...data },
      });
      const paid = (status: TransactionStatus, pixPayment?: PixPayment): WebhookResult => ({
        type: 'TRANSACTION',
        transactionId: txid,
        status,
        ...(pixPayment ? { pixPayment } : {}),
      });
      // What RECEIVE states of the payment (its endToEndId), and the standard body's Pix (its endToEndId: the API Pix's Pix names no payer).
      const received = { endToEndId: EVENT_E2E };
      const standard = { endToEndId: 'E1234' };
      const pix = { endToEndId: 'E1234', txid, chave: keys.chave, valor: '19.90', horario: '2025-03-10T12:05:00.000Z' };
      const untypedRule = member.untypedEvent ? `read as ${member.untypedEvent}` : 'ignored';
      const untyped = (status: TransactionStatus) => (member.untypedEvent === 'RECEIVE' ? paid(status) : undefined);
      const cases: Array<[string, unknown, WebhookResult | undefined]> = [
        ['RECEIVE LIQUIDATED', event('RECEIVE', { status: 'LIQUIDATED' }), paid('APPROVED', received)],
        ['RECEIVE PROCESSING', event('RECEIVE', { status: 'PROCESSING' }), paid('PENDING', received)],
        ['RECEIVE without a status', event('RECEIVE', {}), paid('PENDING', received)],
        ['REFUND', event('REFUND', { status: 'LIQUIDATED' }), paid('CHARGEBACK')],
        ['CANCELED', event('CANCELED', { status: 'CANCELED' }), undefined],
        ['an event the spec does not name', event('INFRACTION', { status: 'OPEN' }), undefined],
        ['TRANSFER LIQUIDATED', event('TRANSFER', { status: 'LIQUIDATED' }), { type: 'WITHDRAW', transactionId: EVENT_E2E, status: 'APPROVED' }],
        [
          'TRANSFER without endToEndId',
          { type: 'TRANSFER', data: { id: 7, status: 'CANCELED' } },
          { type: 'WITHDRAW', transactionId: '7', status: 'CANCELED' },
        ],
        ['the standard {pix:[...]} body', { pix: [{ endToEndId: 'E0', valor: '1.00' }, pix] }, paid('APPROVED', standard)],
        [
          'the standard body wholly returned',
          { pix: [{ ...pix, devolucoes: [{ id: 'd1', rtrId: 'D1', valor: '19.90', status: 'DEVOLVIDO' }] }] },
          paid('CHARGEBACK', standard),
        ],
        ['the standard body naming no charge', { pix: [{ endToEndId: 'E0', valor: '1.00' }] }, undefined],
        [`{data} without type, LIQUIDATED (${untypedRule})`, { data: { txId: txid, status: 'LIQUIDATED' } }, untyped('APPROVED')],
        [`{data} without type, PROCESSING (${untypedRule})`, { data: { txId: txid, status: 'PROCESSING' } }, untyped('PENDING')],
        ...['not json', '', 'null', '[]', '{"type":"RECEIVE"}', '{"type":"RECEIVE","data":{"status":"LIQUIDATED"}}', '{"pix":"x"}'].map(
          (body): [string, unknown, undefined] => [`a body that cannot be read or names no charge: ${body || '(empty)'}`, body, undefined],
        ),
      ];
      it.each(cases)('%s', async (_label, body, expected) => {
        await expect(h.adapter.processWebhook(h.ctx, notification(body))).resolves.toEqual(expected);
      });

      it('keys tell a re-delivery (same key) from a status change; an unreadable body is keyed by its hash', () => {
        const key = (body: unknown) => h.adapter.notificationKey(h.ctx, notification(body));
        const liquidated = event('RECEIVE', { status: 'LIQUIDATED' });
        expect(h.adapter.verifyNotification(h.ctx, notification(liquidated))).toBe('unsigned');
        expect(key(liquidated)).toBe(`receive:${EVENT_E2E}:liquidated`);
        expect(key({ ...liquidated, createdAt: 'later' })).toBe(key(liquidated));
        expect(key(event('RECEIVE', { status: 'PROCESSING' }))).not.toBe(key(liquidated));
        expect(key({ pix: [pix] })).toBe('pix:E1234:');
        expect(key({ pix: [{ ...pix, devolucoes: [{ id: 'd1', status: 'EM_PROCESSAMENTO' }] }] })).toBe('pix:E1234,d1=EM_PROCESSAMENTO:');
        expect(key('not json')).toMatch(/^sha256:[0-9a-f]{64}$/);
      });
    });
  });

  return h;
}
