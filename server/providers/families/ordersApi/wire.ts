import { z } from 'zod';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../../kit/answers.js';

/**
 * The orders API's shapes as Pagar.me API v5 defines them (docs.pagar.me v5
 * reference; the pagarme-nodejs-sdk models), the fields the family sends or
 * reads: provider bytes become our types here (DESIGN §3). Answers are parsed
 * by these schemas in `exchange`; a mismatch is PROVIDER_BAD_RESPONSE. Fields a
 * mapper does not read are left out (zod drops them), so an answer may carry
 * anything else.
 */

// ---------------------------------------------------------------- leniency of this dialect

/** Pagar.me's money: integer cents, as a number or its digits as text; anything else is a bad answer. */
export const wireCents = wireAmount.transform((value, context) => {
  const cents = Number(value);
  if (Number.isSafeInteger(cents)) return cents;
  context.addIssue({ code: 'custom', message: 'not an amount in cents' });
  return z.NEVER;
});

/** A text the family reads but does not require (dates, codes, URLs): absent when left out, null or empty. */
const optionalText = absentable(z.string());

// ---------------------------------------------------------------- requests

export const ORDERS_API_PAYMENT_METHODS = ['pix', 'boleto', 'credit_card'] as const;
export type OrdersApiPaymentMethod = (typeof ORDERS_API_PAYMENT_METHODS)[number];

const address = z.object({ line_1: z.string(), zip_code: z.string(), city: z.string(), state: z.string(), country: z.string() });

const phone = z.object({ country_code: z.string(), area_code: z.string(), number: z.string() });

/** CreateCustomerRequest, the fields sent. */
export const ORDERS_API_CUSTOMER_REQUEST = z.object({
  name: z.string(),
  email: z.string().optional(),
  document: z.string(),
  document_type: z.string(),
  type: z.enum(['individual', 'company']),
  phones: z.object({ mobile_phone: phone }).optional(),
  address: address.optional(),
});
export type OrdersApiCustomerRequest = z.input<typeof ORDERS_API_CUSTOMER_REQUEST>;

/** CreateSplitRequest. */
const split = z.object({
  recipient_id: z.string(),
  amount: z.number(),
  type: z.enum(['flat', 'percentage']),
  options: z.object({ charge_processing_fee: z.boolean(), charge_remainder_fee: z.boolean(), liable: z.boolean() }),
});

/** CreatePaymentRequest, one per method: `pix {expires_in}`, `boleto {due_at, instructions}`, `credit_card {card_id | card_token, …}`. */
export const ORDERS_API_PAYMENT_REQUEST = z.discriminatedUnion('payment_method', [
  z.object({ payment_method: z.literal('pix'), amount: z.number(), split: z.array(split).optional(), pix: z.object({ expires_in: z.number() }) }),
  z.object({
    payment_method: z.literal('boleto'),
    amount: z.number(),
    split: z.array(split).optional(),
    boleto: z.object({ due_at: z.string(), instructions: z.string().optional() }),
  }),
  z.object({
    payment_method: z.literal('credit_card'),
    amount: z.number(),
    split: z.array(split).optional(),
    credit_card: z.object({
      installments: z.number(),
      statement_descriptor: z.string(),
      card_id: z.string().optional(),
      card_token: z.string().optional(),
      card: z.object({ billing_address: address }).optional(),
    }),
  }),
]);
export type OrdersApiPaymentRequest = z.input<typeof ORDERS_API_PAYMENT_REQUEST>;

/** CreateOrderItemRequest. */
export const ORDERS_API_ITEM_REQUEST = z.object({ amount: z.number(), description: z.string(), quantity: z.number(), code: z.string() });
export type OrdersApiItemRequest = z.input<typeof ORDERS_API_ITEM_REQUEST>;

/** POST /orders: CreateOrderRequest, the fields sent (one payment per order). */
export const ORDERS_API_ORDER_REQUEST = z.object({
  code: z.string().optional(),
  items: z.array(ORDERS_API_ITEM_REQUEST),
  customer: ORDERS_API_CUSTOMER_REQUEST.optional(),
  payments: z.tuple([ORDERS_API_PAYMENT_REQUEST]),
  ip: z.string().optional(),
  closed: z.boolean(),
  metadata: z.record(z.string(), z.string()).optional(),
});
export type OrdersApiOrderRequest = z.input<typeof ORDERS_API_ORDER_REQUEST>;

