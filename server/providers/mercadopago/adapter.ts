import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type {
  Address,
  InstallmentOption,
  PaymentMethod,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
} from '../../domain/types.js';
import type { DisputeDefense, DisputeDefenseReceipt, ProviderChargeback } from '../../domain/disputes.js';
import type { CardInput } from '../../lib/card.js';
import { digitsOnly, inferDocumentType } from '../../lib/documents.js';
import { GatewayError, invalidArgument, isGatewayError } from '../../lib/errors.js';
import { verifySignatureHeader } from '../../lib/hmacSignature.js';
import { isRecord } from '../../lib/json.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { catalogueError, FAILURE_PREFIXES } from '../../lib/providerMessages.js';
import { lookupStatus, statusTable } from '../../lib/statusTable.js';
import { reaisToCents } from '../../lib/money.js';
import { dateOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type InstallmentCard, type NotificationVerdict } from '../adapter.js';
import { absentable, wireAmount, wireId, wireStatus, wireText, type AnswerSchema } from '../kit/answers.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { checkedDefenseDocuments, defenseForm, type DefenseDocumentLimits } from '../kit/defenseDocuments.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { notificationKeyOf } from '../notificationKeys.js';
import { creditCardInstallmentsOf, mercadoPagoInstallments } from './installments.js';

/**
 * MERCADOPAGO (spec doc 2, group 1): the spec shows no paths for group 1, so
 * this is Mercado Pago's public API as its documentation and official SDKs
 * give it (the addresses are the declaration's evidence): host
 * api.mercadopago.com, `Authorization: Bearer <access token>`, money in reais.
 *
 * - POST /v1/payments with the mandatory `X-Idempotency-Key`: PIX (`pix`, the
 *   code in `point_of_interaction.transaction_data`), boleto (`bolbradesco`,
 *   registered only with the payer's full address; `transaction_details`),
 *   card (the card token, its `payment_method_id` found from the token's BIN:
 *   GET /v1/card_tokens/{id}, then GET /v1/payment_methods/search?bin=…).
 * - GET /v1/payments/{id}; POST /v1/payments/{id}/refunds `{amount}` with an
 *   `X-Idempotency-Key` derived from the caller's key.
 * - Webhooks `{type: "payment", action, data: {id}}` carry no status (the
 *   payment is read), signed in `x-signature: ts=…,v1=…` over the manifest
 *   `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`. A chargeback's
 *   (`type: topic_chargebacks_wh`, `data: {id, payment_id}`) is read with GET
 *   /v1/chargebacks/{id}: the payment goes to CHARGEBACK and its dispute keeps
 *   the chargeback's id, amount and documentation deadline.
 * - CalculateInstallments: Mercado Pago's own quote for the card's BIN, GET
 *   /v1/payment_methods/installments?amount=…&bin=… (installments.ts).
 */

// ---------------------------------------------------------------- declaration

export const MERCADOPAGO_SOURCES = {
  paymentsCreate: 'https://www.mercadopago.com.br/developers/pt/reference/payments/_payments/post',
  paymentsGet: 'https://www.mercadopago.com.br/developers/pt/reference/payments/_payments_id/get',
  // a rejected card's status_detail (cc_rejected_…), the refusal's reason
  rejections: 'https://www.mercadopago.com.br/developers/en/docs/checkout-api/how-tos/reasons-for-rejection',
  refunds: 'https://www.mercadopago.com.br/developers/pt/reference/chargebacks/_payments_id_refunds/post',
  pix: 'https://www.mercadopago.com.br/developers/pt/docs/checkout-api/integration-configuration/integrate-with-pix',
  boleto: 'https://www.mercadopago.com.br/developers/pt/docs/checkout-api/integration-configuration/boleto-bancario',
  webhooks: 'https://www.mercadopago.com.br/developers/pt/docs/your-integrations/notifications/webhooks',
  // src/clients/payment (commonTypes: fee_details [{type, amount, fee_payer}], transaction_details.net_received_amount), paymentRefund,
  // cardToken/get, src/utils/webhook, src/utils/errors
  sdkNode: 'https://github.com/mercadopago/sdk-nodejs',
  // getPaymentMethods: {paging, results[{id, payment_type_id, issuer}]}; getInstallments({amount, bin}): [{payer_costs[…]}]
  sdkJs: 'https://github.com/mercadopago/sdk-js/blob/main/docs/core-methods.md',
  // cause 7521: the registered boleto needs payer.address
  boletoAddressError: 'https://github.com/mercadopago/px-android/issues/1370',
  // POST /v1/card_tokens by backend with the access token, for PCI-compliant merchants: card_number, security_code,
  // expiration_month, expiration_year, cardholder {name, identification {type, number}}
  backendCardTokens: 'https://www.mercadopago.com.br/developers/es/docs/resources-pci-compliant-merchants/receiving-payment-by-card',
  // GET /v1/payment_methods/installments?amount=…&bin=…: [{payment_method_id, payment_type_id, payer_costs[{installments,
  // installment_rate, installment_amount, total_amount, …}]}]
  installments: 'https://www.mercadopago.com.br/developers/pt/reference/payment_methods/_payment_methods_installments/get',
  // GET /v1/chargebacks/{id}: {id, payments, amount, documentation_status, …}; the payment's id where the chargeback's is not known
  chargebacksGet: 'https://www.mercadopago.com.mx/developers/en/reference/chargebacks/_chargebacks_id/get',
  // the chargebacks topic's notification: {actions, type: "topic_chargebacks_wh", data: {id (the chargeback's, a number of 18 digits), payment_id, …}, id, …}
  chargebacksNotifications: 'https://www.mercadopago.com.br/developers/en/docs/checkout-pro/chargebacks/notifications',
  // the attributes of GET /v1/chargebacks/{id}: id (String), payments (Array(Integer)), amount, date_documentation_deadline, …; no reason
  chargebacksResource: 'https://www.mercadopago.com.ar/developers/en/reference/chargebacks/resource',
  // the flow: a chargeback notification, GET the chargeback, upload the supporting documentation
  chargebacksManage: 'https://www.mercadopago.com.br/developers/en/docs/checkout-api-payments/payment-management/chargebacks/management',
  // POST /v1/chargebacks/{id}/documentation, multipart `files[]`: .jpg, .png or .pdf, at most 10 MB overall
  chargebacksDocumentation: 'https://www.mercadopago.com.br/developers/en/docs/adobe-commerce/resources/chargebacks/how-to-manage',
  // IPN: a POST to the notification URL with `?topic=…&id=…` (payment, chargebacks, merchant_order…); its x-signature cannot be validated
  ipn: 'https://mercadopago.com.br/developers/en/docs/your-integrations/notifications/ipn',
  // after an IPN, the resource read by topic: /v1/payments/[ID], /v1/chargebacks/[ID]
  ipnAfterNotification:
    'https://www.mercadopago.com.pe/developers/en/docs/woocommerce/additional-content/notifications/ipn/online-payments/online-url-after-notification',
} as const;

