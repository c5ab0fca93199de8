import { describe, expect, it } from '@jest/globals';
import type { PaymentMethod, TransactionStatus } from '../../../server/domain/types.js';
import { SECONDS_PER_DAY, wholeDays } from '../../../server/lib/expiry.js';
import { centsToReais } from '../../../server/lib/money.js';
import { GatewayError, outcomeOf } from '../../../server/lib/errors.js';
import { CATALOGUE, FAILURE_PREFIXES, type CatalogueKey } from '../../../server/lib/providerMessages.js';
import { declaredStatusTable, lookupStatus } from '../../../server/lib/statusTable.js';
import { operationsOf, capabilitiesOf } from '../../../server/providers/adapter.js';
import {
  TRANSACTIONS_API_PATHS,
  TRANSACTIONS_API_STATUSES,
  TRANSACTIONS_API_WITHDRAWAL_STATUSES,
  TransactionsApiAdapter,
  type TransactionsApiMember,
} from '../../../server/providers/families/transactionsApi/index.js';
import type { AdapterRuntime } from '../../../server/providers/kit/declaration.js';
import { BODIES_WITHOUT_RESOURCE, GARBAGE_2XX_BODIES, partial } from '../../support/fakeProvider.js';
import {
  NOW,
  expectUnsupportedOperationsRejected,
  failure,
  failureText,
  notification,
  providerHarness,
  transactionInput as input,
  LATE_MS,
  TIMEOUT_TEXT,
} from './harness.js';

