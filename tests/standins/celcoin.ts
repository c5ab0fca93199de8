import { randomBytes } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { barcodeToDigitableLine, buildBarcode } from '../../server/lib/boleto.js';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * Cel_Cash (ex-Galax Pay, the specification's CELCOIN) as its SDK describes
 * the API, for the gateway's acceptance test (tests/standins/celcoin.test.ts).
 * Everything lives under /v2, as at https://api.sandbox.cel.cash/v2.
 *
 * From the SDK (github Pyxlab/celcash, commit a5f0a71, packages/core/src):
 * - contract/auth.ts, schemas/common.ts, utils/login.ts: POST /token with
 *   `Authorization: Basic base64(galaxId:galaxHash)` (anything else: 401) and
 *   `{grant_type: authorization_code | refresh_token, scope}`, the scope one or
 *   more of the documented names separated by spaces, answered `{access_token,
 *   token_type: "Bearer", expires_in, scope}`; every other call carries `Bearer
 *   <access_token>`;
 * - contract/charges.ts, schemas/charges.ts: POST /charges `{myId, value
 *   (cents), additionalInfo?, payday (YYYY-MM-DD, "Data de vencimento
 *   inválida."), mainPaymentMethodId creditcard | boleto | pix, Customer,
 *   PaymentMethodCreditCard?, PaymentMethodBoleto?, PaymentMethodPix?}` answered
 *   `{type: true, Charge}`; the charge `{galaxPayId, myId, mainPaymentMethodId,
 *   paymentLink, additionalInfo, value, status (active, canceled, closed,
 *   waitingPayment, inactive), payedOutsideGalaxPay, Customer, Transactions}`;
 *   GET /charges with `galaxPayIds`, `startAt` (≥ 0) and `limit` (0 to 100)
 *   answered `{totalQtdFoundInPage, Charges}`; PUT
 *   /charges/{id}/{galaxPayId|myId}/capture answered with the bare charge;
 * - schemas/customers.ts: a customer is `{myId (a UUID), name, document (11 to
 *   14 characters), emails, phones (numbers), Address}`; a charge's Customer
 *   names one already known (galaxPayId, myId or document) or carries all of
 *   myId, name, document and emails to create it (`partialCustomerSchema`);
 * - schemas/payments.ts, schemas/cards.ts, contract/cards.ts: `PaymentMethodPix
 *   {fine, interest, instructions, Deadline {type: days, value}}`;
 *   `PaymentMethodCreditCard {Card, Antifraud, cardOperatorId, preAuthorize}`,
 *   the Card a saved one (`galaxPayId`, or `myId` a UUID) saved by POST
 *   /cards/{customerId}/{galaxPayId|myId} `{myId, number, holder, expiresAt
 *   (YYYY-MM), cvv}` answered `{type, Card}`;
 * - schemas/transactions.ts, schemas/_/payments.ts: a charge's transaction
 *   `{galaxPayId, myId, chargeGalaxPayId, chargeMyId, value, payday, status,
 *   statusDate, Boleto {pdf, bankLine, bankNumber, barCode, …}, Pix {qrCode,
 *   reference, image, page}}` and its statuses (pendingPix, payedPix,
 *   pendingBoleto, payedBoleto, authorized, captured, denied, …); a denied
 *   card's `reasonDenied` (text) and `AbecsReasonDenied {code (4
 *   characters), message}` (transactionsSchema, commit 0efc619).
 *
 * Celcoin's page on listing charges (developers.celcoin.com.br): `startAt` and
 * `limit` are required. Its page on creating a charge ("criar cobrança
 * avulsa"): a card charge's `PaymentMethodCreditCard {Card {myId, number,
 * holder, expiresAt (YYYY-MM), cvv}, qtdInstallments}`, the card given by its
 * own fields in the charge itself. A public Galax Pay integration: the notification
 * `{event: "transaction.updateStatus", webhookId, confirmHash, Transaction}`,
 * sent to the account's webhook, `confirmHash` being the account's
 * confirmHashWebhook (the SDK's `apiAuthSchema`).
 *
 * The stand-in's own readings, where the sources are silent: refusals as HTTP
 * 400 `{error: {message, details}}`; a charge `myId` used twice is refused; a
 * card whose number ends in 0002 is denied (its reason 'Transação não autorizada', ABECS
 * code '0051' 'SALDO/LIMITE INSUFICIENTE': the SDK shows the fields, not their values), any other captured (or authorized,
 * with `preAuthorize`); a card given by its own fields is saved on the charge's
 * customer (its CVV is not kept) and refused like POST /cards when a field is
 * wrong; a PIX or boleto charge is `active` until paid, then `closed`; the
 * token lasts 600 s.
 */
/** What a denied card's transaction says (transactionsSchema's fields; the values are the stand-in's, see above). */
const DENIAL = { reasonDenied: 'Transação não autorizada', AbecsReasonDenied: { code: '0051', message: 'SALDO/LIMITE INSUFICIENTE' } };

export const CELCOIN_SOURCES = [
  'https://github.com/Pyxlab/celcash/blob/a5f0a71/packages/core/src/contract/auth.ts',
  'https://github.com/Pyxlab/celcash/blob/a5f0a71/packages/core/src/contract/charges.ts',
  'https://github.com/Pyxlab/celcash/blob/a5f0a71/packages/core/src/contract/cards.ts',
  'https://github.com/Pyxlab/celcash/blob/a5f0a71/packages/core/src/schemas/common.ts',
  'https://github.com/Pyxlab/celcash/blob/a5f0a71/packages/core/src/schemas/charges.ts',
  'https://github.com/Pyxlab/celcash/blob/a5f0a71/packages/core/src/schemas/customers.ts',
  'https://github.com/Pyxlab/celcash/blob/a5f0a71/packages/core/src/schemas/payments.ts',
  'https://github.com/Pyxlab/celcash/blob/a5f0a71/packages/core/src/schemas/cards.ts',
  'https://github.com/Pyxlab/celcash/blob/a5f0a71/packages/core/src/schemas/transactions.ts',
  'https://github.com/Pyxlab/celcash/blob/a5f0a71/packages/core/src/utils/login.ts',
  'https://github.com/Pyxlab/celcash/blob/0efc619/packages/core/src/schemas/transactions.ts',
  'https://developers.celcoin.com.br/docs/listar-cobran%C3%A7a-avulsa',
  'https://developers.celcoin.com.br/docs/criar-cobran%C3%A7a-avulsa',
] as const;

const SCOPES = new Set([
  ...['customers.read', 'customers.write', 'plans.read', 'plans.write', 'cards.read', 'cards.write', 'subscriptions.read', 'subscriptions.write'],
  ...['charges.read', 'charges.write', 'transactions.read', 'transactions.write', 'card-brands.read', 'carnes.read', 'boletos.read'],
  ...['payment-methods.read', 'webhooks.read', 'pos.write', 'releases.read', 'antecipation.write', 'antecipation.read'],
]);
const METHODS = new Set(['creditcard', 'boleto', 'pix']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CelcashCustomerRecord {
  galaxPayId: number;
  myId: string;
  name: string;
  document: string;
  emails: string[];
  phones: number[];
}

export interface CelcashCardRecord {
  galaxPayId: number;
  myId: string;
  customerGalaxPayId: number;
  number: string;
  holder: string;
  expiresAt: string;
}

export interface CelcashTransactionRecord {
  galaxPayId: number;
  status: string;
  value: number;
  payday: string;
  statusDate: string;
  Pix: { qrCode: string; reference: string; image: string; page: string } | null;
  Boleto: { pdf: string; bankLine: string; bankNumber: number; barCode: string } | null;
  /** A denied card's reason (transactionsSchema): Cel_Cash's text, and the ABECS code (4 characters) with its message. */
  reasonDenied?: string;
  AbecsReasonDenied?: { code: string; message: string };
}

export interface CelcashChargeRecord {
  galaxPayId: number;
  myId: string;
  mainPaymentMethodId: string;
  value: number;
  status: string;
  additionalInfo: string | null;
  payday: string;
  customer: CelcashCustomerRecord;
  pixDeadlineDays: number | null;
  transaction: CelcashTransactionRecord;
}

export interface CelcoinStandIn extends StandIn {
  /** The base URL an account points at (…/v2). */
  readonly baseUrl: string;
  readonly charges: ReadonlyMap<number, CelcashChargeRecord>;
  readonly customers: readonly CelcashCustomerRecord[];
  /** Cards saved by POST /cards or given by their own fields in a charge (never their CVV). */
  readonly cards: readonly CelcashCardRecord[];
  /** The account's webhook, as set on Cel_Cash's panel (its confirmHashWebhook comes with the account). */
  registerWebhook(url: string): void;
  /** The payer pays the PIX or boleto: its transaction payedPix / payedBoleto, the charge closed, and the webhook sent. */
  pay(galaxPayId: number | string): Promise<number>;
  /** The same notification with another confirmHash (a forgery). */
  forge(galaxPayId: number | string, confirmHash: string): Promise<number>;
}

const refusal = (status: number, message: string, details: Record<string, string[]> = {}): StandInReply => ({ status, body: { error: { message, details } } });
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const now = () => new Date().toISOString().replace('T', ' ').slice(0, 19);

function brCode(cents: number, reference: string): string {
  const pix = createStaticPix({
    merchantName: 'CEL CASH LOJA EXEMPLO',
    merchantCity: 'BELO HORIZONTE',
    pixKey: '5e9b0b1c-34d8-4a49-a2f6-3f1d7c8b9a01',
    infoAdicional: reference,
    transactionAmount: cents / 100,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

export async function startCelcoinStandIn(options: { galaxId: string; galaxHash: string; confirmHashWebhook: string }): Promise<CelcoinStandIn> {
  const tokens = new Map<string, Set<string>>();
  const customers: CelcashCustomerRecord[] = [];
  const cards: CelcashCardRecord[] = [];
  const charges = new Map<number, CelcashChargeRecord>();
  const webhooks: string[] = [];
  let nextCustomer = 1_000;
  let nextCard = 5_000;
  let nextCharge = 70_000;
  let nextTransaction = 90_000;
  let nextWebhook = 300;

  /** The Bearer token's scopes, or the 401. */
  function scopesOf(request: StandInRequest): Set<string> | StandInReply {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const scopes = token ? tokens.get(token) : undefined;
    return scopes ?? refusal(401, 'Token inválido ou expirado.');
  }

  function authorized(request: StandInRequest, scope: string): StandInReply | undefined {
    const scopes = scopesOf(request);
    if (!(scopes instanceof Set)) return scopes;
    return scopes.has(scope) ? undefined : refusal(403, `O token não tem o escopo ${scope}.`);
  }

  const customerView = (customer: CelcashCustomerRecord) => ({
    galaxPayId: customer.galaxPayId,
    myId: customer.myId,
    name: customer.name,
    document: customer.document,
    emails: customer.emails,
    phones: customer.phones,
    status: 'active',
  });

  const transactionView = (charge: CelcashChargeRecord) => ({
    galaxPayId: charge.transaction.galaxPayId,
    myId: null,
    chargeGalaxPayId: charge.galaxPayId,
    chargeMyId: charge.myId,
    value: charge.transaction.value,
    payday: charge.transaction.payday,
    payedOutsideGalaxPay: false,
    installment: 1,
    status: charge.transaction.status,
    statusDate: charge.transaction.statusDate,
    ...(charge.transaction.Pix ? { Pix: charge.transaction.Pix } : {}),
    ...(charge.transaction.Boleto ? { Boleto: { ...charge.transaction.Boleto, bankEmissor: 'bancoob', bankAgency: '4340', bankAccount: '000004' } } : {}),
    ...(charge.transaction.AbecsReasonDenied ? { reasonDenied: charge.transaction.reasonDenied, AbecsReasonDenied: charge.transaction.AbecsReasonDenied } : {}),
  });

  const chargeView = (charge: CelcashChargeRecord) => ({
    galaxPayId: String(charge.galaxPayId),
    myId: charge.myId,
    planGalaxPayId: null,
    planMyId: null,
    mainPaymentMethodId: charge.mainPaymentMethodId,
    paymentLink: `https://celcash.celcoin.com.br/link/${charge.galaxPayId}`,
    additionalInfo: charge.additionalInfo,
    value: charge.value,
    status: charge.status,
    payedOutsideGalaxPay: false,
    Customer: customerView(charge.customer),
    Transactions: [transactionView(charge)],
    ...(charge.pixDeadlineDays ? { PaymentMethodPix: { Deadline: { type: 'days', value: charge.pixDeadlineDays } } } : {}),
  });

  /** The charge's Customer: one already known (galaxPayId, myId or document), else a new one with myId (UUID), name, document and emails. */
  function customerOf(value: unknown): CelcashCustomerRecord | StandInReply {
    if (!isRecord(value)) return refusal(400, 'Customer é obrigatório.', { Customer: ['obrigatório'] });
    const known =
      customers.find((customer) => value.galaxPayId !== undefined && customer.galaxPayId === Number(value.galaxPayId)) ??
      customers.find((customer) => text(value.myId) !== undefined && customer.myId === text(value.myId)) ??
      (value.myId === undefined ? customers.find((customer) => text(value.document) !== undefined && customer.document === text(value.document)) : undefined);
    if (known) return known;
    const myId = text(value.myId);
    const name = text(value.name);
    const document = text(value.document);
    const emails = Array.isArray(value.emails) ? value.emails.filter((email): email is string => typeof email === 'string' && email.includes('@')) : [];
    const details: Record<string, string[]> = {};
    if (!myId || !UUID.test(myId)) details['Customer.myId'] = ['deve ser um UUID'];
    if (!name) details['Customer.name'] = ['obrigatório'];
    if (!document || !/^\d{11,14}$/.test(document)) details['Customer.document'] = ['deve ter de 11 a 14 dígitos'];
    if (!emails.length) details['Customer.emails'] = ['obrigatório'];
    if (Object.keys(details).length) return refusal(400, 'Dados do cliente inválidos.', details);
    const phones = Array.isArray(value.phones) ? value.phones.map(Number).filter(Number.isFinite) : [];
    const customer = { galaxPayId: ++nextCustomer, myId: myId!, name: name!, document: document!, emails, phones };
    customers.push(customer);
    return customer;
  }

  /** A card's own fields (`{myId, number, holder, expiresAt, cvv}`) saved on a customer, or the refusal. */
  function saveCard(body: Record<string, unknown>, customer: CelcashCustomerRecord): CelcashCardRecord | StandInReply {
    const myId = text(body.myId);
    const number = (text(body.number) ?? '').replace(/\s/g, '');
    if (!myId || !UUID.test(myId) || !/^\d{13,19}$/.test(number) || !text(body.holder) || !/^\d{4}-\d{2}$/.test(String(body.expiresAt)))
      return refusal(400, 'Dados do cartão inválidos.');
    if (!/^\d{3,4}$/.test(String(body.cvv))) return refusal(400, 'cvv inválido.', { cvv: ['3 ou 4 dígitos'] });
    const card = {
      galaxPayId: ++nextCard,
      myId,
      customerGalaxPayId: customer.galaxPayId,
      number,
      holder: text(body.holder)!,
      expiresAt: String(body.expiresAt),
    };
    cards.push(card);
    return card;
  }

  /** A charge's Card: given by its own fields (a number among them), else a saved one by galaxPayId or myId. */
  function chargedCard(reference: Record<string, unknown>, customer: CelcashCustomerRecord): CelcashCardRecord | StandInReply {
    if (reference.number !== undefined) return saveCard(reference, customer);
    const card =
      reference.galaxPayId !== undefined
        ? cards.find((saved) => saved.galaxPayId === Number(reference.galaxPayId))
        : cards.find((saved) => saved.myId === text(reference.myId));
    return card ?? refusal(400, 'Cartão não encontrado.', { 'PaymentMethodCreditCard.Card': ['não encontrado'] });
  }

  function createCharge(request: StandInRequest): StandInReply {
    const denied = authorized(request, 'charges.write');
    if (denied) return denied;
    const body = isRecord(request.body) ? request.body : {};
    const myId = body.myId === undefined || body.myId === null ? undefined : String(body.myId);
    if (!myId) return refusal(400, 'myId é obrigatório.', { myId: ['obrigatório'] });
    if ([...charges.values()].some((charge) => charge.myId === myId))
      return refusal(400, `Já existe uma cobrança com o myId ${myId}.`, { myId: ['duplicado'] });
    const value = Number(body.value);
    if (!Number.isInteger(value) || value <= 0) return refusal(400, 'value deve ser um valor em centavos.', { value: ['inválido'] });
    const payday = String(body.payday ?? '');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(payday)) return refusal(400, 'Data de vencimento inválida.', { payday: ['Data de vencimento inválida.'] });
    const method = String(body.mainPaymentMethodId ?? '');
    if (!METHODS.has(method)) return refusal(400, 'mainPaymentMethodId inválido.', { mainPaymentMethodId: ['creditcard, boleto ou pix'] });
    const customer = customerOf(body.Customer);
    if (!('galaxPayId' in customer)) return customer;

    const galaxPayId = ++nextCharge;
    const transactionId = ++nextTransaction;
    let transaction: CelcashTransactionRecord = { galaxPayId: transactionId, status: '', value, payday, statusDate: now(), Pix: null, Boleto: null };
    let status = 'active';
    let pixDeadlineDays: number | null = null;
    if (method === 'pix') {
      const deadline = isRecord(body.PaymentMethodPix) && isRecord(body.PaymentMethodPix.Deadline) ? body.PaymentMethodPix.Deadline : undefined;
      if (deadline && (deadline.type !== 'days' || !Number.isInteger(deadline.value)))
        return refusal(400, 'PaymentMethodPix.Deadline inválido.', { 'PaymentMethodPix.Deadline': ['type days e value inteiro'] });
      pixDeadlineDays = deadline ? Number(deadline.value) : null;
      const reference = `CELCASH${transactionId}`;
      transaction = {
        ...transaction,
        status: 'pendingPix',
        Pix: {
          qrCode: brCode(value, reference),
          reference,
          image: `https://celcash.celcoin.com.br/pix/qr/${transactionId}.png`,
          page: `https://celcash.celcoin.com.br/pix/${transactionId}`,
        },
      };
    } else if (method === 'boleto') {
      const barCode = buildBarcode({
        bankCode: '756',
        amountCents: value,
        dueDate: new Date(`${payday}T12:00:00-03:00`),
        freeField: String(transactionId).padStart(25, '0'),
      });
      transaction = {
        ...transaction,
        status: 'pendingBoleto',
        Boleto: { pdf: `https://celcash.celcoin.com.br/boleto/${transactionId}.pdf`, bankLine: barcodeToDigitableLine(barCode), bankNumber: 756, barCode },
      };
    } else {
      const payment = isRecord(body.PaymentMethodCreditCard) ? body.PaymentMethodCreditCard : undefined;
      const reference = payment && isRecord(payment.Card) ? payment.Card : undefined;
      if (!reference) return refusal(400, 'PaymentMethodCreditCard é obrigatório para creditcard.', { PaymentMethodCreditCard: ['obrigatório'] });
      const card = chargedCard(reference, customer);
      if (!('galaxPayId' in card)) return card;
      const outcome = card.number.endsWith('0002') ? 'denied' : payment?.preAuthorize === true ? 'authorized' : 'captured';
      transaction = { ...transaction, status: outcome, ...(outcome === 'denied' ? DENIAL : {}) };
      status = outcome === 'captured' ? 'closed' : 'active';
    }
    const charge: CelcashChargeRecord = {
      galaxPayId,
      myId,
      mainPaymentMethodId: method,
      value,
      status,
      additionalInfo: text(body.additionalInfo) ?? null,
      payday,
      customer,
      pixDeadlineDays,
      transaction,
    };
    charges.set(galaxPayId, charge);
    return { body: { type: true, Charge: chargeView(charge) } };
  }

  const chargeByPath = (request: StandInRequest) => {
    const id = request.params.id!;
    return request.params.typeId === 'myId'
      ? [...charges.values()].find((charge) => charge.myId === id)
      : request.params.typeId === 'galaxPayId'
        ? charges.get(Number(id))
        : undefined;
  };

  async function notify(charge: CelcashChargeRecord, confirmHash: string): Promise<number> {
    const body = JSON.stringify({
      event: 'transaction.updateStatus',
      webhookId: ++nextWebhook,
      confirmHash,
      Transaction: { ...transactionView(charge), Customer: customerView(charge.customer) },
    });
    const statuses = await Promise.all(
      webhooks.map(async (url) => {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    return statuses[0] ?? 0;
  }

  const known = (galaxPayId: number | string) => {
    const charge = charges.get(Number(galaxPayId));
    if (!charge) throw new Error(`no Cel_Cash charge ${galaxPayId}`);
    return charge;
  };

  const standIn = await startStandIn({
    name: 'Cel_Cash',
    sources: CELCOIN_SOURCES,
    routes: [
      {
        method: 'POST',
        path: '/v2/token',
        handle: (request) => {
          if (request.headers.authorization !== `Basic ${Buffer.from(`${options.galaxId}:${options.galaxHash}`).toString('base64')}`)
            return refusal(401, 'Credenciais inválidas.');
          const body = isRecord(request.body) ? request.body : {};
          if (body.grant_type !== 'authorization_code' && body.grant_type !== 'refresh_token')
            return refusal(400, 'grant_type inválido.', { grant_type: ['authorization_code ou refresh_token'] });
          const scopes = String(body.scope ?? '')
            .split(' ')
            .filter(Boolean);
          if (!scopes.length || scopes.some((scope) => !SCOPES.has(scope))) return refusal(400, 'scope inválido.', { scope: ['escopos conhecidos'] });
          const accessToken = randomBytes(24).toString('hex');
          tokens.set(accessToken, new Set(scopes));
          return { body: { access_token: accessToken, token_type: 'Bearer', expires_in: 600, scope: scopes.join(' ') } };
        },
      },
      { method: 'POST', path: '/v2/charges', handle: createCharge },
      {
        method: 'GET',
        path: '/v2/charges',
        handle: (request) => {
          const denied = authorized(request, 'charges.read');
          if (denied) return denied;
          const startAt = Number(request.query.startAt);
          const limit = Number(request.query.limit);
          if (request.query.startAt === undefined || !Number.isInteger(startAt) || startAt < 0)
            return refusal(400, 'startAt é obrigatório.', { startAt: ['obrigatório, a partir de 0'] });
          if (request.query.limit === undefined || !Number.isInteger(limit) || limit < 0 || limit > 100)
            return refusal(400, 'limit é obrigatório.', { limit: ['obrigatório, de 0 a 100'] });
          const ids = (request.query.galaxPayIds ?? '').split(',').filter(Boolean).map(Number);
          const found = [...charges.values()].filter((charge) => !ids.length || ids.includes(charge.galaxPayId)).slice(startAt, startAt + limit);
          return { body: { totalQtdFoundInPage: found.length, Charges: found.map(chargeView) } };
        },
      },
      {
        method: 'PUT',
        path: '/v2/charges/{id}/{typeId}/capture',
        handle: (request) => {
          const denied = authorized(request, 'charges.write');
          if (denied) return denied;
          const charge = chargeByPath(request);
          if (!charge) return refusal(404, 'Cobrança não encontrada.');
          if (charge.transaction.status !== 'authorized') return refusal(400, 'A transação não está autorizada.');
          charge.transaction.status = 'captured';
          charge.status = 'closed';
          return { body: chargeView(charge) };
        },
      },
      {
        method: 'POST',
        path: '/v2/cards/{customerId}/{typeId}',
        handle: (request) => {
          const denied = authorized(request, 'cards.write');
          if (denied) return denied;
          const id = request.params.customerId!;
          const customer =
            request.params.typeId === 'galaxPayId' ? customers.find((known) => known.galaxPayId === Number(id)) : customers.find((known) => known.myId === id);
          if (!customer) return refusal(404, 'Cliente não encontrado.');
          const card = saveCard(isRecord(request.body) ? request.body : {}, customer);
          if (!('galaxPayId' in card)) return card;
          const { myId, number } = card;
          return {
            body: {
              type: true,
              Card: {
                galaxPayId: card.galaxPayId,
                myId,
                number: `${number.slice(0, 6)}******${number.slice(-4)}`,
                holder: card.holder,
                expiresAt: card.expiresAt,
                customerMyId: customer.myId,
                customerGalaxPayId: customer.galaxPayId,
                createdAt: now(),
                updatedAt: now(),
                Brand: { id: 'visa', name: 'Visa', maxInstallment: 12, operatorIds: 'galaxpay' },
              },
            },
          };
        },
      },
    ],
  });

  return Object.assign(standIn, {
    baseUrl: `${standIn.url}/v2`,
    charges,
    customers,
    cards,
    registerWebhook: (url: string) => {
      webhooks.push(url);
    },
    async pay(galaxPayId: number | string) {
      const charge = known(galaxPayId);
      const paid: Record<string, string> = { pendingPix: 'payedPix', pendingBoleto: 'payedBoleto' };
      const status = paid[charge.transaction.status];
      if (!status) throw new Error(`Cel_Cash charge ${galaxPayId} is ${charge.transaction.status}`);
      charge.transaction.status = status;
      charge.transaction.statusDate = now();
      charge.status = 'closed';
      return notify(charge, options.confirmHashWebhook);
    },
    forge: (galaxPayId: number | string, confirmHash: string) => notify(known(galaxPayId), confirmHash),
  });
}