export const MERCADOPAGO: ProviderDeclaration = {
  identity: { id: 'MERCADOPAGO', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.mercadopago.com' },
  capabilities: { paymentMethods: ['PIX', 'BILLET', 'CREDIT_CARD'], refunds: true, webhooks: true, installments: true, disputeDefense: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'reais',
  sources:
    "Mercado Pago API reference: POST /v1/payments (fields, mandatory X-Idempotency-Key, errors {message, error, status, cause[{code, description}]}), GET /v1/payments/{id} (the seller's fee: the `fee_details` whose fee_payer is the collector, cross-checked with transaction_details.net_received_amount, as sdk-nodejs's payment types give them), POST /v1/payments/{id}/refunds (partial with amount, X-Idempotency-Key); Checkout API guides: PIX (point_of_interaction.transaction_data), boleto (bolbradesco, payer.address required: cause 7521); webhooks guide: {type: payment, data.id} and x-signature over id:…;request-id:…;ts:…;. Card tokens made by backend for PCI-compliant merchants (resources for PCI-compliant merchants: POST /v1/card_tokens {card_number, expiration_month, expiration_year, security_code, cardholder {name, identification}} with the access token), for a card's own fields from the gateway's card token. Official SDKs: sdk-nodejs (card token read GET /v1/card_tokens/{id} with first_six_digits, the same card token create, refund answer, webhook manifest), sdk-js (getPaymentMethods by BIN: {paging, results[{id, payment_type_id, issuer}]}; getInstallments). Installments quote: GET /v1/payment_methods/installments with amount (reais) and bin, answered [{payment_method_id, payment_type_id, payer_costs[{installments, installment_rate, installment_amount, total_amount}]}] (API reference, sdk-js getInstallments). The gateway's decisions: boleto as bolbradesco, the card brand found from the token's BIN, document 1 §4 readings of the statuses, refund statuses read as done / in progress / refused, installments quoted from the credit-card entry only and only with the card's BIN (card_bin; FAILED_PRECONDITION without it), the last installment absorbing the cents. Chargeback defence (chargebacks guides and API reference): GET /v1/chargebacks/{id}, which also takes the payment's id, for the chargeback's own id where the dispute has none; then POST /v1/chargebacks/{id}/documentation, multipart, the evidence as `files[]`, only .jpg, .png or .pdf, at most 10 MB overall (read as 10,000,000 bytes), checked before anything is sent. Chargeback notifications (chargebacks guide's notification page: `type: topic_chargebacks_wh`, `data.id` the chargeback's id written as an 18-digit number, kept digit for digit, `data.payment_id`; signed like every webhook): the chargeback read with GET /v1/chargebacks/{id} (API reference attributes: payments, amount, date_documentation_deadline; no reason is documented, so the dispute keeps the gateway's), its payment moved to CHARGEBACK, the dispute given the chargeback's id, amount (cents) and deadline. IPN (the IPN guide and its after-notification page): the subject only in the address, `?topic=payment|chargebacks&id=…`, read with GET /v1/payments/{id} or /v1/chargebacks/{id}; never validated with the secret (the guide says its x-signature cannot be), so always an unsigned hint; other topics ignored",
  evidence: { level: 'documented', addresses: Object.values(MERCADOPAGO_SOURCES) },
};

export const MERCADOPAGO_PATHS = {
  payments: '/v1/payments',
  payment: '/v1/payments/{id}',
  refunds: '/v1/payments/{id}/refunds',
  cardTokens: '/v1/card_tokens',
  cardToken: '/v1/card_tokens/{id}',
  paymentMethodsByBin: '/v1/payment_methods/search',
  installments: '/v1/payment_methods/installments',
  chargeback: '/v1/chargebacks/{id}',
  chargebackDocumentation: '/v1/chargebacks/{id}/documentation',
} as const;

/** Mercado Pago's `payment_method_id` for PIX and boleto; a card's is its brand, found from the token's BIN. */
const PAYMENT_METHOD_IDS = { PIX: 'pix', BILLET: 'bolbradesco' } as const;

// ---------------------------------------------------------------- wire

/** The payer's address, which Mercado Pago requires to register a boleto. */
const mercadoPagoAddress = z.object({
  zip_code: z.string(),
  street_name: z.string(),
  street_number: z.string(),
  neighborhood: z.string(),
  city: z.string(),
  federal_unit: z.string(),
});

/** POST /v1/payments: what the gateway sends. */
export const mercadoPagoPaymentRequest = z.object({
  transaction_amount: z.number(),
  payment_method_id: z.string(),
  token: z.string().optional(),
  installments: z.number().int().optional(),
  issuer_id: z.number().int().optional(),
  description: z.string().optional(),
  external_reference: z.string().optional(),
  notification_url: z.string(),
  date_of_expiration: z.string().optional(),
  payer: z
    .object({
      email: z.string(),
      first_name: z.string().optional(),
      last_name: z.string().optional(),
      identification: z.object({ type: z.string(), number: z.string() }).optional(),
      address: mercadoPagoAddress.optional(),
    })
    .optional(),
});
export type MercadoPagoPaymentRequest = z.infer<typeof mercadoPagoPaymentRequest>;

/** POST /v1/payments/{id}/refunds: the amount in reais (left out, Mercado Pago refunds what is left). */
export const mercadoPagoRefundRequest = z.object({ amount: z.number().optional() });
export type MercadoPagoRefundRequest = z.infer<typeof mercadoPagoRefundRequest>;

/**
 * The fees of a payment (sdk-nodejs FeeDetails: `type`, `amount` in reais, `fee_payer` collector or payer) and what the
 * collector keeps (TransactionDetails.net_received_amount). Unreadable ones read as absent: a fee is a fact for the
 * statement, never a reason to refuse the payment's answer.
 */
const mercadoPagoFeeDetails = absentable(z.array(z.object({ type: absentable(wireText), amount: wireAmount, fee_payer: absentable(wireText) }))).catch(
  undefined,
);
const netReceived = { net_received_amount: absentable(wireAmount).catch(undefined) };

/** A payment, as POST /v1/payments and GET /v1/payments/{id} answer it. */
export const mercadoPagoPayment = z.object({
  id: wireId,
  status: wireStatus,
  /** Why a payment is in its status; for a rejected card, the refusal (cc_rejected_insufficient_amount, …). */
  status_detail: absentable(wireText),
  transaction_amount: wireAmount,
  payment_method_id: absentable(wireText),
  payment_type_id: absentable(wireText),
  date_of_expiration: absentable(wireText),
  fee_details: mercadoPagoFeeDetails,
  transaction_details: absentable(z.object(netReceived)).catch(undefined),
});
export type MercadoPagoPayment = z.output<typeof mercadoPagoPayment>;

/** A payment just created, with what the buyer is shown for its method: the PIX code, or the boleto's line and page. */
export interface MercadoPagoCharge {
  payment: MercadoPagoPayment;
  shown: Pick<TransactionResult, 'pixCode' | 'billetCode' | 'billetUrl'>;
}

const pixCharge = mercadoPagoPayment
  .extend({ point_of_interaction: z.object({ transaction_data: z.object({ qr_code: wireText }) }) })
  .transform((payment): MercadoPagoCharge => ({ payment, shown: { pixCode: payment.point_of_interaction.transaction_data.qr_code } }));

const boletoCharge = mercadoPagoPayment
  .extend({
    transaction_details: z.object({ external_resource_url: wireText, digitable_line: absentable(wireText), ...netReceived }),
    barcode: absentable(z.object({ content: absentable(wireText) })),
  })
  .transform((payment, ctx): MercadoPagoCharge => {
    // The line to type is `digitable_line`; older answers carried only the bar code's `content`.
    const line = payment.transaction_details.digitable_line ?? payment.barcode?.content;
    if (!line) {
      ctx.addIssue({ code: 'custom', path: ['transaction_details', 'digitable_line'], message: 'linha digitável ausente' });
      return z.NEVER;
    }
    return { payment, shown: { billetCode: line, billetUrl: payment.transaction_details.external_resource_url } };
  });

const cardCharge = mercadoPagoPayment.transform((payment): MercadoPagoCharge => ({ payment, shown: {} }));

/** The created payment's answer for each method: a PIX without its code, or a boleto without its line and page, is not the charge. */
export const MERCADOPAGO_CHARGE_ANSWERS: Readonly<Record<PaymentMethod, AnswerSchema<MercadoPagoCharge>>> = {
  PIX: pixCharge,
  BILLET: boletoCharge,
  CREDIT_CARD: cardCharge,
};

/** POST /v1/payments/{id}/refunds: the refund (its status may be left out: the refund was still accepted). */
export const mercadoPagoRefund = z.object({ id: wireId, status: absentable(wireStatus) });
export type MercadoPagoRefund = z.output<typeof mercadoPagoRefund>;

/** POST /v1/card_tokens: a card's own fields, as MercadoPago.js's createCardToken sends them (the year four digits). */
export const mercadoPagoCardTokenRequest = z.object({
  card_number: z.string().regex(/^\d{12,19}$/),
  expiration_month: z.number().int().min(1).max(12),
  expiration_year: z.number().int().min(2000),
  security_code: z.string().regex(/^\d{3,4}$/),
  cardholder: z.object({ name: z.string().min(1), identification: z.object({ type: z.string(), number: z.string() }).optional() }),
});
export type MercadoPagoCardTokenRequest = z.infer<typeof mercadoPagoCardTokenRequest>;

/** A card token of the gateway's card: the holder's document is the card's, else the buyer's; none is left out. */
export function toMercadoPagoCardToken(card: CardInput, buyerDocument?: string): MercadoPagoCardTokenRequest {
  const document = digitsOnly(card.holderDocument) || digitsOnly(buyerDocument ?? '');
  return {
    card_number: card.cardNumber,
    expiration_month: Number(card.expMonth),
    expiration_year: Number(card.expYear),
    security_code: card.cvv,
    cardholder: { name: card.holderName, ...(document ? { identification: { type: inferDocumentType(document), number: document } } : {}) },
  };
}

/** GET (and POST) /v1/card_tokens: the card's BIN. */
export const mercadoPagoCardToken = z.object({
  id: wireId,
  first_six_digits: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});

/** GET /v1/payment_methods/search?bin=…: the payment methods that take the BIN. */
export const mercadoPagoPaymentMethods = z.object({
  results: z.array(
    z.object({
      id: wireText,
      payment_type_id: wireText,
      status: absentable(wireText),
      // A number in sdk-js's getPaymentMethods answer; POST /v1/payments takes it as a number (`"issuer_id": 310`).
      issuer: absentable(z.object({ id: absentable(z.union([z.number().int(), z.string().trim().regex(/^\d+$/).transform(Number)])) })),
    }),
  ),
});
export type MercadoPagoPaymentMethods = z.output<typeof mercadoPagoPaymentMethods>;

/** GET /v1/chargebacks/{id}: the chargeback's own id (the one its documentation goes to). */
export const mercadoPagoChargeback = z.object({ id: wireId });

/**
 * GET /v1/chargebacks/{id} read for a chargeback notification, the fields its API reference documents: `payments`
 * (the payments' ids, Array(Integer)), `amount` (reais; the reference's sample writes it as text) and
 * `date_documentation_deadline` (ISO 8601). No reason is documented, so none is read. An amount or deadline that cannot
 * be read is left out (the dispute keeps its own); a chargeback naming no payment is not one the gateway can place.
 */
export const mercadoPagoChargebackCase = mercadoPagoChargeback.extend({
  payments: z.array(wireId).min(1),
  amount: absentable(wireAmount).catch(undefined),
  date_documentation_deadline: absentable(wireText).catch(undefined),
});
export type MercadoPagoChargebackCase = z.output<typeof mercadoPagoChargebackCase>;

/** POST /v1/chargebacks/{id}/documentation: ".jpg, .png or .pdf", "should not exceed 10mb overall" (read as 10,000,000 bytes). */
export const MERCADOPAGO_DOCUMENTATION_LIMITS: DefenseDocumentLimits = {
  provider: 'Mercado Pago',
  types: { 'image/jpeg': '.jpg', 'image/png': '.png', 'application/pdf': '.pdf' },
  maxTotalBytes: 10_000_000,
};

/**
 * A webhook about a payment (`type: payment`, `data.id`) or a chargeback (the chargebacks guide's `type:
 * topic_chargebacks_wh`, or the topic's own name `chargebacks`; `data.id` the chargeback's, `data.payment_id` its
 * payment's); anything else is ignored.
 */
export const mercadoPagoNotification = z.object({
  id: absentable(wireId),
  type: z.enum(['payment', 'topic_chargebacks_wh', 'chargebacks']),
  data: z.object({ id: wireId, payment_id: absentable(wireId).catch(undefined) }),
});

// ---------------------------------------------------------------- statuses

/** Mercado Pago's statuses by document 1 §4: authorized (not captured) and in_process wait; in_mediation is a dispute; cancelled never paid. */
export const MERCADOPAGO_STATUSES = statusTable<TransactionStatus>(
  {
    ...{ pending: 'PENDING', in_process: 'PENDING', authorized: 'PENDING' },
    ...{ approved: 'APPROVED', refunded: 'REFUNDED', charged_back: 'CHARGEBACK', in_mediation: 'CHARGEBACK' },
    ...{ rejected: 'REJECTED', cancelled: 'CANCELED' },
  },
  'REJECTED',
);

/** What a refund's answer says happened. */
export type RefundOutcome = 'done' | 'in progress' | 'refused';

/**
 * A refund's status (the SDK names approved and in_process): approved is done;
 * in_process (a PIX refund waiting for the payer's bank) and any status
 * Mercado Pago did not document are in progress, since it accepted the refund
 * and holds the money for it; rejected and cancelled are refused.
 */
export const MERCADOPAGO_REFUND_OUTCOMES = statusTable<RefundOutcome>(
  { approved: 'done', in_process: 'in progress', pending: 'in progress', authorized: 'in progress', rejected: 'refused', cancelled: 'refused' },
  'in progress',
);

// ---------------------------------------------------------------- request mappers

/**
 * Mercado Pago's `X-Idempotency-Key` from the caller's idempotency key: the same
 * key of the same account (and, for a refund, the same payment) sends the same
 * value every time, so a retried request is recognised there and never acts
 * twice; accounts sharing a Mercado Pago account never collide. UUID-shaped
 * (version 8, RFC 9562), the form Mercado Pago suggests, whatever characters
 * the caller's key has.
 */
export function mercadoPagoIdempotencyKey(...parts: readonly string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The contract's address fields, by the names Mercado Pago's `payer.address` gives them. */
const ADDRESS_FIELDS = [
  ['zipCode', 'zip_code', 'zip_code'],
  ['address', 'address', 'street_name'],
  ['number', 'number', 'street_number'],
  ['district', 'district', 'neighborhood'],
  ['city', 'city', 'city'],
  ['state', 'state', 'federal_unit'],
] as const;

/**
 * The boleto's `payer.address` from the transaction's address. Mercado Pago
 * registers a boleto only with all six parts (it refuses with cause 7521), so
 * a charge without one is refused before anything is sent, naming the field.
 */
export function mercadoPagoPayerAddress(address: Address | undefined): z.infer<typeof mercadoPagoAddress> {
  const why = "Mercado Pago registers a boleto only with the payer's address (zip_code, street_name, street_number, neighborhood, city, federal_unit)";
  if (!address) throw invalidArgument('transaction.address', `transaction.address is required for MERCADOPAGO boletos: ${why}`, 'REQUIRED');
  for (const [key, field] of ADDRESS_FIELDS) {
    if (!address[key]?.trim())
      throw invalidArgument(`transaction.address.${field}`, `transaction.address.${field} is required for MERCADOPAGO boletos: ${why}`, 'REQUIRED');
  }
  return {
    zip_code: digitsOnly(address.zipCode),
    street_name: address.address.trim(),
    street_number: address.number.trim(),
    neighborhood: address.district.trim(),
    city: address.city.trim(),
    federal_unit: address.state.trim().toUpperCase(),
  };
}

/** A card's `payment_method_id` (its brand) and issuer, as Mercado Pago's search by BIN gave them. */
export interface MercadoPagoCardMethod {
  paymentMethodId: string;
  issuerId?: number;
}

/** The credit-card method of a BIN search (the contract charges credit cards only); undefined when the BIN has none that is active. */
export function creditCardMethodOf(methods: MercadoPagoPaymentMethods): MercadoPagoCardMethod | undefined {
  const found = methods.results.find((method) => method.payment_type_id === 'credit_card' && (method.status ?? 'active') === 'active');
  return found && { paymentMethodId: found.id, ...(found.issuer?.id !== undefined ? { issuerId: found.issuer.id } : {}) };
}

export function toMercadoPagoPayment(
  input: TransactionInput,
  terms: { amount: number; notificationUrl: string; expiresAt?: Date; card?: MercadoPagoCardMethod & { token?: string } },
): MercadoPagoPaymentRequest {
  const document = digitsOnly(input.customer?.document ?? '');
  const [firstName, ...rest] = (input.customer?.name ?? '').trim().split(/\s+/);
  const paymentMethodId = input.paymentMethod === 'CREDIT_CARD' ? terms.card?.paymentMethodId : PAYMENT_METHOD_IDS[input.paymentMethod];
  if (!paymentMethodId) throw new Error('a card charge needs the payment method found from its BIN');
  const address = input.paymentMethod === 'BILLET' ? mercadoPagoPayerAddress(input.address) : undefined;
  return {
    transaction_amount: terms.amount,
    payment_method_id: paymentMethodId,
    ...(input.paymentMethod === 'CREDIT_CARD'
      ? {
          token: terms.card?.token ?? input.cardId?.trim(),
          installments: input.installments,
          ...(terms.card?.issuerId !== undefined ? { issuer_id: terms.card.issuerId } : {}),
        }
      : {}),
    ...(input.description ? { description: input.description } : {}),
    ...(input.orderId ? { external_reference: input.orderId } : {}),
    notification_url: terms.notificationUrl,
    ...(terms.expiresAt ? { date_of_expiration: terms.expiresAt.toISOString() } : {}),
    ...(input.customer
      ? {
          payer: {
            email: input.customer.email,
            ...(firstName ? { first_name: firstName } : {}),
            ...(rest.length ? { last_name: rest.join(' ') } : {}),
            ...(document ? { identification: { type: inferDocumentType(document), number: document } } : {}),
            ...(address ? { address } : {}),
          },
        }
      : {}),
  };
}

// ---------------------------------------------------------------- response mappers

export function mercadoPagoMethodOf(payment: MercadoPagoPayment): PaymentMethod {
  if (payment.payment_method_id === 'pix' || payment.payment_type_id === 'bank_transfer') return 'PIX';
  if (payment.payment_type_id === 'ticket') return 'BILLET';
  return 'CREDIT_CARD';
}

/**
 * The fee the seller pays for a payment, in cents: the sum of its `fee_details` that name the collector as their payer
 * (the payer's own, such as the financing of installments, are not the seller's cost). Checked against what the
 * collector keeps: where `net_received_amount` is stated (Mercado Pago answers 0 until the money is credited), the
 * amount less it must be that sum, else the answer contradicts itself and no fee is read. No collector fee listed (a
 * pending payment lists none): none.
 */
export function mercadoPagoFeeOf(payment: MercadoPagoPayment): number | undefined {
  const fees = (payment.fee_details ?? []).filter((fee) => fee.fee_payer?.toLowerCase() === 'collector');
  if (!fees.length) return undefined;
  try {
    const cents = fees.map((fee) => reaisToCents(fee.amount));
    if (cents.some((fee) => fee < 0)) return undefined;
    const total = cents.reduce((sum, fee) => sum + fee, 0);
    const net = payment.transaction_details?.net_received_amount;
    const netCents = net === undefined ? 0 : reaisToCents(net);
    return netCents > 0 && reaisToCents(payment.transaction_amount) - netCents !== total ? undefined : total;
  } catch {
    return undefined;
  }
}

/**
 * A rejected card payment's reason: its `status_detail` as Mercado Pago gives it (cc_rejected_…, the "reasons for
 * rejection" guide), the gateway's category being read from that code. Mercado Pago sends no text of its own beside it.
 */
export function mercadoPagoDecline(payment: MercadoPagoPayment, paymentMethod: PaymentMethod): Pick<TransactionResult, 'declineReason'> {
  const rejectedCard = paymentMethod === 'CREDIT_CARD' && payment.status.toLowerCase() === 'rejected';
  return rejectedCard && payment.status_detail ? { declineReason: payment.status_detail } : {};
}

/** The refund as the contract reports it: done and in progress are a refund the provider made (status true), refused is none. */
export const mercadoPagoRefundResult = (refund: MercadoPagoRefund, outcome: RefundOutcome): RefundResult => ({
  refundId: refund.id,
  status: outcome !== 'refused',
});

/** What a notification names: a payment, or a chargeback (and the payment it says it is about). */
export interface MercadoPagoNotified {
  topic: 'payment' | 'chargeback';
  /** `data.id`: the payment's or the chargeback's id. */
  id: string;
  /** Mercado Pago's id of the notification, where it sends one. */
  eventId?: string;
  /** A chargeback notification's `data.payment_id`: a hint, the chargeback's read says which payments it is about. */
  paymentId?: string;
  /** An IPN (the subject named in the address only): never signed in a way the secret can check. */
  ipn?: true;
}

/**
 * A JSON body whose whole numbers beyond a double's exact range keep their digits as text: Mercado Pago writes a
 * chargeback's `data.id` as a number of 18 digits (233000061680860000 in the guide's example), which JSON.parse alone
 * would round to another chargeback's id (and so to another signature manifest).
 */
function parseExactIds(body: Buffer): Record<string, unknown> | undefined {
  const exact = (_key: string, value: unknown, context?: { source?: string }): unknown =>
    typeof value === 'number' && !Number.isSafeInteger(value) && /^\d+$/.test(context?.source ?? '') ? context!.source : value;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'), exact);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An IPN, Mercado Pago's older notification (its IPN guide): a POST to the notification URL that names its subject only
 * in the address, `?topic=…&id=…`. Of its topics the gateway reads payment and chargebacks; the others
 * (merchant_order, point_integration_ipn, delivery_cancellation) are accepted and ignored.
 */
const mercadoPagoIpn = z.object({ topic: z.string().min(1), id: z.string().regex(/^\d+$/) });

/** An IPN's topic and id: the address's, where the body is not a webhook's. */
function mercadoPagoIpnOf(query: Record<string, string>): z.output<typeof mercadoPagoIpn> | undefined {
  const ipn = mercadoPagoIpn.safeParse(query);
  return ipn.success ? ipn.data : undefined;
}

/**
 * What a notification is about, with Mercado Pago's notification id where it sends one: a webhook's body, else an
 * IPN's address (`ipn`); undefined for anything else (ignored).
 */
export function mercadoPagoNotified(body: Buffer, query: Record<string, string> = {}): MercadoPagoNotified | undefined {
  const parsed = mercadoPagoNotification.safeParse(parseExactIds(body));
  if (!parsed.success) {
    const ipn = mercadoPagoIpnOf(query);
    if (ipn?.topic !== 'payment' && ipn?.topic !== 'chargebacks') return undefined;
    return { topic: ipn.topic === 'payment' ? 'payment' : 'chargeback', id: ipn.id, ipn: true };
  }
  const { type, data, id: eventId } = parsed.data;
  return {
    topic: type === 'payment' ? 'payment' : 'chargeback',
    id: data.id,
    ...(eventId ? { eventId } : {}),
    ...(type !== 'payment' && data.payment_id ? { paymentId: data.payment_id } : {}),
  };
}

/**
 * The charge a chargeback is about and what the gateway keeps of it: the payment the notification names where the
 * chargeback's read lists it, else the first the read lists; the chargeback's own id, its amount in cents and its
 * documentation deadline where the read states them.
 */
export function mercadoPagoChargebackNotice(
  chargeback: MercadoPagoChargebackCase,
  notifiedPaymentId: string | undefined,
  toCents: (amount: string | number) => number | undefined,
): { paymentId: string; chargeback: ProviderChargeback } {
  const paymentId = chargeback.payments.find((id) => id === notifiedPaymentId) ?? chargeback.payments[0]!;
  const amount = chargeback.amount === undefined ? undefined : toCents(chargeback.amount);
  const deadline = dateOf(chargeback.date_documentation_deadline);
  return {
    paymentId,
    chargeback: { providerDisputeId: chargeback.id, ...(amount === undefined ? {} : { amount }), ...(deadline ? { deadline } : {}) },
  };
}

/**
 * The unit of `ts` in an `x-signature`: Mercado Pago's guide calls it
 * milliseconds while its example and its SDK use seconds; 13 digits are read
 * as milliseconds, fewer as seconds, so either is checked against the arrival.
 */
function signatureTimestampUnit(header: string | undefined): 'seconds' | 'milliseconds' {
  const stamp = /(?:^|,)\s*ts=(\d+)/.exec(header ?? '')?.[1];
  return stamp?.length === 13 ? 'milliseconds' : 'seconds';
}

// ---------------------------------------------------------------- operations

export class MercadoPagoAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = MERCADOPAGO, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: MERCADOPAGO_STATUSES });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId?.trim()) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const prefix = this.prefixFor('createTransaction');
    const card = input.paymentMethod === 'CREDIT_CARD' ? await this.cardMethod(ctx, input) : undefined;
    const seconds = input.paymentMethod === 'PIX' ? this.pixExpirySeconds : input.paymentMethod === 'BILLET' ? this.boletoExpirySeconds : undefined;
    const expiresAt = seconds === undefined ? undefined : this.expiresAt(seconds);
    const body = toMercadoPagoPayment(input, { amount: this.toProviderAmount(input.amount), notificationUrl: ctx.notificationUrl, expiresAt, card });
    // Mandatory on POST /v1/payments: from the caller's key, so a retry is the same payment there too; without one, nothing to recognise.
    const key = input.idempotencyKey?.trim();
    const headers = { 'X-Idempotency-Key': key ? mercadoPagoIdempotencyKey('payment', ctx.accountId, key) : randomUUID() };
    const { payment, shown } = await this.exchange(
      'createTransaction',
      prefix,
      () => this.http(ctx).post<unknown>(MERCADOPAGO_PATHS.payments, body, { headers }),
      MERCADOPAGO_CHARGE_ANSWERS[input.paymentMethod],
    );
    const expiry = dateOf(payment.date_of_expiration) ?? expiresAt;
    const result: TransactionResult = {
      ...this.transaction('createTransaction', payment, input.paymentMethod),
      ...shown,
      ...(expiry && input.paymentMethod !== 'CREDIT_CARD' ? { expiresAt: expiry } : {}),
    };
    // The QR image is drawn from the code at the gateway's edge (pixCodeOnly), the same for every provider.
    return pixCodeOnly(result);
  }

  /** The card's own fields (the gateway's card token, opened for the call) go as a Mercado Pago card token made now. */
  override takesCardData(_ctx: AdapterContext): boolean {
    return true;
  }

  /**
   * The card's token and `payment_method_id` (required by POST /v1/payments;
   * Mercado Pago answers 'Cannot infer Payment Method' without it): the caller's
   * token and its BIN (GET /v1/card_tokens/{id}), or, for a card's own fields, a
   * token made of them (POST /v1/card_tokens, answered with its BIN); then the
   * credit-card method Mercado Pago gives that BIN (GET
   * /v1/payment_methods/search). Nothing is charged by these calls, so any
   * failure here is one whose outcome is known: the payment was never sent.
   */
  private async cardMethod(ctx: AdapterContext, input: TransactionInput): Promise<MercadoPagoCardMethod & { token: string }> {
    const prefix = this.prefixFor('createTransaction');
    const http = this.http(ctx);
    try {
      const card = await this.exchange(
        'createTransaction',
        prefix,
        () =>
          input.card
            ? http.post<unknown>(MERCADOPAGO_PATHS.cardTokens, toMercadoPagoCardToken(input.card, input.customer?.document))
            : http.get<unknown>(fillPath(MERCADOPAGO_PATHS.cardToken, { id: input.cardId!.trim() })),
        mercadoPagoCardToken,
      );
      const params = { bin: card.first_six_digits, ...(ctx.publicKey?.trim() ? { public_key: ctx.publicKey.trim() } : {}) };
      const methods = await this.exchange(
        'createTransaction',
        prefix,
        () => http.get<unknown>(MERCADOPAGO_PATHS.paymentMethodsByBin, { params }),
        mercadoPagoPaymentMethods,
      );
      const method = creditCardMethodOf(methods);
      if (!method)
        throw invalidArgument('transaction.card_id', `${prefix}: Mercado Pago has no active credit card method for this card's BIN`, 'INVALID_VALUE');
      return { ...method, token: card.id };
    } catch (error) {
      if (!isGatewayError(error)) throw error;
      throw new GatewayError(error.code, error.message, { ...error.details, outcome: 'failed' });
    }
  }

  /**
   * Mercado Pago's quote for the card (GET /v1/payment_methods/installments, the amount in reais and the card's BIN):
   * its interest and counts depend on the card's brand and issuer, so without the BIN there is no quote to give
   * (FAILED_PRECONDITION naming card_bin, nothing sent); a BIN with no credit-card costs is refused naming it.
   */
  override async calculateInstallments(ctx: AdapterContext, amount: number, card: InstallmentCard = {}): Promise<InstallmentOption[]> {
    const prefix = this.prefixFor('calculateInstallments');
    if (!card.bin)
      throw new GatewayError('FAILED_PRECONDITION', `${prefix}: MERCADOPAGO quotes installments for a card: card_bin (its first 6 to 8 digits) is required`, {
        field: 'card_bin',
        reason: 'CARD_BIN_REQUIRED',
        outcome: 'failed',
      });
    const params = { amount: this.toProviderAmount(amount), bin: card.bin };
    const quote = await this.exchange(
      'calculateInstallments',
      prefix,
      () => this.http(ctx).get<unknown>(MERCADOPAGO_PATHS.installments, { params }),
      mercadoPagoInstallments,
    );
    const options = creditCardInstallmentsOf(quote);
    if (!options) throw invalidArgument('card_bin', `${prefix}: Mercado Pago quotes no credit card installments for this card_bin`, 'INVALID_VALUE');
    return options;
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const payment = await this.exchange(
      'getTransaction',
      this.prefixFor('getTransaction'),
      () => this.http(ctx).get<unknown>(fillPath(MERCADOPAGO_PATHS.payment, { id: transactionId })),
      mercadoPagoPayment,
    );
    return this.transaction('getTransaction', payment, mercadoPagoMethodOf(payment));
  }

  /** The payment as the contract's transaction; an amount that cannot be read as reais is a bad answer (UNAVAILABLE), never a status. */
  private transaction(operation: 'createTransaction' | 'getTransaction', payment: MercadoPagoPayment, paymentMethod: PaymentMethod): TransactionResult {
    const fee = mercadoPagoFeeOf(payment);
    return {
      paymentMethod,
      transactionId: payment.id,
      status: this.transactionStatus(payment.status),
      amount: this.mapped(operation, this.prefixFor(operation), () => this.amountOr(payment.transaction_amount, undefined, 'valor do pagamento')),
      ...(fee === undefined ? {} : { providerFee: fee }),
      ...mercadoPagoDecline(payment, paymentMethod),
    };
  }

  /**
   * POST /v1/payments/{id}/refunds `{amount}`, its `X-Idempotency-Key` derived
   * from the caller's key: a retried refund is the same refund at Mercado Pago,
   * never a second one.
   */
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number, idempotencyKey?: string): Promise<RefundResult> {
    const key = idempotencyKey?.trim();
    const headers = { 'X-Idempotency-Key': key ? mercadoPagoIdempotencyKey('refund', ctx.accountId, transactionId, key) : randomUUID() };
    const body: MercadoPagoRefundRequest = { amount: this.toProviderAmount(amount) };
    const refund = await this.exchange(
      'refoundTransaction',
      this.prefixFor('refoundTransaction'),
      () => this.http(ctx).post<unknown>(fillPath(MERCADOPAGO_PATHS.refunds, { id: transactionId }), body, { headers }),
      mercadoPagoRefund,
    );
    const outcome = lookupStatus(MERCADOPAGO_REFUND_OUTCOMES, refund.status, (providerStatus, mappedTo) =>
      this.log.warn({ provider: this.identity.id, providerStatus, mappedTo }, 'unknown provider refund status'),
    );
    return mercadoPagoRefundResult(refund, outcome);
  }

  /**
   * The defence as Mercado Pago's chargebacks guides have it: the chargeback's own id (the dispute's, else read with
   * GET /v1/chargebacks/{payment id}, which the API reference allows when the chargeback's is not known), then the
   * evidence as `files[]` of one multipart POST /v1/chargebacks/{id}/documentation, its limits checked first.
   */
  override async submitDisputeDefense(ctx: AdapterContext, defense: DisputeDefense): Promise<DisputeDefenseReceipt> {
    const prefix = FAILURE_PREFIXES.SUBMIT_DISPUTE_DEFENSE;
    const documents = checkedDefenseDocuments(defense.documents, MERCADOPAGO_DOCUMENTATION_LIMITS, prefix);
    const http = this.http(ctx);
    const known = defense.providerDisputeId.trim();
    const chargebackId =
      known ||
      (
        await this.exchange(
          'submitDisputeDefense',
          prefix,
          () => http.get<unknown>(fillPath(MERCADOPAGO_PATHS.chargeback, { id: defense.providerTransactionId })),
          mercadoPagoChargeback,
        )
      ).id;
    await this.exchange('submitDisputeDefense', prefix, () =>
      http.post<unknown>(fillPath(MERCADOPAGO_PATHS.chargebackDocumentation, { id: chargebackId }), defenseForm(documents, 'files[]')),
    );
    return { providerDisputeId: chargebackId };
  }

  /**
   * The webhook names the payment or the chargeback only: what it is about is read from Mercado Pago (a failed read fails
   * the notification, which is retried), so an unsigned one is confirmed by that read, like a signed one.
   */
  override async processWebhook(ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const notified = mercadoPagoNotified(notification.body, notification.query);
    if (!notified) return undefined;
    if (notified.topic === 'chargeback') return this.chargebackNotified(ctx, notified);
    const payment = await this.getTransaction(ctx, notified.id);
    return {
      type: 'TRANSACTION',
      transactionId: payment.transactionId,
      status: payment.status,
      ...(payment.providerFee === undefined ? {} : { providerFee: payment.providerFee }),
    };
  }

  /**
   * A chargeback notification (the chargebacks guides: notification, GET the chargeback, documentation to its id): the
   * chargeback read by its own id; its payment charged back (CHARGEBACK, which the gateway confirms with the payment's
   * read where the notification is unsigned), with the chargeback's id, amount and deadline for the charge's dispute.
   */
  private async chargebackNotified(ctx: AdapterContext, notified: MercadoPagoNotified): Promise<WebhookResult> {
    const chargeback = await this.exchange(
      'processWebhook',
      this.prefixFor('processWebhook'),
      () => this.http(ctx).get<unknown>(fillPath(MERCADOPAGO_PATHS.chargeback, { id: notified.id })),
      mercadoPagoChargebackCase,
    );
    const notice = mercadoPagoChargebackNotice(chargeback, notified.paymentId, (amount) => this.optionalProviderAmount(amount));
    return { type: 'TRANSACTION', transactionId: notice.paymentId, status: 'CHARGEBACK', chargeback: notice.chargeback };
  }

  /**
   * Mercado Pago's notification id where it sends one, else the body's hash. An IPN has neither (its body says nothing,
   * so every IPN would share one hash): it is keyed by its subject and its own arrival, never a duplicate of another
   * IPN. That costs nothing in safety: an IPN is unsigned, so what it applies is what the read answered.
   */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const notified = mercadoPagoNotified(notification.body, notification.query);
    if (notified?.ipn)
      return notificationKeyOf(
        { subject: `ipn-${notified.topic}`, id: notified.id, status: `at-${(notification.receivedAt ?? this.now()).getTime()}` },
        notification.body,
      );
    return notified?.eventId ? notificationKeyOf({ eventId: notified.eventId }, notification.body) : super.notificationKey(ctx, notification);
  }

  /**
   * With a webhook secret on the account: `x-signature: ts=…,v1=…`, v1 the hex
   * HMAC-SHA256 of `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` (the id in
   * lower case, parts left out when absent), the timestamp within the
   * tolerance of the arrival. An IPN is unsigned whatever its headers: Mercado Pago's IPN guide says its x-signature
   * cannot be validated with the secret, so it is a hint confirmed by the reads, as on an account without a secret.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    const notified = mercadoPagoNotified(notification.body, notification.query);
    if (!ctx.webhookSecret || notified?.ipn || (!notified && mercadoPagoIpnOf(notification.query ?? {}))) return 'unsigned';
    const id = notified?.id;
    const requestId = notification.headers['x-request-id'];
    const header = notification.headers['x-signature'];
    const manifest = (ts: string) => `${id ? `id:${id.toLowerCase()};` : ''}${requestId ? `request-id:${requestId};` : ''}ts:${ts};`;
    const check = verifySignatureHeader(ctx.webhookSecret, header, manifest, {
      timestampKey: 'ts',
      timestampUnit: signatureTimestampUnit(header),
      receivedAt: (notification.receivedAt ?? this.now()).getTime(),
    });
    return check.valid ? 'valid' : 'invalid';
  }
}