/** POST /tokens?appId=…: CreateTokenRequest. */
export const ORDERS_API_TOKEN_REQUEST = z.object({
  type: z.literal('card'),
  card: z.object({
    number: z.string(),
    holder_name: z.string(),
    holder_document: z.string().optional(),
    exp_month: z.number(),
    exp_year: z.number(),
    cvv: z.string(),
  }),
});
export type OrdersApiTokenRequest = z.input<typeof ORDERS_API_TOKEN_REQUEST>;

/**
 * DELETE /charges/{id}: CreateCancelChargeRequest, `amount` in cents (part of
 * the charge, or all of it) and the SDK's `operation_reference`, which names
 * this refund for reconciliation.
 */
export const ORDERS_API_CANCEL_REQUEST = z.object({ amount: z.number(), operation_reference: z.string().optional() });
export type OrdersApiCancelRequest = z.input<typeof ORDERS_API_CANCEL_REQUEST>;

/** POST /recipients: CreateRecipientRequest with CreateBankAccountRequest and CreateTransferSettingsRequest. */
export const ORDERS_API_RECIPIENT_REQUEST = z.object({
  name: z.string(),
  email: z.string(),
  description: z.string().optional(),
  document: z.string(),
  type: z.enum(['individual', 'company']),
  default_bank_account: z.object({
    holder_name: z.string(),
    holder_type: z.enum(['individual', 'company']),
    holder_document: z.string(),
    bank: z.string(),
    branch_number: z.string(),
    branch_check_digit: z.string().optional(),
    account_number: z.string(),
    account_check_digit: z.string(),
    type: z.enum(['checking', 'savings']),
  }),
  transfer_settings: z.object({ transfer_enabled: z.boolean(), transfer_interval: z.string(), transfer_day: z.number() }),
  code: z.string().optional(),
});
export type OrdersApiRecipientRequest = z.input<typeof ORDERS_API_RECIPIENT_REQUEST>;

// ---------------------------------------------------------------- answers

/**
 * A charge's last transaction (GetTransactionResponse and its PIX, boleto and
 * card kinds). Its `status` is Pagar.me's transaction status: waiting_payment,
 * paid, captured, not_authorized, refunded, partial_refunded, pending_refund,
 * voided, partial_void, waiting_cancellation, error_on_refunding, with_error, …
 */
export const ORDERS_API_LAST_TRANSACTION = z.object({
  id: absentable(wireId),
  transaction_type: optionalText,
  status: absentable(wireStatus),
  success: absentable(z.boolean()),
  amount: absentable(wireCents),
  /** PIX: copy-and-paste text and QR image URL. */
  qr_code: optionalText,
  qr_code_url: optionalText,
  expires_at: optionalText,
  /** Boleto: digitable line, documents, due date. */
  line: optionalText,
  pdf: optionalText,
  url: optionalText,
  due_at: optionalText,
  acquirer_message: optionalText,
  /** A card's answer from the acquirer: an ABECS code (05, 51, …) since Pagar.me's V5 switch of 28 August 2026. */
  acquirer_return_code: optionalText,
  gateway_response: absentable(z.object({ errors: absentable(z.array(z.object({ message: optionalText }))) })),
});
export type OrdersApiLastTransaction = z.output<typeof ORDERS_API_LAST_TRANSACTION>;

/** A charge (GetChargeResponse): what DELETE /charges/{id} answers, and an order's `charges[]`. */
export const ORDERS_API_CHARGE = z.object({
  id: wireId,
  status: wireStatus,
  amount: absentable(wireCents),
  paid_amount: absentable(wireCents),
  canceled_amount: absentable(wireCents),
  paid_at: optionalText,
  payment_method: optionalText,
  last_transaction: absentable(ORDERS_API_LAST_TRANSACTION),
});
export type OrdersApiCharge = z.output<typeof ORDERS_API_CHARGE>;