/** What a member hands the suite besides its declaration: its account keys and the auth header(s) they must produce. */
export interface TransactionsApiFixtures {
  keys: { publicKey: string; secretKey: string };
  /** Header name (lower case) → value, e.g. { authorization: 'Basic …' } or { 'x-api-key': '…' }. */
  authHeaders: Record<string, string>;
  /** A member whose adapter overrides hooks (ROYALTY): built here instead of the family's class. */
  create?: (runtime: AdapterRuntime) => TransactionsApiAdapter;
  /** The member words provider failures its own way (a `failure` hook): the suite checks codes, the member's test the words. */
  ownFailureWording?: boolean;
  /** The member builds its own request bodies (transactionBody / withdrawalBody hooks): the suite leaves them to the member's test. */
  ownBodies?: boolean;
  /** Canned answers where the member's differ from the family's dialect. */
  answers?: Partial<typeof DIALECT>;
  /** The member reads its own postback (a `parsedNotification` hook: SaqPay's IPN): the suite leaves notifications to the member's test. */
  ownNotifications?: boolean;
  /** The refund body the member sends for an amount in its unit (a `refundBody` hook: BRPIX Digital's reason); default `{ amount }`. */
  refundBody?: (amount: number) => object;
  /** How the member's charge body carries the card id and the boleto's validity, where its platform differs (F1: `card.hash`, `boleto.expirationDate`). */
  cardBody?: (cardId: string) => object;
  /**
   * Where the member's charge body carries a card opened from the gateway's card token, and in what shape, for the
   * suite's card (4111111111111111, ANA SOUZA, 01/2031, CVV 321, 2 installments) where its platform differs from the
   * family's `card` (the purchase platform's documented `creditCard`).
   */
  openedCardBody?: object;
  boletoBody?: (days: number) => object;
  /** How the member's charge body names a method, where its platform differs (F2: upper case, `PIX`). */
  methodName?: (method: 'pix' | 'boleto' | 'credit_card') => string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const PIX_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***63041D3D';

/** The family's canned answers (Active Merchant style): what these white-label gateways send back. */
const DIALECT = {
  pixCreated: (amount: unknown) => ({
    id: 98765,
    status: 'waiting_payment',
    amount,
    paymentMethod: 'pix',
    pix: { qrcode: PIX_CODE, expirationDate: '2025-03-11T12:00:00.000Z' },
  }),
  boletoCreated: (amount: unknown) => ({
    id: 'bol_1',
    status: 'waiting_payment',
    amount,
    paymentMethod: 'boleto',
    boleto: { url: 'https://p.example/b/bol_1.pdf', digitableLine: '23790123456789012345678901234567890123456789012' },
  }),
  cardPaid: (amount: unknown) => ({ id: 'cc_1', status: 'paid', amount, paymentMethod: 'credit_card' }),
  refunded: (amount: unknown) => ({ id: 98765, status: 'refunded', amount, refunds: [{ id: 'rf_1', amount }] }),
  withdrawalCreated: (amount: unknown) => ({ id: 'wd_1', status: 'processing', amount }),
};

/**
 * The transactions API family's conformance suite: every member runs it with
 * its declaration, so the family's behaviour is tested once and each member's
 * own test holds only what is specific to it. What a member declares (paths,
 * money unit, expiry, statuses, fixed failure texts, capabilities) decides
 * what the suite expects.
 */
export function transactionsApiConformance(member: TransactionsApiMember, fixtures: TransactionsApiFixtures): void {
  const id = member.identity.id;
  const paths = { ...TRANSACTIONS_API_PATHS, ...member.paths };
  const capabilities = capabilitiesOf(member.capabilities);
  const answers = { ...DIALECT, ...fixtures.answers };
  const unit = (cents: number) => (member.money === 'reais' ? centsToReais(cents) : cents);
  const table = declaredStatusTable(TRANSACTIONS_API_STATUSES, member.statuses?.transaction);
  const withdrawalTable = declaredStatusTable(TRANSACTIONS_API_WITHDRAWAL_STATUSES, member.statuses?.withdrawal);
  const pixDays = wholeDays(member.expiry?.pixSeconds ?? SECONDS_PER_DAY);
  const boletoDays = wholeDays(member.expiry?.boletoSeconds ?? 3 * SECONDS_PER_DAY);
  const fixed = member.failures ?? {};
  /** The member's declared prefix of an operation's failures, else the common one. */
  const prefix = (operation: 'createTransaction' | 'getTransaction' | 'refoundTransaction' | 'withdraw', common: string) => {
    const declared = member.failurePrefixes?.[operation];
    return declared ? FAILURE_PREFIXES[declared] : common;
  };
  const readPrefix = prefix('getTransaction', FAILURE_PREFIXES.GET_TRANSACTION);
  const h = providerHarness({ create: (runtime) => fixtures.create?.(runtime) ?? new TransactionsApiAdapter(member, runtime), account: () => fixtures.keys });
  /** A body expectation, unless the member builds its own bodies. */
  const bodyOf = <T>(matcher: T): { body?: T } => (fixtures.ownBodies ? {} : { body: matcher });
  /** What a failure must be: its code, and its words unless the member has its own. */
  const expected = (outcome: { code: string; message: unknown }) => (fixtures.ownFailureWording ? { code: outcome.code } : outcome);
  /**
   * The kit's one bad-answer failure (an answer its schema refuses, outcome unknown) under an operation's texts:
   * the declared fixed text, else '<prefix>: resposta do provedor em formato inesperado (<field at fault>)'.
   */
  const badAnswer = (fixedText: CatalogueKey | undefined, prefixText: string) =>
    fixedText
      ? CATALOGUE[fixedText].message
      : expect.stringMatching(new RegExp(`^${escapeRegExp(prefixText)}: resposta do provedor em formato inesperado \\(.+\\)$`));
  const failed = async (promise: Promise<unknown>) => {
    const outcome = await failure(promise);
    return fixtures.ownFailureWording ? { code: outcome.code } : outcome;
  };
  const auth = fixtures.authHeaders;
  const path = (template: string, value: string) => template.replace('{id}', encodeURIComponent(value));

  describe(`${id}: the transactions API family`, () => {
    it('offers exactly the operations its capabilities declare; the others reject with the spec text and send nothing', async () => {
      expect(h.adapter.identity.id).toBe(id);
      expect(h.adapter.operations).toEqual(operationsOf(capabilities));
      await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake, member.notOffered);
      expect(h.adapter.verifyNotification(h.ctx, notification({}))).toBe('unsigned');
    });

    const unoffered = (['PIX', 'CREDIT_CARD', 'BILLET'] as PaymentMethod[]).filter((method) => !capabilities.paymentMethods.includes(method));
    if (unoffered.length)
      it.each(unoffered.map((method) => [method]))('refuses %s, a method it does not offer, before calling', async (method) => {
        const error = await failure(h.adapter.createTransaction(h.ctx, input({ paymentMethod: method, cardId: 'card_1' })));
        expect(error.code).toBe('UNIMPLEMENTED');
        expect(h.fake.received).toHaveLength(0);
      });

    if (capabilities.paymentMethods.includes('PIX'))
      it(`creates a PIX charge: POST ${paths.create}, valid ${pixDays} day(s), the sidecar as postback URL; answers the code and its QR image`, async () => {
        h.fake.expect({
          method: 'POST',
          path: paths.create,
          headers: auth,
          ...bodyOf(
            partial({
              amount: unit(1990),
              paymentMethod: fixtures.methodName?.('pix') ?? 'pix',
              pix: { expiresInDays: pixDays },
              postbackUrl: h.ctx.notificationUrl,
              externalRef: 'order-77',
            }),
          ),
          reply: { body: answers.pixCreated(unit(1990)) },
        });
        expect(await h.adapter.createTransaction(h.ctx, input())).toEqual({
          paymentMethod: 'PIX',
          transactionId: '98765',
          status: table.entries.waiting_payment ?? table.unknown,
          amount: 1990,
          pixCode: PIX_CODE,
          expiresAt: new Date('2025-03-11T12:00:00.000Z'),
        });
      });

    if (capabilities.paymentMethods.includes('BILLET'))
      it(`creates a boleto valid ${boletoDays} day(s); without the provider's date the expiry counts from now`, async () => {
        h.fake.expect({
          method: 'POST',
          path: paths.create,
          headers: auth,
          ...bodyOf(
            partial({ paymentMethod: fixtures.methodName?.('boleto') ?? 'boleto', boleto: fixtures.boletoBody?.(boletoDays) ?? { expiresInDays: boletoDays } }),
          ),
          reply: { status: 201, body: answers.boletoCreated(unit(123456)) },
        });
        expect(await h.adapter.createTransaction(h.ctx, input({ amount: 123456, paymentMethod: 'BILLET', items: [] }))).toMatchObject({
          paymentMethod: 'BILLET',
          transactionId: 'bol_1',
          amount: 123456,
          billetCode: '23790123456789012345678901234567890123456789012',
          billetUrl: 'https://p.example/b/bol_1.pdf',
          expiresAt: new Date(NOW.getTime() + boletoDays * SECONDS_PER_DAY * 1000),
        });
      });

    if (capabilities.paymentMethods.includes('CREDIT_CARD')) {
      it('charges a card by card id and installments, and refuses one without a card id before calling', async () => {
        h.fake.expect({
          method: 'POST',
          path: paths.create,
          headers: auth,
          ...bodyOf(
            partial({
              paymentMethod: fixtures.methodName?.('credit_card') ?? 'credit_card',
              installments: 3,
              card: fixtures.cardBody?.('card_abc') ?? { id: 'card_abc' },
            }),
          ),
          reply: { body: answers.cardPaid(unit(7000)) },
        });
        expect(await h.adapter.createTransaction(h.ctx, input({ amount: 7000, paymentMethod: 'CREDIT_CARD', cardId: 'card_abc', installments: 3 }))).toEqual({
          paymentMethod: 'CREDIT_CARD',
          transactionId: 'cc_1',
          status: table.entries.paid,
          amount: 7000,
        });
        expect(await failure(h.adapter.createTransaction(h.ctx, input({ paymentMethod: 'CREDIT_CARD' })))).toEqual({
          code: 'INVALID_ARGUMENT',
          message: CATALOGUE[fixed.missingCard ?? 'CARD_ID_REQUIRED'].message,
        });
      });
    }

    if (capabilities.paymentMethods.includes('CREDIT_CARD') && !capabilities.cardTokens) {
      it("charges a card opened from the gateway's card token in the family's card body, never the token, where the member takes card data", async () => {
        if (!h.adapter.takesCardData(h.ctx)) {
          // Only a member whose charge names the card by a reference of its own (F1's hash, the purchase body's token) opts out.
          expect(Boolean(fixtures.cardBody ?? fixtures.ownBodies)).toBe(true);
          return;
        }
        h.fake.expect({ method: 'POST', path: paths.create, headers: auth, reply: { body: answers.cardPaid(unit(7000)) } });
        const card = { cardNumber: '4111111111111111', holderName: 'ANA SOUZA', holderDocument: '123.456.789-09', expMonth: '01', expYear: '2031', cvv: '321' };
        const token = 'gct_v1.not-sent';
        const result = await h.adapter.createTransaction(h.ctx, input({ amount: 7000, paymentMethod: 'CREDIT_CARD', cardId: token, card, installments: 2 }));
        expect(result).toMatchObject({ transactionId: 'cc_1', amount: 7000 });
        const sent = h.fake.received.at(-1)!;
        // Doc 1 §7's card body (number, holderName, expirationMonth, expirationYear, cvv), the number as digits (§5), the year four digits.
        const familyCard = {
          card: { number: '4111111111111111', holderName: 'ANA SOUZA', holderDocument: '12345678909', expirationMonth: 1, expirationYear: 2031, cvv: '321' },
        };
        const expected: Record<string, unknown> = { ...(fixtures.openedCardBody ?? familyCard) };
        const body = sent.body as Record<string, unknown>;
        for (const field of Object.keys(expected)) expect({ [field]: body[field] }).toEqual({ [field]: expected[field] });
        expect(sent.rawBody).not.toContain(token);
      });
    }

    const createFailure = (text: string) => failureText(fixed.createTransaction, prefix('createTransaction', FAILURE_PREFIXES.CREATE_TRANSACTION), text);
    it.each([
      [400, { message: 'customer.document inválido' }, 'INVALID_ARGUMENT', 'customer.document inválido'],
      [401, { error: 'Unauthorized' }, 'FAILED_PRECONDITION', 'Unauthorized'],
      [502, { message: 'Bad gateway' }, 'UNAVAILABLE', 'Bad gateway'],
    ])('a %i on create is %s with its message, sent once', async (status, body, code, text) => {
      h.fake.expect({ method: 'POST', path: paths.create, reply: { status, body } });
      expect(await failed(h.adapter.createTransaction(h.ctx, input({ paymentMethod: capabilities.paymentMethods[0]!, cardId: 'c' })))).toEqual(
        expected({
          code: String(code),
          message: createFailure(String(text)),
        }),
      );
      expect(h.fake.received).toHaveLength(1);
    });

    it('keeps the message of a failure inside a 2xx body; an answer without a transaction is UNAVAILABLE; a timeout is never a PENDING charge', async () => {
      const method = capabilities.paymentMethods[0]!;
      h.fake.expect({ method: 'POST', path: paths.create, reply: { body: { success: false, message: 'Saldo insuficiente' } } });
      expect(await failed(h.adapter.createTransaction(h.ctx, input({ paymentMethod: method, cardId: 'c' })))).toEqual(
        expected({
          code: 'INVALID_ARGUMENT',
          message: createFailure('Saldo insuficiente'),
        }),
      );
      h.fake.expect({ method: 'POST', path: paths.create, reply: { body: {} } });
      expect(await failed(h.adapter.createTransaction(h.ctx, input({ paymentMethod: method, cardId: 'c' })))).toEqual(
        expected({
          code: 'UNAVAILABLE',
          message: badAnswer(fixed.createTransaction, prefix('createTransaction', FAILURE_PREFIXES.CREATE_TRANSACTION)),
        }),
      );
      h.fake.expect({ method: 'POST', path: paths.create, reply: { delayMs: LATE_MS, body: {} } });
      expect(await failed(h.adapter.createTransaction(h.ctx, input({ paymentMethod: method, cardId: 'c' })))).toEqual(
        expected({
          code: 'UNAVAILABLE',
          message: createFailure(TIMEOUT_TEXT),
        }),
      );
    });

    /** What the caller's idempotency key becomes after a failure: freed (the provider refused) or held (it may have acted). */
    const outcomeAfter = async (promise: Promise<unknown>) => {
      try {
        await promise;
      } catch (error) {
        return { code: (error as GatewayError).code, outcome: outcomeOf(error) };
      }
      throw new Error('expected a failure');
    };

    it.each<[string, unknown]>([
      ['an HTML page', '<html><body>502 Bad Gateway</body></html>'],
      ['an id of the wrong type', { id: { value: 1 }, status: 'paid' }],
      ['a status of the wrong type', { id: 'tx_1', status: 7 }],
      ['an amount that is no money', { id: 'tx_1', status: 'paid', amount: 'R$ 10' }],
      ['a message without the refusal flag', { message: 'Transação criada' }],
    ])('a charge answered with %s is the one bad answer: UNAVAILABLE, outcome unknown (the key held), never a refusal', async (_label, body) => {
      h.fake.expect({ method: 'POST', path: paths.create, reply: { body } });
      expect(await outcomeAfter(h.adapter.createTransaction(h.ctx, input({ paymentMethod: capabilities.paymentMethods[0]!, cardId: 'c' })))).toEqual({
        code: 'UNAVAILABLE',
        outcome: 'unknown',
      });
    });

    it("a refusal in a 2xx body (success: false and the provider's message) frees the key: its outcome is known", async () => {
      h.fake.expect({ method: 'POST', path: paths.create, reply: { body: { success: false, message: 'Saldo insuficiente' } } });
      expect(await outcomeAfter(h.adapter.createTransaction(h.ctx, input({ paymentMethod: capabilities.paymentMethods[0]!, cardId: 'c' })))).toEqual({
        code: 'INVALID_ARGUMENT',
        outcome: 'failed',
      });
    });

    it('needs its credentials, and says so without calling the provider', async () => {
      const required = member.credentials?.required ?? [];
      for (const key of required) {
        expect(
          await failure(h.adapter.createTransaction({ ...h.ctx, [key]: '' }, input({ paymentMethod: capabilities.paymentMethods[0]!, cardId: 'c' }))),
        ).toEqual({ code: 'FAILED_PRECONDITION', message: member.credentials?.missing ? CATALOGUE[member.credentials.missing].message : `${key} is required` });
      }
      expect(h.fake.received).toHaveLength(0);
    });

    it.each(Object.entries(table.entries))(`reads GET ${paths.get}: %s → %s`, async (status, expected) => {
      h.fake.expect({
        method: 'GET',
        path: path(paths.get, 'tx/9'),
        headers: auth,
        reply: { body: { id: 'tx/9', status, amount: unit(500), paymentMethod: 'credit_card' } },
      });
      expect(await h.adapter.getTransaction(h.ctx, 'tx/9')).toEqual({ paymentMethod: 'CREDIT_CARD', transactionId: 'tx/9', status: expected, amount: 500 });
      expect(h.warn).not.toHaveBeenCalled();
    });

    it(`maps an unknown status to ${table.unknown} and logs a warning naming the provider`, async () => {
      h.fake.expect({
        method: 'GET',
        path: path(paths.get, 'tx_9'),
        reply: { body: { id: 'tx_9', status: 'in_analysis_xyz', amount: unit(500), paymentMethod: 'credit_card' } },
      });
      expect((await h.adapter.getTransaction(h.ctx, 'tx_9')).status).toBe(table.unknown);
      expect(h.warn).toHaveBeenCalledWith({ provider: id, providerStatus: 'in_analysis_xyz', mappedTo: table.unknown }, 'unknown provider transaction status');
    });

    it.each(GARBAGE_2XX_BODIES)('a read answer that is %s is an error, never a status', async (_label, body) => {
      h.fake.expect({ method: 'GET', path: path(paths.get, 'tx_g'), reply: { body } });
      await expect(h.adapter.getTransaction(h.ctx, 'tx_g')).rejects.toMatchObject(
        fixtures.ownFailureWording ? { code: expect.any(String) } : { message: expect.stringMatching(new RegExp(`^${readPrefix}: `)) },
      );
    });

    it('keeps a 404 as NOT_FOUND and a persistent 5xx as UNAVAILABLE after the read retries', async () => {
      h.fake.expect({ method: 'GET', path: path(paths.get, 'nope'), reply: { status: 404, body: { message: 'Transaction not found' } } });
      expect(await failed(h.adapter.getTransaction(h.ctx, 'nope'))).toEqual(expected({ code: 'NOT_FOUND', message: `${readPrefix}: Transaction not found` }));
      h.fake.expect({ method: 'GET', path: path(paths.get, 'tx_1'), times: 3, reply: { status: 503, body: { message: 'Service unavailable' } } });
      expect(await failed(h.adapter.getTransaction(h.ctx, 'tx_1'))).toEqual(expected({ code: 'UNAVAILABLE', message: `${readPrefix}: Service unavailable` }));
    });

    if (capabilities.refunds) {
      const { method, path: refundPath } = paths.refund;
      const refundFailure = (text: string) => failureText(fixed.refoundTransaction, prefix('refoundTransaction', FAILURE_PREFIXES.REFUND_TRANSACTION), text);
      it(`refunds by ${method} ${refundPath} with the amount in ${member.money}; a refusal in a 2xx body is status false`, async () => {
        h.fake.expect({
          method,
          path: path(refundPath, '98765'),
          headers: auth,
          body: fixtures.refundBody?.(unit(1990)) ?? partial({ amount: unit(1990) }),
          reply: { body: answers.refunded(unit(1990)) },
        });
        expect(await h.adapter.refoundTransaction(h.ctx, '98765', 1990)).toEqual({ refundId: 'rf_1', status: true });
        h.fake.expect({ method, path: path(refundPath, '98765'), reply: { body: { id: 98765, status: 'refused' } } });
        expect(await h.adapter.refoundTransaction(h.ctx, '98765', 500)).toEqual({
          refundId: '98765',
          status: false,
        });
      });

      it.each([
        [422, { message: 'Transação não pode ser estornada' }, 'INVALID_ARGUMENT', 'Transação não pode ser estornada'],
        [500, { message: 'boom' }, 'UNAVAILABLE', 'boom'],
      ])('a refund answered %i is %s', async (status, body, code, text) => {
        h.fake.expect({ method, path: path(refundPath, '98765'), reply: { status, body } });
        expect(await failed(h.adapter.refoundTransaction(h.ctx, '98765', 1990))).toEqual(
          expected({ code: String(code), message: refundFailure(String(text)) }),
        );
        if (fixed.refoundTransaction)
          expect(h.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: id, operation: 'refoundTransaction' }), 'refoundTransaction failed');
      });

      it.each(BODIES_WITHOUT_RESOURCE)('a 2xx refund answer that is %s is never "refunded": UNAVAILABLE', async (_label, body) => {
        h.fake.expect({ method, path: path(refundPath, '98765'), reply: { body } });
        expect(await failed(h.adapter.refoundTransaction(h.ctx, '98765', 1990))).toEqual(
          expected({
            code: 'UNAVAILABLE',
            message: badAnswer(fixed.refoundTransaction, prefix('refoundTransaction', FAILURE_PREFIXES.REFUND_TRANSACTION)),
          }),
        );
      });
    }

