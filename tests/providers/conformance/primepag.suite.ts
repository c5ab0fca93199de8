import { describe, expect, it } from '@jest/globals';
import type { Operation, PixKeyType, WebhookResult, WithdrawInput } from '../../../server/domain/types.js';
import { PIX_DEFAULT_EXPIRY_SECONDS } from '../../../server/lib/expiry.js';
import { FAILURE_PREFIXES, failureMessage } from '../../../server/lib/providerMessages.js';
import { declaredStatusTable, type StatusTable } from '../../../server/lib/statusTable.js';
import { capabilitiesOf, operationsOf } from '../../../server/providers/adapter.js';
import {
  PRIMEPAG_PATHS,
  PRIMEPAG_PAYMENT_STATUSES,
  PRIMEPAG_QR_CODE_STATUSES,
  PrimePagAdapter,
  type PrimePagMember,
} from '../../../server/providers/families/primepag/index.js';
import { fillPath } from '../../../server/providers/kit/declaration.js';
import { brCodeCrcIsValid } from '../../support/brCode.js';
import { GARBAGE_2XX_BODIES, type Expectation } from '../../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, notification, providerHarness, transactionInput, type Harness } from './harness.js';

/**
 * The PrimePag platform's conformance suite (research "G-B"; spec doc 2 §4/§7
 * for ZENDRY): what every member must do against a fake of the platform's API.
 * What the member declares decides what the suite expects: its paths, its PIX
 * validity, its status tables (the family's and its overrides) with their
 * unknown defaults, whether it pays out and is notified; the operations it
 * does not offer must reject with 'Method not implemented.'.
 *
 * A member's test calls it once with its declaration, its account keys and the
 * canned answers its brand gives differently, then tests only what the spec
 * says about it through the returned harness.
 */

/** The suite's charge is R$ 19,90 and its payout R$ 10,50: canned answers that carry amounts agree. */
const CHARGE_CENTS = 1990;
const PAYOUT_CENTS = 1050;

/** Canned answers keep the fields the platform sends that the family does not read. */
type MoreFields = Record<string, unknown>;

/** The platform's answers as its public integrations read them (what the fake sends, not what the adapter parses). */
interface QrCode {
  reference_code?: string;
  external_reference?: string;
  content?: string;
  image_base64?: string | null;
  status?: string;
  value_cents?: number | string;
  payment_date?: string;
  expires_at?: string;
}
interface Payment {
  reference_code?: string;
  id?: string | number;
  status?: string;
  value_cents?: number | string;
}

/** The answers the suite's fake gives; a member passes those its brand gives differently. */
export interface PrimePagAnswers {
  tokenResponse: { access_token: string } & MoreFields;
  /** POST /v1/pix/qrcodes: `{qrcode: {reference_code, content, image_base64}}`, with a valid BR Code. */
  createdQrCode: { qrcode: QrCode & { reference_code: string; content: string } } & MoreFields;
  /** GET /v1/pix/qrcodes/{id} once paid, for the same reference_code. */
  paidQrCode: QrCode & { status: string } & MoreFields;
  /** POST /v1/pix/payments: `{payment: {reference_code, status}}`. */
  createdPayment: { payment: Payment & { reference_code: string } } & MoreFields;
}

const REFERENCE_CODE = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const PAYOUT_REFERENCE = 'f9e8d7c6-b5a4-4938-8271-605f4e3d2c1b';
/**
 * A canceled payment's `cancellation_reason`. The field is the platform's (its "Payments Notifications" and "Consultar
 * Pagamento" pages, developers-stg.primepag.com.br), but those pages show it only as null: this text is invented.
 */
const CANCELLATION_REASON = 'Chave Pix inexistente (texto inventado)';

