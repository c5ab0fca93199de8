import { randomBytes, randomUUID } from 'node:crypto';
import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';
import { createDynamicPix, hasError } from 'pix-utils';
import { barcodeToDigitableLine, buildBarcode } from '../../server/lib/boleto.js';
import { passesLuhn } from '../../server/lib/luhn.js';
import { centsToReais, reaisToCents } from '../../server/lib/money.js';
import { qrPng } from '../../server/lib/pixQrCode.js';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * Asaas (API v3) as its own documentation describes it, for the gateway's
 * acceptance test (tests/standins/asaas.test.ts). Everything lives under /v3,
 * as at https://api.asaas.com/v3.
 *
 * What is Asaas's, with its source:
 * - the API key in the `access_token` header (never `Authorization`), a
 *   `User-Agent` on every call, HTTP 401 for a missing or wrong key
 *   (Autenticação);
 * - JSON in and out; a GET with a body is HTTP 403; a refusal is HTTP 400
 *   `{errors: [{code, description}]}`; an unknown object HTTP 404 (HTTP
 *   response codes);
 * - customers: `name` and `cpfCnpj` required, listed by `cpfCnpj` in pages
 *   `{object: "list", hasMore, totalCount, limit (≤ 100), offset, data}`;
 *   Asaas does not prevent duplicates (create customer, list customers);
 * - card tokenization, POST /creditCard/tokenizeCreditCard `{customer,
 *   creditCard {holderName, number, expiryMonth, expiryYear, ccv},
 *   creditCardHolderInfo {name, email, cpfCnpj, postalCode, addressNumber,
 *   phone}, remoteIp}` → `{creditCardNumber (last 4), creditCardBrand,
 *   creditCardToken}`; "the token is stored per customer and cannot be used
 *   for transactions from other customers" (credit card tokenization);
 * - a payment may carry the card's own fields instead, `creditCard` and
 *   `creditCardHolderInfo` (the same objects) with `remoteIp`: authorized at
 *   creation (HTTP 200, the payment's `creditCard.creditCardToken` for the
 *   customer's next charges) or refused (HTTP 400, nothing persisted); the
 *   sandbox refuses 5184019740373151 and 4916561358240741 (create payment
 *   with credit card);
 * - payments: `customer`, `billingType` (UNDEFINED, BOLETO, CREDIT_CARD, PIX),
 *   `value` in reais, `dueDate` (not before today) required; a card payment
 *   with its card or token needs `remoteIp`, is authorized at once (HTTP 200,
 *   CONFIRMED) or refused (HTTP 400, nothing persisted) (create payment,
 *   create payment with credit card); `pixQrCode` → `{encodedImage, payload,
 *   expirationDate}`; `identificationField` → `{identificationField,
 *   nossoNumero, barCode}`;
 * - refunds: card payments received or confirmed, PIX payments in full or in
 *   several partial refunds whose sum cannot exceed the payment; no value
 *   means the whole; the payment answered with its `refunds` (PENDING,
 *   CANCELLED, DONE); a PIX refund needs the balance, fees not being refunded
 *   (refund payment, Refunds);
 * - payment statuses and PAYMENT_* events; transfers `{value, operationType
 *   PIX, pixAddressKey, pixAddressKeyType CPF|CNPJ|EMAIL|PHONE|EVP,
 *   description, externalReference}` with statuses PENDING, BANK_PROCESSING,
 *   DONE, CANCELLED, FAILED (its `failReason`) and TRANSFER_* events; webhooks `{id: "evt_…",
 *   event, dateCreated, payment | transfer}` sent with the configured token in
 *   the `asaas-access-token` header, configured by POST /webhooks with an
 *   `authToken` of 32 to 255 characters without spaces (webhook guides);
 * - the account's balance, GET /finance/balance → `{balance}` in reais
 *   (retrieve account balance, FinanceBalanceResponseDTO).
 *
 * The stand-in's own readings, where the documentation is silent: the exact
 * error codes and descriptions; when a PIX refund settles (its refund PENDING
 * until `settleRefunds`, a full one leaving the payment REFUND_IN_PROGRESS
 * until then); a PIX or boleto is RECEIVED when paid, a card CONFIRMED; fees
 * of R$ 0,99 (PIX), R$ 1,99 (boleto) and 2,99 % + R$ 0,49 (card) as
 * `netValue`; boleto refunds and installments (`installmentCount`) are
 * refused as not modelled; nothing is notified except by the test hooks.
 */
/**
 * A failed transfer's `failReason` ("Failure reason, when applicable": Events for transfers,
 * https://docs.asaas.com/docs/transfer-events). The pages show the field only as null: this text is invented.
 */
export const ASAAS_TRANSFER_FAIL_REASON = 'Chave Pix não encontrada no DICT.';

export const ASAAS_SOURCES = [
  'https://docs.asaas.com/docs/autentica%C3%A7%C3%A3o-1',
  'https://docs.asaas.com/reference/http-response-codes',
  'https://docs.asaas.com/reference/list-customers',
  'https://docs.asaas.com/docs/criando-um-cliente',
  'https://docs.asaas.com/reference/criar-nova-cobranca',
  'https://docs.asaas.com/reference/create-new-payment-with-credit-card',
  'https://docs.asaas.com/reference/credit-card-tokenization',
  'https://docs.asaas.com/docs/cobrancas-via-pix',
  'https://docs.asaas.com/docs/cobrancas-via-boleto',
  'https://docs.asaas.com/reference/refund-payment',
  'https://docs.asaas.com/docs/refunds',
  'https://docs.asaas.com/reference/criar-transferencia',
  'https://docs.asaas.com/docs/sobre-os-webhooks',
  'https://docs.asaas.com/docs/create-new-webhook-via-web-application',
  'https://docs.asaas.com/docs/webhook-para-cobrancas',
  'https://docs.asaas.com/docs/webhook-para-transferencias',
  'https://docs.asaas.com/docs/transfer-events',
  'https://docs.asaas.com/reference/retrieve-account-balance',
  'https://docs.asaas.com/reference/retrieve-a-single-payment',
] as const;

type BillingType = 'UNDEFINED' | 'BOLETO' | 'CREDIT_CARD' | 'PIX';

export interface AsaasCustomer {
  object: 'customer';
  id: string;
  dateCreated: string;
  name: string;
  cpfCnpj: string;
  email: string | null;
  mobilePhone: string | null;
  personType: 'FISICA' | 'JURIDICA';
  deleted: boolean;
  externalReference: string | null;
}

interface Refund {
  dateCreated: string;
  status: 'PENDING' | 'DONE' | 'CANCELLED';
  /** Cents. */
  value: number;
  description: string | null;
  transactionReceiptUrl: string | null;
}

export interface AsaasPaymentRecord {
  id: string;
  customer: string;
  billingType: BillingType;
  /** Cents. */
  value: number;
  feeCents: number;
  status: string;
  dateCreated: string;
  dueDate: string;
  paymentDate: string | null;
  description: string | null;
  externalReference: string | null;
  creditCard: { creditCardNumber: string; creditCardBrand: string; creditCardToken: string } | null;
  refunds: Refund[];
  /** Boleto: its 44-digit barcode and nosso número. */
  barCode: string | null;
  nossoNumero: string | null;
  pixPayload: string | null;
}

export interface AsaasTransferRecord {
  id: string;
  /** Cents. */
  value: number;
  status: 'PENDING' | 'BANK_PROCESSING' | 'DONE' | 'CANCELLED' | 'FAILED';
  dateCreated: string;
  effectiveDate: string | null;
  endToEndIdentifier: string | null;
  failReason: string | null;
  pixAddressKey: string;
  pixAddressKeyType: string;
  description: string | null;
  externalReference: string | null;
}

interface CardToken {
  customer: string;
  last4: string;
  brand: string;
  declined: boolean;
}

/** The sandbox's cards that are refused (create payment with credit card: 5184019740373151 Mastercard, 4916561358240741 Visa). */
const DECLINED_CARDS = new Set(['5184019740373151', '4916561358240741']);

interface WebhookConfig {
  id: string;
  url: string;
  authToken: string | null;
  enabled: boolean;
  events: string[];
}

export interface AsaasStandIn extends StandIn {
  /** The base URL an account points at (…/v3). */
  readonly baseUrl: string;
  readonly customers: ReadonlyMap<string, AsaasCustomer>;
  readonly payments: ReadonlyMap<string, AsaasPaymentRecord>;
  readonly transfers: ReadonlyMap<string, AsaasTransferRecord>;
  /** The account's balance, in cents. */
  readonly balance: number;
  /** The payer pays a PIX or boleto: RECEIVED, the balance credited, PAYMENT_RECEIVED sent to the webhooks. */
  pay(paymentId: string): Promise<number[]>;
  /** The payment's pending (PIX) refunds settle: DONE, and PAYMENT_REFUNDED or PAYMENT_PARTIALLY_REFUNDED sent. */
  settleRefunds(paymentId: string): Promise<number[]>;
  /** The bank settles a transfer: DONE (TRANSFER_DONE) or FAILED, the money given back (TRANSFER_FAILED). */
  settleTransfer(transferId: string, outcome: 'DONE' | 'FAILED'): Promise<number[]>;
}

const MAX_PAGE = 100;
const FEES: Record<BillingType, (cents: number) => number> = {
  PIX: () => 99,
  BOLETO: () => 199,
  CREDIT_CARD: (cents) => Math.round(cents * 0.0299) + 49,
  UNDEFINED: () => 199,
};

/** Asaas's refusal: HTTP 400 `{errors: [{code, description}]}`. */
const refused = (code: string, description: string): StandInReply => ({ status: 400, body: { errors: [{ code, description }] } });
const notFound: StandInReply = { status: 404, body: '' };

const digits = (value: unknown): string => (typeof value === 'string' ? value.replace(/\D/g, '') : '');
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

function record(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** Today in Brasília, as Asaas's dates are written ('2025-03-10'). */
function brazilToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

function brazilDateTime(now: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Sao_Paulo',
    ...{ year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  }).formatToParts(now);
  const part = (type: string) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'VISA';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'MASTERCARD';
  if (/^3[47]/.test(number)) return 'AMEX';
  if (/^(606282|3841)/.test(number)) return 'HIPERCARD';
  return 'ELO';
}

const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

const PIX_KEY_RULES: Record<string, (key: string) => boolean> = {
  CPF: (key) => isValidCpf(key),
  CNPJ: (key) => isValidCnpj(key),
  EMAIL: isEmail,
  PHONE: (key) => /^(\+?55)?\d{10,11}$/.test(key),
  EVP: (key) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key),
};

