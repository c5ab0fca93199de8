import { describe, expect, it } from '@jest/globals';
import type { ReceiverInput, ReceiverStatus } from '../../server/domain/types.js';
import { COMPE_BANKS } from '../../server/lib/banks.js';
import { FAILURE_PREFIXES } from '../../server/lib/providerMessages.js';
import { createRegistry } from '../../server/providers/catalog.js';
import { ORDERS_API_TRANSFER_SETTINGS, OrdersApiAdapter } from '../../server/providers/families/ordersApi/index.js';
import { PAGARME } from '../../server/providers/members/pagarme.js';
import { PAGARMEBAAS } from '../../server/providers/members/pagarmebaas.js';
import { GARBAGE_2XX_BODIES } from '../support/fakeProvider.js';
import { LATE_MS, NOW, TIMEOUT_TEXT, failure, transactionInput } from './conformance/harness.js';
import { ordersApiConformance } from './conformance/ordersApi.suite.js';

const KEYS = { publicKey: 'pk_test_pagarme', secretKey: 'sk_test_pagarme' };
/** Pagar.me v5 itself: the family's canned answers are its own. */
const h = ordersApiConformance(PAGARME, { keys: KEYS });

/** Pagar.me's Basic auth: the secret key as user, an empty password. */
const AUTHORIZATION = `Basic ${Buffer.from(`${KEYS.secretKey}:`).toString('base64')}`;
const YEAR_MS = 365 * 86_400 * 1000;

const receiver = (extra: Partial<ReceiverInput> = {}, account: Partial<NonNullable<ReceiverInput['bankAccount']>> = {}): ReceiverInput => ({
  name: 'Ana Souza',
  document: '123.456.789-09',
  email: 'ana@example.com',
  description: 'Vendedora de cursos',
  userId: 'user-42',
  bankAccount: {
    bankCode: '341',
    branchNumber: '0932',
    branchDigit: '5',
    accountNumber: '58054',
    accountDigit: '1',
    accountType: 'checking',
    pixCode: '',
    ...account,
  },
  ...extra,
});

/** POST /recipients for receiver(): the SDK's CreateRecipientRequest with doc 1 §9's transfer settings. */
const RECIPIENT_BODY = {
  name: 'Ana Souza',
  email: 'ana@example.com',
  description: 'Vendedora de cursos',
  document: '12345678909',
  type: 'individual',
  default_bank_account: {
    holder_name: 'Ana Souza',
    holder_type: 'individual',
    holder_document: '12345678909',
    bank: '341',
    branch_number: '0932',
    branch_check_digit: '5',
    account_number: '58054',
    account_check_digit: '1',
    type: 'checking',
  },
  transfer_settings: { transfer_enabled: false, transfer_interval: 'Daily', transfer_day: 0 },
  code: 'user-42',
};

/** A recipient as Pagar.me v5 answers it (the SDK's GetRecipientResponse). */
const RECIPIENT = {
  id: 'rp_XAd3q7hoQc1Aw6Yo',
  name: 'Ana Souza',
  email: 'ana@example.com',
  document: '12345678909',
  description: 'Vendedora de cursos',
  type: 'individual',
  status: 'registration',
  code: 'user-42',
  payment_mode: 'bank_transfer',
  created_at: '2025-03-10T12:00:00Z',
  updated_at: '2025-03-10T12:00:00Z',
  default_bank_account: { id: 'ba_1', bank: '341', status: 'active', type: 'checking' },
  transfer_settings: { transfer_enabled: false, transfer_interval: 'Daily', transfer_day: 0 },
};
/** GET /recipients/{id}/balance (the SDK's GetBalanceResponse), cents. */
const BALANCE = { currency: 'BRL', available_amount: 150_000, waiting_funds_amount: 20_000, transferred_amount: 500_000, recipient: { id: RECIPIENT.id } };

