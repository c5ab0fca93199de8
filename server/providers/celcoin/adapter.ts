import { randomUUID } from 'node:crypto';
import type { Customer, PaymentMethod, TransactionInput, TransactionResult, TransactionStatus, WebhookResult } from '../../domain/types.js';
import { safeEqualText } from '../../lib/constantTime.js';
import { digitsOnly } from '../../lib/documents.js';
import { SECONDS_PER_DAY, brazilDate, wholeDays } from '../../lib/expiry.js';
import { ProviderCallError } from '../../lib/http/index.js';
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { idText, textOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { MASKED_SECRET, maskedJsonField } from '../kit/bodySecrets.js';

/**
 * CELCOIN (spec doc 2, group 2) is the Cel_Cash API, formerly Galax Pay (not
 * Celcoin's BaaS PIX API): provider research, groups 1–2, "CELCOIN (Cel_Cash,
 * ex-Galax Pay)", from the SDK Pyxlab/celcash (packages/core/src/schemas,
 * contract/charges.ts) and public integrations. What the spec says: POST
 * /token (scopes); POST /charges; PUT /charges/{id}/galaxPayId/capture; GET
 * /charges (galaxPayIds, startAt, limit) (§7); no refunds (§8); a 5-day pay-by
 * date, a 5-day PIX deadline, boleto validity 5 days and query limit 10 (§9).
 *
 * From the research: the token by HTTP Basic base64(galaxId:galaxHash) with a
 * JSON body {grant_type "authorization_code", scope}; charges in cents
 * (`value`) with `payday` (YYYY-MM-DD), `mainPaymentMethodId` creditcard |
 * boleto | pix, `PaymentMethodPix.Deadline {type "days", value}`, answered
 * `{type, Charge{galaxPayId, value, status, Transactions[{status, Boleto, Pix}]}}`;
 * the charge and transaction statuses below; notifications
 * `{event "transaction.updateStatus", webhookId, confirmHash, Transaction{…}}`
 * whose `confirmHash` is the account's confirmHashWebhook.
 *
 * The gateway's decisions (docs/decisions.md): the charge's galaxPayId is the
 * transaction id; its status is its first transaction's, else the charge's;
 * `myId` is the caller's idempotency key (Cel_Cash refuses a second charge with
 * the same myId), else a fresh UUID; the customer's myId is its document; the
 * pay-by date is every charge's `payday`; a card is the account's saved card
 * (cardId: its galaxPayId, or its myId), captured by PUT …/capture when
 * Cel_Cash only authorized it; scopes `charges.read charges.write`.
 *
 * Read top to bottom: declaration → wire shapes → request mappers → status
 * table → response mappers → notifications → the operations.
 */

// ---------------------------------------------------------------- declaration

/** The scopes the token is asked for (§7 "POST /token (scopes)"): reading and writing charges, the only resource used. */
export const CELCOIN_SCOPES = 'charges.read charges.write';
/** "query limit 10" (§9): GET /charges asks for at most this many. */
export const CELCOIN_QUERY_LIMIT = 10;
/** "pay-by date 5 days, PIX deadline 5 days"; boleto validity 5 days (§9). */
const FIVE_DAYS = 5 * SECONDS_PER_DAY;

export const CELCOIN_PATHS = {
  token: '/token',
  charges: '/charges',
  capture: '/charges/{id}/galaxPayId/capture',
} as const;

export const CELCOIN: ProviderDeclaration = {
  // Production host of the Cel_Cash (Galax Pay) API v2, as its public integrations use it; sandbox api.sandbox.cloud.galaxpay.com.br/v2.
  identity: { id: 'CELCOIN', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.galaxpay.com.br/v2' },
  // No refunds (§8: 'Method not implemented.'); no payouts, receivers or card tokens in the spec's calls.
  capabilities: { paymentMethods: ['PIX', 'BILLET', 'CREDIT_CARD'], webhooks: true },
  // galaxId (publicKey) and galaxHash (secretKey) as HTTP Basic; a JSON body.
  auth: {
    type: 'oauth2',
    tokenPath: CELCOIN_PATHS.token,
    body: 'json',
    clientAuth: 'basic',
    scope: CELCOIN_SCOPES,
    extraFields: { grant_type: 'authorization_code' },
  },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
  sources:
    '`/token` (scopes), `/charges`, `/charges/{id}/galaxPayId/capture`, `GET /charges` (galaxPayIds, startAt, limit 10), 5-day pay-by date and PIX deadline, no refunds: spec (doc 2 §7–§9); Basic galaxId:galaxHash token with `{grant_type: authorization_code, scope}`, charge body and answer (`myId`, `value` in cents, `payday`, `mainPaymentMethodId`, `PaymentMethodPix.Deadline`, `Transactions[{Pix, Boleto}]`), charge and transaction statuses, `{event, webhookId, confirmHash, Transaction}` notifications, host `api.galaxpay.com.br/v2`: research (SDK Pyxlab/celcash `packages/core/src/schemas`, Galax Pay integrations); status precedence, myId, customer myId, card reference, when to capture, scopes: gateway',
  expiry: { pixSeconds: FIVE_DAYS, boletoSeconds: FIVE_DAYS },
};

// ---------------------------------------------------------------- wire shapes

type MainPaymentMethodId = 'creditcard' | 'boleto' | 'pix';

export interface CelcashCustomer {
  myId: string;
  name: string;
  document: string;
  emails?: string[];
  phones?: number[];
}

/** Body of POST /charges. */
export interface ChargeRequest {
  myId: string;
  /** Cents. */
  value: number;
  /** YYYY-MM-DD. */
  payday: string;
  additionalInfo?: string;
  mainPaymentMethodId: MainPaymentMethodId;
  Customer?: CelcashCustomer;
  PaymentMethodCreditCard?: { Card: { galaxPayId: number } | { myId: string }; qtdInstallments: number };
  PaymentMethodPix?: { Deadline: { type: 'days'; value: number } };
}

export interface ChargeTransaction {
  galaxPayId?: number | string;
  status?: string;
  value?: number;
  Boleto?: { pdf?: string; bankLine?: string; barCode?: string };
  Pix?: { qrCode?: string; reference?: string; image?: string; page?: string };
}

export interface Charge {
  galaxPayId?: number | string;
  myId?: string;
  value?: number | string;
  status?: string;
  mainPaymentMethodId?: string;
  Transactions?: ChargeTransaction[];
}

/** Answer of POST /charges (and of the capture, which the SDK also shows as the bare Charge). */
export interface ChargeAnswer {
  type?: boolean;
  Charge?: Charge;
}

/** Answer of GET /charges. */
export interface ChargeList {
  totalQtdFoundInPage?: number;
  Charges?: Charge[];
}

export interface CelcashNotification {
  event?: string;
  webhookId?: number | string;
  confirmHash?: string;
  Transaction?: { galaxPayId?: number | string; chargeGalaxPayId?: number | string; status?: string; value?: number };
}

// ---------------------------------------------------------------- request mappers

const METHODS = paymentMethodCodec<PaymentMethod, MainPaymentMethodId>({ PIX: 'pix', BILLET: 'boleto', CREDIT_CARD: 'creditcard' });

/** A calendar date in Brazil (Cel_Cash's `payday`), whatever the server's time zone. */
export const celcashPayday = (date: Date): string => brazilDate(date);

/** Cel_Cash takes a new customer with myId, name, document and emails; without a name and a document it gets none. */
export function toCelcashCustomer(customer: Customer | undefined): CelcashCustomer | undefined {
  const document = digitsOnly(customer?.document ?? '');
  if (!customer?.name?.trim() || !document) return undefined;
  const phone = Number(nationalPhoneDigits(customer.phone ?? ''));
  return {
    myId: document,
    name: customer.name.trim(),
    document,
    ...(customer.email ? { emails: [customer.email] } : {}),
    ...(phone ? { phones: [phone] } : {}),
  };
}

/** A saved card: its galaxPayId when the id is numeric, else the account's own myId for it. */
const savedCard = (cardId: string): { galaxPayId: number } | { myId: string } => (/^\d+$/.test(cardId) ? { galaxPayId: Number(cardId) } : { myId: cardId });

export function toChargeRequest(input: TransactionInput, terms: { myId: string; payday: string; pixDeadlineDays: number }): ChargeRequest {
  const customer = toCelcashCustomer(input.customer);
  const additionalInfo = input.description || input.orderId;
  return {
    myId: terms.myId,
    value: input.amount,
    payday: terms.payday,
    ...(additionalInfo ? { additionalInfo } : {}),
    mainPaymentMethodId: METHODS.toProvider(input.paymentMethod),
    ...(customer ? { Customer: customer } : {}),
    ...(input.paymentMethod === 'CREDIT_CARD'
      ? { PaymentMethodCreditCard: { Card: savedCard(input.cardId ?? ''), qtdInstallments: input.installments || 1 } }
      : {}),
    ...(input.paymentMethod === 'PIX' ? { PaymentMethodPix: { Deadline: { type: 'days', value: terms.pixDeadlineDays } } } : {}),
  };
}

// ---------------------------------------------------------------- status table

/**
 * One table for Cel_Cash's two vocabularies (they share no word), from the
 * research (SDK Pyxlab/celcash, schemas/transactions.ts `transactionStatusSchema`
 * and schemas/charges.ts `chargesStatusSchema`; the display names of a public
 * Galax Pay integration). The common pattern's only word in it, `authorized`,
 * is PENDING (doc 2 §4); unknown REJECTED (§4, no exception for CELCOIN).
 */
export const CELCOIN_STATUSES = statusTable<TransactionStatus>(
  {
    // Transaction.status: a charge's payment attempt.
    noSend: 'PENDING', // not yet sent to the card operator
    authorized: 'PENDING', // card authorized, not captured
    captured: 'APPROVED',
    denied: 'REJECTED',
    reversed: 'REFUNDED', // reversed at the card operator
    chargeback: 'CHARGEBACK',
    pendingBoleto: 'PENDING',
    payedBoleto: 'APPROVED',
    notCompensated: 'REJECTED', // boleto past its deadline, unpaid
    lessValueBoleto: 'APPROVED', // paid, less than asked: money received
    moreValueBoleto: 'APPROVED',
    paidDuplicityBoleto: 'APPROVED',
    pendingPix: 'PENDING',
    payedPix: 'APPROVED',
    unavailablePix: 'REJECTED', // the QR can no longer be paid
    cancel: 'CANCELED', // cancelled by hand
    payExternal: 'APPROVED', // paid outside Cel_Cash
    cancelByContract: 'CANCELED',
    free: 'CANCELED', // exempted: no money will come
    // Charge.status: read only when the charge has no transaction.
    active: 'PENDING',
    waitingPayment: 'PENDING',
    closed: 'APPROVED',
    canceled: 'CANCELED',
    inactive: 'CANCELED',
  },
  'REJECTED',
);

// ---------------------------------------------------------------- response mappers

/** The Charge of an answer: `{type, Charge}`, or the bare charge (the SDK's shape of the capture's answer). */
export function chargeOf(answer: unknown): Charge | undefined {
  if (!isRecord(answer)) return undefined;
  if (isRecord(answer.Charge)) return answer.Charge as Charge;
  return 'galaxPayId' in answer ? (answer as Charge) : undefined;
}

/** A charge's payment attempt: the first of its transactions (a single charge has one). */
const firstTransaction = (charge: Charge | undefined): ChargeTransaction | undefined =>
  Array.isArray(charge?.Transactions) && isRecord(charge.Transactions[0]) ? charge.Transactions[0] : undefined;

/** A card charge Cel_Cash only authorized: the gateway captures it. */
export const onlyAuthorized = (charge: Charge | undefined): boolean => textOf(firstTransaction(charge)?.status)?.toLowerCase() === 'authorized';

/** Undefined without an id, a status or an amount: the operation turns that into an error, never a status. */
export function fromCharge(
  charge: Charge | undefined,
  terms: { status: (value: unknown) => TransactionStatus; amount: (value: unknown) => number | undefined; expiresAt?: Date },
): TransactionResult | undefined {
  const transactionId = idText(charge?.galaxPayId);
  const transaction = firstTransaction(charge);
  const status = textOf(transaction?.status) ?? textOf(charge?.status);
  const amount = terms.amount(charge?.value) ?? terms.amount(transaction?.value);
  const paymentMethod = METHODS.fromProvider(charge?.mainPaymentMethodId);
  if (!transactionId || !status || amount === undefined || !paymentMethod) return undefined;
  const pixCode = textOf(transaction?.Pix?.qrCode);
  const billetCode = textOf(transaction?.Boleto?.bankLine);
  const billetUrl = textOf(transaction?.Boleto?.pdf);
  return {
    paymentMethod,
    transactionId,
    status: terms.status(status),
    amount,
    ...(pixCode ? { pixCode } : {}),
    ...(billetCode ? { billetCode } : {}),
    ...(billetUrl ? { billetUrl } : {}),
    ...(terms.expiresAt && paymentMethod !== 'CREDIT_CARD' ? { expiresAt: terms.expiresAt } : {}),
  };
}

// ---------------------------------------------------------------- notifications

/** The only event about a charge's payment; `subscription.addTransaction` and the rest are ignored. */
const STATUS_EVENT = 'transaction.updateStatus';

/** A transaction's new status, reported for its charge (our transaction id); undefined when ignored or unparseable. */
export function readCelcashNotification(body: Buffer, status: (value: unknown) => TransactionStatus): WebhookResult | undefined {
  const event = parseJsonObject(body) as CelcashNotification | undefined;
  if (event?.event !== STATUS_EVENT || !isRecord(event.Transaction)) return undefined;
  const transactionId = idText(event.Transaction.chargeGalaxPayId);
  // A subscription's transaction has no charge of ours.
  if (!transactionId || !textOf(event.Transaction.status)) return undefined;
  return { type: 'TRANSACTION', transactionId, status: status(event.Transaction.status) };
}

// ---------------------------------------------------------------- operations

export class CelcoinAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = CELCOIN, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: CELCOIN_STATUSES });
  }

  private terms(expiresAt?: Date) {
    return {
      status: (value: unknown) => this.transactionStatus(value),
      amount: (value: unknown): number | undefined => {
        if (value === undefined || value === null) return undefined;
        try {
          return this.fromProviderAmount(value);
        } catch {
          return undefined;
        }
      },
      ...(expiresAt ? { expiresAt } : {}),
    };
  }

  private unusable(operation: 'createTransaction' | 'getTransaction', prefix: string, what: string): Error {
    return this.failure(operation, prefix, new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `resposta do provedor sem ${what}`));
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId?.trim()) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const prefix = this.prefixFor('createTransaction');
    const requestedAt = this.now();
    const body = toChargeRequest(input, {
      myId: input.idempotencyKey || randomUUID(),
      // The spec's pay-by date (§9: 5 days, the boleto's validity) is every charge's payday.
      payday: celcashPayday(this.expiresAt(this.boletoExpirySeconds, requestedAt)),
      pixDeadlineDays: wholeDays(this.pixExpirySeconds),
    });
    const seconds = input.paymentMethod === 'BILLET' ? this.boletoExpirySeconds : this.pixExpirySeconds;
    const terms = this.terms(this.expiresAt(seconds, requestedAt));
    const http = this.http(ctx);
    const answer = await this.exchange('createTransaction', prefix, () => http.post<unknown>(CELCOIN_PATHS.charges, body));
    let result = fromCharge(chargeOf(answer), terms);
    if (!result) throw this.unusable('createTransaction', prefix, 'a cobrança (galaxPayId, status e valor)');
    if (result.paymentMethod === 'CREDIT_CARD' && onlyAuthorized(chargeOf(answer))) {
      // Only authorized: captured now, as the spec's PUT …/capture does; its answer is the charge as it then stands.
      const id = result.transactionId;
      const captured = await this.exchange('createTransaction', prefix, () => http.put<unknown>(fillPath(CELCOIN_PATHS.capture, { id }), {}));
      result = fromCharge(chargeOf(captured), terms);
      if (!result) throw this.unusable('createTransaction', prefix, `a cobrança ${id} capturada`);
    }
    if (result.paymentMethod === 'PIX' && !result.pixCode) throw this.unusable('createTransaction', prefix, 'o QR Code do PIX');
    if (result.paymentMethod === 'BILLET' && !result.billetCode) throw this.unusable('createTransaction', prefix, 'a linha digitável do boleto');
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange('getTransaction', prefix, () =>
      this.http(ctx).get<unknown>(CELCOIN_PATHS.charges, { params: { galaxPayIds: transactionId, startAt: 0, limit: CELCOIN_QUERY_LIMIT } }),
    );
    const charges = isRecord(answer) && Array.isArray(answer.Charges) ? (answer.Charges as unknown[]) : undefined;
    if (!charges) throw this.unusable('getTransaction', prefix, 'a lista de cobranças');
    const charge = charges.find((candidate): candidate is Charge => isRecord(candidate) && idText(candidate.galaxPayId) === transactionId);
    // A well-formed list without the charge: Cel_Cash does not know it.
    if (!charge)
      throw this.failure('getTransaction', prefix, new ProviderCallError('NOT_FOUND', 'PROVIDER_NOT_FOUND', `cobrança ${transactionId} não encontrada`));
    const result = fromCharge(charge, this.terms());
    if (!result) throw this.unusable('getTransaction', prefix, 'status ou valor da cobrança');
    return withPixQrImage(result);
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return readCelcashNotification(notification.body, (value) => this.transactionStatus(value));
  }

  /**
   * Cel_Cash echoes the account's confirmHashWebhook in the body's
   * `confirmHash`: compared in constant time with the account's webhook
   * secret; 'unsigned' when the account holds none.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    const secret = ctx.webhookSecret;
    if (!secret) return 'unsigned';
    const confirmHash = textOf(parseJsonObject(notification.body)?.confirmHash);
    // A stored notification has its confirmHash masked (storableBody): intake kept what it proved.
    if (confirmHash === MASKED_SECRET) return 'unsigned';
    return confirmHash !== undefined && safeEqualText(confirmHash, secret) ? 'valid' : 'invalid';
  }

  /** The notification is stored with its `confirmHash` masked: the account's shared secret never reaches the database. */
  override storableBody(body: Buffer): Buffer {
    return maskedJsonField(body, 'confirmHash');
  }

  /** One transaction's status change is the same across re-deliveries: its charge, its own id and the status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const transaction = (parseJsonObject(notification.body) as CelcashNotification | undefined)?.Transaction;
    const charge = isRecord(transaction) ? idText(transaction.chargeGalaxPayId) : undefined;
    if (!charge) return super.notificationKey(ctx, notification);
    return `celcoin:${charge}:${idText(transaction!.galaxPayId) ?? ''}:${textOf(transaction!.status)?.toLowerCase() ?? ''}`;
  }
}
