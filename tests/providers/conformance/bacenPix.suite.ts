import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import {
  OPERATIONS,
  type Operation,
  type TransactionInput,
  type TransactionStatus,
  type WebhookResult,
  type WithdrawInput,
} from '../../../server/domain/types.js';
import { clearHttpsAgents } from '../../../server/lib/http/index.js';
import { CATALOGUE, FAILURE_PREFIXES, failureMessage } from '../../../server/lib/providerMessages.js';
import { declaredStatusTable, type StatusTable } from '../../../server/lib/statusTable.js';
import { capabilitiesOf, type AdapterContext } from '../../../server/providers/adapter.js';
import {
  BacenPixAdapter,
  COB_STATUSES,
  DICT_PAYMENT_PATH,
  IDEMPOTENCY_HEADER,
  PAYOUT_STATUSES,
  type BacenPixMember,
  type Cob,
  type DictPayment,
} from '../../../server/providers/families/bacenPix/index.js';
import { REFUND_FAILED } from '../../../server/providers/families/bacenPix/statuses.js';
import { fillPath } from '../../../server/providers/kit/declaration.js';
import { brCodeCrcIsValid } from '../../support/brCode.js';
import {
  absent,
  BODIES_WITHOUT_RESOURCE,
  GARBAGE_2XX_BODIES,
  startFakeProvider,
  startFileServer,
  testCertificates,
  type Expectation,
  type FakeProvider,
  type FileServer,
} from '../../support/fakeProvider.js';

/**
 * The conformance suite of the BACEN API Pix family (spec doc 2 §4, §5, §7,
 * §8): what every member must do, checked against a fake of the member's API
 * over mTLS (the platform's cash-in and cash-out certificates served from
 * their URLs). It reads the member's declaration: the token request its auth
 * declares, its status tables (the family's plus its overrides), its refund
 * kind, payouts and untyped notifications; parts a member does not declare do
 * not run, and the operations it does not offer must reject with
 * 'Method not implemented.'.
 *
 * A member's test file calls it once, at the top level, with its declaration
 * and canned answers, then tests only what is its own through the harness.
 */

/** The suite's charge is R$ 19,90, its refund R$ 7,50, its payout R$ 10,50: canned answers that carry amounts must agree. */
const CHARGE_CENTS = 1990;
const REFUND_CENTS = 750;
const PAYOUT_CENTS = 1050;
/** The adapter's clock (expiries of answers without calendario.criacao, payouts approved at creation). */
const NOW = new Date('2026-01-10T12:00:00.000Z');
const PIX_ONE_DAY = 86_400;

/** Canned answers keep the fields the PSP sends that the family does not read. */
type MoreFields = Record<string, unknown>;

export interface BacenPixFixtures {
  /** The account's keys: publicKey 'clientId|chave', secretKey 'clientSecret'. */
  keys: { clientId: string; clientSecret: string; chave: string };
  /** Answer of the token request. */
  tokenResponse: { access_token: string } & Record<string, unknown>;
  /** Answer of POST /cob: status ATIVA, txid, pixCopiaECola (a valid BR Code); valor.original '19.90' if present. */
  createdCob: Cob & { txid: string; pixCopiaECola: string } & MoreFields;
  /** Answer of GET /cob/{txid} for the same txid once paid: CONCLUIDA with its Pix (endToEndId). */
  paidCob: Cob & MoreFields;
  /** Answer of a refund made (POST path: with `id`; devolução: with `rtrId`), when the member refunds. */
  refundResponse?: Record<string, unknown>;
  /** Answer of the payout request, with endToEndId, when the member pays out. */
  createdPayout?: DictPayment & { endToEndId: string } & MoreFields;
  /** Answer of the payout lookup for it: LIQUIDATED, with eventDate and payment.amount 10.50, when the member looks payouts up. */
  liquidatedPayout?: DictPayment & { eventDate: string } & MoreFields;
}

/** What a member's own tests reach after the suite's beforeAll. */
export interface BacenPixHarness {
  readonly fake: FakeProvider;
  readonly adapter: BacenPixAdapter;
  /** A fresh account (its own token and circuit) with both certificate URLs. */
  account(extra?: Partial<AdapterContext>): AdapterContext;
}