    if (capabilities.withdrawMethods.includes('PIX')) {
      it(`pays out by POST ${paths.withdraw} with the idempotency key; the answer's status through the payout table`, async () => {
        h.fake.expect({
          method: 'POST',
          path: paths.withdraw,
          headers: { ...auth, 'idempotency-key': 'idem-1' },
          ...bodyOf(
            partial(
              member.payoutBody === 'cashout'
                ? { pixkeytype: 'CPF', pixkey: '12345678909', requestedamount: 2500, isPix: true, postbackUrl: h.ctx.notificationUrl }
                : { amount: unit(2500), pixKey: '12345678909', pixKeyType: 'cpf', postbackUrl: h.ctx.notificationUrl },
            ),
          ),
          reply: { body: answers.withdrawalCreated(unit(2500)) },
        });
        expect(
          await h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: '123.456.789-09', pixType: 'CPF', idempotencyKey: 'idem-1' }),
        ).toEqual({
          withdrawId: 'wd_1',
          amount: 2500,
          status: lookupStatus(withdrawalTable, 'processing'),
        });
      });
    }

    if (member.withdrawKeyHeader) {
      const header = member.withdrawKeyHeader;
      const [secret, withdrawKey] = fixtures.keys.secretKey.split('|');
      it(`pays out with the account's withdraw key in ${header}, and refuses a payout without it before calling`, async () => {
        expect(withdrawKey).toBeTruthy();
        h.fake.expect({
          method: 'POST',
          path: paths.withdraw,
          headers: { ...auth, [header]: withdrawKey! },
          reply: { body: answers.withdrawalCreated(unit(100)) },
        });
        await h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 100, pixKey: 'a@b.c', pixType: 'EMAIL' });
        const withoutKey = { ...h.ctx, secretKey: secret! };
        expect(await failure(h.adapter.withdraw(withoutKey, { paymentMethod: 'PIX', amount: 100, pixKey: 'a@b.c', pixType: 'EMAIL' }))).toEqual({
          code: 'FAILED_PRECONDITION',
          message: `${id} payouts need the account's withdraw key (sent as ${header}): set the secret key as '<secret key>|<withdraw key>'`,
        });
        expect(h.fake.received).toHaveLength(1);
      });
    }

    if (capabilities.withdrawMethods.includes('PIX')) {
      it.each<[string, unknown]>([
        ['an empty object', {}],
        ['a status of the wrong type', { id: 'wd_1', status: ['processing'] }],
      ])('a payout answered with %s holds the key (outcome unknown), never a refusal or a payout', async (_label, body) => {
        h.fake.expect({ method: 'POST', path: paths.withdraw, reply: { body } });
        expect(await outcomeAfter(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: '123.456.789-09', pixType: 'CPF' }))).toEqual({
          code: 'UNAVAILABLE',
          outcome: 'unknown',
        });
      });
    }

    if (capabilities.savedCards) {
      // Doc 3 §7: "POST /cards/tokenize then POST /cards"; the card as §3 gives it (masked number, 2-digit year), sent as digits and 20YY.
      const card = { cardNumber: '4111 1111-1111 1111', holderName: 'ANA SOUZA', holderDocument: '123.456.789-09', expMonth: '01', expYear: '31', cvv: '321' };
      const tokenized = {
        method: 'POST',
        path: paths.cardToken,
        headers: auth,
        body: { number: '4111111111111111', holderName: 'ANA SOUZA', holderDocument: '12345678909', expirationMonth: 1, expirationYear: 2031, cvv: '321' },
      } as const;
      const savePrefix = CATALOGUE.SAVE_CARD_FAILED.message;

      it(`tokenises a card by POST ${paths.cardToken}, then saves it by POST ${paths.cardSave} {token}: the saved card's id is the card id`, async () => {
        h.fake.expect({ ...tokenized, reply: { body: { id: 'tok_1' } } });
        expect(await h.adapter.createCardToken(h.ctx, card)).toBe('tok_1');
        h.fake.expect({ ...tokenized, reply: { body: { token: 'tok_2' } } });
        h.fake.expect({
          method: 'POST',
          path: paths.cardSave,
          headers: auth,
          body: { token: 'tok_2' },
          reply: { status: 201, body: { id: 'card_9', token: 'tok_2' } },
        });
        expect(await h.adapter.createCardId(h.ctx, { card })).toBe('card_9');
        expect(h.fake.received.map((request) => request.path)).toEqual([paths.cardToken, paths.cardToken, paths.cardSave]);
      });

      it('saves a token the caller brings without tokenising again, and needs a token or a card', async () => {
        h.fake.expect({ method: 'POST', path: paths.cardSave, body: { token: 'tok_given' }, reply: { body: { data: { id: 'card_7' } } } });
        expect(await h.adapter.createCardId(h.ctx, { cardToken: 'tok_given' })).toBe('card_7');
        expect(await failure(h.adapter.createCardId(h.ctx, {}))).toEqual({ code: 'INVALID_ARGUMENT', message: 'card_token or card is required' });
        expect(h.fake.received).toHaveLength(1);
      });

      it.each([
        [200, { token: 'tok_given' }, 'UNAVAILABLE', undefined],
        [200, { success: false, message: 'Cartão recusado' }, 'INVALID_ARGUMENT', 'Cartão recusado'],
        [422, { message: 'Token expirado' }, 'INVALID_ARGUMENT', 'Token expirado'],
      ])('a save answered %i %j is %s, never a card id', async (status, body, code, text) => {
        h.fake.expect({ method: 'POST', path: paths.cardSave, reply: { status, body } });
        expect(await failed(h.adapter.createCardId(h.ctx, { cardToken: 'tok_given' }))).toEqual(
          expected({ code: String(code), message: text ? `${savePrefix}: ${text}` : badAnswer(undefined, savePrefix) }),
        );
      });

      it('a tokenising failure stops before saving', async () => {
        h.fake.expect({ method: 'POST', path: paths.cardToken, reply: { status: 400, body: { message: 'Cartão inválido' } } });
        expect(await failed(h.adapter.createCardId(h.ctx, { card }))).toEqual(
          expected({ code: 'INVALID_ARGUMENT', message: `${FAILURE_PREFIXES.CREATE_CARD_TOKEN}: Cartão inválido` }),
        );
        expect(h.fake.received).toHaveLength(1);
      });
    }

    if (capabilities.webhooks && !fixtures.ownNotifications) {
      if (member.eventStatuses) {
        const events = member.eventStatuses;
        it.each(Object.entries(events.table))('reads the status from the event: %s → %s', async (event, expected) => {
          expect(await h.adapter.processWebhook(h.ctx, notification({ event, data: { id: 'tx_e' } }))).toEqual({
            type: 'TRANSACTION',
            transactionId: 'tx_e',
            status: expected,
          });
        });
        it(`reads any other transaction event as ${events.unknown}`, async () => {
          expect(await h.adapter.processWebhook(h.ctx, notification({ event: 'transaction.created', data: { id: 'tx_e' } }))).toEqual({
            type: 'TRANSACTION',
            transactionId: 'tx_e',
            status: events.unknown,
          });
        });
      } else {
        it('reads the postback envelope, the data-only shape and the bare object through its table', async () => {
          const [status, expected] = Object.entries(table.entries)[0]!;
          const envelope = { id: 'pb_1', type: 'transaction', objectId: '98765', data: { id: 98765, status } };
          expect(await h.adapter.processWebhook(h.ctx, notification(envelope))).toEqual({ type: 'TRANSACTION', transactionId: '98765', status: expected });
          expect(await h.adapter.processWebhook(h.ctx, notification({ data: { id: 'tx_2', status } }))).toEqual({
            type: 'TRANSACTION',
            transactionId: 'tx_2',
            status: expected,
          });
          expect(await h.adapter.processWebhook(h.ctx, notification({ id: 'tx_3', status: 'mystery' }))).toEqual({
            type: 'TRANSACTION',
            transactionId: 'tx_3',
            status: table.unknown,
          });
        });
      }

      it('ignores events of other kinds and bodies it cannot use', async () => {
        for (const body of [
          '{not json',
          { hello: 'world' },
          ...(member.eventStatuses ? [] : [{ type: 'transaction', objectId: '1' }]),
          { type: 'subscription', data: { id: 1, status: 'paid' } },
        ]) {
          expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
        }
        const payout = await h.adapter.processWebhook(h.ctx, notification({ type: 'transfer', data: { id: 't_1', status: 'paid' } }));
        expect(payout).toEqual(
          capabilities.withdrawMethods.length ? { type: 'WITHDRAW', transactionId: 't_1', status: lookupStatus(withdrawalTable, 'paid') } : undefined,
        );
      });

      it('keys a notification by object id and status, so a re-delivery in a new envelope is a duplicate', () => {
        const key = (body: unknown) => h.adapter.notificationKey(h.ctx, notification(body));
        const first = key({ id: 'pb_1', type: 'transaction', objectId: '98765', data: { id: 98765, status: 'paid' } });
        expect(first).toBe('transaction:98765:paid');
        expect(key({ id: 'pb_2', type: 'transaction', data: { id: 98765, status: 'PAID', updatedAt: 'later' } })).toBe(first);
        expect(key({ data: { id: 98765, status: 'refunded' } })).toBe('transaction:98765:refunded');
        expect(key('{not json')).toMatch(/^sha256:[0-9a-f]{64}$/);
      });
    }
  });
}

/**
 * The F1 platform's charge bodies (platforms/f1.ts): a card by its hash, a boleto by its date, `days` Brazil days
 * after the suite's clock (NOW, noon UTC: the same day in Brazil).
 */
/** The F2 ("functions/v1") platform's charge bodies (platforms/f2.ts): methods named in upper case. */
export const F2_BODIES: Pick<TransactionsApiFixtures, 'methodName'> = { methodName: (method) => method.toUpperCase() };

export const F1_BODIES: Pick<TransactionsApiFixtures, 'cardBody' | 'boletoBody'> = {
  cardBody: (cardId) => ({ hash: cardId }),
  boletoBody: (days) => ({ expirationDate: new Date(NOW.getTime() + days * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10) }),
};

/** The statuses a member's table must map as the spec says (for the member's own test). */
export const statusOf = (member: TransactionsApiMember, status: string): TransactionStatus => {
  const table = declaredStatusTable(TRANSACTIONS_API_STATUSES, member.statuses?.transaction);
  return Object.hasOwn(table.entries, status.toLowerCase()) ? table.entries[status.toLowerCase()]! : table.unknown;
};