export async function startAsaasStandIn(options: { apiKey: string; balanceCents?: number; now?: () => Date }): Promise<AsaasStandIn> {
  const now = options.now ?? (() => new Date());
  const customers = new Map<string, AsaasCustomer>();
  const payments = new Map<string, AsaasPaymentRecord>();
  const transfers = new Map<string, AsaasTransferRecord>();
  const tokens = new Map<string, CardToken>();
  const webhooks: WebhookConfig[] = [];
  let balance = options.balanceCents ?? 100_000;
  let sequence = 5_219_600;
  let events = 368_604_900;
  const nextId = (prefix: string) => `${prefix}${String(++sequence).padStart(12, '0')}`;

  const paymentView = (payment: AsaasPaymentRecord) => ({
    object: 'payment',
    id: payment.id,
    dateCreated: payment.dateCreated.slice(0, 10),
    customer: payment.customer,
    paymentLink: null,
    value: centsToReais(payment.value),
    netValue: centsToReais(payment.value - payment.feeCents),
    originalValue: null,
    interestValue: null,
    description: payment.description,
    billingType: payment.billingType,
    pixTransaction: null,
    status: payment.status,
    dueDate: payment.dueDate,
    originalDueDate: payment.dueDate,
    paymentDate: payment.paymentDate,
    clientPaymentDate: payment.paymentDate,
    installmentNumber: null,
    invoiceUrl: `https://www.asaas.com/i/${payment.id.slice(4)}`,
    invoiceNumber: payment.id.slice(-8),
    externalReference: payment.externalReference,
    deleted: false,
    anticipated: false,
    anticipable: false,
    creditDate: null,
    estimatedCreditDate: null,
    transactionReceiptUrl: null,
    nossoNumero: payment.nossoNumero,
    bankSlipUrl: payment.billingType === 'BOLETO' || payment.billingType === 'UNDEFINED' ? `https://www.asaas.com/b/pdf/${payment.id.slice(4)}` : null,
    ...(payment.creditCard ? { creditCard: payment.creditCard } : {}),
    refunds: payment.refunds.length
      ? payment.refunds.map((refund) => ({ ...refund, value: centsToReais(refund.value), endToEndIdentifier: null, refundedSplits: null }))
      : null,
  });

  const transferView = (transfer: AsaasTransferRecord) => ({
    object: 'transfer',
    id: transfer.id,
    type: 'BANK_ACCOUNT',
    dateCreated: transfer.dateCreated.slice(0, 10),
    value: centsToReais(transfer.value),
    netValue: centsToReais(transfer.value),
    status: transfer.status,
    transferFee: 0,
    effectiveDate: transfer.effectiveDate,
    scheduleDate: transfer.dateCreated.slice(0, 10),
    endToEndIdentifier: transfer.endToEndIdentifier,
    authorized: true,
    failReason: transfer.failReason,
    externalReference: transfer.externalReference,
    transactionReceiptUrl: transfer.status === 'DONE' ? `https://www.asaas.com/comprovantes/${transfer.id}` : null,
    operationType: 'PIX',
    description: transfer.description,
    recurring: null,
    bankAccount: { pixAddressKey: transfer.pixAddressKey, pixAddressKeyType: transfer.pixAddressKeyType },
  });

  /** Asaas's notification to every enabled webhook that takes the event, with its token in `asaas-access-token`; the HTTP statuses answered. */
  async function notify(event: string, object: { payment: unknown } | { transfer: unknown }): Promise<number[]> {
    const body = JSON.stringify({ id: `evt_${randomBytes(16).toString('hex')}&${++events}`, event, dateCreated: brazilDateTime(now()), ...object });
    const targets = webhooks.filter((hook) => hook.enabled && (hook.events.length === 0 || hook.events.includes(event)));
    return Promise.all(
      targets.map(async (hook) => {
        const response = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(hook.authToken ? { 'asaas-access-token': hook.authToken } : {}) },
          body,
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
  }

  function createCustomer(request: StandInRequest): StandInReply {
    const body = record(request.body);
    const name = text(body.name);
    if (!name) return refused('invalid_name', 'O campo nome deve ser informado.');
    const cpfCnpj = digits(body.cpfCnpj);
    if (!cpfCnpj) return refused('invalid_cpfCnpj', 'O campo CPF/CNPJ deve ser informado.');
    if (!(cpfCnpj.length === 11 ? isValidCpf(cpfCnpj) : cpfCnpj.length === 14 && isValidCnpj(cpfCnpj)))
      return refused('invalid_cpfCnpj', 'O CPF/CNPJ informado é inválido.');
    const email = text(body.email) ?? null;
    if (email && !isEmail(email)) return refused('invalid_email', 'O email informado é inválido.');
    const mobilePhone = body.mobilePhone === undefined || body.mobilePhone === null ? null : digits(body.mobilePhone);
    if (mobilePhone !== null && !/^\d{10,11}$/.test(mobilePhone)) return refused('invalid_mobilePhone', 'O celular informado é inválido.');
    const customer: AsaasCustomer = {
      object: 'customer',
      id: nextId('cus_'),
      dateCreated: brazilToday(now()),
      name,
      cpfCnpj,
      email,
      mobilePhone,
      personType: cpfCnpj.length === 11 ? 'FISICA' : 'JURIDICA',
      deleted: false,
      externalReference: text(body.externalReference) ?? null,
    };
    customers.set(customer.id, customer);
    return { body: customer };
  }

  function listCustomers(request: StandInRequest): StandInReply {
    const limit = Math.min(Number(request.query.limit ?? 10) || 10, MAX_PAGE);
    const offset = Number(request.query.offset ?? 0) || 0;
    const cpfCnpj = request.query.cpfCnpj === undefined ? undefined : digits(request.query.cpfCnpj);
    const matching = [...customers.values()].filter((customer) => !customer.deleted && (cpfCnpj === undefined || customer.cpfCnpj === cpfCnpj));
    const data = matching.slice(offset, offset + limit);
    return { body: { object: 'list', hasMore: offset + data.length < matching.length, totalCount: matching.length, limit, offset, data } };
  }

  /** A card and its holder as Asaas takes them (tokenization, and a payment with the card's own fields), kept as a token of the customer's. */
  function cardOf(body: Record<string, unknown>, customer: AsaasCustomer): { token: string } | StandInReply {
    const card = record(body.creditCard);
    const holder = record(body.creditCardHolderInfo);
    if (!text(body.remoteIp)) return refused('invalid_remoteIp', 'O campo remoteIp deve ser informado.');
    for (const field of ['holderName', 'number', 'expiryMonth', 'expiryYear', 'ccv'])
      if (!text(card[field])) return refused('invalid_creditCard', `O campo creditCard.${field} deve ser informado.`);
    for (const field of ['name', 'email', 'cpfCnpj', 'postalCode', 'addressNumber', 'phone'])
      if (!text(holder[field])) return refused('invalid_creditCardHolderInfo', `O campo creditCardHolderInfo.${field} deve ser informado.`);
    const number = digits(card.number);
    if (number.length < 13 || !passesLuhn(number)) return refused('invalid_creditCard', 'O número do cartão de crédito é inválido.');
    if (!/^\d{2}$/.test(String(card.expiryMonth)) || !/^\d{4}$/.test(String(card.expiryYear)))
      return refused('invalid_creditCard', 'A validade do cartão de crédito é inválida.');
    const token = randomUUID();
    tokens.set(token, { customer: customer.id, last4: number.slice(-4), brand: cardBrand(number), declined: DECLINED_CARDS.has(number) });
    return { token };
  }

  function tokenize(request: StandInRequest): StandInReply {
    const body = record(request.body);
    const customer = customers.get(text(body.customer) ?? '');
    if (!customer || customer.deleted) return refused('invalid_customer', 'Cliente inválido ou não informado.');
    const made = cardOf(body, customer);
    if (!('token' in made)) return made;
    const token = tokens.get(made.token)!;
    return { body: { creditCardNumber: token.last4, creditCardBrand: token.brand, creditCardToken: made.token } };
  }

  function createPayment(request: StandInRequest): StandInReply {
    const body = record(request.body);
    const customer = customers.get(text(body.customer) ?? '');
    if (!text(body.customer)) return refused('invalid_customer', 'O campo customer deve ser informado.');
    if (!customer || customer.deleted) return refused('invalid_customer', 'Cliente inexistente ou removido.');
    const billingType = body.billingType;
    if (billingType !== 'UNDEFINED' && billingType !== 'BOLETO' && billingType !== 'CREDIT_CARD' && billingType !== 'PIX')
      return refused('invalid_billingType', 'Informe uma forma de pagamento válida (billingType).');
    if (typeof body.value !== 'number' || !(body.value > 0)) return refused('invalid_value', 'O campo value deve ser informado.');
    const dueDate = typeof body.dueDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(body.dueDate) ? body.dueDate : undefined;
    if (!dueDate) return refused('invalid_dueDate', 'O campo dueDate deve ser informado no formato AAAA-MM-DD.');
    if (dueDate < brazilToday(now())) return refused('invalid_dueDate', 'A data de vencimento não pode ser anterior à data de hoje.');
    if (body.installmentCount !== undefined && Number(body.installmentCount) > 1)
      return refused('invalid_installmentCount', 'Parcelamento não modelado por este stand-in.');
    const description = text(body.description) ?? null;
    if (description && description.length > 500) return refused('invalid_description', 'A descrição não pode ter mais de 500 caracteres.');
    const value = reaisToCents(body.value);
    const payment: AsaasPaymentRecord = {
      id: `pay_${randomBytes(6).toString('hex')}`,
      customer: customer.id,
      billingType,
      value,
      feeCents: FEES[billingType](value),
      status: 'PENDING',
      dateCreated: brazilDateTime(now()),
      dueDate,
      paymentDate: null,
      description,
      externalReference: text(body.externalReference) ?? null,
      creditCard: null,
      refunds: [],
      barCode: null,
      nossoNumero: null,
      pixPayload: null,
    };
    if (billingType === 'CREDIT_CARD' && (body.creditCardToken !== undefined || body.creditCard !== undefined)) {
      if (!text(body.remoteIp)) return refused('invalid_remoteIp', 'O campo remoteIp deve ser informado.');
      // The card's own fields with its holder, or the token a tokenization (or an earlier such payment) answered.
      const made = body.creditCard !== undefined ? cardOf(body, customer) : { token: text(body.creditCardToken) ?? '' };
      if (!('token' in made)) return made;
      const token = tokens.get(made.token);
      if (!token) return refused('invalid_creditCard', 'Token do cartão de crédito inválido.');
      // The token belongs to the customer it was created for (credit card tokenization): never charged on another.
      if (token.customer !== customer.id) return refused('invalid_creditCard', 'O token do cartão de crédito não pertence a este cliente.');
      // A card the issuer does not authorize: HTTP 400, and the payment is not persisted.
      if (token.declined) return refused('invalid_creditCard', 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.');
      payment.status = 'CONFIRMED';
      payment.paymentDate = brazilToday(now());
      payment.creditCard = { creditCardNumber: token.last4, creditCardBrand: token.brand, creditCardToken: made.token };
    }
    if (billingType === 'BOLETO' || billingType === 'UNDEFINED') {
      payment.nossoNumero = String(sequence).padStart(8, '0');
      const freeField = `${payment.nossoNumero}${String(Date.now()).slice(-10)}0000000`.slice(0, 25);
      payment.barCode = buildBarcode({ bankCode: '461', amountCents: value, dueDate: new Date(`${dueDate}T12:00:00-03:00`), freeField });
    }
    if (billingType !== 'CREDIT_CARD') {
      const pix = createDynamicPix({ merchantName: 'ASAAS STAND-IN', merchantCity: 'JOINVILLE', url: `pix.asaas.com/qr/cobv/${randomUUID()}` });
      if (hasError(pix)) throw new Error('could not build a BR Code');
      payment.pixPayload = pix.toBRCode();
    }
    payments.set(payment.id, payment);
    return { body: paymentView(payment) };
  }

  function payment(request: StandInRequest): AsaasPaymentRecord | undefined {
    return payments.get(request.params.id ?? '');
  }

  function refund(request: StandInRequest): StandInReply {
    const found = payment(request);
    if (!found) return notFound;
    const body = record(request.body);
    const received = found.status === 'RECEIVED' || (found.billingType === 'CREDIT_CARD' && found.status === 'CONFIRMED');
    if (!received) return refused('invalid_action', `Não é possível estornar uma cobrança com situação ${found.status}.`);
    if (found.billingType !== 'PIX' && found.billingType !== 'CREDIT_CARD')
      return refused('invalid_action', 'Estorno de boleto não modelado por este stand-in.');
    const refunded = found.refunds.filter((item) => item.status !== 'CANCELLED').reduce((sum, item) => sum + item.value, 0);
    const left = found.value - refunded;
    if (body.value !== undefined && (typeof body.value !== 'number' || !(body.value > 0))) return refused('invalid_value', 'O valor do estorno é inválido.');
    const value = body.value === undefined ? left : reaisToCents(body.value);
    if (value > left) return refused('invalid_value', 'O valor a ser estornado excede o valor disponível para estorno da cobrança.');
    const fromBalance = found.status === 'RECEIVED';
    if (fromBalance && value > balance) return refused('invalid_action', 'Saldo insuficiente para estornar a cobrança.');
    if (fromBalance) balance -= value;
    const full = value === left;
    // A card refund cancels the charge on the card at once; a PIX refund is a Pix devolução that settles later.
    const settlesLater = found.billingType === 'PIX';
    found.refunds.push({
      dateCreated: brazilDateTime(now()),
      status: settlesLater ? 'PENDING' : 'DONE',
      value,
      description: text(body.description) ?? null,
      transactionReceiptUrl: null,
    });
    if (full) found.status = settlesLater ? 'REFUND_IN_PROGRESS' : 'REFUNDED';
    return { body: paymentView(found) };
  }

  function createTransfer(request: StandInRequest): StandInReply {
    const body = record(request.body);
    if (typeof body.value !== 'number' || !(body.value > 0)) return refused('invalid_value', 'O campo value deve ser informado.');
    if (body.operationType !== undefined && body.operationType !== 'PIX' && body.operationType !== 'TED')
      return refused('invalid_operationType', 'Tipo de operação inválido.');
    if (body.bankAccount !== undefined || body.operationType === 'TED')
      return refused('invalid_action', 'Transferência para conta bancária não modelada por este stand-in.');
    const key = text(body.pixAddressKey);
    if (!key) return refused('invalid_pixAddressKey', 'Informe a chave Pix ou os dados bancários.');
    const type = text(body.pixAddressKeyType);
    const rule = type ? PIX_KEY_RULES[type] : undefined;
    if (!type || !rule) return refused('invalid_pixAddressKeyType', 'Tipo de chave Pix inválido.');
    if (!rule(key)) return refused('invalid_pixAddressKey', 'A chave Pix informada é inválida.');
    const value = reaisToCents(body.value);
    if (value > balance) return refused('invalid_value', 'Saldo insuficiente para realizar a transferência.');
    balance -= value;
    const transfer: AsaasTransferRecord = {
      id: randomUUID(),
      value,
      status: 'PENDING',
      dateCreated: brazilDateTime(now()),
      effectiveDate: null,
      endToEndIdentifier: null,
      failReason: null,
      pixAddressKey: key,
      pixAddressKeyType: type,
      description: text(body.description) ?? null,
      externalReference: text(body.externalReference) ?? null,
    };
    transfers.set(transfer.id, transfer);
    return { body: transferView(transfer) };
  }

  function createWebhook(request: StandInRequest): StandInReply {
    const body = record(request.body);
    const url = text(body.url);
    if (!url) return refused('invalid_url', 'O campo url deve ser informado.');
    const authToken = body.authToken === undefined || body.authToken === null ? null : String(body.authToken);
    if (authToken !== null && (authToken.length < 32 || authToken.length > 255 || /\s/.test(authToken)))
      return refused('invalid_authToken', 'O token de autenticação deve ter entre 32 e 255 caracteres, sem espaços.');
    const events = Array.isArray(body.events) ? body.events.map(String) : [];
    const hook: WebhookConfig = { id: randomUUID(), url, authToken, enabled: body.enabled !== false, events };
    webhooks.push(hook);
    return {
      body: {
        object: 'webhook',
        id: hook.id,
        name: text(body.name) ?? null,
        url,
        email: text(body.email) ?? null,
        enabled: hook.enabled,
        interrupted: false,
        apiVersion: 3,
        hasAuthToken: authToken !== null,
        sendType: text(body.sendType) ?? 'SEQUENTIALLY',
        events,
      },
    };
  }

  const standIn = await startStandIn({
    name: 'Asaas',
    sources: ASAAS_SOURCES,
    authenticate: (request) => {
      if (request.headers.access_token !== options.apiKey) return { status: 401, body: '' };
      // Required of every call of accounts created since 13/06/2024 (Autenticação); the answer to its absence is not documented.
      if (!request.headers['user-agent']) return refused('invalid_user_agent', 'O header User-Agent deve ser informado.');
      // "GET method calls must have an empty body" (HTTP response codes).
      if (request.method === 'GET' && request.rawBody) return { status: 403, body: '' };
      if (request.method === 'POST' && !request.headers['content-type']?.includes('application/json'))
        return refused('invalid_content_type', 'Envie o corpo em JSON (Content-Type: application/json).');
      return undefined;
    },
    routes: [
      { method: 'POST', path: '/v3/customers', handle: createCustomer },
      { method: 'GET', path: '/v3/customers', handle: listCustomers },
      {
        method: 'GET',
        path: '/v3/customers/{id}',
        handle: (request) => {
          const customer = customers.get(request.params.id ?? '');
          return customer ? { body: customer } : notFound;
        },
      },
      { method: 'POST', path: '/v3/creditCard/tokenizeCreditCard', handle: tokenize },
      { method: 'POST', path: '/v3/payments', handle: createPayment },
      {
        method: 'GET',
        path: '/v3/payments/{id}',
        handle: (request) => {
          const found = payment(request);
          return found ? { body: paymentView(found) } : notFound;
        },
      },
      {
        method: 'GET',
        path: '/v3/payments/{id}/pixQrCode',
        handle: (request) => {
          const found = payment(request);
          if (!found) return notFound;
          if (!found.pixPayload) return refused('invalid_billingType', 'Esta cobrança não pode ser paga via Pix.');
          return {
            body: {
              encodedImage: qrPng(found.pixPayload).toString('base64'),
              payload: found.pixPayload,
              expirationDate: `${found.dueDate} 23:59:59`,
              description: found.description,
            },
          };
        },
      },
      {
        method: 'GET',
        path: '/v3/payments/{id}/identificationField',
        handle: (request) => {
          const found = payment(request);
          if (!found) return notFound;
          if (!found.barCode) return refused('invalid_billingType', 'Esta cobrança não possui boleto.');
          return { body: { identificationField: barcodeToDigitableLine(found.barCode), nossoNumero: found.nossoNumero, barCode: found.barCode } };
        },
      },
      { method: 'POST', path: '/v3/payments/{id}/refund', handle: refund },
      { method: 'POST', path: '/v3/transfers', handle: createTransfer },
      {
        method: 'GET',
        path: '/v3/transfers/{id}',
        handle: (request) => {
          const transfer = transfers.get(request.params.id ?? '');
          return transfer ? { body: transferView(transfer) } : notFound;
        },
      },
      { method: 'POST', path: '/v3/webhooks', handle: createWebhook },
      { method: 'GET', path: '/v3/finance/balance', handle: () => ({ body: { balance: centsToReais(balance) } }) },
    ],
  });

  return {
    ...standIn,
    baseUrl: `${standIn.url}/v3`,
    customers,
    payments,
    transfers,
    get balance() {
      return balance;
    },
    async pay(paymentId: string) {
      const found = payments.get(paymentId);
      if (!found || found.status !== 'PENDING' || found.billingType === 'CREDIT_CARD') throw new Error(`payment ${paymentId} cannot be paid by PIX or boleto`);
      found.status = 'RECEIVED';
      found.paymentDate = brazilToday(now());
      balance += found.value - found.feeCents;
      return notify('PAYMENT_RECEIVED', { payment: paymentView(found) });
    },
    async settleRefunds(paymentId: string) {
      const found = payments.get(paymentId);
      if (!found) throw new Error(`no payment ${paymentId}`);
      for (const item of found.refunds) if (item.status === 'PENDING') item.status = 'DONE';
      const refunded = found.refunds.filter((item) => item.status === 'DONE').reduce((sum, item) => sum + item.value, 0);
      if (refunded >= found.value) found.status = 'REFUNDED';
      return notify(found.status === 'REFUNDED' ? 'PAYMENT_REFUNDED' : 'PAYMENT_PARTIALLY_REFUNDED', { payment: paymentView(found) });
    },
    async settleTransfer(transferId: string, outcome: 'DONE' | 'FAILED') {
      const transfer = transfers.get(transferId);
      if (!transfer || transfer.status !== 'PENDING') throw new Error(`transfer ${transferId} is not pending`);
      transfer.status = outcome;
      transfer.effectiveDate = brazilToday(now());
      if (outcome === 'DONE') transfer.endToEndIdentifier = `E19540550${brazilToday(now()).replace(/-/g, '')}${randomBytes(5).toString('hex').toUpperCase()}`;
      else {
        transfer.failReason = ASAAS_TRANSFER_FAIL_REASON;
        balance += transfer.value;
      }
      return notify(outcome === 'DONE' ? 'TRANSFER_DONE' : 'TRANSFER_FAILED', { transfer: transferView(transfer) });
    },
  };
}
