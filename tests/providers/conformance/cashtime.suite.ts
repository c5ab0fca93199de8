import { describe, expect, it } from '@jest/globals';
import type { PaymentMethod, PixKeyType, WithdrawInput } from '../../../server/domain/types.js';
import { PIX_DEFAULT_EXPIRY_SECONDS } from '../../../server/lib/expiry.js';
import { CATALOGUE, FAILURE_PREFIXES, paymentMethodNotSupportedBy } from '../../../server/lib/providerMessages.js';
import { declaredStatusTable, type StatusTable } from '../../../server/lib/statusTable.js';
import { capabilitiesOf, operationsOf } from '../../../server/providers/adapter.js';
import {
  CASHTIME_PATHS,
  CASHTIME_STATUSES,
  CASHTIME_WITHDRAWAL_STATUSES,
  CashtimeAdapter,
  type CashtimeMember,
  type CashtimeOrder,
  type CashtimeWithdrawal,
} from '../../../server/providers/families/cashtime/index.js';
import { BODIES_WITHOUT_RESOURCE, GARBAGE_2XX_BODIES } from '../../support/fakeProvider.js';
import {
  LATE_MS,
  NOW,
  TIMEOUT_TEXT,
  bareTransactionInput,
  expectUnsupportedOperationsRejected,
  failure,
  notification,
  providerHarness,
  transactionInput,
  type Harness,
} from './harness.js';

/**
 * The Cashtime platform family's conformance suite (CASHTIME and REFLOWPAY v1,
 * one API: provider research G-A; paths from spec doc 2 §7). Every member runs
 * it with its declaration, so the family's behaviour is tested once: its
 * paths, its auth header, its money unit, every status of its tables (the
 * family's and the member's overrides) through every exchange that reads one,
 * its payout lookup only where declared, and the rejection of what it does
 * not offer. A member's own test holds only what the spec says about it,
 * through the returned harness.
 */

/** What a member hands the suite: its account keys, the auth header(s) they must produce, and answers where its API differs. */
export interface CashtimeFixtures {
  keys: { publicKey: string; secretKey: string };
  /** Header name (lower case) → value, e.g. { 'x-authorization-key': 'sk_live_…' }. */
  authHeaders: Record<string, string>;
  answers?: Partial<CashtimeAnswers>;
}

/** Canned answers keep fields a provider sends that the family does not read. */
type MoreFields = Record<string, unknown>;

export interface CashtimeAnswers {
  /** POST /transactions for a PIX charge of `amount` (the provider's unit). */
  pixCreated: (amount: number) => CashtimeOrder & MoreFields;
  /** GET /details/orders/{id}. */
  order: (id: string, status: string, amount: number) => CashtimeOrder & MoreFields;
  /** POST /request/withdraw: accepted, without a status (as the integrations read it). */
  withdrawalCreated: (amount: number) => CashtimeWithdrawal & MoreFields;
  /** GET /request/withdraw/{id}. */
  withdrawal: (id: string, status: string, amount: number) => CashtimeWithdrawal & MoreFields;
}

const PIX_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***63041D3D';

/** The platform's answers as its public integrations read them: `id`, `status`, `pix.payload` and `pix.encodedImage`. */
const DIALECT: CashtimeAnswers = {
  pixCreated: (amount) => ({ id: 'ord_77', status: 'pending', amount, paymentMethod: 'pix', pix: { payload: PIX_CODE, encodedImage: 'iVBORw0KGgo=' } }),
  order: (id, status, amount) => ({ id, status, amount, paymentMethod: 'pix', pix: { payload: PIX_CODE } }),
  withdrawalCreated: (amount) => ({ id: 'wd_1', amount, pixKeyType: 'CPF' }),
  withdrawal: (id, status, amount) => ({ id, status, amount }),
};

const WITHDRAWAL: WithdrawInput = { paymentMethod: 'PIX', amount: 2500, pixKey: '123.456.789-09', pixType: 'CPF', withdrawReference: 'wd-ref-1' };

/** Each PIX key type as the platform takes it: CPF/CNPJ digits, PHONE +55 and digits, RANDOM as EVP, EMAIL untouched. */
const PIX_KEYS: ReadonlyArray<[type: PixKeyType, key: string, sent: string, sentType: string]> = [
  ['CPF', '123.456.789-09', '12345678909', 'CPF'],
  ['CNPJ', '11.222.333/0001-81', '11222333000181', 'CNPJ'],
  ['PHONE', '(11) 98765-4321', '+5511987654321', 'PHONE'],
  ['EMAIL', 'Ana.Souza@Example.com', 'Ana.Souza@Example.com', 'EMAIL'],
  ['RANDOM', '123e4567-e89b-12d3-a456-426655440000', '123e4567-e89b-12d3-a456-426655440000', 'EVP'],
];

