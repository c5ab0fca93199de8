import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Customer, PaymentMethod, TransactionInput, TransactionResult, TransactionStatus, WebhookResult } from '../../domain/types.js';
import { safeEqualText } from '../../lib/constantTime.js';
import { cardDigits, fourDigitYear, type CardInput } from '../../lib/card.js';
import { digitsOnly } from '../../lib/documents.js';
import { invalidArgument } from '../../lib/errors.js';
import { SECONDS_PER_DAY, brazilDate, wholeDays } from '../../lib/expiry.js';
import { ProviderCallError } from '../../lib/http/index.js';
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { absentable, wireAmount, wireFact, wireId, wireStatus, wireText } from '../kit/answers.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { MASKED_SECRET, maskedJsonField } from '../kit/bodySecrets.js';
import { notificationKeyOf } from '../notificationKeys.js';

/**
 * CELCOIN (spec doc 2, group 2) is the Cel_Cash API, formerly Galax Pay (not
 * Celcoin's BaaS PIX API). What the spec says: POST /token (scopes); POST
 * /charges; PUT /charges/{id}/galaxPayId/capture; GET /charges (galaxPayIds,
 * startAt, limit) (§7); no refunds (§8); a 5-day pay-by date, a 5-day PIX
 * deadline, boleto validity 5 days and query limit 10 (§9). Cel_Cash's public
 * API has the same paths, so there is one dialect.
 *
 * From Cel_Cash's SDK (github Pyxlab/celcash, packages/core/src: contract/auth.ts,
 * contract/charges.ts, schemas/common.ts, schemas/charges.ts,
 * schemas/customers.ts, schemas/payments.ts, schemas/cards.ts,
 * schemas/transactions.ts): the token by HTTP Basic base64(galaxId:galaxHash)
 * with `{grant_type: authorization_code, scope}` answered `{access_token,
 * token_type: Bearer, expires_in, scope}`; POST /charges `{myId, value (cents),
 * additionalInfo?, payday (YYYY-MM-DD), mainPaymentMethodId creditcard | boleto |
 * pix, Customer, PaymentMethodCreditCard?, PaymentMethodBoleto?,
 * PaymentMethodPix?}` — `Customer` is required, and a customer Cel_Cash does not
 * know yet needs `myId` (a UUID), `name`, `document` (11 to 14 digits) and
 * `emails`; a saved card is referenced by its `galaxPayId` or its `myId` (a
 * UUID); the answer `{type, Charge{galaxPayId, myId, value, status,
 * mainPaymentMethodId, Transactions[{galaxPayId, status, value, Boleto{pdf,
 * bankLine, barCode}, Pix{qrCode, reference, image, page}}]}}`; the capture
 * answered with the bare charge; GET /charges answered `{totalQtdFoundInPage,
 * Charges}`; the charge and transaction status enums. From a public Galax Pay
 * integration: notifications `{event: transaction.updateStatus, webhookId,
 * confirmHash, Transaction{…, chargeGalaxPayId, status}}`, `confirmHash` being
 * the account's confirmHashWebhook (the SDK's `apiAuthSchema`).
 *
 * The gateway's decisions (docs/decisions.md): the charge's galaxPayId is the
 * transaction id; its status is its first transaction's, else the charge's;
 * `myId` is the caller's idempotency key (Cel_Cash refuses a second charge with
 * the same myId), else a fresh UUID; the customer's myId is a name-based UUID
 * of its document (the same buyer is the same Cel_Cash customer); the pay-by
 * date is every charge's `payday`; a card is the account's saved card, or the
 * card opened from the gateway's card token, sent by its own fields as
 * Celcoin's "criar cobrança avulsa" page shows (`Card {myId, number, holder,
 * expiresAt, cvv}`, myId a name-based UUID of the charge's); either is captured
 * by PUT …/capture when Cel_Cash only authorized it; scopes `charges.read
 * charges.write`.
 *
 * Read top to bottom: declaration → wire → request mappers → status table →
 * response mappers → notifications → the operations.
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

/** The SDK files (at the commit read) and Celcoin's pages on creating and listing charges its stand-in (tests/standins/celcoin.ts) was written from. */
export const CELCOIN_ADDRESSES = [
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

export const CELCOIN: ProviderDeclaration = {
  // Production host of the Cel_Cash (Galax Pay) API v2, as its public integrations use it; the SDK's sandbox is api.sandbox.cel.cash/v2.
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
  evidence: { level: 'documented', addresses: CELCOIN_ADDRESSES },
  sources:
    "`/token` (scopes), `/charges`, `/charges/{id}/galaxPayId/capture`, `GET /charges` (galaxPayIds, startAt, limit 10), 5-day pay-by date and PIX deadline, no refunds: spec (doc 2 §7–§9); Basic galaxId:galaxHash token with `{grant_type: authorization_code, scope}` and its answer (contract/auth.ts, schemas/common.ts, utils/login.ts), the charge body with its required `Customer` (a new one with a UUID `myId`, `name`, `document`, `emails`), a saved card by `galaxPayId` or UUID `myId`, `PaymentMethodPix.Deadline`, the answers `{type, Charge{galaxPayId, value, status, Transactions[{Pix, Boleto}]}}` and `{totalQtdFoundInPage, Charges}`, the capture's bare charge, the charge and transaction statuses: Cel_Cash's SDK (github Pyxlab/celcash, commit a5f0a71, `packages/core/src/contract` and `schemas`); a denied card's reason, its transaction's `AbecsReasonDenied {code, message}` else `reasonDenied`, and its text, the ABECS `message` else `reasonDenied`: the SDK's transactionsSchema (commit 0efc619); the code's four characters (the SDK's transactionsSchema), read as an ABECS code padded with zeros ('0051' is 51, Normativo 21's table as Cielo publishes it): the gateway's reading; `startAt` and `limit` required to list: Celcoin's page on listing charges; a card by its own fields in the charge (`PaymentMethodCreditCard.Card {myId, number, holder, expiresAt YYYY-MM, cvv}`, `qtdInstallments`): Celcoin's page on creating a charge (criar cobrança avulsa) and the SDK's payments.ts and cards.ts; `{event, webhookId, confirmHash, Transaction}` notifications, host `api.galaxpay.com.br/v2`: Galax Pay integrations; status precedence, myId, the customer's name-based UUID, when to capture, scopes: the gateway's decision",
  expiry: { pixSeconds: FIVE_DAYS, boletoSeconds: FIVE_DAYS },
};

// ---------------------------------------------------------------- wire

const mainPaymentMethodId = z.enum(['creditcard', 'boleto', 'pix']);
type MainPaymentMethodId = z.infer<typeof mainPaymentMethodId>;

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A customer Cel_Cash does not know yet: a UUID `myId`, `name`, `document` (11 to 14 digits) and `emails` (the SDK's contract). */
export const celcashCustomer = z.object({
  myId: z.string().regex(UUID_TEXT),
  name: z.string().min(1),
  document: z.string().regex(/^\d{11,14}$/),
  emails: z.array(z.string().min(1)).min(1),
  phones: z.array(z.number().int().positive()).optional(),
});
export type CelcashCustomer = z.infer<typeof celcashCustomer>;

/**
 * A card by its own fields (the gateway's card token opened for the call): a new card's UUID `myId`, the number,
 * the holder, `expiresAt` YYYY-MM and the `cvv` (Celcoin's "criar cobrança avulsa" page; the SDK's cards.ts fields,
 * which `PaymentMethodCreditCard.Card` takes in part).
 */
export const celcashNewCard = z.object({
  myId: z.string().regex(UUID_TEXT),
  number: z.string().regex(/^\d{12,19}$/),
  holder: z.string().min(1),
  expiresAt: z.string().regex(/^\d{4}-\d{2}$/),
  cvv: z.string().regex(/^\d{3,4}$/),
});
export type CelcashNewCard = z.infer<typeof celcashNewCard>;

/**
 * Body of POST /charges: `value` in integer cents, `payday` YYYY-MM-DD (the SDK's createChargeBodySchema); a card by
 * its own fields, or a saved one by its galaxPayId or UUID myId.
 */
export const chargeRequest = z.object({
  myId: z.string().min(1),
  value: z.number().int().positive(),
  payday: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  additionalInfo: z.string().optional(),
  mainPaymentMethodId,
  Customer: celcashCustomer,
  PaymentMethodCreditCard: z
    .object({
      Card: z.union([celcashNewCard, z.object({ galaxPayId: z.number().int().positive() }), z.object({ myId: z.string().regex(UUID_TEXT) })]),
      qtdInstallments: z.number().int().positive(),
    })
    .optional(),
  PaymentMethodPix: z.object({ Deadline: z.object({ type: z.literal('days'), value: z.number().int().positive() }) }).optional(),
});
export type ChargeRequest = z.infer<typeof chargeRequest>;

/** A charge's payment attempt (`Transactions[]`): its status, and the PIX or boleto to pay it with. */
const celcashTransaction = z.object({
  galaxPayId: absentable(wireId),
  status: absentable(wireStatus),
  value: absentable(wireAmount),
  Pix: absentable(z.object({ qrCode: absentable(wireText) })),
  Boleto: absentable(z.object({ pdf: absentable(wireText), bankLine: absentable(wireText) })),
  /** Why a card was denied (the SDK's transactionsSchema): Cel_Cash's text, and the ABECS code with its message. */
  reasonDenied: wireFact,
  AbecsReasonDenied: absentable(z.object({ code: wireFact, message: wireFact })).catch(undefined),
});
export type CelcashTransaction = z.output<typeof celcashTransaction>;

const mainPaymentMethod = wireText.transform((value) => value.toLowerCase()).pipe(mainPaymentMethodId);

/** A charge (the SDK's `chargesSchema`): its id, value, status, method and payment attempts. */
export const celcashCharge = z.object({
  galaxPayId: wireId,
  myId: absentable(wireText),
  value: wireAmount,
  status: wireStatus,
  mainPaymentMethodId: mainPaymentMethod,
  Transactions: absentable(z.array(celcashTransaction)),
});
export type CelcashCharge = z.output<typeof celcashCharge>;

/** POST /charges: `{type, Charge}`; a `type: false` keeps Cel_Cash's `error.message` where it gives one. */
export const celcashChargeAnswer = z.object({
  type: absentable(z.boolean()),
  Charge: absentable(celcashCharge),
  error: absentable(z.object({ message: absentable(wireText) })),
});

/** PUT …/capture: the bare charge (the SDK's `chargesSchema`), or `{type, Charge}` as the creation answers. */
export const celcashCaptureAnswer = z.preprocess((answer) => (isRecord(answer) && isRecord(answer.Charge) ? answer.Charge : answer), celcashCharge);

/** GET /charges: `{totalQtdFoundInPage, Charges}`. */
export const celcashChargeList = z.object({ totalQtdFoundInPage: absentable(wireAmount), Charges: z.array(celcashCharge) });

/** A notification: the event, the account's confirmHash echoed, and the transaction with its charge. */
export const celcashNotification = z.object({
  event: wireText,
  webhookId: absentable(wireId),
  confirmHash: absentable(z.string()),
  Transaction: z.object({ galaxPayId: absentable(wireId), chargeGalaxPayId: absentable(wireId), status: wireStatus }),
});

/** Only the echoed secret, for verifying a body whatever else it carries. */
const celcashConfirmHash = z.object({ confirmHash: absentable(z.string()) });

// ---------------------------------------------------------------- request mappers

const METHODS = paymentMethodCodec<PaymentMethod, MainPaymentMethodId>({ PIX: 'pix', BILLET: 'boleto', CREDIT_CARD: 'creditcard' });

/** A calendar date in Brazil (Cel_Cash's `payday`), whatever the server's time zone. */
export const celcashPayday = (date: Date): string => brazilDate(date);

/** The namespace of the name-based UUIDs the gateway gives Cel_Cash: fixed, so a buyer's UUID never changes. */
const CUSTOMER_NAMESPACE = Buffer.from('6f1d5c2e8a4b4f7d9c3e1a2b5d7f9e0c', 'hex');

/**
 * A customer's myId: Cel_Cash takes a UUID, and the same buyer must be the same
 * customer, so it is the name-based UUID (version 5) of the buyer's document.
 */
export function customerMyId(document: string): string {
  return nameBasedUuid(document);
}

/**
 * The myId of a card sent by its own fields: Cel_Cash saves such a card under a UUID; named after the charge's myId,
 * so a retried charge names the same card (a document has no letters, so no customer's myId is ever the same).
 */
export function cardMyId(chargeMyId: string): string {
  return nameBasedUuid(`card:${chargeMyId}`);
}

function nameBasedUuid(name: string): string {
  const hash = createHash('sha1').update(CUSTOMER_NAMESPACE).update(name).digest().subarray(0, 16);
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The charge's `Customer`, required by Cel_Cash: one it does not know yet is
 * created from myId, name, document (11 to 14 digits) and emails, so all are
 * checked before anything is sent.
 */
export function toCelcashCustomer(customer: Customer | undefined): CelcashCustomer {
  if (!customer) throw invalidArgument('transaction.customer', 'transaction.customer is required for CELCOIN charges', 'REQUIRED');
  const name = customer.name.trim();
  if (!name) throw invalidArgument('transaction.customer.name', 'transaction.customer.name is required for CELCOIN charges', 'REQUIRED');
  const document = digitsOnly(customer.document);
  if (document.length < 11 || document.length > 14)
    throw invalidArgument(
      'transaction.customer.document',
      'transaction.customer.document must have 11 to 14 digits (CPF or CNPJ) for CELCOIN charges',
      'INVALID_DOCUMENT',
    );
  const email = customer.email.trim();
  if (!email) throw invalidArgument('transaction.customer.email', 'transaction.customer.email is required for CELCOIN charges', 'REQUIRED');
  const phone = Number(nationalPhoneDigits(customer.phone));
  return { myId: customerMyId(document), name, document, emails: [email], ...(phone ? { phones: [phone] } : {}) };
}

/** A saved card: its galaxPayId (digits) or its myId (a UUID, as Cel_Cash takes it); anything else is refused before anything is sent. */
function savedCard(cardId: string | undefined): { galaxPayId: number } | { myId: string } {
  const id = cardId?.trim();
  if (!id) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
  if (/^\d+$/.test(id)) return { galaxPayId: Number(id) };
  if (UUID_TEXT.test(id)) return { myId: id };
  throw invalidArgument(
    'transaction.card_id',
    "transaction.card_id must be a Cel_Cash card's galaxPayId (digits) or myId (a UUID) for CELCOIN charges",
    'INVALID_VALUE',
  );
}

/** A card's own fields as Cel_Cash takes them: the number as digits, `expiresAt` YYYY-MM, under a new card's myId. */
export function toCelcashNewCard(card: CardInput, myId: string): CelcashNewCard {
  return {
    myId,
    number: cardDigits(card.cardNumber),
    holder: card.holderName.trim(),
    expiresAt: `${fourDigitYear(card.expYear)}-${card.expMonth.trim().padStart(2, '0')}`,
    cvv: card.cvv.trim(),
  };
}

/** The charge's card: its own fields where the input has them (the gateway's card token), else a saved one. */
const chargeCard = (input: TransactionInput, chargeMyId: string) => (input.card ? toCelcashNewCard(input.card, cardMyId(chargeMyId)) : savedCard(input.cardId));

export function toChargeRequest(input: TransactionInput, terms: { myId: string; payday: string; pixDeadlineDays: number }): ChargeRequest {
  const customer = toCelcashCustomer(input.customer);
  const card = input.paymentMethod === 'CREDIT_CARD' ? chargeCard(input, terms.myId) : undefined;
  const additionalInfo = input.description || input.orderId;
  return {
    myId: terms.myId,
    value: input.amount,
    payday: terms.payday,
    ...(additionalInfo ? { additionalInfo } : {}),
    mainPaymentMethodId: METHODS.toProvider(input.paymentMethod),
    Customer: customer,
    ...(card ? { PaymentMethodCreditCard: { Card: card, qtdInstallments: input.installments || 1 } } : {}),
    ...(input.paymentMethod === 'PIX' ? { PaymentMethodPix: { Deadline: { type: 'days', value: terms.pixDeadlineDays } } } : {}),
  };
}

// ---------------------------------------------------------------- status table

/**
 * One table for Cel_Cash's two vocabularies (they share no word), from the
 * SDK (schemas/transactions.ts `transactionStatusSchema` and schemas/charges.ts
 * `chargesStatusSchema`; the display names of a public Galax Pay integration).
 * The common pattern's only word in it, `authorized`, is PENDING (doc 2 §4);
 * unknown REJECTED (§4, no exception for CELCOIN).
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

/** A charge's payment attempt: the first of its transactions (a single charge has one). */
const firstTransaction = (charge: CelcashCharge): CelcashTransaction | undefined => charge.Transactions?.[0];

/** A card charge Cel_Cash only authorized: the gateway captures it. */
export const onlyAuthorized = (charge: CelcashCharge): boolean => firstTransaction(charge)?.status?.toLowerCase() === 'authorized';

/** The charge of a creation's answer; `type: false`, or no charge, is the operation's failure (UNAVAILABLE: what Cel_Cash did is not known). */
export function createdCharge(answer: z.output<typeof celcashChargeAnswer>): CelcashCharge {
  if (answer.type !== false && answer.Charge) return answer.Charge;
  const message = answer.error?.message ?? (answer.type === false ? 'Cel_Cash answered type: false' : 'resposta do provedor sem a cobrança');
  throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', message);
}

/**
 * A denied card's reason: its transaction's `AbecsReasonDenied.code` (the ABECS return code, which may come padded
 * to four digits, '0051': the categories read it as 51), else Cel_Cash's own `reasonDenied` text, else the ABECS
 * message (the SDK's transactionsSchema). Its text: the ABECS message that goes with the code, else `reasonDenied`.
 */
export function celcashDecline(
  status: TransactionStatus,
  paymentMethod: PaymentMethod,
  transaction: CelcashTransaction | undefined,
): Pick<TransactionResult, 'declineReason' | 'declineMessage'> {
  if (status !== 'REJECTED' || paymentMethod !== 'CREDIT_CARD' || !transaction) return {};
  const reason = transaction.AbecsReasonDenied?.code ?? transaction.reasonDenied ?? transaction.AbecsReasonDenied?.message;
  if (!reason) return {};
  const message = transaction.AbecsReasonDenied?.message ?? transaction.reasonDenied;
  return { declineReason: reason, ...(message ? { declineMessage: message } : {}) };
}

/** A charge as the gateway's result: its first transaction's status (else the charge's), the PIX or boleto to pay it. */
export function fromCharge(
  charge: CelcashCharge,
  terms: { status: (value: string) => TransactionStatus; amount: (value: string | number) => number; expiresAt?: Date },
): TransactionResult {
  const transaction = firstTransaction(charge);
  const paymentMethod = METHODS.fromProvider(charge.mainPaymentMethodId) ?? 'PIX';
  const pixCode = transaction?.Pix?.qrCode;
  const billetCode = transaction?.Boleto?.bankLine;
  const billetUrl = transaction?.Boleto?.pdf;
  const status = terms.status(transaction?.status ?? charge.status);
  return {
    paymentMethod,
    transactionId: charge.galaxPayId,
    status,
    amount: terms.amount(charge.value),
    ...(pixCode ? { pixCode } : {}),
    ...(billetCode ? { billetCode } : {}),
    ...(billetUrl ? { billetUrl } : {}),
    ...(terms.expiresAt && paymentMethod !== 'CREDIT_CARD' ? { expiresAt: terms.expiresAt } : {}),
    ...celcashDecline(status, paymentMethod, transaction),
  };
}

// ---------------------------------------------------------------- notifications

/** The only event about a charge's payment; `subscription.addTransaction` and the rest are ignored. */
const STATUS_EVENT = 'transaction.updateStatus';

/** A status change of a charge's transaction: the charge's id (our transaction id), the transaction's id and its status. */
export function readCelcashNotification(body: Buffer): { charge: string; transaction?: string; status: string } | undefined {
  const parsed = celcashNotification.safeParse(parseJsonObject(body));
  if (!parsed.success || parsed.data.event !== STATUS_EVENT) return undefined;
  const { chargeGalaxPayId, galaxPayId, status } = parsed.data.Transaction;
  // A subscription's transaction has no charge of ours.
  if (!chargeGalaxPayId) return undefined;
  return { charge: chargeGalaxPayId, ...(galaxPayId ? { transaction: galaxPayId } : {}), status };
}

// ---------------------------------------------------------------- operations

export class CelcoinAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = CELCOIN, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: CELCOIN_STATUSES });
  }

  /** A card charge sends the card's own fields (`PaymentMethodCreditCard.Card`) where the input has them. */
  override takesCardData(_ctx: AdapterContext): boolean {
    return true;
  }

  private terms(expiresAt?: Date) {
    return {
      status: (value: string) => this.transactionStatus(value),
      amount: (value: string | number) => this.amountOr(value, undefined, 'valor da cobrança'),
      ...(expiresAt ? { expiresAt } : {}),
    };
  }

  private unusable(what: string): never {
    throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `resposta do provedor sem ${what}`);
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
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
    const answer = await this.exchange('createTransaction', prefix, () => http.post(CELCOIN_PATHS.charges, body), celcashChargeAnswer);
    let charge = this.mapped('createTransaction', prefix, () => createdCharge(answer));
    if (charge.mainPaymentMethodId === 'creditcard' && onlyAuthorized(charge)) {
      // Only authorized: captured now, as the spec's PUT …/capture does; its answer is the charge as it then stands.
      const id = charge.galaxPayId;
      charge = await this.exchange('createTransaction', prefix, () => http.put(fillPath(CELCOIN_PATHS.capture, { id }), {}), celcashCaptureAnswer);
    }
    const result = this.mapped('createTransaction', prefix, () => fromCharge(charge, terms));
    if (result.paymentMethod === 'PIX' && !result.pixCode) this.mapped('createTransaction', prefix, () => this.unusable('o QR Code do PIX'));
    if (result.paymentMethod === 'BILLET' && !result.billetCode) this.mapped('createTransaction', prefix, () => this.unusable('a linha digitável do boleto'));
    return pixCodeOnly(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const list = await this.exchange(
      'getTransaction',
      prefix,
      () => this.http(ctx).get(CELCOIN_PATHS.charges, { params: { galaxPayIds: transactionId, startAt: 0, limit: CELCOIN_QUERY_LIMIT } }),
      celcashChargeList,
    );
    const charge = list.Charges.find((candidate) => candidate.galaxPayId === transactionId);
    // A well-formed list without the charge: Cel_Cash does not know it.
    if (!charge)
      throw this.failure('getTransaction', prefix, new ProviderCallError('NOT_FOUND', 'PROVIDER_NOT_FOUND', `cobrança ${transactionId} não encontrada`));
    return pixCodeOnly(this.mapped('getTransaction', prefix, () => fromCharge(charge, this.terms())));
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const event = readCelcashNotification(notification.body);
    return event && { type: 'TRANSACTION', transactionId: event.charge, status: this.transactionStatus(event.status) };
  }

  /**
   * Cel_Cash echoes the account's confirmHashWebhook in the body's
   * `confirmHash`: compared in constant time with the account's webhook
   * secret; 'unsigned' when the account holds none.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    const secret = ctx.webhookSecret;
    if (!secret) return 'unsigned';
    const parsed = celcashConfirmHash.safeParse(parseJsonObject(notification.body));
    const confirmHash = parsed.success ? parsed.data.confirmHash : undefined;
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
    const event = readCelcashNotification(notification.body);
    if (!event) return super.notificationKey(ctx, notification);
    return notificationKeyOf({ subject: 'charge', id: `${event.charge}/${event.transaction ?? ''}`, status: event.status }, notification.body);
  }
}
