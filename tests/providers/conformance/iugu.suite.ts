import { describe, expect, it } from '@jest/globals';
import type { PaymentMethod } from '../../../server/domain/types.js';
import { BOLETO_DEFAULT_EXPIRY_SECONDS, PIX_DEFAULT_EXPIRY_SECONDS } from '../../../server/lib/expiry.js';
import { FAILURE_PREFIXES } from '../../../server/lib/providerMessages.js';
import { declaredStatusTable } from '../../../server/lib/statusTable.js';
import { capabilitiesOf, operationsOf } from '../../../server/providers/adapter.js';
import {
  IUGU_INVOICE_EVENTS,
  IUGU_PATHS,
  IUGU_STATUSES,
  IuguAdapter,
  endOfDueDate,
  iuguChargeKey,
  iuguDueDate,
  type IuguMember,
} from '../../../server/providers/families/iugu/index.js';
import { BODIES_WITHOUT_RESOURCE, GARBAGE_2XX_BODIES, absent, partial } from '../../support/fakeProvider.js';
import {
  LATE_MS,
  NOW,
  TIMEOUT_TEXT,
  expectUnsupportedOperationsRejected,
  failure,
  failureText,
  notification,
  providerHarness,
  transactionInput as input,
  type Harness,
} from './harness.js';

/**
 * The Iugu family's conformance suite (Iugu API v1; spec doc 2 §4, §7, §8 for
 * IUGUBAAS): every member runs it with its declaration, so the family's
 * behaviour is tested once. What the member declares decides what the suite
 * expects: paths, PIX and boleto validity (as due dates), its status table and
 * unknown default, the fixed texts of its failures, the triggers it reads, the
 * operations its capabilities offer and the rejection of the others.
 */

const PIX_CODE = '00020101021226790014br.gov.bcb.pix2557qr.iugu.com/public/payload/v2/9F3A1C2B5204000053039865406019.905802BR5904IUGU6009SAO PAULO63046D1A';
const LINE = '23793.38128 60000.000003 00000.000400 1 99870000123456';

/** An invoice as Iugu writes it (Criar Fatura's answer), the fields the suite reads back. */
interface InvoiceAnswer {
  id: string;
  status: string;
  total_cents?: number | string;
  due_date?: string;
  secure_url?: string;
  payable_with?: string | string[];
  payment_method?: string | null;
  pix?: { qrcode?: string; qrcode_text?: string } | null;
  bank_slip?: { digitable_line?: string; barcode_data?: string; bank_slip_url?: string; bank_slip_pdf_url?: string } | null;
}

/** The answers a member's API gives (dev.iugu.com: invoice, direct charge, payment token); a member passes those that differ. */
export interface IuguAnswers {
  pixInvoice: InvoiceAnswer;
  boletoInvoice: InvoiceAnswer;
  cardInvoice: InvoiceAnswer;
  chargeApproved: { success: boolean; message?: string; invoice_id?: string; LR?: string };
  chargeDeclined: { success: boolean; message?: string; invoice_id?: string; LR?: string };
  refundedInvoice: InvoiceAnswer;
  paymentToken: { id: string } & Record<string, unknown>;
}

const DIALECT: IuguAnswers = {
  pixInvoice: {
    id: '9F3A1C2B4D5E6F708192A3B4C5D6E7F8',
    status: 'pending',
    total_cents: 1990,
    due_date: '2025-03-11',
    secure_url: 'https://faturas.iugu.com/9f3a1c2b',
    payable_with: 'pix',
    pix: { qrcode: 'https://qr.iugu.com/public/v1/qr_codes/image/9F3A1C2B', qrcode_text: PIX_CODE },
    bank_slip: null,
  },
  boletoInvoice: {
    id: 'B0LET0000000000000000000000000001',
    status: 'pending',
    total_cents: 123456,
    due_date: '2025-03-13',
    secure_url: 'https://faturas.iugu.com/b0let0',
    payable_with: 'bank_slip',
    bank_slip: {
      digitable_line: LINE,
      barcode_data: '23791998700001234563381260000000000000000040',
      bank_slip_url: 'https://faturas.iugu.com/b0let0.bank_slip',
      bank_slip_pdf_url: 'https://faturas.iugu.com/b0let0.pdf',
    },
  },
  cardInvoice: { id: 'C4RD0000000000000000000000000001', status: 'pending', total_cents: 7000, payable_with: 'credit_card' },
  chargeApproved: { success: true, message: 'Autorizado', invoice_id: 'C4RD0000000000000000000000000001', LR: '00' },
  chargeDeclined: { success: false, message: 'Transação negada', invoice_id: 'C4RD0000000000000000000000000001', LR: '05' },
  refundedInvoice: { id: '9F3A1C2B4D5E6F708192A3B4C5D6E7F8', status: 'refunded', total_cents: 1990, payment_method: 'iugu_pix' },
  paymentToken: { id: '77c6e7b6-4c2a-4d2f-9d8e-2a1b3c4d5e6f', method: 'credit_card', extra_info: { brand: 'VISA', display_number: 'XXXX-XXXX-XXXX-1111' } },
};