/** The platform's canned answers, as its public integrations read them. */
const DIALECT: PrimePagAnswers = {
  tokenResponse: { access_token: 'primepag-token', token_type: 'Bearer', expires_in: 600 },
  createdQrCode: {
    qrcode: {
      reference_code: REFERENCE_CODE,
      external_reference: 'order-77',
      content:
        '00020126810014br.gov.bcb.pix2559qrcode.primepag.example/v2/8f2e6d4c1b0a49e7a3c5d7f9e1b3a5c75204000053039865802BR5910LOJA TESTE6009SAO PAULO62070503***63048495',
      image_base64: 'iVBORw0KGgo=',
    },
  },
  paidQrCode: { reference_code: REFERENCE_CODE, status: 'paid', value_cents: CHARGE_CENTS, payment_date: '2025-03-10T12:05:00.000Z' },
  createdPayment: { payment: { reference_code: PAYOUT_REFERENCE, status: 'authorization_pending', value_cents: PAYOUT_CENTS } },
};

export interface PrimePagFixtures {
  /** The account's keys: publicKey the client_id, secretKey the client_secret. */
  keys: { clientId: string; clientSecret: string };
  answers?: Partial<PrimePagAnswers>;
}

/** Every entry of a status table (as the platform writes them, lower case) and a status it does not know, with the table's default. */
const statusCases = <S extends string>(table: StatusTable<S>): Array<[string, S]> => [...Object.entries(table.entries), ['status_nao_previsto', table.unknown]];