export function cashtimeConformance(member: CashtimeMember, fixtures: CashtimeFixtures): Harness<CashtimeAdapter> {
  const id = member.identity.id;
  const paths = { ...CASHTIME_PATHS, ...member.paths };
  const capabilities = capabilitiesOf(member.capabilities);
  const answers = { ...DIALECT, ...fixtures.answers };
  const table = declaredStatusTable(CASHTIME_STATUSES, member.statuses?.transaction);
  const withdrawalTable = declaredStatusTable(CASHTIME_WITHDRAWAL_STATUSES, member.statuses?.withdrawal);
  const pixSeconds = member.expiry?.pixSeconds ?? PIX_DEFAULT_EXPIRY_SECONDS;
  const auth = fixtures.authHeaders;
  const path = (template: string, value: string) => template.replace('{id}', encodeURIComponent(value));
  const createFailure = (text: string) => `${FAILURE_PREFIXES.CREATE_TRANSACTION}: ${text}`;
  const withdrawFailure = (text: string) => `${FAILURE_PREFIXES.WITHDRAW}: ${text}`;

  const h = providerHarness({ create: (runtime) => new CashtimeAdapter(member, runtime), account: () => fixtures.keys });

  /**
   * What every read exchange must do (GET /details/orders/{id}, GET
   * /request/withdraw/{id}): read each status of its table, keep an unknown one
   * at the table's default with a warning naming the provider, never make a
   * status of garbage, keep a 404 as NOT_FOUND and a persistent 5xx (after the
   * read retries) as UNAVAILABLE, all under the operation's prefix.
   */
  const readExchange = <S extends string>(read: {
    template: string;
    read: (id: string) => Promise<{ status: S }>;
    answer: (id: string, status: string) => unknown;
    result: (id: string, status: S) => unknown;
    table: StatusTable<S>;
    kind: 'transaction' | 'withdrawal';
    prefix: string;
  }) => {
    it.each(Object.entries(read.table.entries))('reads %s → %s', async (status, expected) => {
      h.fake.expect({ method: 'GET', path: path(read.template, 'id/9'), headers: auth, reply: { body: read.answer('id/9', status) } });
      expect(await read.read('id/9')).toEqual(read.result('id/9', expected));
      expect(h.warn).not.toHaveBeenCalled();
    });

    it(`maps an unknown status to ${read.table.unknown} and logs a warning naming the provider`, async () => {
      h.fake.expect({ method: 'GET', path: path(read.template, 'id_9'), reply: { body: read.answer('id_9', 'in_analysis_xyz') } });
      expect((await read.read('id_9')).status).toBe(read.table.unknown);
      expect(h.warn).toHaveBeenCalledWith(
        { provider: id, providerStatus: 'in_analysis_xyz', mappedTo: read.table.unknown },
        `unknown provider ${read.kind} status`,
      );
    });

    it.each(GARBAGE_2XX_BODIES)('an answer that is %s is an error, never a status', async (_label, body) => {
      h.fake.expect({ method: 'GET', path: path(read.template, 'id_g'), reply: { body } });
      await expect(read.read('id_g')).rejects.toMatchObject({ message: expect.stringMatching(new RegExp(`^${read.prefix}: `)) });
    });

    it('keeps a 404 as NOT_FOUND and a persistent 5xx as UNAVAILABLE after the read retries', async () => {
      h.fake.expect({ method: 'GET', path: path(read.template, 'nope'), reply: { status: 404, body: { message: 'Não encontrado' } } });
      expect(await failure(read.read('nope'))).toEqual({ code: 'NOT_FOUND', message: `${read.prefix}: Não encontrado` });
      h.fake.expect({ method: 'GET', path: path(read.template, 'id_1'), times: 3, reply: { status: 503, body: { message: 'Service unavailable' } } });
      expect(await failure(read.read('id_1'))).toEqual({ code: 'UNAVAILABLE', message: `${read.prefix}: Service unavailable` });
    });
  };

  describe(`${id}: the Cashtime platform family`, () => {
    it('offers exactly the operations its capabilities declare; the others reject with the spec text and send nothing', async () => {
      expect(h.adapter.identity).toEqual({ ...member.identity, aliases: member.identity.aliases ?? [] });
      expect(h.adapter.operations).toEqual(operationsOf(capabilities));
      expect(member.money).toBe('cents');
      await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
      expect(h.adapter.verifyNotification(h.ctx, notification({}))).toBe('unsigned');
    });

    it('refuses a member declaring reais: the platform carries cents', () => {
      expect(() => new CashtimeAdapter({ ...member, money: 'reais' })).toThrow(`${id}: the Cashtime platform carries amounts in cents, not reais`);
    });

    const unoffered = (['PIX', 'CREDIT_CARD', 'BILLET'] as PaymentMethod[]).filter((method) => !capabilities.paymentMethods.includes(method));
    if (unoffered.length)
      it.each(unoffered.map((method) => [method]))('refuses %s, a method it does not offer, before calling', async (method) => {
        expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: method, cardId: 'card_1' })))).toEqual({
          code: 'UNIMPLEMENTED',
          message: paymentMethodNotSupportedBy(id),
        });
        expect(h.fake.received).toHaveLength(0);
      });

    describe(`createTransaction: POST ${paths.create}`, () => {
      it('sends the charge in cents with the customer, its items, the order id and the sidecar as postback URL; answers the code, its image and expiry', async () => {
        h.fake.expect({
          method: 'POST',
          path: paths.create,
          headers: auth,
          body: {
            isInfoProducts: true,
            externalCode: 'order-77',
            paymentMethod: 'pix',
            installments: 1,
            amount: 1990,
            customer: { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321', document: { number: '12345678909', type: 'cpf' } },
            items: [{ title: 'Curso', unitPrice: 1990, quantity: 1, tangible: false }],
            postbackUrl: h.ctx.notificationUrl,
          },
          reply: { status: 201, body: answers.pixCreated(1990) },
        });
        expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
          paymentMethod: 'PIX',
          transactionId: 'ord_77',
          status: table.entries.pending,
          amount: 1990,
          pixCode: PIX_CODE,
          expiresAt: new Date(NOW.getTime() + pixSeconds * 1000),
        });
      });

      it('sends one item for the whole amount when none is given, the buyer IP; reads an enveloped answer without a status as PENDING', async () => {
        h.fake.expect({
          method: 'POST',
          path: paths.create,
          body: {
            isInfoProducts: true,
            paymentMethod: 'pix',
            installments: 1,
            amount: 123456,
            items: [{ title: 'Pedido', unitPrice: 123456, quantity: 1, tangible: false }],
            postbackUrl: h.ctx.notificationUrl,
            ip: '203.0.113.9',
          },
          reply: { body: { data: { id: 4242, pix: { payload: PIX_CODE, expirationDate: '2025-03-10T12:30:00.000Z' } } } },
        });
        expect(await h.adapter.createTransaction(h.ctx, bareTransactionInput({ amount: 123456, customerIp: '203.0.113.9' }))).toMatchObject({
          transactionId: '4242',
          status: 'PENDING',
          amount: 123456,
          expiresAt: new Date('2025-03-10T12:30:00.000Z'),
        });
      });

      it('marks a sale with a tangible item as not an info-product', async () => {
        const items = [{ id: 'sku-2', title: 'Livro', unitPrice: 4990, quantity: 2, tangible: true }];
        h.fake.expect({
          method: 'POST',
          path: paths.create,
          body: (body) => (body as { isInfoProducts: boolean }).isInfoProducts === false,
          reply: { body: answers.pixCreated(9980) },
        });
        expect((await h.adapter.createTransaction(h.ctx, transactionInput({ amount: 9980, items }))).amount).toBe(9980);
      });

      it.each([
        [400, { code: 'INVALID_DOCUMENT', message: 'Documento inválido' }, 'INVALID_ARGUMENT', 'Documento inválido'],
        [401, { message: 'Chave inválida' }, 'FAILED_PRECONDITION', 'Chave inválida'],
        [503, { message: 'Service unavailable' }, 'UNAVAILABLE', 'Service unavailable'],
      ])('keeps the message of a %i under the prefix (%s), sent once', async (status, body, code, text) => {
        h.fake.expect({ method: 'POST', path: paths.create, reply: { status, body } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({ code, message: createFailure(text) });
        expect(h.fake.received).toHaveLength(1);
      });

      it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a charge', async (_label, body) => {
        h.fake.expect({ method: 'POST', path: paths.create, reply: { body } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
          code: 'UNAVAILABLE',
          message: expect.stringMatching(new RegExp(`^${createFailure('resposta do provedor em formato inesperado \\(')}`)),
        });
      });

      it('an answer about an order is never read as a refusal, even with a message; ids of the wrong type are refused', async () => {
        for (const body of [
          { id: 'ord_8', status: 'pending', pix: null, message: 'Pedido criado' },
          { id: { value: 'ord_8' }, pix: { payload: '000201' } },
          { data: { orderId: true, pix: { payload: '000201' } } },
        ]) {
          h.fake.expect({ method: 'POST', path: paths.create, reply: { body } });
          expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
            code: 'UNAVAILABLE',
            message: expect.stringContaining(createFailure('resposta do provedor em formato inesperado (')),
          });
        }
      });

      it('keeps the message of a failure inside a 2xx body; an order nobody could pay, an unreadable amount or a timeout is UNAVAILABLE', async () => {
        h.fake.expect({ method: 'POST', path: paths.create, reply: { body: { success: false, message: 'Saldo insuficiente' } } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
          code: 'INVALID_ARGUMENT',
          message: createFailure('Saldo insuficiente'),
        });
        h.fake.expect({ method: 'POST', path: paths.create, reply: { body: { id: 'ord_8', status: 'pending', pix: null } } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
          code: 'UNAVAILABLE',
          message: createFailure('resposta do provedor em formato inesperado (pix: esperado object)'),
        });
        h.fake.expect({ method: 'POST', path: paths.create, reply: { body: { ...answers.pixCreated(1990), amount: 'abc' } } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
          code: 'UNAVAILABLE',
          message: createFailure('resposta do provedor em formato inesperado (amount: custom)'),
        });
        h.fake.expect({ method: 'POST', path: paths.create, reply: { delayMs: LATE_MS, body: answers.pixCreated(1990) } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({ code: 'UNAVAILABLE', message: createFailure(TIMEOUT_TEXT) });
      });

      it('needs the secret key, and says so without calling the provider', async () => {
        for (const key of member.credentials?.required ?? []) {
          expect(await failure(h.adapter.createTransaction({ ...h.ctx, [key]: '' }, transactionInput()))).toEqual({
            code: 'FAILED_PRECONDITION',
            message: `${key} is required`,
          });
        }
        expect(h.fake.received).toHaveLength(0);
      });
    });

    describe(`getTransaction: GET ${paths.get}`, () =>
      readExchange({
        template: paths.get,
        read: (value) => h.adapter.getTransaction(h.ctx, value),
        answer: (value, status) => answers.order(value, status, 500),
        result: (value, status) => ({
          paymentMethod: 'PIX',
          transactionId: value,
          status,
          amount: 500,
          pixCode: PIX_CODE,
        }),
        table,
        kind: 'transaction',
        prefix: FAILURE_PREFIXES.GET_TRANSACTION,
      }));

    if (capabilities.withdrawMethods.includes('PIX'))
      describe(`withdraw: POST ${paths.withdraw}`, () => {
        it.each(PIX_KEYS)(
          'pays out to a %s key in cents with the sidecar as postback URL; accepted without a status is PENDING',
          async (pixType, pixKey, sent, sentType) => {
            h.fake.expect({
              method: 'POST',
              path: paths.withdraw,
              headers: auth,
              body: { amount: 2500, pixKey: sent, pixKeyType: sentType, baasPostbackUrl: h.ctx.notificationUrl, externalCode: 'wd-ref-1' },
              reply: { status: 201, body: answers.withdrawalCreated(2500) },
            });
            expect(await h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, pixKey, pixType })).toEqual({ withdrawId: 'wd_1', amount: 2500, status: 'PENDING' });
          },
        );

        it('reads a status the answer gives through the payout table, and the amount it reports', async () => {
          h.fake.expect({ method: 'POST', path: paths.withdraw, reply: { body: { data: { id: 77, status: 'failed', amount: 2400 } } } });
          expect(await h.adapter.withdraw(h.ctx, WITHDRAWAL)).toEqual({ withdrawId: '77', amount: 2400, status: withdrawalTable.entries.failed });
        });

        it('refuses, before calling, a payout that is not PIX or lacks its key or key type (never guessed)', async () => {
          expect(await failure(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, paymentMethod: 'BANK_ACCOUNT' }))).toEqual({
            code: 'UNIMPLEMENTED',
            message: CATALOGUE.WITHDRAW_METHOD_NAO_IMPLEMENTADO.message,
          });
          expect(await failure(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, pixKey: ' ' }))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: 'withdraw.pix_key is required for PIX withdrawals',
          });
          expect(await failure(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, pixType: undefined }))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: 'withdraw.pix_type is required for PIX withdrawals',
          });
          expect(h.fake.received).toHaveLength(0);
        });

        it('keeps the message of a refusal; a 5xx is UNAVAILABLE and sent once', async () => {
          h.fake.expect({ method: 'POST', path: paths.withdraw, reply: { status: 422, body: { message: 'Saldo insuficiente' } } });
          expect(await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL))).toEqual({ code: 'INVALID_ARGUMENT', message: withdrawFailure('Saldo insuficiente') });
          h.fake.expect({ method: 'POST', path: paths.withdraw, reply: { status: 502, body: 'Bad gateway' } });
          expect(await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL))).toEqual({ code: 'UNAVAILABLE', message: withdrawFailure('Bad gateway') });
          expect(h.fake.received).toHaveLength(2);
        });

        it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a payout', async (_label, body) => {
          h.fake.expect({ method: 'POST', path: paths.withdraw, reply: { body } });
          expect(await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL))).toEqual({
            code: 'UNAVAILABLE',
            message: expect.stringMatching(new RegExp(`^${withdrawFailure('resposta do provedor em formato inesperado \\(')}`)),
          });
        });
      });

    if (capabilities.withdrawalLookup)
      describe(`getWithdraw: GET ${paths.getWithdraw}`, () =>
        readExchange({
          template: paths.getWithdraw,
          read: (value) => h.adapter.getWithdraw(h.ctx, value),
          answer: (value, status) => answers.withdrawal(value, status, 2500),
          result: (value, status) => ({ withdrawId: value, amount: 2500, status }),
          table: withdrawalTable,
          kind: 'withdrawal',
          prefix: FAILURE_PREFIXES.GET_WITHDRAW,
        }));

    if (capabilities.webhooks)
      describe('processWebhook: the postbacks', () => {
        it.each(Object.entries(table.entries))('reads a charge postback %s → %s', async (status, expected) => {
          expect(await h.adapter.processWebhook(h.ctx, notification({ id: 'ord_77', status, amount: 1990 }))).toEqual({
            type: 'TRANSACTION',
            transactionId: 'ord_77',
            status: expected,
          });
        });

        it('reads the enveloped shape, an orderId, and an unknown status as its default', async () => {
          expect(await h.adapter.processWebhook(h.ctx, notification({ type: 'order.updated', data: { id: 77, status: 'paid' } }))).toEqual({
            type: 'TRANSACTION',
            transactionId: '77',
            status: table.entries.paid,
          });
          expect(await h.adapter.processWebhook(h.ctx, notification({ event: 'transaction', orderId: 'ord_5', status: 'mystery' }))).toEqual({
            type: 'TRANSACTION',
            transactionId: 'ord_5',
            status: table.unknown,
          });
        });

        if (capabilities.withdrawMethods.length)
          it.each(Object.entries(withdrawalTable.entries))('reads a payout postback %s → %s, by its event or its PIX key', async (status, expected) => {
            expect(await h.adapter.processWebhook(h.ctx, notification({ type: 'withdraw', id: 'wd_1', status }))).toEqual({
              type: 'WITHDRAW',
              transactionId: 'wd_1',
              status: expected,
            });
            expect(await h.adapter.processWebhook(h.ctx, notification({ withdrawId: 'wd_2', status, pixKey: '12345678909' }))).toEqual({
              type: 'WITHDRAW',
              transactionId: 'wd_2',
              status: expected,
            });
          });

        it('ignores events of other kinds and bodies it cannot use', async () => {
          for (const body of [
            '{not json',
            'null',
            '[]',
            { hello: 'world' },
            { id: 'ord_1' },
            { status: 'paid' },
            { type: 'subscription', id: 1, status: 'paid' },
            { type: 7, id: 1, status: 'paid' },
          ])
            expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
        });

        it('keys a notification by kind, id and status, so a re-delivery is a duplicate', () => {
          const key = (body: unknown) => h.adapter.notificationKey(h.ctx, notification(body));
          expect(key({ id: 'ord_77', status: 'paid', sentAt: 1 })).toBe('transaction:ord_77:paid');
          expect(key({ type: 'order', data: { id: 'ord_77', status: 'PAID' } })).toBe('transaction:ord_77:paid');
          expect(key({ type: 'withdraw', id: 'wd_1', status: 'completed' })).toBe('withdrawal:wd_1:completed');
          expect(key('{not json')).toMatch(/^sha256:[0-9a-f]{64}$/);
        });
      });
  });

  return h;
}