/** An order (GetOrderResponse): what POST /orders and GET /orders/{id} answer. */
export const ORDERS_API_ORDER = z.object({
  id: wireId,
  code: optionalText,
  status: wireStatus,
  amount: absentable(wireCents),
  charges: absentable(z.array(ORDERS_API_CHARGE)),
});
export type OrdersApiOrder = z.output<typeof ORDERS_API_ORDER>;

/** Anything the family only needs the id of: a card token (POST /tokens), a customer, a saved card. */
export const ORDERS_API_IDENTIFIED = z.object({ id: wireId });

/** POST /recipients/{id}/withdrawals (GetWithdrawResponse). An amount left out is 0: the gateway keeps the one asked. */
export const ORDERS_API_WITHDRAWAL = z.object({
  id: wireId,
  amount: absentable(wireCents),
  status: wireStatus,
  created_at: optionalText,
  updated_at: optionalText,
});
export type OrdersApiWithdrawal = z.output<typeof ORDERS_API_WITHDRAWAL>;

/** A recipient as POST /recipients and GET /recipients/{id} answer it (GetRecipientResponse, the fields read). */
export const ORDERS_API_RECIPIENT = z.object({
  id: wireId,
  name: absentable(wireText),
  email: absentable(wireText),
  document: absentable(wireText),
  status: absentable(wireStatus),
});
export type OrdersApiRecipient = z.output<typeof ORDERS_API_RECIPIENT>;

/**
 * GET /recipients/{id}/balance (GetBalanceResponse): what is available to withdraw, in cents, is required (never read as 0);
 * `waiting_funds_amount` ("Amount waiting in cents": sold, not yet released) is read where Pagar.me states it.
 */
export const ORDERS_API_BALANCE = z.object({ available_amount: wireCents, waiting_funds_amount: absentable(wireCents) });
export type OrdersApiBalance = z.output<typeof ORDERS_API_BALANCE>;

/**
 * GET /payables?charge_id=… (PayablesController.getPayables, ListPayablesResponse `{data, paging}`): a charge's
 * receivables, one per installment and recipient (GetPayableResponse); `fee` and `fraud_coverage_fee` in cents, `type`
 * credit, refund, refund_reversal, chargeback or chargeback_refund (docs.pagar.me, Recebíveis).
 */
export const ORDERS_API_PAYABLES = z.object({
  data: z.array(
    z.object({
      type: absentable(wireText),
      fee: absentable(wireCents),
      fraud_coverage_fee: absentable(wireCents),
      recipient_id: absentable(wireText),
    }),
  ),
});
export type OrdersApiPayables = z.output<typeof ORDERS_API_PAYABLES>;

/** A 4xx body: `{ message: 'The request is invalid.', errors: { 'order.customer.name': ['The name field is required.'] } }`. */
export const ORDERS_API_ERROR = z.object({
  message: optionalText,
  errors: absentable(z.record(z.string(), z.union([z.array(z.string()), z.string()]))),
});

// ---------------------------------------------------------------- notifications

/**
 * What a notification's `data` must say to be read: an order (its id, status
 * and charges) or a charge (its status and its order's id). Ids are text here:
 * a notification naming its order otherwise is ignored, never guessed.
 */
// Whether it was paid only refines the hint (the gateway reads the order before moving money): an odd value there is no payment, not an unreadable notification.
const notifiedCharge = z.object({
  status: absentable(wireStatus),
  paid_at: optionalText.catch(undefined),
  paid_amount: absentable(wireCents).catch(undefined),
});

export const ORDERS_API_NOTIFIED_ORDER = notifiedCharge.extend({ id: wireText, status: wireStatus, charges: absentable(z.array(notifiedCharge)) });
export const ORDERS_API_NOTIFIED_CHARGE = notifiedCharge.extend({ status: wireStatus, order: z.object({ id: wireText }) });

/** A webhook: `{ id: 'hook_…', account, type: 'order.paid', created_at, data }` (docs.pagar.me, "Exemplo de webhook"); unsigned. */
export const ORDERS_API_EVENT = z.object({ id: absentable(wireText).catch(undefined), type: wireText, data: z.unknown() });
