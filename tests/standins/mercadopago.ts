import { createHmac, randomUUID } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * Mercado Pago as its own documentation and official SDKs describe it, for
 * the gateway's acceptance test (tests/standins/mercadopago.test.ts). Written
 * from the sources below, never from the adapter:
 *
 * - Auth: `Authorization: Bearer <access token>` on every call; the card
 *   tokenisation and the search by BIN, which MercadoPago.js makes from the
 *   buyer's browser, also take the account's `public_key` in the query.
 * - POST /v1/payments, money in reais, the `X-Idempotency-Key` header
 *   mandatory (a key used again answers what its first request got). Errors
 *   are `{message, error, status, cause: [{code, description}]}` with the API
 *   reference's codes. PIX (`pix`) needs the payer's email and answers the code
 *   in `point_of_interaction.transaction_data`; a boleto (`bolbradesco`, `pec`)
 *   also needs the payer's names, document and full address (cause 7521) and
 *   answers `transaction_details.external_resource_url` and the bar code; a
 *   card needs `token` (single use), `installments` and the `payment_method_id`
 *   of the token's BIN, its outcome given by the cardholder's name as on the
 *   test-card page (APRO approved, CONT pending, OTHE, CALL, FUND, SECU, EXPI,
 *   FORM, INST, DUPL and LOCK rejected, each with its `status_detail`).
 * - GET /v1/payments/{id}; POST /v1/payments/{id}/refunds `{amount?}` (no amount:
 *   what is left), `X-Idempotency-Key` mandatory (cause 4292) and honoured; a
 *   payment refunded in part stays approved, refunded in full is `refunded`.
 * - GET /v1/card_tokens/{id} (sdk-nodejs) with `first_six_digits`; GET
 *   /v1/payment_methods/search?bin=… answering `{paging, results}` (sdk-js's
 *   getPaymentMethods), over the test cards' brands.
 * - GET /v1/payment_methods/installments?amount=…&bin=… (the API reference's
 *   installments page, sdk-js's getInstallments; MercadoPago.js calls it with
 *   the public key): `amount` in reais, the card's first 6 to 8 digits; answers
 *   one entry per payment method of the BIN, `{payment_method_id,
 *   payment_type_id, issuer, processing_mode, merchant_account_id,
 *   payer_costs: [{installments, installment_rate, discount_rate, labels,
 *   installment_rate_collector, min_allowed_amount, max_allowed_amount,
 *   recommended_message, installment_amount, total_amount,
 *   payment_method_option_id}], agreements}`, amounts in reais with two
 *   decimals; an unknown BIN gets an empty list. The rates, the counts and the
 *   minimum installment are the stand-in's own (the sources give none).
 * - Webhooks: POST to the payment's `notification_url` with `?data.id=…&type=payment`,
 *   body `{id, live_mode, type: "payment", date_created, user_id, api_version,
 *   action, data: {id}}`, headers `x-request-id` and `x-signature: ts=…,v1=…`,
 *   v1 the hex HMAC-SHA256 of `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`
 *   with the application's secret signature (ts in seconds, as the guide's
 *   example and sdk-nodejs's validator read it).
 * - Chargebacks (the chargebacks guides and API reference): a card payment
 *   charged back is `charged_back` and has a chargeback, its own id (18 digits,
 *   as text) apart from the payment's. GET /v1/chargebacks/{id} answers `{id,
 *   payments, currency, amount, coverage_applied, coverage_elegible,
 *   documentation_required, documentation_status, documentation,
 *   date_documentation_deadline, …}` and takes the payment's id instead of the
 *   chargeback's, as the reference allows. POST
 *   /v1/chargebacks/{id}/documentation takes the files as multipart `files[]`,
 *   only .jpg, .png or .pdf and at most 10 MB overall, answers 200 and moves
 *   `documentation_status` to `review_pending`. Its refusals' texts and codes,
 *   an id that is not a chargeback's, and documentation after the deadline
 *   being refused are the stand-in's own (the sources give none); 10 MB is
 *   read as 10,000,000 bytes.
 * - Chargeback notifications (the chargebacks guide's "Configure chargeback
 *   notifications"): sent where the application's webhooks are configured
 *   with the Chargebacks event (its own URL, set in the panel, not the
 *   payment's notification_url), signed like every webhook, body `{actions:
 *   ["changed_case_status"], api_version, application_id, data: {checkout,
 *   date_updated, id, payment_id, product_id, site_id,
 *   transaction_intent_id}, date_created, id, live_mode, type:
 *   "topic_chargebacks_wh", user_id, version}`, `data.id` the chargeback's id
 *   written as a JSON number (the guide's example: 233000061680860000), so
 *   its 18 digits arrive as they are; the query carries `data.id` and `type`
 *   as for payments. The chargeback's own resource (API reference
 *   attributes): `id` as text, `payments` as numbers, `amount` (the
 *   reference's sample writes it as text, "108.43"), no reason.
 *
 * - Fees (sdk-nodejs src/clients/payment/commonTypes.ts, the payment's
 *   `fee_details: [{type, amount, fee_payer}]`, amounts in reais, `fee_payer`
 *   collector or payer, and `transaction_details.net_received_amount`, what
 *   the collector keeps after fees): a payment lists its fees once approved,
 *   none while pending (net_received_amount 0). The rates are the stand-in's
 *   own (the sources give none): `mercadopago_fee` paid by the collector, PIX
 *   0.99 %, boleto R$ 3.49, card 4.98 % (rounded to the cent).
 *
 * Where the sources say nothing (the text of a refund above what is left, a
 * payment id's range), the choice is the stand-in's and says so.
 */
export const MERCADOPAGO_STANDIN_SOURCES = [
  'https://www.mercadopago.com.br/developers/pt/reference/payments/_payments/post',
  'https://www.mercadopago.com.br/developers/pt/reference/payments/_payments_id/get',
  'https://www.mercadopago.com.br/developers/pt/reference/chargebacks/_payments_id_refunds/post',
  'https://www.mercadopago.com.br/developers/pt/docs/checkout-api/integration-configuration/integrate-with-pix',
  'https://www.mercadopago.com.br/developers/pt/docs/checkout-api/integration-configuration/boleto-bancario',
  'https://www.mercadopago.com.br/developers/pt/docs/your-integrations/notifications/webhooks',
  'https://mercadopago.com.br/developers/pt/docs/your-integrations/test/cards',
  'https://www.mercadopago.com.ar/developers/en/docs/checkout-api/response-handling/collection-results (status and status_detail of a created payment, cc_rejected_… for a refused card)',
  'https://github.com/mercadopago/devsite-docs (guides/checkout-api-v2/boleto-bancario.pt.md, integrate-pix.pt.md; pull request 2341: X-Idempotency-Key mandatory on payments and refunds)',
  'https://github.com/mercadopago/sdk-nodejs (src/clients/cardToken, src/clients/paymentRefund, src/utils/webhook, src/utils/errors; src/clients/payment/commonTypes.ts: FeeDetails, TransactionDetails.net_received_amount)',
  'https://github.com/mercadopago/sdk-js/blob/main/docs/core-methods.md (getPaymentMethods, getInstallments)',
  'https://www.mercadopago.com.br/developers/pt/reference/payment_methods/_payment_methods_installments/get',
  'https://github.com/mercadopago/px-android/issues/1370 (the boleto address refusal, cause 7521)',
  'https://www.mercadopago.com.br/developers/es/docs/resources-pci-compliant-merchants/receiving-payment-by-card (POST /v1/card_tokens by backend with the access token: card_number, security_code, expiration_month, expiration_year, cardholder {name, identification})',
  'https://www.mercadopago.com.mx/developers/en/reference/chargebacks/_chargebacks_id/get (GET /v1/chargebacks/{id}, the payment id where the chargeback id is not known; the answer sample)',
  'https://www.mercadopago.com.br/developers/en/docs/checkout-api-payments/payment-management/chargebacks/management (notification, get the chargeback, upload the documentation)',
  'https://www.mercadopago.com.br/developers/en/docs/adobe-commerce/resources/chargebacks/how-to-manage (POST /v1/chargebacks/{id}/documentation with files[]; .jpg, .png or .pdf, 10 MB overall; 200 and documentation_status)',
  'https://www.mercadopago.com.br/developers/en/docs/checkout-pro/chargebacks/notifications (the Chargebacks event configured in the panel; the topic_chargebacks_wh notification and its example)',
  "https://www.mercadopago.com.ar/developers/en/reference/chargebacks/resource (the chargeback's attributes and their types)",
  'https://mercadopago.com.br/developers/en/docs/your-integrations/notifications/ipn (IPN: POST to the URL set in Your integrations; topics payment, chargebacks, merchant_order; x-signature sent but not verifiable with the secret)',
  'https://www.mercadopago.com.uy/developers/en/docs/qr-code/additional-content/notifications/ipn/inperson-payments/notification-events (the two address parameters topic and id, ?topic=…&id=…)',
];

export interface MercadoPagoStandInOptions {
  accessToken: string;
  publicKey: string;
  /** The application's secret signature for webhooks. */
  webhookSecret: string;
}

/** A payment as Mercado Pago stores and answers it (its JSON), with the notification URL it was created with. */
type Payment = Record<string, unknown> & {
  id: number;
  status: string;
  status_detail: string;
  transaction_amount: number;
  transaction_amount_refunded: number;
  notification_url?: string;
  refunds: Array<Record<string, unknown>>;
};

export interface MercadoPagoStandIn extends StandIn {
  /** The payment as Mercado Pago holds it now. */
  payment(id: string | number): Payment | undefined;
  /** How many payments Mercado Pago holds. */
  paymentCount(): number;
  /** The buyer pays a pending payment (PIX transfer, boleto paid): approved, accredited, and Mercado Pago's webhook. */
  pay(id: string | number): Promise<Response>;
  /** A card payment in process is rejected after review (`status_detail` the reason, cc_rejected_high_risk say), and Mercado Pago's webhook. */
  reject(id: string | number, detail: string): Promise<Response>;
  /** Mercado Pago's webhook about a payment (`payment.updated`, signed), to its notification URL; `secret` to sign it otherwise (a forgery). */
  notify(id: string | number, options?: { secret?: string }): Promise<Response>;
  /** The next payment or refund is made, but its answer is lost on the way back (HTTP 500): the caller cannot know it happened. */
  loseNextAnswer(operation: 'payment' | 'refund'): void;
  /**
   * The payer's bank charges an approved card payment back: the payment is `charged_back`, with a chargeback; the
   * payment's webhook is sent (unless `paymentWebhook` is false: lost on the way), and the chargeback's where the
   * Chargebacks event is configured.
   */
  chargeBack(
    paymentId: string | number,
    options?: { paymentWebhook?: boolean },
  ): Promise<{ chargebackId: string; notified?: Response; chargebackNotified?: Response }>;
  /** The chargeback as Mercado Pago answers it, and the files its documentation uploads brought. */
  chargeback(id: string): (Chargeback & { files: ChargebackFile[] }) | undefined;
  /** The chargeback's documentation deadline passes: Mercado Pago takes no more documentation for it. */
  closeDocumentation(id: string): void;
  /** Each documentation upload takes `ms` before it is answered (a slow network, large files): the stand-in's own. */
  slowDocumentationUploads(ms: number): void;
  /** The panel's webhook configuration: the URL the Chargebacks event is sent to (undefined: the event is not chosen). */
  configureChargebackNotifications(url: string | undefined): void;
  /** Mercado Pago's chargebacks notification about a chargeback (signed; `secret` to sign it otherwise, a forgery), to the configured URL. */
  notifyChargeback(id: string, options?: { secret?: string }): Promise<Response>;
  /** The IPN URL set in Your integrations (undefined: IPN not configured). */
  configureIpn(url: string | undefined): void;
  /**
   * An IPN as the IPN guide describes it: a POST to the IPN URL with `?topic=…&id=…`. The guide documents only those
   * two parameters, so the body (`{}`) is the stand-in's own; the x-signature it carries is, as the guide warns, not
   * one the application's secret verifies (the stand-in signs it with another key).
   */
  notifyIpn(topic: 'payment' | 'chargebacks' | 'merchant_order', id: string | number): Promise<Response>;
  /** Mercado Pago changes a chargeback (its amount in reais, its deadline) and, where the event is configured, notifies it. */
  updateChargeback(id: string, change: { amount?: number; date_documentation_deadline?: string }): Promise<Response | undefined>;
}

/** A chargeback as GET /v1/chargebacks/{id} answers it. */
type Chargeback = Record<string, unknown> & {
  id: string;
  payments: number[];
  documentation_status: string;
  documentation: Array<{ type: string; url: string; description: string }>;
  date_documentation_deadline: string;
};

/** A file a documentation upload brought: its name, type and bytes as received. */
export interface ChargebackFile {
  name: string;
  type: string;
  bytes: Buffer;
}

/** The documentation upload's limits, as the guide gives them (10 MB read as 10,000,000 bytes). */
const DOCUMENTATION_EXTENSIONS = /\.(jpe?g|png|pdf)$/i;
const DOCUMENTATION_MAX_BYTES = 10_000_000;

const reais = (value: number) => Math.round(value * 100) / 100;

const refusal = (status: number, error: string, code: number | string, description: string): StandInReply => ({
  status,
  body: { message: description, error, status, cause: [{ code, description, data: null }] },
});
const badRequest = (code: number | string, description: string) => refusal(400, 'bad_request', code, description);

/** The payment methods the test cards' BINs belong to (the test-card page's brands: Mastercard, Visa, American Express credit; Elo debit). */
const BIN_METHODS: Array<{ bin: RegExp; id: string; name: string; payment_type_id: string; issuer: { id: number; name: string } }> = [
  { bin: /^(5[1-5]|2[2-7]|503143)/, id: 'master', name: 'Mastercard', payment_type_id: 'credit_card', issuer: { id: 24, name: 'Mastercard' } },
  { bin: /^4/, id: 'visa', name: 'Visa', payment_type_id: 'credit_card', issuer: { id: 25, name: 'Visa' } },
  { bin: /^3[47]/, id: 'amex', name: 'American Express', payment_type_id: 'credit_card', issuer: { id: 26, name: 'American Express' } },
  { bin: /^506776/, id: 'debelo', name: 'Elo Débito', payment_type_id: 'debit_card', issuer: { id: 27, name: 'Elo' } },
];
const methodsOfBin = (bin: string) => BIN_METHODS.filter((method) => method.bin.test(bin) && !(method.id === 'master' && /^506776/.test(bin)));

/**
 * The stand-in's own pricing of installments for a credit card (not in the sources): the count's interest in percent
 * of the amount, 1 to 3 free of interest, up to 12; no installment under R$ 5.00. A debit card pays in one.
 */
const INSTALLMENT_RATES = [0, 0, 0, 4.99, 6.15, 7.31, 8.47, 9.63, 10.79, 11.95, 13.11, 14.27];
const MIN_INSTALLMENT_CENTS = 500;

/** Reais with two decimals, as Mercado Pago writes them, from whole cents (no float arithmetic on money). */
const reaisOf = (cents: number) => Number((cents / 100).toFixed(2));

/** What each count costs the payer for `amountCents` on this payment method, as Mercado Pago's payer_costs list it. */
function payerCosts(amountCents: number, paymentTypeId: string): Array<Record<string, unknown>> {
  const rates = paymentTypeId === 'credit_card' ? INSTALLMENT_RATES : [0];
  const costs: Array<Record<string, unknown>> = [];
  for (const [index, rate] of rates.entries()) {
    const installments = index + 1;
    const totalCents = Math.round((amountCents * (10_000 + Math.round(rate * 100))) / 10_000);
    const installmentCents = Math.round(totalCents / installments);
    if (installments > 1 && installmentCents < MIN_INSTALLMENT_CENTS) break;
    const brl = (cents: number) => `R$ ${(cents / 100).toFixed(2).replace('.', ',')}`;
    costs.push({
      installments,
      installment_rate: rate,
      discount_rate: 0,
      reimbursement_rate: null,
      labels: rate === 0 ? ['CFT_0,00%|TEA_0,00%'] : [],
      installment_rate_collector: [rate === 0 ? 'THIRD_PARTY' : 'MERCADOPAGO'],
      min_allowed_amount: 0.5,
      max_allowed_amount: 60000,
      recommended_message: `${installments} parcela${installments > 1 ? 's' : ''} de ${brl(installmentCents)} (${brl(totalCents)})`,
      installment_amount: reaisOf(installmentCents),
      total_amount: reaisOf(totalCents),
      payment_method_option_id: randomUUID().replace(/-/g, ''),
    });
  }
  return costs;
}

/** The stand-in's own price of a payment in cents, by its payment type (the sources give none). */
function feeCents(payment: Payment): number {
  const cents = Math.round(payment.transaction_amount * 100);
  if (payment.payment_type_id === 'ticket') return 349;
  return Math.round((cents * (payment.payment_type_id === 'bank_transfer' ? 99 : 498)) / 10_000);
}

/** An approved payment lists the fee its collector pays, and keeps the rest (net_received_amount). */
function listFees(payment: Payment): void {
  const fee = feeCents(payment);
  payment.fee_details = [{ type: 'mercadopago_fee', amount: reaisOf(fee), fee_payer: 'collector' }];
  const details = (payment.transaction_details ?? {}) as Record<string, unknown>;
  payment.transaction_details = { ...details, net_received_amount: reaisOf(Math.round(payment.transaction_amount * 100) - fee) };
}

/**
 * The cardholder names of the test-card page and the outcome each gives; a refusal's `status_detail` is the one the
 * collection-results page lists for the page's description of that name (CALL "declined with validation to authorize"
 * is cc_rejected_call_for_authorize, and so on).
 */
const CARD_OUTCOMES: Record<string, [status: string, detail: string]> = {
  APRO: ['approved', 'accredited'],
  CONT: ['in_process', 'pending_contingency'],
  OTHE: ['rejected', 'cc_rejected_other_reason'],
  CALL: ['rejected', 'cc_rejected_call_for_authorize'],
  FUND: ['rejected', 'cc_rejected_insufficient_amount'],
  SECU: ['rejected', 'cc_rejected_bad_filled_security_code'],
  EXPI: ['rejected', 'cc_rejected_bad_filled_date'],
  FORM: ['rejected', 'cc_rejected_bad_filled_other'],
  INST: ['rejected', 'cc_rejected_invalid_installments'],
  DUPL: ['rejected', 'cc_rejected_duplicated_payment'],
  LOCK: ['rejected', 'cc_rejected_card_disabled'],
};

/** A BR Code (PIX copy-and-paste) for the amount, its CRC valid, as the payer's bank reads it. */
function brCode(amountInReais: number): string {
  const pix = createStaticPix({
    merchantName: 'Loja Exemplo',
    merchantCity: 'Sao Paulo',
    pixKey: '123e4567-e12b-12d1-a456-426655440000',
    infoAdicional: 'Mercado Pago',
    transactionAmount: amountInReais,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

export async function startMercadoPagoStandIn(options: MercadoPagoStandInOptions): Promise<MercadoPagoStandIn> {
  const payments = new Map<number, Payment>();
  const cardTokens = new Map<string, Record<string, unknown>>();
  /** X-Idempotency-Key → the first answer, per operation. */
  const answered = new Map<string, StandInReply>();
  let nextPaymentId = 1_325_000_000;
  let nextRefundId = 2_100_000_000;
  let nextNotificationId = 118_000_000_000;
  const loseAnswer = { payment: false, refund: false };
  const USER_ID = 1_234_567;
  const APPLICATION_ID = 4_921_000_000_000_000;

  const bearer = (request: StandInRequest) => request.headers.authorization === `Bearer ${options.accessToken}`;
  const byPublicKey = (request: StandInRequest) => request.query.public_key === options.publicKey;

  function idempotent(request: StandInRequest, operation: string, refusal4292: boolean, act: () => StandInReply): StandInReply {
    const key = text(request.headers['x-idempotency-key']);
    if (!key) return refusal4292 ? badRequest(4292, "Header X-Idempotency-Key can't be null") : badRequest(1, 'Params Error. (X-Idempotency-Key is required)');
    const known = answered.get(`${operation}:${key}`);
    if (known) return known;
    const reply = act();
    // Refusals are not remembered: the same key may carry the corrected request.
    if ((reply.status ?? 200) < 300) answered.set(`${operation}:${key}`, reply);
    return reply;
  }

  function checkPayer(payer: unknown): StandInReply | undefined {
    if (!isRecord(payer) || !/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(text(payer.email) ?? '')) return badRequest(4050, 'payer.email must be a valid email');
    return undefined;
  }

  function checkBoletoPayer(payer: Record<string, unknown>): StandInReply | undefined {
    if (!text(payer.first_name)) return badRequest(4094, 'Payer firstname required.');
    if (!text(payer.last_name)) return badRequest(4095, 'Payer lastname required.');
    const identification = isRecord(payer.identification) ? payer.identification : {};
    if (!text(identification.type)) return badRequest(4097, 'Payer identification type required.');
    if (!text(identification.number)) return badRequest(4098, 'Payer identification number required.');
    const address = isRecord(payer.address) ? payer.address : {};
    const parts = ['zip_code', 'street_name', 'street_number', 'neighborhood', 'city', 'federal_unit'];
    if (parts.some((part) => !text(address[part])))
      return badRequest(
        7521,
        `To generate a registered boleto the following parameters are required: ${parts.map((part) => `payer.address.${part}`).join(' , ')}`,
      );
    return undefined;
  }

  function createPayment(request: StandInRequest): StandInReply {
    const body = isRecord(request.body) ? request.body : {};
    const amount = body.transaction_amount;
    if (amount === undefined || amount === null) return badRequest(4002, "transaction_amount attribute can't be null.");
    if (typeof amount !== 'number' || !(amount > 0)) return badRequest(4037, 'Invalid transaction_amount.');
    const methodId = text(body.payment_method_id);
    if (!methodId) return badRequest(4001, "payment_method_id attribute can't be null.");
    const notificationUrl = body.notification_url;
    if (notificationUrl !== undefined && !(typeof notificationUrl === 'string' && URL.canParse(notificationUrl)))
      return badRequest(4020, 'notification_url attribute must be url valid.');
    if (body.date_of_expiration !== undefined && Number.isNaN(Date.parse(String(body.date_of_expiration))))
      return badRequest(23, "The following parameters must be valid date and format (yyyy-MM-dd'T'HH:mm:ssz) date_of_expiration.");
    const payerRefusal = checkPayer(body.payer);
    if (payerRefusal) return payerRefusal;
    const payer = body.payer as Record<string, unknown>;
    const now = new Date();
    const id = nextPaymentId++;
    const base = {
      id,
      date_created: now.toISOString(),
      date_approved: null as string | null,
      date_last_updated: now.toISOString(),
      money_release_date: null,
      operation_type: 'regular_payment',
      payment_method_id: methodId,
      currency_id: 'BRL',
      description: body.description ?? null,
      live_mode: false,
      collector_id: USER_ID,
      payer: { id: null, email: payer.email, identification: payer.identification ?? null, type: null },
      metadata: {},
      transaction_amount: reais(amount),
      transaction_amount_refunded: 0,
      coupon_amount: 0,
      installments: 1,
      external_reference: body.external_reference ?? null,
      notification_url: typeof notificationUrl === 'string' ? notificationUrl : undefined,
      refunds: [] as Array<Record<string, unknown>>,
      captured: true,
      binary_mode: false,
      fee_details: [] as Array<Record<string, unknown>>,
    };

    let payment: Payment;
    if (methodId === 'pix') {
      // PIX codes expire in 24 hours unless date_of_expiration says otherwise (the PIX guide).
      const expires = body.date_of_expiration ? String(body.date_of_expiration) : new Date(now.getTime() + 86_400_000).toISOString();
      const qr = brCode(reais(amount));
      payment = {
        ...base,
        payment_type_id: 'bank_transfer',
        status: 'pending',
        status_detail: 'pending_waiting_transfer',
        date_of_expiration: expires,
        transaction_details: {
          net_received_amount: 0,
          total_paid_amount: reais(amount),
          overpaid_amount: 0,
          external_resource_url: null,
          installment_amount: 0,
          financial_institution: null,
        },
        point_of_interaction: {
          type: 'PIX',
          sub_type: null,
          transaction_data: {
            qr_code: qr,
            qr_code_base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
            ticket_url: `https://www.mercadopago.com.br/payments/${id}/ticket?caller_id=${USER_ID}&hash=${randomUUID()}`,
          },
        },
      };
    } else if (methodId === 'bolbradesco' || methodId === 'pec') {
      const boletoRefusal = checkBoletoPayer(payer);
      if (boletoRefusal) return boletoRefusal;
      const digits = String(id).padStart(10, '0');
      payment = {
        ...base,
        payer: { ...base.payer, first_name: payer.first_name, last_name: payer.last_name, address: payer.address },
        payment_type_id: 'ticket',
        status: 'pending',
        status_detail: 'pending_waiting_payment',
        // The customer has between 3 and 5 days to pay (the boleto guide).
        date_of_expiration: body.date_of_expiration ? String(body.date_of_expiration) : new Date(now.getTime() + 3 * 86_400_000).toISOString(),
        barcode: { content: `23791${digits}0000000000000000000000000000`.slice(0, 44) },
        transaction_details: {
          net_received_amount: 0,
          total_paid_amount: reais(amount),
          overpaid_amount: 0,
          external_resource_url: `https://www.mercadopago.com.br/payments/${id}/ticket?caller_id=${USER_ID}&hash=${randomUUID()}`,
          installment_amount: 0,
          financial_institution: null,
          payment_method_reference_id: digits,
          digitable_line: `23790${digits}00000000000000000000000000000000`.slice(0, 47),
        },
      };
    } else {
      const tokenId = text(body.token);
      const token = tokenId ? cardTokens.get(tokenId) : undefined;
      if (!tokenId || !token) return badRequest(2006, 'Card Token not found.');
      if (token.status !== 'active') return badRequest(2062, 'Invalid card token.');
      if (body.installments === undefined || body.installments === null) return badRequest(4004, "installments attribute can't be null.");
      if (typeof body.installments !== 'number' || !Number.isInteger(body.installments) || body.installments < 1)
        return badRequest(4005, 'installments attribute must be numeric.');
      const brand = methodsOfBin(String(token.first_six_digits)).find((method) => method.id === methodId);
      if (!brand) return badRequest(3028, 'Invalid payment_method_id.');
      token.status = 'used';
      const holder = isRecord(token.cardholder) ? String(token.cardholder.name ?? '') : '';
      const [status, detail] = CARD_OUTCOMES[holder.trim().toUpperCase()] ?? CARD_OUTCOMES.APRO!;
      payment = {
        ...base,
        payment_type_id: brand.payment_type_id,
        issuer_id: String(body.issuer_id ?? brand.issuer.id),
        installments: body.installments,
        status,
        status_detail: detail,
        date_approved: status === 'approved' ? now.toISOString() : null,
        card: { first_six_digits: token.first_six_digits, last_four_digits: token.last_four_digits, cardholder: token.cardholder },
        transaction_details: {
          net_received_amount: 0,
          total_paid_amount: reais(amount),
          overpaid_amount: 0,
          installment_amount: reais(amount / body.installments),
        },
      };
    }
    if (payment.status === 'approved') listFees(payment);
    payments.set(id, payment);
    return { status: 201, body: payment };
  }

  function refund(request: StandInRequest): StandInReply {
    const payment = payments.get(Number(request.params.id));
    if (!payment) return refusal(404, 'not_found', 2000, 'Payment not found');
    return idempotent(request, 'refund', true, () => {
      const body = isRecord(request.body) ? request.body : {};
      if (payment.status !== 'approved') return badRequest(2063, 'The action requested is not valid for the current payment state');
      const left = reais(payment.transaction_amount - payment.transaction_amount_refunded);
      const asked = body.amount ?? left;
      if (typeof asked !== 'number') return badRequest(4041, 'amount attribute must be numeric');
      if (!(asked > 0)) return badRequest(4040, 'amount attribute must be positive');
      // Not in the sources: the text for more than is left is the stand-in's.
      if (reais(asked) > left) return badRequest(2063, `The action requested is not valid for the current payment state (only ${left} left to refund)`);
      const made = {
        id: nextRefundId++,
        payment_id: payment.id,
        amount: reais(asked),
        metadata: {},
        source: { id: String(USER_ID), name: 'Loja Exemplo', type: 'collector' },
        date_created: new Date().toISOString(),
        unique_sequence_number: null,
        refund_mode: 'standard',
        adjustment_amount: 0,
        status: 'approved',
        reason: null,
        labels: [],
        amount_refunded_to_payer: reais(asked),
        partition_details: [],
      };
      payment.refunds.push(made);
      payment.transaction_amount_refunded = reais(payment.transaction_amount_refunded + asked);
      const whole = payment.transaction_amount_refunded >= payment.transaction_amount;
      payment.status = whole ? 'refunded' : 'approved';
      payment.status_detail = whole ? 'refunded' : 'partially_refunded';
      payment.date_last_updated = made.date_created;
      return { status: 201, body: made };
    });
  }

  /** What the caller gets: the reply, or a 500 in its place when a test lost it (what was done stays done). */
  function lost(operation: 'payment' | 'refund', reply: StandInReply): StandInReply {
    if (!loseAnswer[operation] || (reply.status ?? 200) >= 300) return reply;
    loseAnswer[operation] = false;
    return { status: 500, body: { message: 'internal_error', error: 'internal_server_error', status: 500, cause: [] } };
  }

  async function notify(id: string | number, notifyOptions: { secret?: string } = {}): Promise<Response> {
    const payment = payments.get(Number(id));
    if (!payment?.notification_url) throw new Error(`payment ${id} has no notification_url`);
    const dataId = String(payment.id);
    return deliver(payment.notification_url, dataId, 'payment', notifyOptions.secret, {
      id: nextNotificationId++,
      live_mode: false,
      type: 'payment',
      date_created: new Date().toISOString(),
      user_id: USER_ID,
      api_version: 'v1',
      action: 'payment.updated',
      data: { id: dataId },
    });
  }

  /** A webhook as Mercado Pago posts it: `data.id` and `type` in the query, `x-request-id`, and `x-signature` over the manifest. */
  function deliver(to: string, dataId: string, type: string, secret: string | undefined, body: Record<string, unknown> | string): Promise<Response> {
    const requestId = randomUUID();
    const ts = Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', secret ?? options.webhookSecret)
      .update(`id:${dataId};request-id:${requestId};ts:${ts};`)
      .digest('hex');
    const url = new URL(to);
    url.searchParams.set('data.id', dataId);
    url.searchParams.set('type', type);
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'x-signature': `ts=${ts},v1=${signature}` },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  let chargebackNotificationUrl: string | undefined;
  let ipnUrl: string | undefined;

  function notifyIpn(topic: 'payment' | 'chargebacks' | 'merchant_order', id: string | number): Promise<Response> {
    if (!ipnUrl) throw new Error('IPN is not configured');
    const url = new URL(ipnUrl);
    url.searchParams.set('topic', topic);
    url.searchParams.set('id', String(id));
    const ts = Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', 'not the application secret').update(`id:${id};ts:${ts};`).digest('hex');
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': `ts=${ts},v1=${signature}` }, body: '{}' });
  }

  /** The chargebacks topic's notification, `data.id` (and `payment_id`) written as JSON numbers with every digit. */
  function notifyChargeback(id: string, notifyOptions: { secret?: string } = {}): Promise<Response> {
    const chargeback = chargebacks.get(id);
    if (!chargeback) throw new Error(`no chargeback ${id}`);
    if (!chargebackNotificationUrl) throw new Error('the Chargebacks event is not configured');
    const now = new Date().toISOString();
    const body = JSON.stringify({
      actions: ['changed_case_status'],
      api_version: 'v1',
      application_id: APPLICATION_ID,
      data: {
        checkout: 'PRO',
        date_updated: now,
        id: '<chargeback id>',
        payment_id: chargeback.payments[0],
        product_id: 'C00A2J8RF4DI8BCIMFU0',
        site_id: 'MLB',
        transaction_intent_id: '',
      },
      date_created: now,
      id: nextNotificationId++,
      live_mode: false,
      type: 'topic_chargebacks_wh',
      user_id: USER_ID,
      version: Math.floor(Date.now() / 1000),
    }).replace('"<chargeback id>"', id);
    return deliver(chargebackNotificationUrl, id, 'topic_chargebacks_wh', notifyOptions.secret, body);
  }

  const chargebacks = new Map<string, Chargeback>();
  const chargebackFiles = new Map<string, ChargebackFile[]>();
  let nextChargebackId = 217_000_087_654_321_000n;

  /** By its own id, or by its payment's (GET only, as the reference allows). */
  const chargebackOf = (id: string, byPayment: boolean): Chargeback | undefined =>
    chargebacks.get(id) ?? (byPayment ? [...chargebacks.values()].find((chargeback) => chargeback.payments.includes(Number(id))) : undefined);
  const noChargeback = (id: string) => refusal(404, 'not_found', 404, `chargeback ${id} not found`);

  let documentationLatencyMs = 0;

  async function uploadDocumentation(request: StandInRequest): Promise<StandInReply> {
    if (documentationLatencyMs) await new Promise((resolve) => setTimeout(resolve, documentationLatencyMs));
    const chargeback = chargebackOf(request.params.id!, false);
    if (!chargeback) return noChargeback(request.params.id!);
    const contentType = request.headers['content-type'] ?? '';
    if (!contentType.startsWith('multipart/form-data')) return badRequest('invalid_content_type', 'the documentation must be sent as multipart/form-data');
    const form = await new Response(new Uint8Array(request.rawBytes), { headers: { 'content-type': contentType } }).formData();
    const files = form.getAll('files[]').filter((entry): entry is File => typeof entry !== 'string');
    if (!files.length) return badRequest('files_required', 'files[] is required');
    const wrong = files.find((file) => !DOCUMENTATION_EXTENSIONS.test(file.name));
    if (wrong) return badRequest('invalid_file_type', `${wrong.name}: files can be .jpg, .png or .pdf`);
    if (files.reduce((sum, file) => sum + file.size, 0) > DOCUMENTATION_MAX_BYTES) return badRequest('files_too_large', 'files should not exceed 10mb overall');
    if (Date.parse(chargeback.date_documentation_deadline) < Date.now())
      return badRequest('documentation_deadline_expired', 'the deadline to send documentation for this chargeback has expired');
    const received = await Promise.all(files.map(async (file) => ({ name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) })));
    chargebackFiles.set(chargeback.id, [...(chargebackFiles.get(chargeback.id) ?? []), ...received]);
    chargeback.documentation.push(
      ...received.map((file) => ({
        type: file.type,
        url: `https://api.mercadopago.com/v1/chargebacks/documentation/other/${randomUUID()}`,
        description: file.name,
      })),
    );
    chargeback.documentation_status = 'review_pending';
    chargeback.date_last_updated = new Date().toISOString();
    return { status: 200, body: '' };
  }

  const standIn = await startStandIn({
    name: 'Mercado Pago',
    sources: MERCADOPAGO_STANDIN_SOURCES,
    authenticate: (request) => {
      const publicKeyRoute =
        (request.method === 'POST' && request.path === '/v1/card_tokens') ||
        request.path === '/v1/payment_methods/search' ||
        request.path === '/v1/payment_methods/installments';
      if (bearer(request) || (publicKeyRoute && byPublicKey(request))) return undefined;
      return refusal(401, 'unauthorized', 401, 'invalid access token');
    },
    routes: [
      {
        method: 'POST',
        path: '/v1/card_tokens',
        handle: (request) => {
          const body = isRecord(request.body) ? request.body : {};
          const number = String(body.card_number ?? '').replace(/\D/g, '');
          if (number.length < 13) return badRequest('E301', 'invalid parameter card_number');
          if (!text(String(body.security_code ?? ''))) return badRequest('E302', 'invalid parameter security_code');
          const cardholder = isRecord(body.cardholder) ? body.cardholder : {};
          if (!text(cardholder.name)) return badRequest(3020, 'The parameter cardholder.name can not be null or empty.');
          const now = new Date();
          const token = {
            id: randomUUID().replace(/-/g, ''),
            first_six_digits: number.slice(0, 6),
            last_four_digits: number.slice(-4),
            expiration_month: Number(body.expiration_month),
            expiration_year: Number(body.expiration_year),
            cardholder,
            status: 'active',
            date_created: now.toISOString(),
            date_last_updated: now.toISOString(),
            date_due: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
            luhn_validation: true,
            live_mode: false,
            require_esc: false,
            card_number_length: number.length,
            security_code_length: String(body.security_code).length,
          };
          cardTokens.set(token.id, token);
          return { status: 201, body: token };
        },
      },
      {
        method: 'GET',
        path: '/v1/card_tokens/{id}',
        handle: (request) => {
          const token = cardTokens.get(request.params.id!);
          return token ? { body: token } : refusal(404, 'not_found', 2006, 'Card Token not found.');
        },
      },
      {
        method: 'GET',
        path: '/v1/payment_methods/search',
        handle: (request) => {
          const bin = request.query.bin ?? '';
          if (!/^\d{6,8}$/.test(bin)) return badRequest(1, 'Params Error.');
          const results = methodsOfBin(bin).map(({ bin: _pattern, ...method }) => ({
            ...method,
            status: 'active',
            site_id: 'MLB',
            marketplace: 'NONE',
            processing_mode: 'aggregator',
            deferred_capture: 'supported',
            additional_info_needed: ['cardholder_name', 'cardholder_identification_type', 'cardholder_identification_number'],
            issuer: { default: true, ...method.issuer },
          }));
          return { body: { paging: { total: results.length, limit: 30, offset: 0 }, results } };
        },
      },
      {
        method: 'GET',
        path: '/v1/payment_methods/installments',
        handle: (request) => {
          const amount = request.query.amount ?? '';
          // Not in the sources: the refusal texts for a missing or malformed amount or BIN are the stand-in's.
          if (!/^\d+(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0) return badRequest(1, 'Params Error. (amount)');
          const bin = request.query.bin ?? '';
          if (!/^\d{6,8}$/.test(bin)) return badRequest(1, 'Params Error. (bin)');
          const [whole, fraction = ''] = amount.split('.');
          const amountCents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
          return {
            body: methodsOfBin(bin).map((method) => ({
              payment_method_id: method.id,
              payment_type_id: method.payment_type_id,
              issuer: { id: String(method.issuer.id), name: method.issuer.name, secure_thumbnail: '', thumbnail: '' },
              processing_mode: 'aggregator',
              merchant_account_id: null,
              payer_costs: payerCosts(amountCents, method.payment_type_id),
              agreements: null,
            })),
          };
        },
      },
      {
        method: 'POST',
        path: '/v1/payments',
        handle: (request) =>
          lost(
            'payment',
            idempotent(request, 'payment', false, () => createPayment(request)),
          ),
      },
      {
        method: 'GET',
        path: '/v1/payments/{id}',
        handle: (request) => {
          const payment = payments.get(Number(request.params.id));
          if (!payment) return refusal(404, 'not_found', 2000, 'Payment not found');
          const { notification_url: _url, ...answer } = payment;
          return { body: { ...answer, notification_url: payment.notification_url ?? null } };
        },
      },
      {
        method: 'POST',
        path: '/v1/payments/{id}/refunds',
        handle: (request) => lost('refund', refund(request)),
      },
      {
        method: 'GET',
        path: '/v1/chargebacks/{id}',
        handle: (request) => {
          const chargeback = chargebackOf(request.params.id!, true);
          return chargeback ? { body: chargeback } : noChargeback(request.params.id!);
        },
      },
      { method: 'POST', path: '/v1/chargebacks/{id}/documentation', handle: uploadDocumentation },
    ],
  });

  return Object.assign(standIn, {
    payment: (id: string | number) => payments.get(Number(id)),
    paymentCount: () => payments.size,
    async pay(id: string | number) {
      const payment = payments.get(Number(id));
      if (!payment || payment.status !== 'pending') throw new Error(`payment ${id} is not pending`);
      payment.status = 'approved';
      payment.status_detail = 'accredited';
      listFees(payment);
      payment.date_approved = new Date().toISOString();
      payment.date_last_updated = payment.date_approved;
      return notify(id);
    },
    async reject(id: string | number, detail: string) {
      const payment = payments.get(Number(id));
      if (!payment || payment.status !== 'in_process') throw new Error(`payment ${id} is not in process`);
      payment.status = 'rejected';
      payment.status_detail = detail;
      payment.date_last_updated = new Date().toISOString();
      return notify(id);
    },
    notify,
    loseNextAnswer: (operation: 'payment' | 'refund') => {
      loseAnswer[operation] = true;
    },
    async chargeBack(paymentId: string | number, { paymentWebhook = true }: { paymentWebhook?: boolean } = {}) {
      const payment = payments.get(Number(paymentId));
      if (!payment || payment.status !== 'approved') throw new Error(`payment ${paymentId} is not approved`);
      const now = new Date();
      payment.status = 'charged_back';
      payment.status_detail = 'settled';
      payment.date_last_updated = now.toISOString();
      const id = String(nextChargebackId++);
      chargebacks.set(id, {
        id,
        payments: [payment.id],
        currency: 'BRL',
        amount: payment.transaction_amount,
        coverage_applied: false,
        coverage_elegible: true,
        documentation_required: true,
        documentation_status: 'pending',
        documentation: [],
        date_documentation_deadline: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
        date_created: now.toISOString(),
        date_last_updated: now.toISOString(),
        live_mode: false,
      });
      return {
        chargebackId: id,
        ...(paymentWebhook ? { notified: await notify(paymentId) } : {}),
        ...(chargebackNotificationUrl ? { chargebackNotified: await notifyChargeback(id) } : {}),
      };
    },
    chargeback: (id: string) => {
      const chargeback = chargebacks.get(id);
      return chargeback && { ...chargeback, files: chargebackFiles.get(id) ?? [] };
    },
    closeDocumentation: (id: string) => {
      const chargeback = chargebacks.get(id);
      if (!chargeback) throw new Error(`no chargeback ${id}`);
      chargeback.date_documentation_deadline = new Date(Date.now() - 60_000).toISOString();
    },
    slowDocumentationUploads: (ms: number) => {
      documentationLatencyMs = ms;
    },
    configureChargebackNotifications: (url: string | undefined) => {
      chargebackNotificationUrl = url;
    },
    notifyChargeback,
    configureIpn: (url: string | undefined) => {
      ipnUrl = url;
    },
    notifyIpn,
    async updateChargeback(id: string, change: { amount?: number; date_documentation_deadline?: string }) {
      const chargeback = chargebacks.get(id);
      if (!chargeback) throw new Error(`no chargeback ${id}`);
      Object.assign(chargeback, change, { date_last_updated: new Date().toISOString() });
      return chargebackNotificationUrl ? notifyChargeback(id) : undefined;
    },
  });
}