const WITHDRAWAL: WithdrawInput = {
  paymentMethod: 'PIX',
  amount: PAYOUT_CENTS,
  pixKey: '(11) 98765-4321',
  pixType: 'PHONE',
  idempotencyKey: 'idem-7c1e',
  withdrawReference: 'saque-42',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function primePagConformance(member: PrimePagMember, fixtures: PrimePagFixtures): Harness<PrimePagAdapter> {
  const { keys } = fixtures;
  const answers = { ...DIALECT, ...fixtures.answers };
  const id = member.identity.id;
  const paths = { ...PRIMEPAG_PATHS, ...member.paths };
  const capabilities = capabilitiesOf(member.capabilities);
  const operations = operationsOf(capabilities);
  const payouts = capabilities.withdrawMethods.includes('PIX');
  const qrCodeTable = declaredStatusTable(PRIMEPAG_QR_CODE_STATUSES, member.statuses?.transaction);
  const paymentTable = declaredStatusTable(PRIMEPAG_PAYMENT_STATUSES, member.statuses?.withdrawal);
  const referenceCode = answers.createdQrCode.qrcode.reference_code;
  const payoutReference = answers.createdPayment.payment.reference_code;
  const qrCodePath = fillPath(paths.qrCode, { id: referenceCode });
  const bearer = `Bearer ${answers.tokenResponse.access_token}`;
  const pixSeconds = member.expiry?.pixSeconds ?? PIX_DEFAULT_EXPIRY_SECONDS;
  const charge = transactionInput();

  const h = providerHarness({
    retry: false,
    create: (runtime) => new PrimePagAdapter(member, runtime),
    account: () => ({ publicKey: keys.clientId, secretKey: keys.clientSecret }),
  });

  /** The token exchange: Basic base64(client_id:client_secret), JSON {grant_type}; this test's account takes one on its first call. */
  const withToken = () =>
    h.fake.expect({
      method: 'POST',
      path: '/auth/generate_token',
      headers: {
        authorization: `Basic ${Buffer.from(`${keys.clientId}:${keys.clientSecret}`).toString('base64')}`,
        'content-type': /^application\/json/,
      },
      body: { grant_type: 'client_credentials' },
      reply: { body: answers.tokenResponse },
    });

  describe(`${id}: the PrimePag platform`, () => {
    it('offers exactly the operations its capabilities declare; the others reject with the spec text and send nothing', async () => {
      expect(h.adapter.identity).toEqual({ ...member.identity, aliases: member.identity.aliases ?? [] });
      expect(h.adapter.operations).toEqual(operations);
      await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
      expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD' })))).code).toBe('UNIMPLEMENTED');
    });

    it('refuses a declaration the platform cannot serve: reais, card or boleto charges, refunds, payout lookups', () => {
      const refused: Array<Partial<PrimePagMember>> = [
        { money: 'reais' },
        { capabilities: { ...member.capabilities, paymentMethods: ['PIX', 'BILLET'] } },
        { capabilities: { ...member.capabilities, withdrawMethods: ['BANK_ACCOUNT'] } },
        { capabilities: { ...member.capabilities, refunds: true } },
        { capabilities: { ...member.capabilities, withdrawalLookup: true } },
      ];
      for (const change of refused) expect(() => new PrimePagAdapter({ ...member, ...change })).toThrow(id);
    });

    it(`takes one token, creates the QR code by POST ${paths.qrCodes} (cents, seconds, payer, order id) and reads it back by GET`, async () => {
      const token = withToken();
      h.fake.expect({
        method: 'POST',
        path: paths.qrCodes,
        headers: { authorization: bearer },
        body: {
          value_cents: CHARGE_CENTS,
          generator_name: 'Ana Souza',
          generator_document: '12345678909',
          expiration_time: pixSeconds,
          external_reference: 'order-77',
        },
        reply: { status: 201, body: answers.createdQrCode },
      });
      h.fake.expect({ method: 'GET', path: qrCodePath, headers: { authorization: bearer }, reply: { body: answers.paidQrCode } });

      const created = await h.adapter.createTransaction(h.ctx, charge);
      expect(created).toEqual({
        paymentMethod: 'PIX',
        transactionId: referenceCode,
        status: 'PENDING',
        amount: CHARGE_CENTS,
        pixCode: answers.createdQrCode.qrcode.content,
        expiresAt: new Date(NOW.getTime() + pixSeconds * 1000),
      });
      expect(brCodeCrcIsValid(created.pixCode!)).toBe(true);
      await expect(h.adapter.getTransaction(h.ctx, referenceCode)).resolves.toMatchObject({
        transactionId: referenceCode,
        status: qrCodeTable.entries[answers.paidQrCode.status.toLowerCase()] ?? qrCodeTable.unknown,
        amount: CHARGE_CENTS,
      });
      expect(token.calls).toHaveLength(1);
    });

    it('sends a charge without a customer or an order id with only the amount and validity', async () => {
      withToken();
      h.fake.expect({
        method: 'POST',
        path: paths.qrCodes,
        body: { value_cents: CHARGE_CENTS, expiration_time: pixSeconds },
        reply: { status: 201, body: answers.createdQrCode },
      });
      await expect(h.adapter.createTransaction(h.ctx, { ...charge, customer: undefined, orderId: undefined })).resolves.toMatchObject({
        transactionId: referenceCode,
      });
    });

    it.each(statusCases(qrCodeTable))(`GET ${paths.qrCode} answering %s is %s (wrapped in qrcode or bare)`, async (status, expected) => {
      withToken();
      h.fake.expect({ method: 'GET', path: qrCodePath, reply: { body: { qrcode: { ...answers.paidQrCode, status } } } });
      h.fake.expect({ method: 'GET', path: qrCodePath, reply: { body: { ...answers.paidQrCode, status } } });
      for (let read = 0; read < 2; read += 1)
        await expect(h.adapter.getTransaction(h.ctx, referenceCode)).resolves.toMatchObject({ transactionId: referenceCode, status: expected });
      if (status === 'status_nao_previsto')
        expect(h.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: id, providerStatus: status }), expect.any(String));
    });

    it("a refused token is the account's configuration at fault, under the operation's prefix, and nothing else is sent", async () => {
      h.fake.expect({ method: 'POST', path: '/auth/generate_token', reply: { status: 401, body: { error: 'invalid_client' } } });
      expect(await failure(h.adapter.getTransaction(h.ctx, referenceCode))).toEqual({
        code: 'FAILED_PRECONDITION',
        message: failureMessage.GET_TRANSACTION('invalid_client'),
      });
      expect(h.fake.received).toHaveLength(1);
    });

    it("keeps the provider's message of a 4xx under the prefix; a 5xx is UNAVAILABLE; a QR code without its BR Code is no charge", async () => {
      withToken();
      h.fake.expect({ method: 'POST', path: paths.qrCodes, reply: { status: 422, body: { message: 'value_cents inválido' } } });
      expect(await failure(h.adapter.createTransaction(h.ctx, charge))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: failureMessage.CREATE_TRANSACTION('value_cents inválido'),
      });
      h.fake.expect({ method: 'GET', path: qrCodePath, reply: { status: 503, body: { message: 'Service Unavailable' } } });
      expect(await failure(h.adapter.getTransaction(h.ctx, referenceCode))).toMatchObject({ code: 'UNAVAILABLE' });
      const { qrcode } = answers.createdQrCode;
      h.fake.expect({ method: 'POST', path: paths.qrCodes, reply: { status: 201, body: { qrcode: { ...qrcode, content: undefined } } } });
      expect(await failure(h.adapter.createTransaction(h.ctx, charge))).toEqual({
        code: 'UNAVAILABLE',
        message: failureMessage.CREATE_TRANSACTION('resposta do provedor em formato inesperado (content: esperado string)'),
      });
    });

    if (payouts) {
      const payoutBody = (pixKeyType: string, pixKey: string, idempotentId: unknown = WITHDRAWAL.idempotencyKey) => ({
        value_cents: PAYOUT_CENTS,
        initiation_type: 'dict',
        idempotent_id: idempotentId,
        pix_key_type: pixKeyType,
        pix_key: pixKey,
        authorized: true,
      });

      it(`pays out by POST ${paths.payments}: cents, the DICT, the caller's idempotency key, a +55 phone, authorised at once`, async () => {
        withToken();
        h.fake.expect({
          method: 'POST',
          path: paths.payments,
          headers: { authorization: bearer },
          body: payoutBody('phone', '+5511987654321'),
          reply: { status: 201, body: answers.createdPayment },
        });
        await expect(h.adapter.withdraw(h.ctx, WITHDRAWAL)).resolves.toEqual({
          withdrawId: payoutReference,
          amount: PAYOUT_CENTS,
          status: paymentTable.entries[answers.createdPayment.payment.status?.toLowerCase() ?? ''] ?? 'PENDING',
        });
      });

      it.each<[PixKeyType, string, string, string]>([
        ['CPF', '123.456.789-09', 'cpf', '12345678909'],
        ['CNPJ', '12.345.678/0001-95', 'cnpj', '12345678000195'],
        ['EMAIL', 'Ana@Example.com', 'email', 'Ana@Example.com'],
        ['RANDOM', '123e4567-e89b-12d3-a456-426614174000', 'token', '123e4567-e89b-12d3-a456-426614174000'],
      ])('the %s key %p is pix_key_type %s, pix_key %p; without an idempotency key, the withdrawReference', async (pixType, pixKey, type, key) => {
        withToken();
        h.fake.expect({ method: 'POST', path: paths.payments, body: payoutBody(type, key, 'saque-42'), reply: { body: answers.createdPayment } });
        await expect(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, pixType, pixKey, idempotencyKey: undefined })).resolves.toMatchObject({
          withdrawId: payoutReference,
        });
      });

      it('without an idempotency key or a reference, a fresh UUID is the idempotent_id', async () => {
        withToken();
        const made = h.fake.expect({ method: 'POST', path: paths.payments, reply: { body: answers.createdPayment } });
        await h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, idempotencyKey: undefined, withdrawReference: undefined });
        expect((made.calls[0]!.body as { idempotent_id: string }).idempotent_id).toMatch(UUID);
      });

      it.each(statusCases(paymentTable))(`a payout answered %s is %s (unknown: never falsely failed)`, async (status, expected) => {
        withToken();
        h.fake.expect({ method: 'POST', path: paths.payments, reply: { body: { payment: { ...answers.createdPayment.payment, status } } } });
        await expect(h.adapter.withdraw(h.ctx, WITHDRAWAL)).resolves.toMatchObject({ withdrawId: payoutReference, status: expected });
      });

      it('a payout answered canceled keeps its cancellation_reason as the refusal reason; one that went through keeps none', async () => {
        withToken(); // one token serves the four payouts
        const answered = async (status: string, reason: unknown) => {
          const payment = { ...answers.createdPayment.payment, status, cancellation_date: null, cancellation_reason: reason };
          h.fake.expect({ method: 'POST', path: paths.payments, reply: { body: { payment } } });
          return h.adapter.withdraw(h.ctx, WITHDRAWAL);
        };
        expect(await answered('canceled', CANCELLATION_REASON)).toMatchObject({ status: 'CANCELED', refusalReason: CANCELLATION_REASON });
        expect(await answered('completed', CANCELLATION_REASON)).not.toHaveProperty('refusalReason');
        // As the pages show it (null), or a shape that is no text: no reason, and the answer still reads.
        expect(await answered('canceled', null)).not.toHaveProperty('refusalReason');
        expect(await answered('canceled', { code: 1 })).toMatchObject({ status: 'CANCELED' });
      });

      it("refuses payouts other than PIX ('Método de saque não implementado') and PIX without a key or its type, sending nothing", async () => {
        expect(await failure(h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, paymentMethod: 'BANK_ACCOUNT' }))).toEqual({
          code: 'UNIMPLEMENTED',
          message: 'Método de saque não implementado',
        });
        for (const input of [
          { ...WITHDRAWAL, pixKey: '' },
          { ...WITHDRAWAL, pixType: undefined },
        ])
          expect((await failure(h.adapter.withdraw(h.ctx, input))).code).toBe('INVALID_ARGUMENT');
        expect(h.fake.received).toHaveLength(0);
      });
    }

    describe('a 2xx answer that is not the resource is UNAVAILABLE, never a status or a success', () => {
      type Call = [Operation, Omit<Expectation, 'reply'>, string, () => Promise<unknown>, unreadableAmount: unknown];
      const calls: Call[] = [
        [
          'createTransaction',
          { method: 'POST', path: paths.qrCodes },
          FAILURE_PREFIXES.CREATE_TRANSACTION,
          () => h.adapter.createTransaction(h.ctx, charge),
          { qrcode: { ...answers.createdQrCode.qrcode, value_cents: 'dezenove' } },
        ],
        [
          'getTransaction',
          { method: 'GET', path: qrCodePath },
          FAILURE_PREFIXES.GET_TRANSACTION,
          () => h.adapter.getTransaction(h.ctx, referenceCode),
          { ...answers.paidQrCode, value_cents: 'dezenove' },
        ],
        [
          'withdraw',
          { method: 'POST', path: paths.payments },
          FAILURE_PREFIXES.WITHDRAW,
          () => h.adapter.withdraw(h.ctx, WITHDRAWAL),
          { payment: { ...answers.createdPayment.payment, value_cents: 'dez' } },
        ],
      ];
      const cases = calls
        .filter(([operation]) => operations.includes(operation))
        .flatMap(([operation, request, prefix, call, unreadableAmount]) =>
          [...GARBAGE_2XX_BODIES, ['an unreadable amount', unreadableAmount] as const].map(
            ([label, body]) => [operation, label, request, prefix, call, body] as const,
          ),
        );
      it.each(cases)('%s answered with %s', async (_operation, _label, request, prefix, call, body) => {
        withToken();
        h.fake.expect({ ...request, reply: { body } });
        const { code, message } = await failure(call());
        expect([code, message.startsWith(`${prefix}: resposta do provedor em formato inesperado (`)]).toEqual(['UNAVAILABLE', true]);
      });

      it('an amount that is no whole number of cents is UNAVAILABLE, never INTERNAL and never a status', async () => {
        withToken();
        h.fake.expect({ method: 'GET', path: qrCodePath, reply: { body: { ...answers.paidQrCode, value_cents: 1990.5 } } });
        expect(await failure(h.adapter.getTransaction(h.ctx, referenceCode))).toEqual({
          code: 'UNAVAILABLE',
          message: `${FAILURE_PREFIXES.GET_TRANSACTION}: resposta do provedor sem value_cents em centavos`,
        });
      });
    });

    if (capabilities.webhooks) {
      describe('notifications: unsigned (the gateway confirms with GET), keyed by reference_code and status', () => {
        const delivery = (type: string, message: object) => ({
          notification_type: type,
          message: { value_cents: CHARGE_CENTS, end_to_end: 'E18236120202503101205s0f3c2a9e5b7', ...message },
          md5: '0f343b0931126a20f133d67c2b018a3b',
        });
        const charged = (status: string): [string, unknown, WebhookResult | undefined] => [
          `pix_qrcode ${status}`,
          delivery('pix_qrcode', { reference_code: referenceCode, status }),
          { type: 'TRANSACTION', transactionId: referenceCode, status: qrCodeTable.entries[status] ?? qrCodeTable.unknown },
        ];
        const paid = (status: string): [string, unknown, WebhookResult | undefined] => [
          `pix_payment ${status}${payouts ? '' : ' (no payouts: ignored)'}`,
          delivery('pix_payment', { reference_code: payoutReference, status }),
          payouts ? { type: 'WITHDRAW', transactionId: payoutReference, status: paymentTable.entries[status] ?? paymentTable.unknown } : undefined,
        ];
        const cases: Array<[string, unknown, WebhookResult | undefined]> = [
          ...[...Object.keys(qrCodeTable.entries), 'status_nao_previsto'].map(charged),
          ...[...Object.keys(paymentTable.entries), 'status_nao_previsto'].map(paid),
          ['a static QR code (pix_static_qrcode)', delivery('pix_static_qrcode', { reference_code: 'st-1', status: 'paid' }), undefined],
          ...['not json', '', 'null', '[]', '{"notification_type":"pix_qrcode"}', '{"notification_type":"pix_qrcode","message":{"status":"paid"}}'].map(
            (body): [string, unknown, undefined] => [`a body that cannot be read or names nothing: ${body || '(empty)'}`, body, undefined],
          ),
          ['a message without a status', delivery('pix_qrcode', { reference_code: referenceCode }), undefined],
        ];
        it.each(cases)('%s', async (_label, body, expected) => {
          await expect(h.adapter.processWebhook(h.ctx, notification(body))).resolves.toEqual(expected);
        });

        if (payouts) {
          it("a pix_payment canceled with a cancellation_reason: the payout's refusal reason; completed or null: none", async () => {
            const told = (status: string, reason: unknown) =>
              h.adapter.processWebhook(
                h.ctx,
                notification(delivery('pix_payment', { reference_code: payoutReference, status, cancellation_date: null, cancellation_reason: reason })),
              );
            await expect(told('canceled', CANCELLATION_REASON)).resolves.toEqual({
              type: 'WITHDRAW',
              transactionId: payoutReference,
              status: 'CANCELED',
              refusalReason: CANCELLATION_REASON,
            });
            await expect(told('completed', CANCELLATION_REASON)).resolves.toEqual({ type: 'WITHDRAW', transactionId: payoutReference, status: 'APPROVED' });
            await expect(told('canceled', null)).resolves.toEqual({ type: 'WITHDRAW', transactionId: payoutReference, status: 'CANCELED' });
            await expect(told('canceled', ['not', 'text'])).resolves.toEqual({ type: 'WITHDRAW', transactionId: payoutReference, status: 'CANCELED' });
          });
        }

        it('keys tell a re-delivery (same key) from a status change; the md5 field is not a signature the gateway checks', () => {
          const key = (body: unknown) => h.adapter.notificationKey(h.ctx, notification(body));
          const paidQr = delivery('pix_qrcode', { reference_code: referenceCode, status: 'paid' });
          expect(h.adapter.verifyNotification(h.ctx, notification(paidQr))).toBe('unsigned');
          expect(h.adapter.verifyNotification({ ...h.ctx, webhookSecret: 'segredo' }, notification({ ...paidQr, md5: 'forjado' }))).toBe('unsigned');
          expect(key(paidQr)).toBe(`pix_qrcode:${referenceCode}:paid`);
          expect(key({ ...paidQr, md5: 'other' })).toBe(key(paidQr));
          expect(key(delivery('pix_qrcode', { reference_code: referenceCode, status: 'awaiting_payment' }))).not.toBe(key(paidQr));
          expect(key('not json')).toMatch(/^sha256:[0-9a-f]{64}$/);
        });
      });
    }
  });

  return h;
}