const CUSTOMER = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '11987654321' };
const CHARGE: TransactionInput = {
  amount: CHARGE_CENTS,
  paymentMethod: 'PIX',
  customer: CUSTOMER,
  description: 'Pedido 42',
  items: [],
  installments: 1,
  fingerPrints: [],
  splits: [],
  currency: 'BRL',
};
const WITHDRAWAL: WithdrawInput = {
  paymentMethod: 'PIX',
  amount: PAYOUT_CENTS,
  pixKey: '(11) 98765-4321',
  pixType: 'PHONE',
  description: 'Saque de R$ 10,50',
  document: '123.456.789-09',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const E2E = 'E11275560202410261929IvFSvxqf4cs';

/** Every entry of a status table (statuses upper case, as the PSPs send them) and an unknown status with the default. */
const statusCases = <S extends string>(table: StatusTable<S>): Array<[string, S]> => [
  ...Object.entries(table.entries).map(([status, mapped]): [string, S] => [status.toUpperCase(), mapped]),
  ['STATUS_NAO_PREVISTO', table.unknown],
];

/** The contract's operations a declaration offers, restated from the contract (adapter.ts) rather than computed by it. */
function offeredOperations(member: BacenPixMember): Operation[] {
  const c = capabilitiesOf(member.capabilities);
  const charges = c.paymentMethods.length > 0;
  const offered: Record<Operation, boolean> = {
    createCardToken: c.cardTokens,
    createCardId: c.savedCards,
    createTransaction: charges,
    getTransaction: charges,
    refoundTransaction: c.refunds,
    withdraw: c.withdrawMethods.length > 0,
    getWithdraw: c.withdrawalLookup,
    createReceiver: c.receivers,
    getReceiver: c.receivers,
    processWebhook: c.webhooks,
    calculateInstallments: c.installments,
  };
  return OPERATIONS.filter((operation) => offered[operation]);
}

const notification = (body: unknown) => ({
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  headers: { 'content-type': 'application/json' },
});

export function bacenPixConformance(member: BacenPixMember, fixtures: BacenPixFixtures): BacenPixHarness {
  const { keys, tokenResponse, createdCob, paidCob } = fixtures;
  const id = member.identity.id;
  const txid = createdCob.txid;
  const bearer = `Bearer ${tokenResponse.access_token}`;
  const operations = offeredOperations(member);
  const refund = member.capabilities.refunds ? member.refund : undefined;
  const payout = member.capabilities.withdrawMethods?.includes('PIX') ? member.payout : undefined;
  const lookupPath = member.capabilities.withdrawalLookup ? member.payout?.lookupPath : undefined;
  const cobTable = declaredStatusTable(COB_STATUSES, member.statuses?.transaction);
  const payoutTable = declaredStatusTable(PAYOUT_STATUSES, member.statuses?.withdrawal);
  const paidE2e = paidCob.pix?.find((pix) => pix.endToEndId)?.endToEndId;

  let fake: FakeProvider;
  let files: FileServer;
  let adapter: BacenPixAdapter;

  beforeAll(async () => {
    fake = await startFakeProvider({ tls: 'mtls' });
    const pki = await testCertificates();
    files = await startFileServer({ '/platform/cash-in.pem': pki.clientPem, '/platform/cash-out.pem': pki.clientPem });
    adapter = new BacenPixAdapter(member, { retry: false, logger: pino({ level: 'silent' }), ca: fake.ca, now: () => NOW });
  });
  afterEach(() => {
    try {
      fake.assertAllDone();
    } finally {
      fake.reset();
    }
  });
  afterAll(async () => {
    clearHttpsAgents();
    await fake?.close();
    await files?.close();
  });

  const account = (extra: Partial<AdapterContext> = {}): AdapterContext => ({
    accountId: `${id.toLowerCase()}-${randomUUID()}`,
    publicKey: `${keys.clientId}|${keys.chave}`,
    secretKey: keys.clientSecret,
    baseUrl: fake.url,
    platformId: 'platform-1',
    certCashInUrl: files.url('/platform/cash-in.pem'),
    certCashOutUrl: files.url('/platform/cash-out.pem'),
    notificationUrl: `http://127.0.0.1:1/webhooks/${id}/acc`,
    ...extra,
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
      reply: { body: tokenResponse },
    };
  };
  /** A fresh account whose first call takes a token. */
  const begin = (extra: Partial<AdapterContext> = {}) => {
    const token = fake.expect(tokenRequest());
    return { ctx: account(extra), token };
  };
  const everyCallPresentedTheCertificate = () =>
    expect(new Set(fake.received.map((request) => request.clientCertificate))).toEqual(new Set(['platform-client']));

  describe(`${id} conforms to the BACEN API Pix family`, () => {
    describe('declaration', () => {
      it('offers exactly the operations its capabilities declare', () => {
        expect(adapter.identity).toEqual({ ...member.identity, aliases: member.identity.aliases ?? [] });
        expect(adapter.operations).toEqual(operations);
      });

      it.each(OPERATIONS.filter((operation) => !operations.includes(operation)))(
        '%s is not offered: a rejected promise with the spec text, nothing sent',
        async (operation) => {
          const call = adapter[operation] as (...args: unknown[]) => Promise<unknown>;
          let pending: Promise<unknown> | undefined;
          expect(() => (pending = call.call(adapter, account(), {}, 100))).not.toThrow();
          await expect(pending).rejects.toThrow(CATALOGUE.NOT_IMPLEMENTED.message);
          await expect(pending).rejects.toMatchObject({ code: CATALOGUE.NOT_IMPLEMENTED.code });
        },
      );
    });

    describe('cash-in (POST /cob, GET /cob/{txid})', () => {
      it('takes one token as its auth declares over the cash-in certificate, creates the cob and reads it back', async () => {
        const { ctx, token } = begin({ certCashOutUrl: undefined });
        const create = fake.expect({
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
        fake.expect({ method: 'GET', path: `/cob/${txid}`, headers: { authorization: bearer }, reply: { body: paidCob } });

        const created = await adapter.createTransaction(ctx, CHARGE);
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
        expect(
          Buffer.from(created.pixQrCode!.replace(/^data:image\/png;base64,/, ''), 'base64')
            .subarray(1, 4)
            .toString(),
        ).toBe('PNG');
        await expect(adapter.getTransaction(ctx, txid)).resolves.toMatchObject({ transactionId: txid, status: 'APPROVED', amount: CHARGE_CENTS });
        expect([token.calls.length, create.calls.length, fake.received.length]).toEqual([1, 1, 3]);
        everyCallPresentedTheCertificate();
      });

      it.each(statusCases(cobTable))('GET /cob/{txid} answering %s is %s', async (status, expected) => {
        const { ctx } = begin();
        fake.expect({ method: 'GET', path: `/cob/${txid}`, reply: { body: { ...createdCob, status } } });
        await expect(adapter.getTransaction(ctx, txid)).resolves.toMatchObject({ transactionId: txid, status: expected });
      });

      it('a 5xx is UNAVAILABLE with the spec prefix; a cob without pixCopiaECola is an error, not a charge nobody can pay', async () => {
        const { ctx } = begin();
        fake.expect({ method: 'POST', path: '/cob', reply: { status: 503, body: { message: 'Serviço temporariamente indisponível' } } });
        await expect(adapter.createTransaction(ctx, CHARGE)).rejects.toMatchObject({
          code: 'UNAVAILABLE',
          message: failureMessage.CREATE_TRANSACTION('Serviço temporariamente indisponível'),
        });
        fake.expect({ method: 'POST', path: '/cob', reply: { status: 201, body: { ...createdCob, pixCopiaECola: undefined } } });
        await expect(adapter.createTransaction(ctx, CHARGE)).rejects.toMatchObject({
          code: 'UNAVAILABLE',
          message: failureMessage.CREATE_TRANSACTION(`a cobrança ${txid} não trouxe pixCopiaECola`),
        });
      });
    });

    if (refund?.kind === 'post') {
      const path = fillPath(refund.path, { id: txid });
      it(`refunds by POST ${refund.path} {amount in reais}; a failed status is false; a 4xx keeps the provider's message`, async () => {
        const { ctx } = begin();
        const refunded = fake.expect({
          method: 'POST',
          path,
          headers: { authorization: bearer },
          body: { amount: REFUND_CENTS / 100 },
          reply: { body: fixtures.refundResponse },
        });
        await expect(adapter.refoundTransaction(ctx, txid, REFUND_CENTS)).resolves.toEqual({ refundId: fixtures.refundResponse!.id, status: true });
        for (const status of [...REFUND_FAILED]) {
          fake.expect({ method: 'POST', path, reply: { body: { ...fixtures.refundResponse, status } } });
          await expect(adapter.refoundTransaction(ctx, txid, REFUND_CENTS)).resolves.toMatchObject({ status: false });
        }
        fake.expect({ method: 'POST', path, reply: { status: 422, body: { message: 'Venda já estornada' } } });
        await expect(adapter.refoundTransaction(ctx, txid, REFUND_CENTS)).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          message: failureMessage.REFUND_TRANSACTION('Venda já estornada'),
        });
        expect(refunded.calls).toHaveLength(1);
        everyCallPresentedTheCertificate();
      });
    }

    if (refund?.kind === 'devolucao') {
      const devolucao = new RegExp(`/pix/${paidE2e}/devolucao/[a-zA-Z0-9]{1,35}`);
      it('refunds by devolução: the Pix of GET /cob/{txid}, then PUT /pix/{e2eid}/devolucao/{id} {valor}; a failed status is false', async () => {
        const { ctx } = begin();
        const paid = fake.expect({ method: 'GET', path: `/cob/${txid}`, times: 2 + REFUND_FAILED.size, reply: { body: paidCob } });
        const put = { method: 'PUT', path: devolucao, headers: { authorization: bearer }, body: { valor: '7.50' } };
        fake.expect({ ...put, reply: { status: 201, body: fixtures.refundResponse } });
        await expect(adapter.refoundTransaction(ctx, txid, REFUND_CENTS)).resolves.toEqual({ refundId: fixtures.refundResponse!.rtrId, status: true });
        for (const status of [...REFUND_FAILED]) {
          fake.expect({ ...put, reply: { status: 201, body: { ...fixtures.refundResponse, status } } });
          await expect(adapter.refoundTransaction(ctx, txid, REFUND_CENTS)).resolves.toMatchObject({ status: false });
        }
        fake.expect({ ...put, reply: { status: 400, body: { title: 'Valor acima do devolvível' } } });
        await expect(adapter.refoundTransaction(ctx, txid, REFUND_CENTS)).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          message: failureMessage.REFUND_TRANSACTION('Valor acima do devolvível'),
        });
        expect(paid.calls).toHaveLength(2 + REFUND_FAILED.size);
        everyCallPresentedTheCertificate();
      });

      it('a charge with no Pix received has nothing to return: FAILED_PRECONDITION, nothing PUT', async () => {
        const { ctx } = begin();
        fake.expect({ method: 'GET', path: `/cob/${txid}`, reply: { body: createdCob } });
        await expect(adapter.refoundTransaction(ctx, txid, REFUND_CENTS)).rejects.toMatchObject({
          code: 'FAILED_PRECONDITION',
          message: failureMessage.REFUND_TRANSACTION(`a cobrança ${txid} não tem Pix recebido`),
        });
      });
    }

    if (payout) {
      const path = payout.path ?? DICT_PAYMENT_PATH;
      const header = payout.idempotencyHeader ?? IDEMPOTENCY_HEADER;
      describe(`cash-out (POST ${path})`, () => {
        it(`pays out over the cash-out certificate with ${header}: the caller's idempotency key, else the withdraw reference, else a fresh UUID`, async () => {
          const { ctx } = begin({ certCashInUrl: undefined });
          const created = fixtures.createdPayout!;
          const paid = fake.expect({
            method: 'POST',
            path,
            times: 4,
            headers: { authorization: bearer, [header]: (key) => key === 'idem-1' || key === 'saque-123' || UUID.test(key ?? '') },
            body: {
              pixKey: '+5511987654321',
              description: 'Saque de R$ 10,50',
              creditorDocument: '12345678909',
              paymentFlow: 'INSTANT',
              payment: { currency: 'BRL', amount: PAYOUT_CENTS / 100 },
            },
            reply: { status: 201, body: created },
          });
          const expected = { withdrawId: created.endToEndId, amount: PAYOUT_CENTS, status: payout.statusAtCreation === 'approved' ? 'APPROVED' : 'PENDING' };
          await expect(adapter.withdraw(ctx, { ...WITHDRAWAL, idempotencyKey: 'idem-1', withdrawReference: 'saque-123' })).resolves.toMatchObject(expected);
          await expect(adapter.withdraw(ctx, { ...WITHDRAWAL, withdrawReference: 'saque-123' })).resolves.toMatchObject(expected);
          await adapter.withdraw(ctx, WITHDRAWAL);
          await adapter.withdraw(ctx, WITHDRAWAL);
          const sent = paid.calls.map((call) => call.headers[header]);
          expect(sent.slice(0, 2)).toEqual(['idem-1', 'saque-123']);
          expect(sent[2]).not.toBe(sent[3]);
          everyCallPresentedTheCertificate();
        });

        it("a refused payout keeps the provider's message; a method other than PIX or no PIX key is refused before sending", async () => {
          const { ctx } = begin();
          fake.expect({ method: 'POST', path, reply: { status: 400, body: { title: 'Saldo insuficiente' } } });
          await expect(adapter.withdraw(ctx, WITHDRAWAL)).rejects.toMatchObject({
            code: 'INVALID_ARGUMENT',
            message: failureMessage.WITHDRAW('Saldo insuficiente'),
          });
          await expect(adapter.withdraw(ctx, { ...WITHDRAWAL, paymentMethod: 'BANK_ACCOUNT' })).rejects.toMatchObject(
            CATALOGUE.WITHDRAW_METHOD_NAO_IMPLEMENTADO,
          );
          await expect(adapter.withdraw(ctx, { ...WITHDRAWAL, pixKey: ' ' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
        });

        if (lookupPath) {
          const liquidated = fixtures.liquidatedPayout!;
          it(`reads a payout back by GET ${lookupPath}: LIQUIDATED is APPROVED at its eventDate`, async () => {
            const { ctx } = begin({ certCashInUrl: undefined });
            const withdrawId = fixtures.createdPayout!.endToEndId;
            fake.expect({ method: 'GET', path: fillPath(lookupPath, { id: withdrawId }), headers: { authorization: bearer }, reply: { body: liquidated } });
            await expect(adapter.getWithdraw(ctx, withdrawId)).resolves.toEqual({
              withdrawId,
              amount: PAYOUT_CENTS,
              status: 'APPROVED',
              approvedAt: new Date(liquidated.eventDate),
            });
          });

          it.each(statusCases(payoutTable))(`GET ${lookupPath} answering %s is %s`, async (status, expected) => {
            const { ctx } = begin();
            fake.expect({ method: 'GET', path: fillPath(lookupPath, { id: 'E1' }), reply: { body: { ...liquidated, status } } });
            await expect(adapter.getWithdraw(ctx, 'E1')).resolves.toMatchObject({ withdrawId: 'E1', status: expected });
          });
        }
      });
    }

    describe('a 2xx answer that is not the resource is UNAVAILABLE, never a status or a success', () => {
      type Garbage = [operation: Operation, label: string, body: unknown];
      const garbage = (operation: Operation, bodies: ReadonlyArray<[string, unknown]>): Garbage[] =>
        operations.includes(operation) ? bodies.map(([label, body]): Garbage => [operation, label, body]) : [];
      const prefix: Partial<Record<Operation, string>> = {
        createTransaction: FAILURE_PREFIXES.CREATE_TRANSACTION,
        getTransaction: FAILURE_PREFIXES.GET_TRANSACTION,
        refoundTransaction: FAILURE_PREFIXES.REFUND_TRANSACTION,
        withdraw: FAILURE_PREFIXES.WITHDRAW,
        getWithdraw: FAILURE_PREFIXES.GET_WITHDRAW,
      };
      it.each([
        ...garbage('createTransaction', GARBAGE_2XX_BODIES),
        ...garbage('getTransaction', GARBAGE_2XX_BODIES),
        // A POST refund's failure flag is the PSP refusing it (status false), not a missing answer.
        ...garbage('refoundTransaction', refund?.kind === 'post' ? BODIES_WITHOUT_RESOURCE : GARBAGE_2XX_BODIES),
        ...(refund?.kind === 'devolucao' ? GARBAGE_2XX_BODIES.map(([label, body]): Garbage => ['refoundTransaction', `${label} (GET /cob)`, body]) : []),
        ...garbage('withdraw', GARBAGE_2XX_BODIES),
        ...garbage('getWithdraw', GARBAGE_2XX_BODIES),
      ])('%s answered with %s', async (operation, label, body) => {
        const { ctx } = begin();
        const answer = { reply: { status: 201, body } };
        if (operation === 'createTransaction') fake.expect({ method: 'POST', path: '/cob', ...answer });
        if (operation === 'getTransaction') fake.expect({ method: 'GET', path: `/cob/${txid}`, ...answer });
        if (operation === 'refoundTransaction' && refund?.kind === 'post')
          fake.expect({ method: 'POST', path: fillPath(refund.path, { id: txid }), ...answer });
        if (operation === 'refoundTransaction' && refund?.kind === 'devolucao') {
          const cobAnswer = label.endsWith('(GET /cob)');
          fake.expect({ method: 'GET', path: `/cob/${txid}`, reply: { body: cobAnswer ? body : paidCob } });
          if (!cobAnswer) fake.expect({ method: 'PUT', path: new RegExp(`/pix/${paidE2e}/devolucao/\\w+`), ...answer });
        }
        if (operation === 'withdraw') fake.expect({ method: 'POST', path: payout?.path ?? DICT_PAYMENT_PATH, ...answer });
        if (operation === 'getWithdraw') fake.expect({ method: 'GET', path: fillPath(lookupPath!, { id: 'E1' }), ...answer });
        const run: Partial<Record<Operation, () => Promise<unknown>>> = {
          createTransaction: () => adapter.createTransaction(ctx, CHARGE),
          getTransaction: () => adapter.getTransaction(ctx, txid),
          refoundTransaction: () => adapter.refoundTransaction(ctx, txid, REFUND_CENTS),
          withdraw: () => adapter.withdraw(ctx, WITHDRAWAL),
          getWithdraw: () => adapter.getWithdraw(ctx, 'E1'),
        };
        await expect(run[operation]!()).rejects.toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(new RegExp(`^${prefix[operation]}: `)) });
      });
    });

    it("'Unauthorized.' without the platform's certificate for the direction, and nothing reaches the provider", async () => {
      const unauthorized = { code: CATALOGUE.UNAUTHORIZED.code, message: CATALOGUE.UNAUTHORIZED.message };
      const noCashIn = account({ certCashInUrl: undefined });
      const noCashOut = account({ certCashOutUrl: undefined });
      const calls: Array<[Operation, () => Promise<unknown>]> = [
        ['createTransaction', () => adapter.createTransaction(noCashIn, CHARGE)],
        ['getTransaction', () => adapter.getTransaction(noCashIn, txid)],
        ['refoundTransaction', () => adapter.refoundTransaction(noCashIn, txid, REFUND_CENTS)],
        ['withdraw', () => adapter.withdraw(noCashOut, WITHDRAWAL)],
        ['getWithdraw', () => adapter.getWithdraw(noCashOut, 'E1')],
      ];
      // A member whose cash-out host asks for the platform record says so (payout.requirePlatform).
      if (payout?.requirePlatform) calls.push(['withdraw', () => adapter.withdraw(account({ platformId: undefined }), WITHDRAWAL)]);
      for (const [, call] of calls.filter(([operation]) => operations.includes(operation))) await expect(call()).rejects.toMatchObject(unauthorized);
      expect(fake.received).toHaveLength(0);
    });

    describe('notifications (unsigned; the gateway confirms with GET /cob)', () => {
      const event = (type: string | undefined, data: object) => ({
        ...(type ? { type } : {}),
        data: {
          id: 557737461,
          txId: txid,
          pixKey: keys.chave,
          payment: { amount: '19.90', currency: 'BRL' },
          refunds: [],
          endToEndId: E2E,
          idempotencyKey: null,
          ...data,
        },
      });
      const charge = (status: TransactionStatus): WebhookResult => ({ type: 'TRANSACTION', transactionId: txid, status });
      const pix = { endToEndId: 'E1234', txid, chave: keys.chave, valor: '19.90', horario: '2026-01-10T12:05:00.000Z' };
      const untypedRule = member.untypedEvent ? `read as ${member.untypedEvent}` : 'ignored';
      const untyped = (status: TransactionStatus) => (member.untypedEvent === 'RECEIVE' ? charge(status) : undefined);
      const cases: Array<[string, unknown, WebhookResult | undefined]> = [
        ['RECEIVE LIQUIDATED', event('RECEIVE', { status: 'LIQUIDATED' }), charge('APPROVED')],
        ['RECEIVE PROCESSING', event('RECEIVE', { status: 'PROCESSING' }), charge('PENDING')],
        ['RECEIVE without a status', event('RECEIVE', {}), charge('PENDING')],
        ['REFUND', event('REFUND', { status: 'LIQUIDATED' }), charge('CHARGEBACK')],
        ['CANCELED', event('CANCELED', { status: 'CANCELED' }), undefined],
        ['an event the spec does not name', event('INFRACTION', { status: 'OPEN' }), undefined],
        ['TRANSFER LIQUIDATED', event('TRANSFER', { status: 'LIQUIDATED' }), { type: 'WITHDRAW', transactionId: E2E, status: 'APPROVED' }],
        [
          'TRANSFER without endToEndId',
          { type: 'TRANSFER', data: { id: 7, status: 'CANCELED' } },
          { type: 'WITHDRAW', transactionId: '7', status: 'CANCELED' },
        ],
        ['the standard {pix:[...]} body', { pix: [{ endToEndId: 'E0', valor: '1.00' }, pix] }, charge('APPROVED')],
        [
          'the standard body wholly returned',
          { pix: [{ ...pix, devolucoes: [{ id: 'd1', rtrId: 'D1', valor: '19.90', status: 'DEVOLVIDO' }] }] },
          charge('CHARGEBACK'),
        ],
        ['the standard body naming no charge', { pix: [{ endToEndId: 'E0', valor: '1.00' }] }, undefined],
        [`{data} without type, LIQUIDATED (${untypedRule})`, { data: { txId: txid, status: 'LIQUIDATED' } }, untyped('APPROVED')],
        [`{data} without type, PROCESSING (${untypedRule})`, { data: { txId: txid, status: 'PROCESSING' } }, untyped('PENDING')],
        ...['not json', '', 'null', '[]', '{"type":"RECEIVE"}', '{"type":"RECEIVE","data":{"status":"LIQUIDATED"}}', '{"pix":"x"}'].map(
          (body): [string, unknown, undefined] => [`a body that cannot be read or names no charge: ${body || '(empty)'}`, body, undefined],
        ),
      ];
      it.each(cases)('%s', async (_label, body, expected) => {
        await expect(adapter.processWebhook(account(), notification(body))).resolves.toEqual(expected);
      });

      it('keys tell a re-delivery (same key) from a status change; an unreadable body is keyed by its hash', () => {
        const ctx = account();
        const key = (body: unknown) => adapter.notificationKey(ctx, notification(body));
        const liquidated = event('RECEIVE', { status: 'LIQUIDATED' });
        expect(adapter.verifyNotification(ctx, notification(liquidated))).toBe('unsigned');
        expect(key(liquidated)).toBe(`bacen-pix:RECEIVE:${E2E}:LIQUIDATED`);
        expect(key({ ...liquidated, createdAt: 'later' })).toBe(key(liquidated));
        expect(key(event('RECEIVE', { status: 'PROCESSING' }))).not.toBe(key(liquidated));
        expect(key({ pix: [pix] })).toBe('bacen-pix:pix:E1234');
        expect(key({ pix: [{ ...pix, devolucoes: [{ id: 'd1', status: 'EM_PROCESSAMENTO' }] }] })).toBe('bacen-pix:pix:E1234,d1=EM_PROCESSAMENTO');
        expect(key('not json')).toMatch(/^sha256:[0-9a-f]{64}$/);
      });
    });
  });

  return {
    get fake() {
      return fake;
    },
    get adapter() {
      return adapter;
    },
    account,
  };
}