export interface IuguFixtures {
  /** The account: the public key is Iugu's account id, the secret key the API token. */
  keys: { publicKey: string; secretKey: string };
  answers?: Partial<IuguAnswers>;
}

const CARD = { cardNumber: '4111 1111 1111 1111', holderName: 'Ana Maria Souza', holderDocument: '12345678909', expMonth: '3', expYear: '30', cvv: '123' };

/** A trigger as Iugu posts it: a form. */
export const trigger = (fields: Record<string, string>) => ({
  body: Buffer.from(new URLSearchParams(fields).toString()),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

export function iuguConformance(member: IuguMember, fixtures: IuguFixtures): Harness<IuguAdapter> {
  const { keys } = fixtures;
  const answers = { ...DIALECT, ...fixtures.answers };
  const id = member.identity.id;
  const paths = { ...IUGU_PATHS, ...member.paths };
  const events = member.events ?? IUGU_INVOICE_EVENTS;
  const capabilities = capabilitiesOf(member.capabilities);
  const offers = (method: PaymentMethod) => capabilities.paymentMethods.includes(method);
  const table = declaredStatusTable(IUGU_STATUSES, member.statuses?.transaction);
  const fixed = member.failures ?? {};
  const pixDueDate = iuguDueDate(NOW, member.expiry?.pixSeconds ?? PIX_DEFAULT_EXPIRY_SECONDS);
  const boletoDueDate = iuguDueDate(NOW, member.expiry?.boletoSeconds ?? BOLETO_DEFAULT_EXPIRY_SECONDS);
  const auth = { authorization: `Basic ${Buffer.from(`${keys.secretKey}:`).toString('base64')}` };
  const at = (template: string, value: string) => template.replace('{id}', encodeURIComponent(value));
  const createText = (text: string) => failureText(fixed.createTransaction, FAILURE_PREFIXES.CREATE_TRANSACTION, text);
  const refundText = (text: string) => failureText(fixed.refoundTransaction, FAILURE_PREFIXES.REFUND_TRANSACTION, text);
  const tokenText = (text: string) => failureText(fixed.createCardToken, FAILURE_PREFIXES.CREATE_CARD_TOKEN, text);
  const readText = (text: string) => `${FAILURE_PREFIXES.GET_TRANSACTION}: ${text}`;
  /** The kit's one bad-answer failure (the schema's, naming the field at fault), or the member's fixed text for the operation. */
  const badAnswer = (fixedText: (text: string) => string) => {
    const fixedOrPrefixed = fixedText('');
    return fixedOrPrefixed.endsWith(': ') ? expect.stringContaining(`${fixedOrPrefixed}resposta do provedor em formato inesperado (`) : fixedOrPrefixed;
  };
  const h = providerHarness({ create: (runtime) => new IuguAdapter(member, runtime), account: () => keys });

  describe(`${id}: the Iugu family`, () => {
    it('offers exactly the operations its capabilities declare, in cents; the others reject with the spec text and send nothing', async () => {
      expect(h.adapter.identity).toEqual({ ...member.identity, aliases: member.identity.aliases ?? [] });
      expect(h.adapter.operations).toEqual(operationsOf(capabilities));
      expect(member.money).toBe('cents');
      await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
      expect(h.adapter.verifyNotification(h.ctx, trigger({ event: 'invoice.status_changed' }))).toBe('unsigned');
    });

    it('dates invoices by the day in Brasília (UTC−3) and lets them be paid until that day ends', () => {
      expect(iuguDueDate(NOW, 86_400)).toBe('2025-03-11');
      // 23:30 on the 9th in Brasília, plus one hour, is the 10th there.
      expect(iuguDueDate(new Date('2025-03-10T02:30:00Z'), 3_600)).toBe('2025-03-10');
      expect(endOfDueDate('2025-03-11')).toEqual(new Date('2025-03-12T02:59:59Z'));
      expect(endOfDueDate('not a date')).toBeUndefined();
    });

    const unoffered = (['PIX', 'CREDIT_CARD', 'BILLET'] as PaymentMethod[]).filter((method) => !offers(method));
    if (unoffered.length)
      it.each(unoffered.map((method) => [method]))('refuses %s, a method it does not offer, before calling', async (method) => {
        expect((await failure(h.adapter.createTransaction(h.ctx, input({ paymentMethod: method, cardId: 'tok' })))).code).toBe('UNIMPLEMENTED');
        expect(h.fake.received).toHaveLength(0);
      });

    if (offers('PIX'))
      it(`creates a PIX invoice by POST ${paths.invoices} (email, payer, payable_with, due_date, return_url, items; §7) and answers its code, QR image and due date`, async () => {
        h.fake.expect({
          method: 'POST',
          path: paths.invoices,
          headers: auth,
          body: {
            email: 'ana@example.com',
            due_date: pixDueDate,
            items: [{ description: 'Curso', quantity: 1, price_cents: 1990 }],
            payable_with: 'pix',
            payer: { cpf_cnpj: '12345678909', name: 'Ana Souza', email: 'ana@example.com', phone_prefix: '11', phone: '987654321' },
            return_url: 'https://loja.example/checkout',
            notification_url: h.ctx.notificationUrl,
          },
          reply: { body: answers.pixInvoice },
        });
        expect(await h.adapter.createTransaction(h.ctx, input({ checkoutUrl: 'https://loja.example/checkout' }))).toEqual({
          paymentMethod: 'PIX',
          transactionId: answers.pixInvoice.id,
          status: table.entries.pending,
          amount: 1990,
          pixCode: answers.pixInvoice.pix?.qrcode_text,
          expiresAt: endOfDueDate(answers.pixInvoice.due_date),
        });
      });

    if (offers('BILLET'))
      it('creates a boleto invoice; items that do not add up to the amount become one item of the whole amount', async () => {
        const items = [{ id: 'a', title: 'Livro', unitPrice: 1000, quantity: 2, tangible: true }];
        h.fake.expect({
          method: 'POST',
          path: paths.invoices,
          headers: auth,
          body: partial({ payable_with: 'bank_slip', due_date: boletoDueDate, items: [{ description: 'Pedido 42', quantity: 1, price_cents: 123456 }] }),
          reply: { body: answers.boletoInvoice },
        });
        const boleto = input({ amount: 123456, paymentMethod: 'BILLET', items, description: 'Pedido 42' });
        expect(await h.adapter.createTransaction(h.ctx, boleto)).toEqual({
          paymentMethod: 'BILLET',
          transactionId: answers.boletoInvoice.id,
          status: table.entries.pending,
          amount: 123456,
          billetCode: answers.boletoInvoice.bank_slip?.digitable_line,
          billetUrl: answers.boletoInvoice.bank_slip?.bank_slip_pdf_url,
          expiresAt: endOfDueDate(answers.boletoInvoice.due_date),
        });
      });

    if (offers('CREDIT_CARD')) {
      const card = input({ amount: 7000, paymentMethod: 'CREDIT_CARD', cardId: 'tok_1', installments: 3, items: [] });
      const invoiceThenCharge = (charged: unknown) => {
        h.fake.expect({
          method: 'POST',
          path: paths.invoices,
          headers: auth,
          body: partial({ payable_with: 'credit_card' }),
          reply: { body: answers.cardInvoice },
        });
        h.fake.expect({
          method: 'POST',
          path: paths.charge,
          headers: auth,
          body: { token: 'tok_1', months: 3, invoice_id: answers.cardInvoice.id },
          reply: { body: charged },
        });
      };

      it(`charges a card: the invoice, then POST ${paths.charge} (token, months, invoice_id; §7); approved, or declined as REJECTED`, async () => {
        const expected = { paymentMethod: 'CREDIT_CARD', transactionId: answers.cardInvoice.id, amount: 7000 };
        invoiceThenCharge(answers.chargeApproved);
        expect(await h.adapter.createTransaction(h.ctx, card)).toEqual({ ...expected, status: table.entries.paid });
        invoiceThenCharge(answers.chargeDeclined);
        expect(await h.adapter.createTransaction(h.ctx, card)).toEqual({
          ...expected,
          status: 'REJECTED',
          declineReason: answers.chargeDeclined.LR,
          declineMessage: answers.chargeDeclined.message,
        });
      });

      it('keeps a declined charge\'s reason: its LR (the acquirer\'s ABECS code, "Tabela de LRs"), else its message; and the message as its text', async () => {
        const expected = { paymentMethod: 'CREDIT_CARD', transactionId: answers.cardInvoice.id, amount: 7000, status: 'REJECTED' };
        invoiceThenCharge({ success: false, message: 'Transação negada', LR: '51' });
        expect(await h.adapter.createTransaction(h.ctx, card)).toEqual({ ...expected, declineReason: '51', declineMessage: 'Transação negada' });
        invoiceThenCharge({ success: false, message: 'Transação negada' });
        expect(await h.adapter.createTransaction(h.ctx, card)).toEqual({ ...expected, declineReason: 'Transação negada', declineMessage: 'Transação negada' });
        invoiceThenCharge({ success: false, LR: '05' });
        expect(await h.adapter.createTransaction(h.ctx, card)).toEqual({ ...expected, declineReason: '05' });
      });

      it("carries the caller's Idempotency-Key on POST /invoices and one derived from it and the invoice on POST /charge (Chave de Idempotência); none without a key", async () => {
        const keyed = { ...card, idempotencyKey: 'order-42-attempt' };
        h.fake.expect({ method: 'POST', path: paths.invoices, headers: { 'idempotency-key': 'order-42-attempt' }, reply: { body: answers.cardInvoice } });
        h.fake.expect({
          method: 'POST',
          path: paths.charge,
          headers: { 'idempotency-key': iuguChargeKey('order-42-attempt', answers.cardInvoice.id) },
          reply: { body: answers.chargeApproved },
        });
        expect((await h.adapter.createTransaction(h.ctx, keyed)).status).toBe(table.entries.paid);
        expect(iuguChargeKey('order-42-attempt', answers.cardInvoice.id)).toMatch(/^charge-[0-9a-f]{64}$/);
        expect(iuguChargeKey('order-42-attempt', 'another invoice')).not.toBe(iuguChargeKey('order-42-attempt', answers.cardInvoice.id));
        h.fake.expect({ method: 'POST', path: paths.invoices, headers: { 'idempotency-key': absent }, reply: { body: answers.cardInvoice } });
        h.fake.expect({ method: 'POST', path: paths.charge, headers: { 'idempotency-key': absent }, reply: { body: answers.chargeApproved } });
        await h.adapter.createTransaction(h.ctx, card);
      });

      it('refuses a card charge without a card token before calling; a charge answer without an outcome is UNAVAILABLE', async () => {
        expect(await failure(h.adapter.createTransaction(h.ctx, { ...card, cardId: undefined }))).toEqual({
          code: 'INVALID_ARGUMENT',
          message: 'cardId is required for credit card transactions',
        });
        invoiceThenCharge({});
        expect(await failure(h.adapter.createTransaction(h.ctx, card))).toEqual({
          code: 'UNAVAILABLE',
          message: fixed.createTransaction ? createText('') : createText('resposta do provedor em formato inesperado (success: esperado boolean)'),
        });
      });
    }

    const method = capabilities.paymentMethods[0]!;
    it.each([
      [400, { errors: { email: ['não é válido'] } }, 'INVALID_ARGUMENT', 'email: não é válido'],
      [401, { errors: 'Unauthorized' }, 'FAILED_PRECONDITION', 'Unauthorized'],
      [502, { errors: 'Bad gateway' }, 'UNAVAILABLE', 'Bad gateway'],
    ])("a %i on create is %s with Iugu's errors, sent once", async (status, body, code, text) => {
      h.fake.expect({ method: 'POST', path: paths.invoices, reply: { status, body } });
      expect(await failure(h.adapter.createTransaction(h.ctx, input({ paymentMethod: method, cardId: 'tok' })))).toEqual({ code, message: createText(text) });
      expect(h.fake.received).toHaveLength(1);
    });

    it('keeps errors inside a 2xx body; an answer without an invoice is UNAVAILABLE; a timeout is never a PENDING charge', async () => {
      const creates = (reply: object) => h.fake.expect({ method: 'POST', path: paths.invoices, reply });
      creates({ body: { errors: { 'payer.cpf_cnpj': ['não é válido'] } } });
      expect(await failure(h.adapter.createTransaction(h.ctx, input({ paymentMethod: method, cardId: 'tok' })))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: createText('payer.cpf_cnpj: não é válido'),
      });
      for (const [, body] of BODIES_WITHOUT_RESOURCE) {
        creates({ body });
        expect(await failure(h.adapter.createTransaction(h.ctx, input({ paymentMethod: method, cardId: 'tok' })))).toEqual({
          code: 'UNAVAILABLE',
          message: badAnswer(createText),
        });
      }
      creates({ delayMs: LATE_MS, body: {} });
      expect(await failure(h.adapter.createTransaction(h.ctx, input({ paymentMethod: method, cardId: 'tok' })))).toEqual({
        code: 'UNAVAILABLE',
        message: createText(TIMEOUT_TEXT),
      });
    });

    it('needs its API token, and says so without calling the provider', async () => {
      for (const key of member.credentials?.required ?? [])
        expect(await failure(h.adapter.createTransaction({ ...h.ctx, [key]: '' }, input({ paymentMethod: method, cardId: 'tok' })))).toEqual({
          code: 'FAILED_PRECONDITION',
          message: `${key} is required`,
        });
      expect(h.fake.received).toHaveLength(0);
    });

    it.each(Object.entries(table.entries))(`reads GET ${paths.invoice}: %s → %s`, async (status, expected) => {
      h.fake.expect({ method: 'GET', path: at(paths.invoice, 'INV/1'), headers: auth, reply: { body: { ...answers.cardInvoice, id: 'INV/1', status } } });
      expect(await h.adapter.getTransaction(h.ctx, 'INV/1')).toEqual({ paymentMethod: 'CREDIT_CARD', transactionId: 'INV/1', status: expected, amount: 7000 });
      expect(h.warn).not.toHaveBeenCalled();
    });

    it(`maps an unknown status to ${table.unknown} and logs a warning naming the provider; reads how the invoice was paid`, async () => {
      h.fake.expect({ method: 'GET', path: at(paths.invoice, 'INV2'), reply: { body: { ...answers.pixInvoice, id: 'INV2', status: 'mystery' } } });
      expect(await h.adapter.getTransaction(h.ctx, 'INV2')).toMatchObject({ paymentMethod: 'PIX', status: table.unknown, pixCode: PIX_CODE });
      expect(h.warn).toHaveBeenCalledWith({ provider: id, providerStatus: 'mystery', mappedTo: table.unknown }, 'unknown provider transaction status');
      h.fake.expect({ method: 'GET', path: at(paths.invoice, 'INV3'), reply: { body: { ...answers.refundedInvoice, id: 'INV3', payable_with: 'all' } } });
      expect(await h.adapter.getTransaction(h.ctx, 'INV3')).toMatchObject({ paymentMethod: 'PIX', status: table.entries.refunded });
    });

    it.each(GARBAGE_2XX_BODIES)('a read answer that is %s is an error under the read prefix, never a status', async (_label, body) => {
      h.fake.expect({ method: 'GET', path: at(paths.invoice, 'INV_G'), reply: { body } });
      await expect(h.adapter.getTransaction(h.ctx, 'INV_G')).rejects.toMatchObject({ message: expect.stringMatching(new RegExp(`^${readText('')}`)) });
    });

    // Answers of the right shape with a field of the wrong type: the schema's one failure naming the field, never a status, never INTERNAL.
    const wrongInvoices: Array<[string, unknown, string]> = [
      ['a status that is a number', { ...answers.pixInvoice, status: 3 }, 'status'],
      ['an amount that is not cents', { ...answers.pixInvoice, total_cents: '19,90' }, 'total_cents'],
      ['an amount with decimals', { ...answers.pixInvoice, total_cents: 19.9 }, 'total_cents'],
      ['an id that is an object', { ...answers.pixInvoice, id: { value: 'INV' } }, 'id'],
      ['a PIX code that is not text', { ...answers.pixInvoice, pix: { qrcode_text: 42 } }, 'pix.qrcode_text'],
      ['payment methods that are numbers', { ...answers.pixInvoice, payable_with: 7 }, 'payable_with'],
    ];
    it.each(wrongInvoices)('an invoice read with %s is UNAVAILABLE naming the field', async (_what, body, field) => {
      h.fake.expect({ method: 'GET', path: at(paths.invoice, 'INV_W'), reply: { body } });
      expect(await failure(h.adapter.getTransaction(h.ctx, 'INV_W'))).toEqual({
        code: 'UNAVAILABLE',
        message: expect.stringContaining(`${readText('')}resposta do provedor em formato inesperado (${field}`),
      });
    });

    it.each(wrongInvoices)('an invoice created with %s is UNAVAILABLE (its outcome unknown), never a PENDING charge', async (_what, body) => {
      h.fake.expect({ method: 'POST', path: paths.invoices, reply: { body } });
      expect(await failure(h.adapter.createTransaction(h.ctx, input({ paymentMethod: method, cardId: 'tok' })))).toEqual({
        code: 'UNAVAILABLE',
        message: badAnswer(createText),
      });
    });

    if (offers('CREDIT_CARD'))
      it.each<[string, unknown]>([
        ['a success flag that is text', { success: 'true', invoice_id: answers.cardInvoice.id }],
        ['no success flag', { message: 'Autorizado', invoice_id: answers.cardInvoice.id }],
      ])('a card charge answered with %s is UNAVAILABLE: neither charged nor declined', async (_what, charged) => {
        h.fake.expect({ method: 'POST', path: paths.invoices, reply: { body: answers.cardInvoice } });
        h.fake.expect({ method: 'POST', path: paths.charge, reply: { body: charged } });
        expect(
          await failure(h.adapter.createTransaction(h.ctx, input({ paymentMethod: 'CREDIT_CARD', cardId: 'tok', amount: 7000, items: [] }))),
        ).toMatchObject({
          code: 'UNAVAILABLE',
        });
      });
    it('keeps a 404 as NOT_FOUND and a persistent 5xx as UNAVAILABLE after the read retries', async () => {
      h.fake.expect({ method: 'GET', path: at(paths.invoice, 'nope'), reply: { status: 404, body: { errors: 'Not Found' } } });
      expect(await failure(h.adapter.getTransaction(h.ctx, 'nope'))).toEqual({ code: 'NOT_FOUND', message: readText('Not Found') });
      h.fake.expect({ method: 'GET', path: at(paths.invoice, 'INV1'), times: 3, reply: { status: 503, body: { errors: 'Service unavailable' } } });
      expect(await failure(h.adapter.getTransaction(h.ctx, 'INV1'))).toEqual({ code: 'UNAVAILABLE', message: readText('Service unavailable') });
    });

    if (capabilities.refunds) {
      const refundPath = at(paths.refund, 'INV1');
      const paidInvoice = (paymentMethod: string, extra: Record<string, unknown> = {}) => ({
        id: 'INV1',
        status: 'paid',
        total_cents: 1990,
        paid_cents: 1990,
        refunded_cents: null,
        payable_with: paymentMethod.replace('iugu_', ''),
        payment_method: paymentMethod,
        ...extra,
      });
      /** The refund reads the invoice first: how it was paid and what is left (Reembolsar Faturas por API). */
      const readsInvoice = (invoice: object) => h.fake.expect({ method: 'GET', path: at(paths.invoice, 'INV1'), headers: auth, reply: { body: invoice } });
      const refunded = { ...answers.refundedInvoice, id: 'INV1' };

      it.each<[string, string, number, Record<string, unknown>, Record<string, unknown>]>([
        ['a card invoice in part', 'iugu_credit_card', 500, {}, { partial_value_refund_cents: 500 }],
        ['a card invoice in whole', 'iugu_credit_card', 1990, {}, {}],
        ['the rest of a card invoice refunded in part before', 'iugu_credit_card', 1490, { refunded_cents: 500 }, { partial_value_refund_cents: 1490 }],
        ['a PIX invoice in whole', 'iugu_pix', 1990, {}, {}],
      ])(
        `refunds %s by POST ${paths.refund} (§7): the whole empty, a part as partial_value_refund_cents; the invoice's id stands for the refund`,
        async (_what, method, cents, extra, body) => {
          readsInvoice(paidInvoice(method, extra));
          h.fake.expect({ method: 'POST', path: refundPath, headers: auth, body, reply: { body: refunded } });
          expect(await h.adapter.refoundTransaction(h.ctx, 'INV1', cents)).toEqual({ refundId: 'INV1', status: true });
        },
      );

      it.each<[string, string, number, Record<string, unknown>, string, string]>([
        ['part of a PIX invoice', 'iugu_pix', 500, {}, 'INVALID_ARGUMENT', 'a iugu reembolsa faturas pagas com Pix apenas pelo valor integral (1990 centavos)'],
        [
          'more than a PIX invoice',
          'iugu_pix',
          5000,
          {},
          'INVALID_ARGUMENT',
          'a iugu reembolsa faturas pagas com Pix apenas pelo valor integral (1990 centavos)',
        ],
        ['a boleto invoice', 'iugu_bank_slip', 1990, {}, 'FAILED_PRECONDITION', 'a iugu não reembolsa faturas pagas com boleto bancário'],
      ])("refuses to refund %s (Iugu's rules), sending nothing", async (_what, method, cents, extra, code, text) => {
        readsInvoice(paidInvoice(method, extra));
        expect(await failure(h.adapter.refoundTransaction(h.ctx, 'INV1', cents))).toEqual({ code, message: refundText(text) });
        expect(h.fake.received.map((request) => request.method)).toEqual(['GET']);
      });

      it.each([
        [422, { errors: 'Fatura não pode ser reembolsada' }, 'INVALID_ARGUMENT', 'Fatura não pode ser reembolsada'],
        [500, { errors: 'boom' }, 'UNAVAILABLE', 'boom'],
        [200, { errors: 'Fatura não paga' }, 'INVALID_ARGUMENT', 'Fatura não paga'],
        ...BODIES_WITHOUT_RESOURCE.map(([, body]) => [200, body, 'UNAVAILABLE', undefined] as const),
      ])('a refund answered %i %j is %s, never "refunded"', async (status, body, code, text) => {
        readsInvoice(paidInvoice('iugu_credit_card'));
        h.fake.expect({ method: 'POST', path: refundPath, reply: { status, body } });
        expect(await failure(h.adapter.refoundTransaction(h.ctx, 'INV1', 1990))).toEqual({
          code,
          message: text === undefined ? badAnswer(refundText) : refundText(text),
        });
        if (fixed.refoundTransaction)
          expect(h.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: id, operation: 'refoundTransaction' }), 'refoundTransaction failed');
      });

      it('a refund whose invoice cannot be read is that failure, nothing sent', async () => {
        h.fake.expect({ method: 'GET', path: at(paths.invoice, 'INV1'), reply: { status: 404, body: { errors: 'Not Found' } } });
        expect(await failure(h.adapter.refoundTransaction(h.ctx, 'INV1', 500))).toEqual({ code: 'NOT_FOUND', message: refundText('Not Found') });
        readsInvoice({ ...paidInvoice('iugu_pix'), status: 9 });
        expect(await failure(h.adapter.refoundTransaction(h.ctx, 'INV1', 500))).toEqual({ code: 'UNAVAILABLE', message: badAnswer(refundText) });
        expect(h.fake.received.map((request) => request.method)).toEqual(['GET', 'GET']);
      });

      it.each<[string, unknown]>([
        ['a status that is a number', { ...answers.refundedInvoice, status: 5 }],
        ['an id that is a list', { ...answers.refundedInvoice, id: ['INV1'] }],
      ])('a refund answered with %s is UNAVAILABLE: never "refunded" nor "not refunded"', async (_what, body) => {
        readsInvoice(paidInvoice('iugu_credit_card'));
        h.fake.expect({ method: 'POST', path: refundPath, reply: { body } });
        expect(await failure(h.adapter.refoundTransaction(h.ctx, 'INV1', 500))).toEqual({ code: 'UNAVAILABLE', message: badAnswer(refundText) });
      });
    }

    if (capabilities.cardTokens)
      it('a card token answered with an id that is not text is UNAVAILABLE', async () => {
        h.fake.expect({ method: 'POST', path: paths.paymentToken, reply: { body: { id: 77, method: 'credit_card' } } });
        expect(await failure(h.adapter.createCardToken(h.ctx, CARD))).toEqual({ code: 'UNAVAILABLE', message: badAnswer(tokenText) });
      });

    if (capabilities.cardTokens) {
      it(`tokenises a card by POST ${paths.paymentToken} with the account id and without the API token`, async () => {
        h.fake.expect({
          method: 'POST',
          path: paths.paymentToken,
          headers: { authorization: absent },
          body: {
            account_id: keys.publicKey,
            method: 'credit_card',
            data: { number: '4111111111111111', verification_value: '123', first_name: 'Ana', last_name: 'Maria Souza', month: '03', year: '2030' },
          },
          reply: { body: answers.paymentToken },
        });
        expect(await h.adapter.createCardToken(h.ctx, CARD)).toBe(answers.paymentToken.id);
      });

      it.each([
        [422, { errors: { number: ['não é válido'] } }, 'INVALID_ARGUMENT', 'number: não é válido'],
        [200, { errors: { verification_value: ['não é válido'] } }, 'INVALID_ARGUMENT', 'verification_value: não é válido'],
        ...BODIES_WITHOUT_RESOURCE.map(([, body]) => [200, body, 'UNAVAILABLE', undefined] as const),
      ])('a card token answered %i %j is %s', async (status, body, code, text) => {
        h.fake.expect({ method: 'POST', path: paths.paymentToken, reply: { status, body } });
        expect(await failure(h.adapter.createCardToken(h.ctx, CARD))).toEqual({
          code,
          message: text === undefined ? badAnswer(tokenText) : tokenText(text),
        });
      });

      it('needs the account id (the public key) for a card token, before calling', async () => {
        expect(await failure(h.adapter.createCardToken({ ...h.ctx, publicKey: ' ' }, CARD))).toEqual({
          code: 'FAILED_PRECONDITION',
          message: 'publicKey is required',
        });
        expect(h.fake.received).toHaveLength(0);
      });
    }

    if (capabilities.webhooks) {
      it.each(events.map((event) => [event]))('reads a %s trigger: its data[id] and data[status] through the table (§4)', async (event) => {
        const [status, expected] = Object.entries(table.entries).find(([name]) => name === 'paid') ?? Object.entries(table.entries)[0]!;
        const form = trigger({ event, 'data[id]': 'INV1', 'data[status]': status, 'data[account_id]': 'acc' });
        expect(await h.adapter.processWebhook(h.ctx, form)).toEqual({ type: 'TRANSACTION', transactionId: 'INV1', status: expected });
        expect(h.adapter.notificationKey(h.ctx, form)).toBe(`invoice:INV1:${status}`);
      });

      it("checks a trigger's authorization as Basic Authentication with the key registered for it (Criar Gatilho); unsigned without a secret or a header", () => {
        const key = 'gatilho-7f3c9e21';
        const ctx = { ...h.ctx, webhookSecret: key };
        const carrying = (authorization?: string) => {
          const form = trigger({ event: 'invoice.status_changed', 'data[id]': 'INV1', 'data[status]': 'paid' });
          return authorization === undefined ? form : { ...form, headers: { ...form.headers, authorization } };
        };
        for (const authorization of [`Basic ${key}`, `basic  ${key}`, `Basic ${Buffer.from(key).toString('base64')}`, key])
          expect([authorization, h.adapter.verifyNotification(ctx, carrying(authorization))]).toEqual([authorization, 'valid']);
        for (const authorization of ['Basic outra-chave', `Bearer ${key}`, `Basic ${key}x`, ''])
          expect([authorization, h.adapter.verifyNotification(ctx, carrying(authorization))]).toEqual([authorization, 'invalid']);
        expect(h.adapter.verifyNotification(ctx, carrying())).toBe('unsigned');
        expect(h.adapter.verifyNotification(h.ctx, carrying(`Basic ${key}`))).toBe('unsigned');
      });

      it('ignores other triggers, triggers without an id or a status, JSON and garbage', async () => {
        for (const body of [
          trigger({ event: 'withdraw_request.status_changed', 'data[id]': 'W1', 'data[status]': 'accepted' }),
          trigger({ event: 'subscription.renewed', 'data[id]': 'S1', 'data[status]': 'paid' }),
          trigger({ event: 'invoice.status_changed', 'data[id]': 'INV1' }),
          trigger({ event: 'invoice.status_changed', 'data[status]': 'paid' }),
          notification({ event: 'invoice.status_changed', data: { id: 'INV1', status: 'paid' } }),
          notification('{not json'),
        ]) {
          expect(await h.adapter.processWebhook(h.ctx, body)).toBeUndefined();
          expect(h.adapter.notificationKey(h.ctx, body)).toMatch(/^sha256:[0-9a-f]{64}$/);
        }
      });
    }
  });

  return h;
}