/** The receiver RECIPIENT is, with a status and a balance. */
const ana = (status: ReceiverStatus, balance: number) => ({
  receiverId: RECIPIENT.id,
  receiverProvider: 'PAGARME',
  name: 'Ana Souza',
  document: '12345678909',
  documentType: 'CPF',
  email: 'ana@example.com',
  status,
  balance,
});

const creates = (reply: object, body: object = RECIPIENT_BODY) =>
  h.fake.expect({ method: 'POST', path: '/recipients', headers: { authorization: AUTHORIZATION, 'content-type': /application\/json/ }, body, reply });
const reads = (recipient: unknown, balance?: unknown) => {
  h.fake.expect({ method: 'GET', path: `/recipients/${RECIPIENT.id}`, headers: { authorization: AUTHORIZATION }, reply: { body: recipient } });
  if (balance !== undefined)
    h.fake.expect({ method: 'GET', path: `/recipients/${RECIPIENT.id}/balance`, headers: { authorization: AUTHORIZATION }, reply: { body: balance } });
};

describe('PAGARME (spec doc 2, group 1)', () => {
  it("is PAGARMEBAAS's Pagar.me v5 in group 1 with receivers, the default validity instead of PAGARMEBAAS's 5-day boleto, and a one-year card receivable", () => {
    expect(PAGARME.identity).toEqual({ id: 'PAGARME', specGroup: 'document 2 (group 1)', defaultBaseUrl: 'https://api.pagar.me/core/v5' });
    expect(PAGARME.expiry).toEqual({ cardReceivableSeconds: 365 * 86_400 });
    expect(PAGARME.capabilities).toEqual({ ...PAGARMEBAAS.capabilities, receivers: true });
    expect(PAGARMEBAAS.capabilities.balances).toBe(true);
    expect([PAGARME.auth, PAGARME.withdrawalRecipient]).toEqual([PAGARMEBAAS.auth, PAGARMEBAAS.withdrawalRecipient]);
    expect(h.adapter.operations).toEqual(expect.arrayContaining(['createReceiver', 'getReceiver']));
  });

  it('leaves PAGARMEBAAS as it was: no receivers, no card receivable, no bank list', () => {
    expect(PAGARMEBAAS.capabilities.receivers).toBeUndefined();
    expect(PAGARMEBAAS.expiry).toEqual({ boletoSeconds: 5 * 86_400 });
    expect([PAGARMEBAAS.receiverBanks, PAGARMEBAAS.statuses, PAGARMEBAAS.notFound]).toEqual([undefined, undefined, undefined]);
  });

  it('is registered in the catalogue, whose validity column shows the card receivable', async () => {
    const adapter = (await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' })).find('pagarme');
    expect(adapter?.identity.id).toBe('PAGARME');
    expect((adapter as OrdersApiAdapter).catalogue).toMatchObject({ pixSeconds: 86_400, boletoSeconds: 3 * 86_400, cardReceivableSeconds: 365 * 86_400 });
  });

  describe('a card charge: its receivable due one year after creation (doc 1 §9), nothing sent for it', () => {
    it('reports expiresAt = creation + 365 days on an approved card charge, and sends no due date', async () => {
      h.fake.expect({
        method: 'POST',
        path: '/orders',
        body: (body) => !JSON.stringify(body).includes('due'),
        reply: { body: { id: 'or_cc9', status: 'paid', amount: 5000, charges: [{ id: 'ch_cc9', status: 'paid', payment_method: 'credit_card' }] } },
      });
      const result = await h.adapter.createTransaction(h.ctx, transactionInput({ amount: 5000, paymentMethod: 'CREDIT_CARD', cardId: 'card_7Hk' }));
      expect(result).toEqual({
        paymentMethod: 'CREDIT_CARD',
        transactionId: 'or_cc9',
        status: 'APPROVED',
        amount: 5000,
        expiresAt: new Date(NOW.getTime() + YEAR_MS),
      });
    });

    it('keeps the PIX validity for a PIX charge (the receivable is a card term)', async () => {
      h.fake.expect({
        method: 'POST',
        path: '/orders',
        reply: {
          body: {
            id: 'or_p',
            status: 'pending',
            amount: 1990,
            charges: [{ id: 'ch_p', status: 'pending', payment_method: 'pix', last_transaction: { qr_code: '000201', expires_at: '2025-03-11T12:00:00Z' } }],
          },
        },
      });
      expect((await h.adapter.createTransaction(h.ctx, transactionInput())).expiresAt).toEqual(new Date('2025-03-11T12:00:00Z'));
    });

    it('gives a PAGARMEBAAS card charge no expiresAt (group 2 is unchanged)', async () => {
      const baas = new OrdersApiAdapter(PAGARMEBAAS, { now: () => NOW, retry: false });
      h.fake.expect({
        method: 'POST',
        path: '/orders',
        reply: { body: { id: 'or_b', status: 'paid', amount: 5000, charges: [{ id: 'ch_b', status: 'paid', payment_method: 'credit_card' }] } },
      });
      const result = await baas.createTransaction(h.ctx, transactionInput({ amount: 5000, paymentMethod: 'CREDIT_CARD', cardId: 'card_7Hk' }));
      expect(result.expiresAt).toBeUndefined();
    });
  });

  describe('createReceiver: POST /recipients (doc 1 §7)', () => {
    it("sends Pagar.me v5's recipient with Basic auth, the receiver as account holder and §9's transfer settings, and maps the answer (balance 0: nothing received yet)", async () => {
      const created = creates({ body: RECIPIENT });
      expect(await h.adapter.createReceiver(h.ctx, receiver())).toEqual(ana('PENDING', 0));
      expect(created.calls).toHaveLength(1);
      expect(ORDERS_API_TRANSFER_SETTINGS).toEqual({ transfer_enabled: false, transfer_interval: 'Daily', transfer_day: 0 });
    });

    it('sends a CNPJ as a company, and leaves out what the receiver does not give (description, branch digit, code)', async () => {
      const company = receiver({ name: 'Loja Ltda', document: '12.345.678/0001-95', description: undefined, userId: undefined }, { branchDigit: '' });
      creates(
        { body: { ...RECIPIENT, name: 'Loja Ltda', document: '12345678000195', type: 'company', status: 'active' } },
        {
          name: 'Loja Ltda',
          email: 'ana@example.com',
          document: '12345678000195',
          type: 'company',
          default_bank_account: {
            holder_name: 'Loja Ltda',
            holder_type: 'company',
            holder_document: '12345678000195',
            bank: '341',
            branch_number: '0932',
            account_number: '58054',
            account_check_digit: '1',
            type: 'checking',
          },
          transfer_settings: { transfer_enabled: false, transfer_interval: 'Daily', transfer_day: 0 },
        },
      );
      expect(await h.adapter.createReceiver(h.ctx, company)).toMatchObject({ document: '12345678000195', documentType: 'CNPJ', status: 'ACTIVE' });
    });

    it.each([
      ['1', '001'],
      ['001', '001'],
      ['33', '033'],
      [' 260 ', '260'],
      ['077', '077'],
      ['104', '104'],
    ])("accepts bank '%s' of the list, sent as %s", async (given, sent) => {
      creates({ body: RECIPIENT }, { ...RECIPIENT_BODY, default_bank_account: { ...RECIPIENT_BODY.default_bank_account, bank: sent } });
      await h.adapter.createReceiver(h.ctx, receiver({}, { bankCode: given }));
    });

    it.each(['999', '204', '0341', '', 'abc'])("refuses bank '%s', not in the list, before anything is sent", async (bankCode) => {
      const refused = await h.adapter.createReceiver(h.ctx, receiver({}, { bankCode })).catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^receiver\.bank_account\.bank_code \d+ is not a bank PAGARME pays recipients to$/),
        details: { field: 'receiver.bank_account.bank_code' },
      });
      expect(h.fake.received).toHaveLength(0);
    });

    it('refuses a receiver without a bank account, before anything is sent', async () => {
      const refused = await h.adapter.createReceiver(h.ctx, receiver({ bankAccount: undefined })).catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'receiver.bank_account is required: PAGARME pays its recipients to a bank account',
        details: { field: 'receiver.bank_account' },
      });
      expect(h.fake.received).toHaveLength(0);
    });

    it.each([
      ['checking', 'checking'],
      ['CHECKING', 'checking'],
      ['corrente', 'checking'],
      ['Conta Corrente', 'checking'],
      ['conta_corrente_conjunta', 'checking'],
      ['savings', 'savings'],
      ['poupança', 'savings'],
      ['conta-poupanca', 'savings'],
    ])("sends account type '%s' as %s", async (accountType, type) => {
      creates({ body: RECIPIENT }, { ...RECIPIENT_BODY, default_bank_account: { ...RECIPIENT_BODY.default_bank_account, type } });
      await h.adapter.createReceiver(h.ctx, receiver({}, { accountType }));
    });

    it.each(['', 'salary', 'pagamento', 'investment'])("refuses account type '%s', naming the field, before anything is sent", async (accountType) => {
      const refused = await h.adapter.createReceiver(h.ctx, receiver({}, { accountType })).catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^receiver\.bank_account\.account_type must name a checking or a savings account/),
        details: { field: 'receiver.bank_account.account_type' },
      });
      expect(h.fake.received).toHaveLength(0);
    });

    it.each([
      [
        422,
        'INVALID_ARGUMENT',
        {
          message: 'The request is invalid.',
          errors: { 'recipient.default_bank_account.account_check_digit': ['The account_check_digit field is required.'] },
        },
        'The request is invalid. (recipient.default_bank_account.account_check_digit: The account_check_digit field is required.)',
      ],
      [401, 'FAILED_PRECONDITION', { message: 'Authorization has been denied for this request.' }, 'Authorization has been denied for this request.'],
      [500, 'UNAVAILABLE', { message: 'Internal Server Error' }, 'Internal Server Error'],
    ])("answered %i is %s under 'Erro ao criar recebedor', sent once", async (status, code, body, text) => {
      const sent = creates({ status, body });
      expect(await failure(h.adapter.createReceiver(h.ctx, receiver()))).toEqual({ code, message: `${FAILURE_PREFIXES.CREATE_RECEIVER}: ${text}` });
      expect(FAILURE_PREFIXES.CREATE_RECEIVER).toBe('Erro ao criar recebedor');
      expect(sent.calls).toHaveLength(1);
    });

    it('turns a timeout into UNAVAILABLE, the recipient sent once', async () => {
      const sent = creates({ delayMs: LATE_MS, body: RECIPIENT });
      expect(await failure(h.adapter.createReceiver(h.ctx, receiver()))).toEqual({
        code: 'UNAVAILABLE',
        message: `${FAILURE_PREFIXES.CREATE_RECEIVER}: ${TIMEOUT_TEXT}`,
      });
      expect(sent.calls).toHaveLength(1);
    });

    it.each(GARBAGE_2XX_BODIES)('answered 2xx with %s is UNAVAILABLE, never a receiver', async (_label, body) => {
      creates({ body });
      const { code, message } = await failure(h.adapter.createReceiver(h.ctx, receiver()));
      expect([code, message.startsWith(`${FAILURE_PREFIXES.CREATE_RECEIVER}: `)]).toEqual(['UNAVAILABLE', true]);
    });
  });

  describe('getReceiver: GET /recipients/{id}, then GET /recipients/{id}/balance', () => {
    it('reads the recipient and its available balance in cents', async () => {
      reads({ ...RECIPIENT, status: 'active' }, BALANCE);
      expect(await h.adapter.getReceiver(h.ctx, RECIPIENT.id)).toEqual(ana('ACTIVE', 150_000));
    });

    const statuses: Array<[string, ReceiverStatus]> = [
      ['registration', 'PENDING'],
      ['affiliation', 'PENDING'],
      ['active', 'ACTIVE'],
      ['refused', 'REJECTED'],
      ['suspended', 'PENDING'],
      ['blocked', 'PENDING'],
      ['inactive', 'PENDING'],
      // Doc 1 §4's rule, which Pagar.me's words extend.
      ['approved', 'ACTIVE'],
      ['rejected', 'REJECTED'],
      ['cancelled', 'REJECTED'],
      ['canceled', 'REJECTED'],
      ['ACTIVE', 'ACTIVE'],
    ];
    it.each(statuses)('a recipient %s is %s, without a warning', async (status, expected) => {
      reads({ ...RECIPIENT, status }, BALANCE);
      expect((await h.adapter.getReceiver(h.ctx, RECIPIENT.id)).status).toBe(expected);
      expect(h.warn).not.toHaveBeenCalled();
    });

    it.each(['under_review', 'constructor'])('an unknown recipient status (%s) is PENDING, with a warning', async (status) => {
      reads({ ...RECIPIENT, status }, BALANCE);
      expect((await h.adapter.getReceiver(h.ctx, RECIPIENT.id)).status).toBe('PENDING');
      expect(h.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: 'PAGARME', providerStatus: status, mappedTo: 'PENDING' }), expect.any(String));
    });

    it("is 'Receiver not found.' (NOT_FOUND) when Pagar.me does not know the recipient, and asks no balance", async () => {
      h.fake.expect({ method: 'GET', path: '/recipients/rp_nope', reply: { status: 404, body: { message: 'Recipient not found' } } });
      expect(await failure(h.adapter.getReceiver(h.ctx, 'rp_nope'))).toEqual({ code: 'NOT_FOUND', message: 'Receiver not found.' });
    });

    it.each([
      [401, 'FAILED_PRECONDITION', 'Authorization has been denied for this request.'],
      [422, 'INVALID_ARGUMENT', 'The request is invalid.'],
    ])("a recipient read answered %i is %s under 'Erro ao buscar recebedor'", async (status, code, message) => {
      h.fake.expect({ method: 'GET', path: `/recipients/${RECIPIENT.id}`, reply: { status, body: { message } } });
      expect(await failure(h.adapter.getReceiver(h.ctx, RECIPIENT.id))).toEqual({ code, message: `${FAILURE_PREFIXES.GET_RECEIVER}: ${message}` });
      expect(FAILURE_PREFIXES.GET_RECEIVER).toBe('Erro ao buscar recebedor');
    });

    it("a balance read that fails is the read's failure under 'Erro ao buscar recebedor'", async () => {
      reads(RECIPIENT);
      h.fake.expect({ method: 'GET', path: `/recipients/${RECIPIENT.id}/balance`, times: 3, reply: { status: 503, body: { message: 'Service Unavailable' } } });
      expect(await failure(h.adapter.getReceiver(h.ctx, RECIPIENT.id))).toEqual({
        code: 'UNAVAILABLE',
        message: `${FAILURE_PREFIXES.GET_RECEIVER}: Service Unavailable`,
      });
    });

    it.each(GARBAGE_2XX_BODIES)('a recipient read answered 2xx with %s is UNAVAILABLE, and asks no balance', async (_label, body) => {
      reads(body);
      const { code, message } = await failure(h.adapter.getReceiver(h.ctx, RECIPIENT.id));
      expect([code, message.startsWith(`${FAILURE_PREFIXES.GET_RECEIVER}: `)]).toEqual(['UNAVAILABLE', true]);
    });

    it.each([
      ...GARBAGE_2XX_BODIES,
      ['a balance without available_amount', { currency: 'BRL', waiting_funds_amount: 100 }],
      ['an available_amount that is no amount', { available_amount: 'muito' }],
      ['an available_amount of null', { available_amount: null }],
    ])('a balance answered 2xx with %s is UNAVAILABLE, never a balance of 0', async (_label, body) => {
      reads(RECIPIENT, body);
      // The balance's schema requires available_amount in cents: the kit's one bad-answer failure, naming the field at fault.
      expect(await failure(h.adapter.getReceiver(h.ctx, RECIPIENT.id))).toEqual({
        code: 'UNAVAILABLE',
        message: expect.stringMatching(
          new RegExp(`^${FAILURE_PREFIXES.GET_RECEIVER}: resposta do provedor em formato inesperado \\((corpo|available_amount): `),
        ),
      });
    });

    it('PAGARMEBAAS still offers no receivers', async () => {
      const baas = new OrdersApiAdapter(PAGARMEBAAS, { now: () => NOW, retry: false });
      await expect(baas.getReceiver(h.ctx, RECIPIENT.id)).rejects.toMatchObject({ code: 'UNIMPLEMENTED', message: 'Method not implemented.' });
      await expect(baas.createReceiver(h.ctx, receiver())).rejects.toMatchObject({ code: 'UNIMPLEMENTED', message: 'Method not implemented.' });
      expect(h.fake.received).toHaveLength(0);
    });
  });

  describe("getAccountBalance: the default recipient's GET /recipients/{id}/balance, the recipient named by platform_id", () => {
    const account = () => ({ ...h.ctx, platformId: RECIPIENT.id });
    const balanceIs = (reply: object) =>
      h.fake.expect({ method: 'GET', path: `/recipients/${RECIPIENT.id}/balance`, headers: { authorization: AUTHORIZATION }, reply });

    it('reads available_amount as available and waiting_funds_amount as pending, in cents', async () => {
      balanceIs({ body: BALANCE });
      expect(await h.adapter.getAccountBalance(account())).toEqual({ available: 150_000, pending: 20_000, currency: 'BRL' });
    });

    it('reports no pending figure where Pagar.me states none', async () => {
      balanceIs({ body: { currency: 'BRL', available_amount: '2990', waiting_funds_amount: null } });
      expect(await h.adapter.getAccountBalance(account())).toEqual({ available: 2990, currency: 'BRL' });
    });

    it("is Pagar.me's refusal under 'Erro ao consultar saldo'", async () => {
      balanceIs({ status: 404, body: { message: 'Recipient not found' } });
      expect(await failure(h.adapter.getAccountBalance(account()))).toMatchObject({ message: 'Erro ao consultar saldo: Recipient not found' });
      expect(FAILURE_PREFIXES.GET_ACCOUNT_BALANCE).toBe('Erro ao consultar saldo');
    });

    it('a balance without available_amount is UNAVAILABLE, never 0', async () => {
      balanceIs({ body: { currency: 'BRL', waiting_funds_amount: 100 } });
      expect(await failure(h.adapter.getAccountBalance(account()))).toMatchObject({ code: 'UNAVAILABLE' });
    });

    it('without a platform_id the account names no recipient: refused before anything is sent', async () => {
      expect(await failure(h.adapter.getAccountBalance({ ...h.ctx, platformId: ' ' }))).toMatchObject({
        code: 'FAILED_PRECONDITION',
        message: expect.stringMatching(/^platform_id is required/),
      });
      expect(h.fake.received).toHaveLength(0);
    });
  });

  describe("a paid charge's fee: its credit payables' fee and fraud_coverage_fee (GET /payables?charge_id=…)", () => {
    const order = (status: string) => ({
      id: 'or_fee1',
      status,
      amount: 10_000,
      charges: [
        {
          id: 'ch_fee1',
          status,
          amount: 10_000,
          payment_method: 'credit_card',
          ...(status === 'paid' ? { paid_at: '2026-03-10T12:10:00Z', paid_amount: 10_000 } : {}),
          last_transaction: { id: 'tran_fee1', transaction_type: 'credit_card', status: status === 'paid' ? 'captured' : 'authorized_pending_capture' },
        },
      ],
    });
    const payable = (fields: Record<string, unknown>) => ({
      id: 11_814_386,
      status: 'waiting_funds',
      amount: 5_000,
      anticipation_fee: 0,
      fraud_coverage_fee: 0,
      installment: 1,
      charge_id: 'ch_fee1',
      recipient_id: 're_main',
      type: 'credit',
      payment_method: 'credit_card',
      ...fields,
    });
    /** Two installments to the account's recipient, one share of a split to another, an anticipation, a refund. */
    const PAYABLES = {
      data: [
        payable({ fee: 250, fraud_coverage_fee: 30, anticipation_fee: 90 }),
        payable({ installment: 2, fee: 250 }),
        payable({ recipient_id: 're_partner', amount: 1_000, fee: 100 }),
        payable({ type: 'refund', amount: -5_000, fee: -250 }),
      ],
      paging: { total: 4 },
    };
    const readsPaidOrder = () =>
      h.fake.expect({ method: 'GET', path: '/orders/or_fee1', headers: { authorization: AUTHORIZATION }, reply: { body: order('paid') } });
    const payablesAre = (reply: object) =>
      h.fake.expect({ method: 'GET', path: '/payables', query: { charge_id: 'ch_fee1' }, headers: { authorization: AUTHORIZATION }, reply });

    it("reports the account's recipient's share where platform_id names it, else every recipient's", async () => {
      readsPaidOrder();
      payablesAre({ body: PAYABLES });
      expect(await h.adapter.getTransaction({ ...h.ctx, platformId: 're_main' }, 'or_fee1')).toMatchObject({ status: 'APPROVED', providerFee: 530 });
      readsPaidOrder();
      payablesAre({ body: PAYABLES });
      expect(await h.adapter.getTransaction(h.ctx, 'or_fee1')).toMatchObject({ status: 'APPROVED', providerFee: 630 });
    });

    it('asks no payables of a charge not paid; payables that cannot be read leave the status without a fee, with a warning', async () => {
      h.fake.expect({ method: 'GET', path: '/orders/or_fee1', reply: { body: order('pending') } });
      expect(await h.adapter.getTransaction(h.ctx, 'or_fee1')).not.toHaveProperty('providerFee');
      for (const reply of [{ status: 404, body: { message: 'Not found' } }, { body: { data: 'x' } }, { body: { data: [] } }]) {
        readsPaidOrder();
        payablesAre(reply);
        const read = await h.adapter.getTransaction(h.ctx, 'or_fee1');
        expect(read.status).toBe('APPROVED');
        expect(read).not.toHaveProperty('providerFee');
      }
      expect(h.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: 'PAGARME', chargeId: 'ch_fee1' }), 'payables unreadable: no fee');
    });

    it('asks no payables when the gateway already stores the fee (its record passed to the read); an unknown fee is read', async () => {
      readsPaidOrder();
      const stored = await h.adapter.getTransaction(h.ctx, 'or_fee1', { providerFee: 530 });
      expect(stored.status).toBe('APPROVED');
      // The fee stays the stored one: the read states none.
      expect(stored).not.toHaveProperty('providerFee');
      expect(h.fake.received.filter((request) => request.path === '/payables')).toHaveLength(0);
      readsPaidOrder();
      payablesAre({ body: PAYABLES });
      expect(await h.adapter.getTransaction(h.ctx, 'or_fee1', {})).toMatchObject({ status: 'APPROVED', providerFee: 630 });
    });

    it('PAGARMEBAAS asks no payables', async () => {
      const baas = new OrdersApiAdapter(PAGARMEBAAS, { now: () => NOW, retry: false });
      readsPaidOrder();
      expect(await baas.getTransaction(h.ctx, 'or_fee1')).not.toHaveProperty('providerFee');
    });
  });

  it('validates receivers against the list of about 70 banks (doc 1 §3)', () => {
    expect(PAGARME.receiverBanks).toBe(COMPE_BANKS);
  });
});
