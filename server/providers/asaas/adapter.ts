import { z } from 'zod';
import type {
  AccountBalance,
  Customer,
  PaymentMethod,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import type { CardInput } from '../../lib/card.js';
import { digitsOnly } from '../../lib/documents.js';
import { brazilDate } from '../../lib/expiry.js';
import { invalidArgument, outcomeOf } from '../../lib/errors.js';
import { isGatewayCardToken } from '../../lib/gatewayCardToken.js';
import type { ProviderHttp } from '../../lib/http/index.js';
import { parseJsonObject } from '../../lib/json.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { normalizePixKey, type PixKeyType } from '../../lib/pixKey.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { absentable, wireAmount, wireFact, wireId, wireStatus, wireText } from '../kit/answers.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, type ObjectNotification } from '../kit/declaredAdapter.js';
import { payoutRefusal } from '../kit/payoutRefusal.js';
import { CustomerDirectory } from './customers.js';

/**
 * ASAAS (spec doc 2, group 1): the spec shows no paths for group 1, so Asaas's
 * public API v3 (docs.asaas.com): host api.asaas.com/v3, the API key in the
 * `access_token` header, amounts in reais. A charge is made on a customer: the
 * account's customer for the buyer's document, found by GET
 * /customers?cpfCnpj= or created by POST /customers, and remembered (an Asaas
 * card token belongs to the customer it was created for); then POST /payments
 * `{customer, billingType PIX|BOLETO|CREDIT_CARD, value, dueDate, …}`; the PIX
 * code by GET /payments/{id}/pixQrCode `{payload, encodedImage}`, the boleto's
 * line by GET /payments/{id}/identificationField; refunds by POST
 * /payments/{id}/refund `{value}`, answered with the payment and its `refunds`;
 * PIX payouts by POST /transfers `{value, pixAddressKey, pixAddressKeyType,
 * operationType: PIX}` and GET /transfers/{id}; webhooks `{id: evt_…, event,
 * payment | transfer}` with the configured token in the `asaas-access-token`
 * header; failures `{errors: [{code, description}]}`, whose description reaches
 * the caller.
 */

// ---------------------------------------------------------------- declaration

/** The pages of Asaas's documentation its stand-in (tests/standins/asaas.ts) was written from. */
export const ASAAS_ADDRESSES = [
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

export const ASAAS: ProviderDeclaration = {
  identity: { id: 'ASAAS', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.asaas.com/v3' },
  capabilities: {
    paymentMethods: ['PIX', 'BILLET', 'CREDIT_CARD'],
    withdrawMethods: ['PIX'],
    withdrawalLookup: true,
    refunds: true,
    webhooks: true,
    balances: true,
  },
  auth: { type: 'apiKey', header: 'access_token', value: 'secretKey' },
  credentials: { required: ['secretKey'] },
  money: 'reais',
  evidence: { level: 'documented', addresses: ASAAS_ADDRESSES },
  sources:
    "Asaas's API reference and guides (docs.asaas.com): host `api.asaas.com/v3` and the `access_token` header (Autenticação), the error body `{errors: [{code, description}]}` (HTTP response codes), customers listed by `cpfCnpj` and created with `name`/`cpfCnpj` (list customers, create customer), payments with `customer`, `billingType`, `value` in reais (answered, at creation and by GET /payments/{id} (retrieve a single payment), with `netValue`, the value less Asaas' fee), `dueDate`, and `creditCardToken`/`remoteIp` for a tokenized card or `creditCard {holderName, number, expiryMonth, expiryYear, ccv}` with `creditCardHolderInfo {name, email, cpfCnpj, postalCode, addressNumber, phone}` and `remoteIp` for a card's own fields (the gateway's card token, opened for the call) (create payment, create payment with credit card), a card token that belongs to its customer (credit card tokenization), `pixQrCode` and `identificationField`, refunds answered with the payment and its `refunds` (refund payment, Refunds), PIX transfers (create transfer), the account's balance by GET /finance/balance `{balance}` in reais (retrieve account balance), the payment and transfer statuses and PAYMENT_*/TRANSFER_* events with `evt_` ids and the `asaas-access-token` header (webhook guides); a failed transfer's `failReason` (\"Failure reason, when applicable\", Events for transfers; `failReason` in the transfer the create transfer reference answers) kept as the payout's refusal reason; the statuses' readings by document 1 §4 and the customer remembered per account and document: the gateway's decision",
};

export const ASAAS_PATHS = {
  customers: '/customers',
  payments: '/payments',
  payment: '/payments/{id}',
  pixQrCode: '/payments/{id}/pixQrCode',
  identificationField: '/payments/{id}/identificationField',
  refund: '/payments/{id}/refund',
  transfers: '/transfers',
  transfer: '/transfers/{id}',
  balance: '/finance/balance',
} as const;

const asaasBillingType = z.enum(['PIX', 'BOLETO', 'CREDIT_CARD']);
const ASAAS_METHODS = paymentMethodCodec<PaymentMethod, z.infer<typeof asaasBillingType>>({ PIX: 'PIX', BILLET: 'BOLETO', CREDIT_CARD: 'CREDIT_CARD' });

// ---------------------------------------------------------------- wire

/** A customer (POST /customers answers one); `deleted` customers are not charged. */
const customerAnswer = z.object({ id: wireId, deleted: absentable(z.boolean()) });

/** GET /customers?cpfCnpj=: a page of customers under `data`. */
export const asaasCustomerList = z.object({ data: z.array(customerAnswer) });

/** One refund of a payment (its `refunds`): PENDING, AWAITING_* (an authorization), DONE or CANCELLED. */
const refundEntry = z.object({ status: wireStatus, value: absentable(wireAmount), dateCreated: absentable(wireText) });

/** A payment (POST /payments, GET /payments/{id}). */
export const asaasPayment = z.object({
  id: wireId,
  status: wireStatus,
  value: wireAmount,
  /** What Asaas keeps of `value` after its fee: the fee is their difference (the statement's provider-reported fees). */
  netValue: absentable(wireAmount),
  billingType: absentable(wireText),
  bankSlipUrl: absentable(wireText),
});
export type AsaasPayment = z.output<typeof asaasPayment>;

/** A boleto payment carries the boleto's address too. */
export const asaasBoletoPayment = asaasPayment.extend({ bankSlipUrl: wireText });

/** The answer to POST /payments/{id}/refund: the payment, with the refunds made of it so far. */
export const asaasRefundAnswer = z.object({ id: wireId, status: wireStatus, refunds: absentable(z.array(refundEntry)) });
export type AsaasRefundAnswer = z.output<typeof asaasRefundAnswer>;

/** GET /payments/{id}/pixQrCode: the copy-and-paste code and the QR image (base64 PNG). */
export const asaasPixQrCode = z.object({ payload: wireText, encodedImage: absentable(wireText) });

/** GET /payments/{id}/identificationField: the boleto's digitable line. */
export const asaasIdentificationField = z.object({ identificationField: wireText });

/** A transfer (POST /transfers, GET /transfers/{id}); `failReason` why a FAILED one failed (a fact, never a reason to refuse the answer). */
export const asaasTransfer = z.object({ id: wireId, status: wireStatus, value: wireAmount, failReason: wireFact });

/** GET /finance/balance: the account's balance in reais, one figure (Asaas reports no pending part). */
export const asaasBalance = z.object({ balance: wireAmount });

/** A webhook: an event id, the event's name and the object it is about (`payment` or `transfer`, with its id and status). */
export const asaasNotification = z.object({
  id: absentable(wireText),
  event: wireText,
  payment: absentable(z.object({ id: wireId, status: wireStatus })),
  transfer: absentable(z.object({ id: wireId, status: wireStatus, failReason: wireFact })),
});

// ---------------------------------------------------------------- statuses

/**
 * Payment statuses (Asaas's enum) by document 1 §4: received or confirmed
 * APPROVED (CONFIRMED is paid, its balance not yet released; DUNNING_RECEIVED
 * recovered after a dunning); a refund requested or in progress is still
 * APPROVED until REFUNDED; chargebacks CHARGEBACK; OVERDUE (an unpaid PIX or
 * boleto past its day) and DUNNING_REQUESTED (such a charge sent to
 * collection) REJECTED; unknown REJECTED.
 */
export const ASAAS_STATUSES = statusTable<TransactionStatus>(
  {
    ...{ pending: 'PENDING', awaiting_risk_analysis: 'PENDING', authorized: 'PENDING' },
    ...{ confirmed: 'APPROVED', received: 'APPROVED', received_in_cash: 'APPROVED', dunning_received: 'APPROVED' },
    ...{ refund_requested: 'APPROVED', refund_in_progress: 'APPROVED', refunded: 'REFUNDED', partially_refunded: 'APPROVED' },
    ...{ chargeback_requested: 'CHARGEBACK', chargeback_dispute: 'CHARGEBACK', awaiting_chargeback_reversal: 'CHARGEBACK' },
    ...{ overdue: 'REJECTED', dunning_requested: 'REJECTED', deleted: 'REJECTED' },
  },
  'REJECTED',
);

/** Transfer statuses: DONE paid, CANCELLED given back, FAILED REJECTED; PENDING and BANK_PROCESSING (and anything unknown) on their way. */
export const ASAAS_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  { pending: 'PENDING', bank_processing: 'PENDING', done: 'APPROVED', cancelled: 'CANCELED', failed: 'REJECTED' },
  'PENDING',
);

// ---------------------------------------------------------------- wire: requests (Asaas API reference)

/** POST /customers: name and CPF/CNPJ (digits) required; e-mail and mobile phone optional. */
export const asaasCustomerRequest = z.object({
  name: z.string().min(1),
  cpfCnpj: z.string().regex(/^(\d{11}|\d{14})$/),
  email: z.string().min(1).optional(),
  mobilePhone: z.string().regex(/^\d+$/).optional(),
});
export type AsaasCustomerRequest = z.infer<typeof asaasCustomerRequest>;

/** A card's own fields in a payment (create payment with credit card): digits, a two-digit month, a four-digit year. */
export const asaasCreditCard = z.object({
  holderName: z.string().min(1),
  number: z.string().regex(/^\d{12,19}$/),
  expiryMonth: z.string().regex(/^\d{2}$/),
  expiryYear: z.string().regex(/^\d{4}$/),
  ccv: z.string().regex(/^\d{3,4}$/),
});

/** The card holder, every field required by Asaas beside a card's own fields (create payment with credit card). */
export const asaasCreditCardHolderInfo = z.object({
  name: z.string().min(1),
  email: z.string().min(1),
  cpfCnpj: z.string().regex(/^(\d{11}|\d{14})$/),
  postalCode: z.string().regex(/^\d{8}$/),
  addressNumber: z.string().min(1),
  phone: z.string().regex(/^\d{10,11}$/),
});
export type AsaasCreditCardHolderInfo = z.infer<typeof asaasCreditCardHolderInfo>;

/** POST /payments: `value` in reais, `dueDate` YYYY-MM-DD; a card by its token or its own fields, in instalments with the total value. */
export const asaasPaymentRequest = z.object({
  customer: z.string().min(1),
  billingType: asaasBillingType,
  value: z.number().positive(),
  dueDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  externalReference: z.string().optional(),
  description: z.string().optional(),
  creditCardToken: z.string().optional(),
  creditCard: asaasCreditCard.optional(),
  creditCardHolderInfo: asaasCreditCardHolderInfo.optional(),
  remoteIp: z.string().optional(),
  installmentCount: z.number().int().min(2).optional(),
  totalValue: z.number().positive().optional(),
});
export type AsaasPaymentRequest = z.infer<typeof asaasPaymentRequest>;

/** POST /payments/{id}/refund: `value` in reais. */
export const asaasRefundRequest = z.object({ value: z.number().nonnegative() });
export type AsaasRefundRequest = z.infer<typeof asaasRefundRequest>;

/** Asaas's PIX key types: ours, RANDOM named EVP. */
const asaasPixKeyType = z.enum(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP']);
const ASAAS_PIX_KEY_TYPES = { CPF: 'CPF', CNPJ: 'CNPJ', EMAIL: 'EMAIL', PHONE: 'PHONE', RANDOM: 'EVP' } as const satisfies Record<
  PixKeyType,
  z.infer<typeof asaasPixKeyType>
>;

/** POST /transfers to a PIX key: `value` in reais. */
export const asaasTransferRequest = z.object({
  value: z.number().positive(),
  pixAddressKey: z.string().min(1),
  pixAddressKeyType: asaasPixKeyType,
  operationType: z.literal('PIX'),
  description: z.string().optional(),
  externalReference: z.string().optional(),
});
export type AsaasTransferRequest = z.infer<typeof asaasTransferRequest>;

// ---------------------------------------------------------------- request mappers

/** POST /customers: name and document are required; an empty email or phone is left out rather than sent blank. */
export function toAsaasCustomer(customer: Customer): AsaasCustomerRequest {
  const mobilePhone = nationalPhoneDigits(customer.phone);
  return {
    name: customer.name,
    cpfCnpj: digitsOnly(customer.document),
    ...(customer.email.trim() ? { email: customer.email.trim() } : {}),
    ...(mobilePhone ? { mobilePhone } : {}),
  };
}

/** What a card charge with a card's own fields needs beyond the card, each checked naming its field. */
type HolderSources = Partial<Pick<TransactionInput, 'customer' | 'address' | 'customerIp'>>;

const requiredForCard = (field: string, value: string): string => {
  if (!value)
    throw invalidArgument(field, `${field} is required for ASAAS card charges with the gateway's card token (Asaas requires the card holder's)`, 'REQUIRED');
  return value;
};

/**
 * The holder of a card sent by its own fields: Asaas requires name, e-mail, CPF/CNPJ, postal code, address number and
 * phone, and the buyer's IP beside them (`remoteIp`). The name and document are the card's (the document the buyer's
 * when the card has none); the rest the buyer's and the address's. A missing one is refused naming its field, before
 * anything is sent (`card` undefined: checked before the card is opened).
 */
export function asaasHolderInfo(input: HolderSources, card?: CardInput): AsaasCreditCardHolderInfo & { remoteIp: string } {
  const customer = input.customer;
  const postalCode = requiredForCard('transaction.address.zip_code', digitsOnly(input.address?.zipCode ?? ''));
  if (postalCode.length !== 8)
    throw invalidArgument('transaction.address.zip_code', 'transaction.address.zip_code must have 8 digits (a CEP)', 'INVALID_VALUE');
  return {
    name: card?.holderName ?? requiredForCard('transaction.customer.name', customer?.name.trim() ?? ''),
    email: requiredForCard('transaction.customer.email', customer?.email.trim() ?? ''),
    cpfCnpj: digitsOnly(card?.holderDocument ?? '') || requiredForCard('transaction.customer.document', digitsOnly(customer?.document ?? '')),
    postalCode,
    addressNumber: requiredForCard('transaction.address.number', input.address?.number.trim() ?? ''),
    phone: requiredForCard('transaction.customer.phone', nationalPhoneDigits(customer?.phone ?? '')),
    remoteIp: requiredForCard('transaction.customer_ip', input.customerIp?.trim() ?? ''),
  };
}

/** A card by its own fields (the gateway's card token opened for the call) with its holder, else by the caller's Asaas token. */
function asaasCard(input: TransactionInput): Partial<AsaasPaymentRequest> {
  if (!input.card) return { creditCardToken: input.cardId, remoteIp: input.customerIp };
  const { remoteIp, ...creditCardHolderInfo } = asaasHolderInfo(input, input.card);
  const { cardNumber, holderName, expMonth, expYear, cvv } = input.card;
  return { creditCard: { holderName, number: cardNumber, expiryMonth: expMonth, expiryYear: expYear, ccv: cvv }, creditCardHolderInfo, remoteIp };
}

export function toAsaasPayment(input: TransactionInput, terms: { customer: string; value: number; dueDate: Date }): AsaasPaymentRequest {
  return {
    customer: terms.customer,
    billingType: ASAAS_METHODS.toProvider(input.paymentMethod),
    value: terms.value,
    dueDate: brazilDate(terms.dueDate),
    ...(input.orderId ? { externalReference: input.orderId } : {}),
    ...(input.description ? { description: input.description } : {}),
    ...(input.paymentMethod === 'CREDIT_CARD' ? asaasCard(input) : {}),
    ...(input.paymentMethod === 'CREDIT_CARD' && input.installments > 1 ? { installmentCount: input.installments, totalValue: terms.value } : {}),
  };
}

/** A refund of `value` (reais) of a payment. */
export const toAsaasRefund = (value: number): AsaasRefundRequest => ({ value });

/** A PIX payout: the key normalised (RANDOM named EVP), the caller's description and reference where given. */
export function toAsaasTransfer(input: WithdrawInput & { pixKey: string; pixType: PixKeyType }, value: number): AsaasTransferRequest {
  return {
    value,
    pixAddressKey: normalizePixKey(input.pixKey, input.pixType),
    pixAddressKeyType: ASAAS_PIX_KEY_TYPES[input.pixType],
    operationType: 'PIX',
    ...(input.description ? { description: input.description } : {}),
    ...(input.withdrawReference ? { externalReference: input.withdrawReference } : {}),
  };
}

// ---------------------------------------------------------------- response mappers

/** The customer to charge among those a lookup by document found: the first not deleted. */
export const chargeableCustomer = (list: z.output<typeof asaasCustomerList>): string | undefined => list.data.find((customer) => !customer.deleted)?.id;

/** What a refund answer says happened: the refund was made, is on its way (accepted, not finished), or was refused. */
export type AsaasRefundOutcome = 'done' | 'in_progress' | 'refused';

const REFUND_IN_PROGRESS_STATUSES = new Set(['REFUND_REQUESTED', 'REFUND_IN_PROGRESS']);

/**
 * The outcome of POST /payments/{id}/refund for `requestedCents`. Asaas refuses
 * a refund it will not make with an HTTP 400, so a 2xx answer is a refund it
 * took: REFUNDED is done; REFUND_REQUESTED and REFUND_IN_PROGRESS are on their
 * way. A partial refund leaves the payment RECEIVED or CONFIRMED and adds an
 * entry to its `refunds` (PENDING, AWAITING_* authorizations, DONE or
 * CANCELLED): the newest entries of the amount asked say which. Only entries
 * that are all CANCELLED are a refusal; an answer that says nothing more is a
 * refund taken and in progress, never "nothing happened": a refund wrongly
 * thought refused would let the same money be refunded twice.
 */
export function asaasRefundOutcome(
  answer: AsaasRefundAnswer,
  requestedCents: number,
  toCents: (value: string | number) => number | undefined,
): AsaasRefundOutcome {
  const status = answer.status.toUpperCase();
  if (status === 'REFUNDED') return 'done';
  if (REFUND_IN_PROGRESS_STATUSES.has(status)) return 'in_progress';
  const ours = (answer.refunds ?? []).filter((refund) => refund.value === undefined || toCents(refund.value) === requestedCents);
  const newest = ours.reduce((latest, refund) => ((refund.dateCreated ?? '') > latest ? (refund.dateCreated ?? '') : latest), '');
  const latest = ours.filter((refund) => (refund.dateCreated ?? '') === newest).map((refund) => refund.status.toUpperCase());
  if (latest.includes('DONE')) return 'done';
  if (latest.length && latest.every((refundStatus) => refundStatus === 'CANCELLED')) return 'refused';
  return 'in_progress';
}

/** A webhook: PAYMENT_* events about a payment, TRANSFER_* about a transfer; the object's own status; the event id. Anything else (or unreadable) is undefined. */
export function readAsaasWebhook(body: Buffer): (ObjectNotification & { eventId?: string }) | undefined {
  const parsed = asaasNotification.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const { id: eventId, event, payment, transfer } = parsed.data;
  const object = event.startsWith('PAYMENT_') ? payment : event.startsWith('TRANSFER_') ? transfer : undefined;
  if (!object) return undefined;
  const stated = object === transfer && transfer.failReason ? { refusalReason: transfer.failReason } : {};
  return { kind: object === payment ? 'transaction' : 'withdrawal', id: object.id, status: object.status, ...stated, ...(eventId ? { eventId } : {}) };
}

// ---------------------------------------------------------------- operations

export class AsaasAdapter extends DeclaredAdapter {
  /** The Asaas customer of each account and document, so that a card is charged on the customer its token belongs to. */
  private readonly customers = new CustomerDirectory();

  constructor(declaration: ProviderDeclaration = ASAAS, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: ASAAS_STATUSES, withdrawalStatuses: ASAAS_WITHDRAWAL_STATUSES });
  }

  /** A card charge sends the card's own fields (`creditCard`, `creditCardHolderInfo`) where the input has them. */
  override takesCardData(_ctx: AdapterContext): boolean {
    return true;
  }

  /** With the gateway's card token, what Asaas requires of the holder is checked too, before the token is used. */
  override assertCardReference(input: Pick<TransactionInput, 'paymentMethod' | 'cardId'> & HolderSources): void {
    super.assertCardReference(input);
    if (input.paymentMethod === 'CREDIT_CARD' && isGatewayCardToken(input.cardId)) asaasHolderInfo(input);
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    // Asaas charges a customer, found or created by document: both are needed before anything is sent.
    if (!input.customer) throw invalidArgument('transaction.customer', 'transaction.customer is required for ASAAS charges', 'REQUIRED');
    const document = digitsOnly(input.customer.document);
    if (!document) throw invalidArgument('transaction.customer.document', 'transaction.customer.document is required for ASAAS charges', 'REQUIRED');
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId?.trim()) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const prefix = this.prefixFor('createTransaction');
    const http = this.http(ctx);
    const customer = input.customer;
    const customerId = await this.customers.customerFor(ctx, document, () => this.findOrCreateCustomer(http, prefix, customer, document));
    const seconds = input.paymentMethod === 'BILLET' ? this.boletoExpirySeconds : this.pixExpirySeconds;
    const expiresAt = this.expiresAt(seconds);
    const body = toAsaasPayment(input, { customer: customerId, value: this.toProviderAmount(input.amount), dueDate: expiresAt });
    const schema = input.paymentMethod === 'BILLET' ? asaasBoletoPayment : asaasPayment;
    let payment: AsaasPayment;
    try {
      payment = await this.exchange('createTransaction', prefix, () => http.post(ASAAS_PATHS.payments, body), schema);
    } catch (error) {
      // Refused (the customer may have been removed at Asaas meanwhile): the next charge looks the customer up again.
      if (outcomeOf(error) === 'failed') this.customers.forget(ctx, document);
      throw error;
    }
    const amount = this.mapped('createTransaction', prefix, () => this.amountOr(payment.value, undefined, 'valor da cobrança'));
    const base: TransactionResult = {
      paymentMethod: input.paymentMethod,
      transactionId: payment.id,
      status: this.transactionStatus(payment.status),
      amount,
      ...this.feeOf(amount, payment),
    };
    const path = (template: string) => fillPath(template, { id: payment.id });
    if (input.paymentMethod === 'PIX') {
      const qr = await this.exchange('createTransaction', prefix, () => http.get(path(ASAAS_PATHS.pixQrCode)), asaasPixQrCode);
      return { ...base, pixCode: qr.payload, ...(qr.encodedImage ? { pixQrCode: `data:image/png;base64,${qr.encodedImage}` } : {}), expiresAt };
    }
    if (input.paymentMethod === 'BILLET') {
      const line = await this.exchange('createTransaction', prefix, () => http.get(path(ASAAS_PATHS.identificationField)), asaasIdentificationField);
      return { ...base, billetCode: line.identificationField, ...(payment.bankSlipUrl ? { billetUrl: payment.bankSlipUrl } : {}), expiresAt };
    }
    return base;
  }

  /** The account's customer for the document at Asaas: the first one listed, else a new one. */
  private async findOrCreateCustomer(http: ProviderHttp, prefix: string, customer: Customer, document: string): Promise<string> {
    const found = await this.exchange('createTransaction', prefix, () => http.get(ASAAS_PATHS.customers, { params: { cpfCnpj: document } }), asaasCustomerList);
    const existing = chargeableCustomer(found);
    if (existing) return existing;
    const created = await this.exchange('createTransaction', prefix, () => http.post(ASAAS_PATHS.customers, toAsaasCustomer(customer)), customerAnswer);
    return created.id;
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const payment = await this.exchange('getTransaction', prefix, () => this.http(ctx).get(fillPath(ASAAS_PATHS.payment, { id: transactionId })), asaasPayment);
    const amount = this.mapped('getTransaction', prefix, () => this.amountOr(payment.value, undefined, 'valor da cobrança'));
    return {
      paymentMethod: ASAAS_METHODS.fromProvider(payment.billingType) ?? 'PIX',
      transactionId: payment.id,
      status: this.transactionStatus(payment.status),
      amount,
      ...this.feeOf(amount, payment),
    };
  }

  /** Asaas' fee, `value` less `netValue`, where the payment states its net (create and read answer the same payment). */
  private feeOf(amount: number, payment: AsaasPayment): Pick<TransactionResult, 'providerFee'> {
    const net = payment.netValue === undefined ? undefined : this.optionalProviderAmount(payment.netValue);
    return net === undefined ? {} : { providerFee: amount - net };
  }

  /**
   * A refund is done or on its way (`status` true: the gateway counts it, so the
   * same money is never refunded twice), or refused (`status` false). The
   * contract's refund result has no "in progress" of its own.
   */
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const answer = await this.exchange(
      'refoundTransaction',
      prefix,
      () => this.http(ctx).post(fillPath(ASAAS_PATHS.refund, { id: transactionId }), toAsaasRefund(this.toProviderAmount(amount))),
      asaasRefundAnswer,
    );
    const outcome = asaasRefundOutcome(answer, amount, (value) => this.optionalProviderAmount(value));
    return { refundId: answer.id, status: outcome !== 'refused' };
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const body = toAsaasTransfer(this.pixPayout(input), this.toProviderAmount(input.amount));
    const prefix = this.prefixFor('withdraw');
    const transfer = await this.exchange('withdraw', prefix, () => this.http(ctx).post(ASAAS_PATHS.transfers, body), asaasTransfer);
    return this.transfer('withdraw', prefix, transfer);
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const transfer = await this.exchange('getWithdraw', prefix, () => this.http(ctx).get(fillPath(ASAAS_PATHS.transfer, { id: withdrawId })), asaasTransfer);
    return this.transfer('getWithdraw', prefix, transfer);
  }

  private transfer(operation: 'withdraw' | 'getWithdraw', prefix: string, transfer: z.output<typeof asaasTransfer>): WithdrawResult {
    const status = this.withdrawalStatus(transfer.status);
    return {
      withdrawId: transfer.id,
      status,
      amount: this.mapped(operation, prefix, () => this.amountOr(transfer.value, undefined, 'valor da transferência')),
      ...payoutRefusal(status, transfer.failReason),
    };
  }

  override async getAccountBalance(ctx: AdapterContext): Promise<AccountBalance> {
    const prefix = this.prefixFor('getAccountBalance');
    const answer = await this.exchange('getAccountBalance', prefix, () => this.http(ctx).get(ASAAS_PATHS.balance), asaasBalance);
    return { available: this.mapped('getAccountBalance', prefix, () => this.amountOr(answer.balance, undefined, 'saldo')), currency: 'BRL' };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readAsaasWebhook(notification.body));
  }

  /** Asaas's event id (`evt_…`), which survives re-delivery; else the object's kind, id and status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.eventNotificationKey(readAsaasWebhook(notification.body), ctx, notification);
  }

  /**
   * The webhook's configured token arrives in `asaas-access-token`, compared
   * (constant time) with the account's webhook secret: a wrong token is refused
   * at the door. The token is a credential, so the sidecar does not store it:
   * the stored notification keeps that intake proved it; one sent without the
   * token is unsigned, and its money states are confirmed with GET
   * /payments/{id} like any unsigned one.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    return this.credentialHeaderVerdict(ctx, notification.headers['asaas-access-token']);
  }
}
