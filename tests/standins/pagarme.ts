import { randomUUID } from 'node:crypto';
import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';
import { createDynamicPix, hasError } from 'pix-utils';
import { barcodeToDigitableLine, buildBarcode } from '../../server/lib/boleto.js';
import { passesLuhn } from '../../server/lib/luhn.js';
import { idSequence, startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * Pagar.me's API v5 ("core v5", https://api.pagar.me/core/v5) as its own
 * documentation and its official SDK describe it, for the acceptance tests of
 * PAGARME and PAGARMEBAAS (tests/standins/pagarme.test.ts). Paths are served
 * under /core/v5, as at api.pagar.me.
 *
 * What is Pagar.me's, with its source:
 * - HTTP Basic with the secret key (sk_…) as user and an empty password; the
 *   same endpoint for test and production keys (Autenticação); card tokens
 *   are created by POST /tokens?appId=<public key> without Authorization
 *   (SDK tokensController: `authenticate(false)`);
 * - errors: 400 bad request, 401 invalid key, 404 unknown resource, 412 valid
 *   parameters but a failed request, 422 invalid parameters, with a body
 *   `{message, errors}`: 'The request is invalid.' and `errors` naming the
 *   fields (`order.customer.name: ['The name field is required.']`);
 *   'Customer not found.' without a customer (Erros);
 * - POST /orders {items[{amount, description, quantity, code}], customer |
 *   customer_id, payments[{payment_method, amount, pix | boleto |
 *   credit_card}], code, closed, ip, metadata}; GET /orders/{id}; amounts in
 *   integer cents (SDK ordersController, CreateOrderRequest); a PIX payment
 *   needs `expires_in` (seconds) or `expires_at` (Pix); its transaction
 *   carries `qr_code`, `qr_code_url`, `expires_at` (GetPixTransactionResponse);
 *   a boleto's `line`, `barcode`, `pdf`, `url`, `due_at`, `nosso_numero`
 *   (GetBoletoTransactionResponse); a card by `card_id`, `card_token` or
 *   `card` (CreateCreditCardPaymentRequest), POST /customers and POST
 *   /customers/{id}/cards {token} to save one (SDK customersController);
 * - the simulators: card 4000000000000010 succeeds (order and charge paid,
 *   transaction captured), 4000000000000028 is not authorized (Simulador de
 *   Cartão de Crédito); a card transaction carries the acquirer's
 *   `acquirer_return_code` and `acquirer_message`
 *   (GetCreditCardTransactionResponse), ABECS codes since 28 August 2026
 *   (Códigos de retorno padrão ABECS); a PIX of more than R$ 500,00 fails at creation, one
 *   up to R$ 500,00 is created pending and paid later (Simulador de PIX);
 * - Idempotency-Key header: the same key within 24 h gets the first answer,
 *   nothing done again (Idempotência; the SDK sends it on createOrder,
 *   createCustomer, createCard and cancelCharge);
 * - DELETE /charges/{id} {amount, operation_reference, bank_account}: cancels
 *   or refunds the charge, `amount` in cents for part of it, all that is left
 *   without one (SDK chargesController.cancelCharge, CreateCancelChargeRequest;
 *   "Para realizar o estorno de transações com pix é necessário enviar uma
 *   requisição de cancelamento de cobrança", Pix); the charge answered
 *   (GetChargeResponse: `canceled_amount`, `paid_amount`, `last_transaction`);
 * - transaction statuses (captured, not_authorized, waiting_payment, paid,
 *   generated, refunded, partial_refunded, pending_refund, …: Cobrança, and
 *   the official module's TransactionStatus); charge statuses pending, paid,
 *   canceled, failed;
 * - webhooks `{id: "hook_…", account {id, name}, type: "order.paid",
 *   created_at, data}`, data being the order (order.*) or the charge
 *   (charge.*), unsigned (Exemplo de webhook, Lista de Events);
 * - recipients: POST /recipients, GET /recipients/{id}, GET
 *   /recipients/{id}/balance {available_amount, waiting_funds_amount,
 *   transferred_amount} in cents, waiting funds being money sold and not
 *   yet released ("Amount waiting in cents"; v4's "saldo a receber"), POST
 *   /recipients/{id}/withdrawals {amount} answered {id, amount, status, created_at, updated_at} (SDK
 *   recipientsController, GetBalanceResponse, GetWithdrawResponse);
 * - payables: GET /payables?charge_id=… answers `{data, paging}`, a charge's
 *   receivables (SDK payablesController.getPayables, ListPayablesResponse,
 *   GetPayableResponse), each `{id, status, amount, fee, anticipation_fee,
 *   fraud_coverage_fee, installment, charge_id, recipient_id, type,
 *   payment_method, …}` in cents, made when the charge is paid, one `credit`
 *   per installment (Recebíveis).
 *
 * The stand-in's own readings, where those sources are silent: the exact
 * texts of its errors other than the two quoted above, and their HTTP codes
 * (a used or unknown token and card 412, a refund larger than what is left
 * 412); a PIX refund is `pending_refund` (the charge staying paid) until
 * `settleRefunds`, then `refunded`, the charge `canceled` once nothing is
 * left; a card refund is done at once (`partial_refunded`, or `refunded`
 * with the charge canceled); a paid boleto is refunded only to a
 * `bank_account` (the cancel request's field; the v4 docs say so); charges are
 * paid by `pay` (the simulators pay by themselves seconds later), which sends
 * `order.paid` then `charge.paid` to the account's webhook URL (set in the
 * dashboard, here `webhookUrl`); Idempotency-Keys are one store per account
 * whatever the route; withdrawals need the recipient's available balance
 * (`fund`), stay `pending` until `transfer`; a paid charge's payables are
 * its default recipient's (`re_standin_default`), their `fee` at the
 * stand-in's own rates (PIX 1.19 %, boleto R$ 3,49, card 3.99 % of each
 * installment), no fraud coverage or anticipation, and refunds make no
 * `refund` payables.
 */
export const PAGARME_SOURCES = [
  'https://docs.pagar.me/reference/autentica%C3%A7%C3%A3o-2',
  'https://docs.pagar.me/reference/erros-1',
  'https://docs.pagar.me/docs/o-que-%C3%A9',
  'https://docs.pagar.me/reference/pix-2',
  'https://docs.pagar.me/docs/cobran%C3%A7a',
  'https://docs.pagar.me/docs/simulador-de-cart%C3%A3o-de-cr%C3%A9dito',
  'https://docs.pagar.me/docs/simulador-pix',
  'https://docs.pagar.me/docs/c%C3%B3digos-de-retorno-padr%C3%A3o-abecs',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/models/getCreditCardTransactionResponse.ts',
  'https://docs.pagar.me/reference/exemplo-de-webhook-1',
  'https://docs.pagar.me/docs/lista-de-events',
  'https://docs.pagar.me/v4/reference/estorno-parcial-de-uma-transa%C3%A7%C3%A3o',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/ordersController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/chargesController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/tokensController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/customersController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/recipientsController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/models/createCancelChargeRequest.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/models/getChargeResponse.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/04b920a/src/models/getBalanceResponse.ts',
  'https://docs.pagar.me/reference/receb%C3%ADveis',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/payablesController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/models/getPayableResponse.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/doc/models/get-pix-transaction-response.md',
  'https://github.com/pagarme/ecommerce-module-core/blob/02a6467/src/Kernel/ValueObjects/TransactionStatus.php',
] as const;

/** Where the API lives under the stand-in's address, as under https://api.pagar.me. */
export const PAGARME_BASE_PATH = '/core/v5';

type Json = Record<string, unknown>;
type Method = 'pix' | 'boleto' | 'credit_card';

interface Transaction {
  id: string;
  transaction_type: Method;
  status: string;
  success: boolean;
  amount: number;
  created_at: string;
  updated_at: string;
  /** Method-specific fields (qr_code, line, acquirer_message, …). */
  fields: Json;
}

interface Charge {
  id: string;
  code: string;
  amount: number;
  status: 'pending' | 'paid' | 'canceled' | 'failed';
  payment_method: Method;
  paid_amount?: number;
  paid_at?: string;
  /** Cents asked back (refunds made or in progress). */
  canceled_amount: number;
  canceled_at?: string;
  transactions: Transaction[];
  orderId: string;
}

interface Order {
  id: string;
  code: string;
  amount: number;
  closed: boolean;
  items: Json[];
  customer: Json;
  metadata?: Json;
  created_at: string;
  updated_at: string;
  charge: Charge;
}

interface Recipient {
  id: string;
  body: Json;
  status: string;
  available: number;
  /** Sold and not yet released (a card's receivable before its payment date): `waiting_funds_amount`. */
  waiting: number;
  transferred: number;
  created_at: string;
}

interface Withdrawal {
  id: string;
  recipientId: string;
  amount: number;
  status: 'pending' | 'transferred';
  created_at: string;
  updated_at: string;
}

export interface PagarmeStandInOptions {
  secretKey: string;
  publicKey: string;
  now?: () => Date;
}

export interface PagarmeStandIn extends StandIn {
  /** The base URL an account sets: the stand-in's address and /core/v5. */
  readonly baseUrl: string;
  /** The webhook URL configured in the account's dashboard; events go nowhere until it is set. */
  webhookUrl: string | undefined;
  /** The simulator paying a pending PIX or boleto order: charge and order paid; order.paid and charge.paid are sent. */
  pay(orderId: string): Promise<void>;
  /** The payer's bank returning the PIX refunds in progress: `refunded`; the charge canceled when nothing is left (charge.refunded). */
  settleRefunds(orderId: string): Promise<void>;
  /** Credits a recipient's available balance (cents). */
  fund(recipientId: string, cents: number): void;
  /** Credits a recipient's waiting funds (cents): sold, not yet released. */
  hold(recipientId: string, cents: number): void;
  /** A withdrawal reaching the recipient's bank account: transferred. */
  transfer(withdrawalId: string): void;
  /** An order as Pagar.me would answer it now (undefined when unknown). */
  order(orderId: string): Json | undefined;
  /** Cents a charge has given back: refunds done (not those in progress). */
  refunded(orderId: string): number;
  /** Every webhook sent: its type and the HTTP status the receiver answered. */
  readonly delivered: Array<{ type: string; status: number }>;
}

const invalid = (errors: Record<string, string[]>): StandInReply => ({ status: 422, body: { message: 'The request is invalid.', errors } });
const failed = (status: number, message: string): StandInReply => ({ status, body: { message } });
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const positiveInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const text = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

export async function startPagarmeStandIn(options: PagarmeStandInOptions): Promise<PagarmeStandIn> {
  const now = options.now ?? (() => new Date());
  const stamp = () =>
    now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
  const ids = {
    order: idSequence('or_standin'),
    charge: idSequence('ch_standin'),
    transaction: idSequence('tran_standin'),
    token: idSequence('token_standin'),
    customer: idSequence('cus_standin'),
    card: idSequence('card_standin'),
    recipient: idSequence('rp_standin'),
    withdrawal: idSequence('tran_wd_standin'),
    hook: idSequence('hook_standin'),
  };
  const tokens = new Map<string, { card: Json; used: boolean }>();
  const customers = new Map<string, Json>();
  const cards = new Map<string, { customerId: string; number: string; cvv?: string }>();
  const orders = new Map<string, Order>();
  const chargeOrders = new Map<string, string>();
  let payableIds = 0;
  const recipients = new Map<string, Recipient>();
  const withdrawals = new Map<string, Withdrawal>();
  /** Idempotency-Key → the first answer (Pagar.me keeps it 24 h; the stand-in lives shorter). */
  const answered = new Map<string, StandInReply>();
  const delivered: Array<{ type: string; status: number }> = [];
  const expectedAuthorization = `Basic ${Buffer.from(`${options.secretKey}:`).toString('base64')}`;

  const lastTransaction = (charge: Charge): Transaction | undefined => charge.transactions.at(-1);

  /** A paid charge's receivables: one credit per installment to the default recipient, the last absorbing the cents. */
  function payablesOf(charge: Charge): Json[] {
    if (charge.status !== 'paid' && !charge.paid_at) return [];
    const installments = charge.payment_method === 'credit_card' ? Number(lastTransaction(charge)?.fields.installments ?? 1) : 1;
    const paid = charge.paid_amount ?? charge.amount;
    const each = Math.floor(paid / installments);
    return Array.from({ length: installments }, (_, index) => {
      const amount = index === installments - 1 ? paid - each * (installments - 1) : each;
      const fee = charge.payment_method === 'boleto' ? (index === 0 ? 349 : 0) : Math.round((amount * (charge.payment_method === 'pix' ? 119 : 399)) / 10_000);
      return {
        id: 11_800_000 + payableIds++,
        status: 'waiting_funds',
        amount,
        fee,
        anticipation_fee: 0,
        fraud_coverage_fee: 0,
        installment: index + 1,
        charge_id: charge.id,
        recipient_id: 're_standin_default',
        type: 'credit',
        payment_method: charge.payment_method,
        payment_date: charge.paid_at,
        created_at: charge.paid_at,
      };
    });
  }
  const transactionView = (transaction: Transaction): Json => {
    const { fields, ...rest } = transaction;
    return { ...rest, gateway_id: transaction.id.replace('tran_', 'gw_'), ...fields };
  };
  const orderStatus = (charge: Charge): string => (charge.status === 'canceled' ? 'canceled' : charge.status);
  const chargeView = (charge: Charge, withOrder: boolean): Json => {
    const order = orders.get(charge.orderId)!;
    const last = lastTransaction(charge);
    return {
      id: charge.id,
      code: charge.code,
      gateway_id: charge.id.replace('ch_', 'gw_'),
      amount: charge.amount,
      status: charge.status,
      currency: 'BRL',
      payment_method: charge.payment_method,
      created_at: order.created_at,
      updated_at: order.updated_at,
      customer: order.customer,
      ...(charge.paid_amount !== undefined ? { paid_amount: charge.paid_amount, paid_at: charge.paid_at } : {}),
      ...(charge.canceled_amount ? { canceled_amount: charge.canceled_amount } : {}),
      ...(charge.canceled_at ? { canceled_at: charge.canceled_at } : {}),
      ...(last ? { last_transaction: transactionView(last) } : {}),
      ...(withOrder ? { order: { id: order.id, code: order.code, amount: order.amount, status: orderStatus(charge), closed: order.closed } } : {}),
    };
  };
  const orderView = (order: Order): Json => ({
    id: order.id,
    code: order.code,
    amount: order.amount,
    currency: 'BRL',
    closed: order.closed,
    items: order.items,
    customer: order.customer,
    status: orderStatus(order.charge),
    created_at: order.created_at,
    updated_at: order.updated_at,
    ...(order.metadata ? { metadata: order.metadata } : {}),
    charges: [chargeView(order.charge, false)],
  });

  async function send(type: string, data: Json): Promise<void> {
    if (!standIn.webhookUrl) return;
    const event = { id: ids.hook(), account: { id: 'acc_standin', name: 'Loja stand-in' }, type, created_at: stamp(), data };
    const response = await fetch(standIn.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });
    delivered.push({ type, status: response.status });
  }

  const addTransaction = (charge: Charge, type: Method, status: string, amount: number, fields: Json = {}, success = true): Transaction => {
    const transaction: Transaction = {
      id: ids.transaction(),
      transaction_type: type,
      status,
      success,
      amount,
      created_at: stamp(),
      updated_at: stamp(),
      fields,
    };
    charge.transactions.push(transaction);
    return transaction;
  };

  /** Idempotency-Key: the first answer for a key is the answer for every repetition; nothing is done again. */
  function once(request: StandInRequest, act: () => StandInReply): StandInReply {
    const key = request.headers['idempotency-key'];
    if (!key) return act();
    const known = answered.get(key);
    if (known) return known;
    const reply = act();
    // A refused request did nothing: its key is not taken.
    if ((reply.status ?? 200) < 400) answered.set(key, reply);
    return reply;
  }

  function customerErrors(customer: unknown, prefix: string): Record<string, string[]> {
    if (!isObject(customer)) return {};
    const errors: Record<string, string[]> = {};
    if (!text(customer.name)) errors[`${prefix}.name`] = ['The name field is required.'];
    if (customer.document !== undefined) {
      const digits = String(customer.document);
      const valid = customer.type === 'company' ? isValidCnpj(digits) : isValidCpf(digits);
      if (!valid) errors[`${prefix}.document`] = ['The document field is not a valid CPF or CNPJ.'];
    }
    if (customer.type !== undefined && customer.type !== 'individual' && customer.type !== 'company')
      errors[`${prefix}.type`] = ["The type field must be 'individual' or 'company'."];
    return errors;
  }

  function createOrder(request: StandInRequest): StandInReply {
    const body = request.body;
    if (!isObject(body)) return failed(400, 'The request is invalid.');
    const errors: Record<string, string[]> = {};
    const items = Array.isArray(body.items) ? body.items : [];
    if (!items.length) errors['order.items'] = ['The items field is required.'];
    items.forEach((item, index) => {
      if (!isObject(item) || !positiveInteger(item.amount)) errors[`order.items[${index}].amount`] = ['The amount field is required.'];
      if (!isObject(item) || !text(item.description)) errors[`order.items[${index}].description`] = ['The description field is required.'];
      if (!isObject(item) || !positiveInteger(item.quantity)) errors[`order.items[${index}].quantity`] = ['The quantity field is required.'];
    });
    const payments = Array.isArray(body.payments) ? body.payments : [];
    if (payments.length !== 1) errors['order.payments'] = [payments.length ? 'The stand-in models one payment per order.' : 'The payments field is required.'];
    Object.assign(errors, customerErrors(body.customer, 'order.customer'));
    const payment = isObject(payments[0]) ? payments[0] : {};
    const method = payment.payment_method;
    if (payments.length === 1 && method !== 'pix' && method !== 'boleto' && method !== 'credit_card')
      errors['order.payments[0].payment_method'] = ['The payment_method field is invalid.'];
    if (method === 'pix') {
      const pix = isObject(payment.pix) ? payment.pix : {};
      if (!positiveInteger(pix.expires_in) && !text(pix.expires_at)) errors['order.payments[0].pix.expires_in'] = ['The expires_in field is required.'];
    }
    let card: { number: string; cvv?: string } | undefined;
    if (method === 'credit_card') {
      const creditCard = isObject(payment.credit_card) ? payment.credit_card : {};
      if (!text(creditCard.card_id) && !text(creditCard.card_token) && !isObject(creditCard.card))
        errors['order.payments[0].credit_card.card'] = ['The card field is required.'];
      if (creditCard.installments !== undefined && !positiveInteger(creditCard.installments))
        errors['order.payments[0].credit_card.installments'] = ['The installments field is invalid.'];
      if (text(creditCard.statement_descriptor) && creditCard.statement_descriptor.length > 13)
        errors['order.payments[0].credit_card.statement_descriptor'] = ['The statement_descriptor field has more than 13 characters.'];
      if (!Object.keys(errors).length) {
        if (text(creditCard.card_token)) {
          const token = tokens.get(creditCard.card_token);
          if (!token || token.used) return failed(412, 'Token not found or already used.');
          token.used = true;
          card = { number: String(token.card.number), cvv: String(token.card.cvv) };
        } else if (text(creditCard.card_id)) {
          card = cards.get(creditCard.card_id);
          if (!card) return failed(412, 'Card not found.');
        }
      }
    }
    if (Object.keys(errors).length) return invalid(errors);
    if (!isObject(body.customer) && !text(body.customer_id)) return failed(400, 'Customer not found.');

    const total = items.reduce((sum: number, item) => sum + Number((item as Json).amount) * Number((item as Json).quantity), 0);
    const amount = payment.amount === undefined ? total : Number(payment.amount);
    if (!positiveInteger(amount) || amount !== total) return invalid({ 'order.payments[0].amount': ['The payments amount must be the order amount.'] });
    const created = stamp();
    const order: Order = {
      id: ids.order(),
      code: text(body.code) ? body.code : randomUUID().slice(0, 10).toUpperCase(),
      amount,
      closed: body.closed !== false,
      items: items.map((item, index) => ({ id: `oi_standin${index + 1}`, type: 'product', status: 'active', ...(item as Json) })),
      customer: isObject(body.customer) ? { id: ids.customer(), delinquent: false, ...body.customer } : { id: body.customer_id },
      ...(isObject(body.metadata) ? { metadata: body.metadata } : {}),
      created_at: created,
      updated_at: created,
      charge: undefined as unknown as Charge,
    };
    const charge: Charge = {
      id: ids.charge(),
      code: order.code,
      amount,
      status: 'pending',
      payment_method: method as Method,
      canceled_amount: 0,
      transactions: [],
      orderId: order.id,
    };
    order.charge = charge;
    if (method === 'pix') {
      const pix = payment.pix as Json;
      const expiresAt = text(pix.expires_at) ? pix.expires_at : new Date(now().getTime() + Number(pix.expires_in) * 1000).toISOString();
      if (amount > 50_000) {
        charge.status = 'failed';
        addTransaction(
          charge,
          'pix',
          'failed',
          amount,
          { gateway_response: { code: '400', errors: [{ message: 'Transação PIX recusada pelo simulador.' }] } },
          false,
        );
      } else {
        const brCode = createDynamicPix({ merchantName: 'PAGARME STANDIN', merchantCity: 'SAO PAULO', url: `pix.stone.com.br/pix/v2/${randomUUID()}` });
        if (hasError(brCode)) throw new Error('could not build a BR Code');
        const transaction = addTransaction(charge, 'pix', 'waiting_payment', amount, { expires_at: expiresAt });
        transaction.fields.qr_code = brCode.toBRCode();
        transaction.fields.qr_code_url = `${standIn.url}${PAGARME_BASE_PATH}/transactions/${transaction.id}/qrcode?payment_method=pix`;
      }
    } else if (method === 'boleto') {
      const boleto = isObject(payment.boleto) ? payment.boleto : {};
      const dueAt = text(boleto.due_at) ? new Date(boleto.due_at) : new Date(now().getTime() + 3 * 86_400_000);
      const nossoNumero = String(orders.size + 1).padStart(10, '0');
      const barcode = buildBarcode({ bankCode: '237', amountCents: amount, dueDate: dueAt, freeField: `1234509${nossoNumero}00000001` });
      const line = barcodeToDigitableLine(barcode);
      const formatted = `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`;
      const transaction = addTransaction(charge, 'boleto', 'generated', amount, {
        line: formatted,
        barcode: '',
        nosso_numero: nossoNumero,
        bank: '237',
        due_at: dueAt.toISOString(),
        ...(text(boleto.instructions) ? { instructions: boleto.instructions } : {}),
      });
      transaction.fields.barcode = `${standIn.url}${PAGARME_BASE_PATH}/transactions/${transaction.id}/barcode`;
      transaction.fields.pdf = `${standIn.url}${PAGARME_BASE_PATH}/transactions/${transaction.id}/pdf`;
      transaction.fields.url = `${standIn.url}${PAGARME_BASE_PATH}/transactions/${transaction.id}`;
    } else {
      const creditCard = payment.credit_card as Json;
      const number = card?.number ?? String((creditCard.card as Json).number ?? '');
      const cardFields = { installments: creditCard.installments ?? 1, card: { last_four_digits: number.slice(-4), brand: 'Visa' } };
      // The simulator: 4000000000000010 succeeds, 4000000000000028 is not authorized (and so is anything not passing Luhn).
      // The acquirer's answer is an ABECS code since 28 August 2026; the simulator page gives none, so 05 (generic) is the stand-in's.
      if (number === '4000000000000028' || !passesLuhn(number)) {
        charge.status = 'failed';
        const refusal = { acquirer_return_code: '05', acquirer_message: 'Transação não autorizada' };
        addTransaction(charge, 'credit_card', 'not_authorized', amount, { ...cardFields, ...refusal }, false);
      } else {
        charge.status = 'paid';
        charge.paid_amount = amount;
        charge.paid_at = created;
        addTransaction(charge, 'credit_card', 'captured', amount, {
          ...cardFields,
          acquirer_return_code: '00',
          acquirer_message: 'Transação capturada com sucesso',
        });
      }
    }
    orders.set(order.id, order);
    chargeOrders.set(charge.id, order.id);
    return { body: orderView(order) };
  }

  function cancelCharge(request: StandInRequest): StandInReply {
    const orderId = chargeOrders.get(request.params.id!);
    if (!orderId) return failed(404, 'Charge not found.');
    const charge = orders.get(orderId)!.charge;
    const body = isObject(request.body) ? request.body : {};
    if (body.amount !== undefined && !positiveInteger(body.amount)) return invalid({ amount: ['The amount field is invalid.'] });
    if (charge.status === 'canceled' || charge.status === 'failed') return failed(412, `The charge is ${charge.status}.`);
    const touched = stamp();
    if (charge.status === 'pending') {
      // Nothing was paid: the charge is cancelled whole, whatever the amount.
      charge.status = 'canceled';
      charge.canceled_at = touched;
      charge.canceled_amount = charge.amount;
      addTransaction(charge, charge.payment_method, 'voided', charge.amount);
      return { body: chargeView(charge, true) };
    }
    const left = charge.amount - charge.canceled_amount;
    const amount = body.amount === undefined ? left : Number(body.amount);
    if (amount > left) return failed(412, `The amount to cancel (${amount}) is greater than the amount left on the charge (${left}).`);
    if (charge.payment_method === 'boleto' && !isObject(body.bank_account)) return invalid({ bank_account: ['The bank_account field is required.'] });
    charge.canceled_amount += amount;
    if (charge.payment_method === 'pix') {
      // The payer's bank returns the money later: the charge stays paid, its last transaction pending_refund.
      addTransaction(charge, 'pix', 'pending_refund', amount);
    } else if (charge.canceled_amount === charge.amount) {
      addTransaction(charge, charge.payment_method, 'refunded', amount);
      charge.status = 'canceled';
      charge.canceled_at = touched;
    } else {
      addTransaction(charge, charge.payment_method, 'partial_refunded', amount);
    }
    orders.get(orderId)!.updated_at = touched;
    return { body: chargeView(charge, true) };
  }

  function createToken(request: StandInRequest): StandInReply {
    if (request.query.appId !== options.publicKey) return failed(401, 'Authorization has been denied for this request.');
    if (request.headers.authorization) return failed(400, 'The token request must not carry the secret key.');
    const body = isObject(request.body) ? request.body : {};
    const card = isObject(body.card) ? body.card : {};
    const errors: Record<string, string[]> = {};
    if (body.type !== 'card') errors['request.type'] = ["The type field must be 'card'."];
    const number = typeof card.number === 'string' ? card.number : '';
    if (!/^\d{13,19}$/.test(number) || !passesLuhn(number)) errors['request.card.number'] = ['The number field is not a valid card number'];
    if (!text(card.holder_name)) errors['request.card.holder_name'] = ['The holder_name field is required.'];
    if (!positiveInteger(card.exp_month) || card.exp_month > 12) errors['request.card.exp_month'] = ['The exp_month field is invalid.'];
    if (!positiveInteger(card.exp_year) || card.exp_year < now().getUTCFullYear()) errors['request.card.exp_year'] = ['The exp_year field is invalid.'];
    if (typeof card.cvv !== 'string' || !/^\d{3,4}$/.test(card.cvv)) errors['request.card.cvv'] = ['The cvv field is invalid.'];
    if (Object.keys(errors).length) return invalid(errors);
    const id = ids.token();
    tokens.set(id, { card, used: false });
    const created = now();
    return {
      body: {
        id,
        type: 'card',
        created_at: created.toISOString(),
        expires_at: new Date(created.getTime() + 60_000).toISOString(),
        card: { last_four_digits: number.slice(-4), holder_name: card.holder_name, exp_month: card.exp_month, exp_year: card.exp_year, brand: 'Visa' },
      },
    };
  }

  function createCustomer(request: StandInRequest): StandInReply {
    const body = isObject(request.body) ? request.body : {};
    const errors = customerErrors(body, 'customer');
    if (Object.keys(errors).length) return invalid(errors);
    const id = ids.customer();
    const customer = { id, ...body, delinquent: false, created_at: stamp(), updated_at: stamp() };
    customers.set(id, customer);
    return { body: customer };
  }

  function createCard(request: StandInRequest): StandInReply {
    const customerId = request.params.id!;
    if (!customers.has(customerId)) return failed(404, 'Customer not found.');
    const body = isObject(request.body) ? request.body : {};
    if (!text(body.token)) return invalid({ 'card.token': ['The token field is required.'] });
    const token = tokens.get(body.token);
    if (!token || token.used) return failed(412, 'Token not found or already used.');
    token.used = true;
    const id = ids.card();
    const number = String(token.card.number);
    cards.set(id, { customerId, number, cvv: String(token.card.cvv) });
    return {
      body: { id, last_four_digits: number.slice(-4), brand: 'Visa', holder_name: token.card.holder_name, status: 'active', customer: { id: customerId } },
    };
  }

  const recipientView = (recipient: Recipient): Json => ({ id: recipient.id, ...recipient.body, status: recipient.status, created_at: recipient.created_at });

  function createRecipient(request: StandInRequest): StandInReply {
    const body = isObject(request.body) ? request.body : {};
    const errors: Record<string, string[]> = {};
    if (!text(body.name)) errors['recipient.name'] = ['The name field is required.'];
    if (!text(body.email)) errors['recipient.email'] = ['The email field is required.'];
    if (!text(body.document)) errors['recipient.document'] = ['The document field is required.'];
    const account = isObject(body.default_bank_account) ? body.default_bank_account : undefined;
    if (!account) errors['recipient.default_bank_account'] = ['The default_bank_account field is required.'];
    for (const field of ['holder_name', 'holder_type', 'holder_document', 'bank', 'branch_number', 'account_number', 'account_check_digit', 'type'])
      if (account && !text(account[field])) errors[`recipient.default_bank_account.${field}`] = [`The ${field} field is required.`];
    if (Object.keys(errors).length) return invalid(errors);
    const recipient: Recipient = { id: ids.recipient(), body, status: 'registration', available: 0, waiting: 0, transferred: 0, created_at: stamp() };
    recipients.set(recipient.id, recipient);
    return { body: recipientView(recipient) };
  }

  function createWithdrawal(request: StandInRequest): StandInReply {
    const recipient = recipients.get(request.params.id!);
    if (!recipient) return failed(404, 'Recipient not found.');
    const body = isObject(request.body) ? request.body : {};
    if (!positiveInteger(body.amount)) return invalid({ amount: ['The amount field is required.'] });
    if (body.amount > recipient.available) return failed(412, 'Saldo insuficiente para saque.');
    recipient.available -= body.amount;
    const withdrawal: Withdrawal = {
      id: ids.withdrawal(),
      recipientId: recipient.id,
      amount: body.amount,
      status: 'pending',
      created_at: stamp(),
      updated_at: stamp(),
    };
    withdrawals.set(withdrawal.id, withdrawal);
    return { body: withdrawalView(withdrawal) };
  }
  const withdrawalView = (withdrawal: Withdrawal): Json => ({
    id: withdrawal.id,
    gateway_id: withdrawal.id.replace('tran_', 'gw_'),
    amount: withdrawal.amount,
    status: withdrawal.status,
    created_at: withdrawal.created_at,
    updated_at: withdrawal.updated_at,
    source: { source_id: withdrawal.recipientId, type: 'recipient' },
  });

  const base = await startStandIn({
    name: 'Pagar.me v5',
    sources: PAGARME_SOURCES,
    authenticate: (request) => {
      if (request.path === `${PAGARME_BASE_PATH}/tokens`) return undefined;
      return request.headers.authorization === expectedAuthorization ? undefined : failed(401, 'Authorization has been denied for this request.');
    },
    routes: [
      { method: 'POST', path: `${PAGARME_BASE_PATH}/tokens`, handle: createToken },
      { method: 'POST', path: `${PAGARME_BASE_PATH}/customers`, handle: (request) => once(request, () => createCustomer(request)) },
      { method: 'POST', path: `${PAGARME_BASE_PATH}/customers/{id}/cards`, handle: (request) => once(request, () => createCard(request)) },
      { method: 'POST', path: `${PAGARME_BASE_PATH}/orders`, handle: (request) => once(request, () => createOrder(request)) },
      {
        method: 'GET',
        path: `${PAGARME_BASE_PATH}/orders/{id}`,
        handle: (request) => {
          const order = orders.get(request.params.id!);
          return order ? { body: orderView(order) } : failed(404, 'Order not found.');
        },
      },
      { method: 'DELETE', path: `${PAGARME_BASE_PATH}/charges/{id}`, handle: (request) => once(request, () => cancelCharge(request)) },
      {
        method: 'GET',
        path: `${PAGARME_BASE_PATH}/payables`,
        handle: (request) => {
          const orderId = chargeOrders.get(String(request.query.charge_id ?? ''));
          const data = orderId ? payablesOf(orders.get(orderId)!.charge) : [];
          return { body: { data, paging: { total: data.length } } };
        },
      },
      { method: 'POST', path: `${PAGARME_BASE_PATH}/recipients`, handle: (request) => once(request, () => createRecipient(request)) },
      {
        method: 'GET',
        path: `${PAGARME_BASE_PATH}/recipients/{id}`,
        handle: (request) => {
          const recipient = recipients.get(request.params.id!);
          return recipient ? { body: recipientView(recipient) } : failed(404, 'Recipient not found.');
        },
      },
      {
        method: 'GET',
        path: `${PAGARME_BASE_PATH}/recipients/{id}/balance`,
        handle: (request) => {
          const recipient = recipients.get(request.params.id!);
          if (!recipient) return failed(404, 'Recipient not found.');
          return {
            body: {
              currency: 'BRL',
              available_amount: recipient.available,
              waiting_funds_amount: recipient.waiting,
              transferred_amount: recipient.transferred,
              recipient: { id: recipient.id },
            },
          };
        },
      },
      { method: 'POST', path: `${PAGARME_BASE_PATH}/recipients/{id}/withdrawals`, handle: (request) => once(request, () => createWithdrawal(request)) },
    ],
  });

  const known = (recipientId: string): Recipient => {
    const recipient = recipients.get(recipientId);
    if (!recipient) throw new Error(`no recipient ${recipientId}`);
    return recipient;
  };

  const standIn: PagarmeStandIn = Object.assign(base, {
    baseUrl: `${base.url}${PAGARME_BASE_PATH}`,
    webhookUrl: undefined as string | undefined,
    delivered,
    async pay(orderId: string): Promise<void> {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      const { charge } = order;
      if (charge.status !== 'pending') throw new Error(`order ${orderId} is ${charge.status}, not pending`);
      charge.status = 'paid';
      charge.paid_amount = charge.amount;
      charge.paid_at = stamp();
      order.updated_at = charge.paid_at;
      const last = lastTransaction(charge)!;
      last.status = 'paid';
      last.updated_at = charge.paid_at;
      await send('order.paid', orderView(order));
      await send('charge.paid', chargeView(charge, true));
    },
    async settleRefunds(orderId: string): Promise<void> {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      const { charge } = order;
      const pending = charge.transactions.filter((transaction) => transaction.status === 'pending_refund');
      for (const transaction of pending) {
        transaction.status = 'refunded';
        transaction.updated_at = stamp();
      }
      if (!pending.length) return;
      if (charge.canceled_amount === charge.amount) {
        charge.status = 'canceled';
        charge.canceled_at = stamp();
        order.updated_at = charge.canceled_at;
        await send('charge.refunded', chargeView(charge, true));
      } else {
        await send('charge.partial_canceled', chargeView(charge, true));
      }
    },
    fund(recipientId: string, cents: number): void {
      known(recipientId).available += cents;
    },
    hold(recipientId: string, cents: number): void {
      known(recipientId).waiting += cents;
    },
    transfer(withdrawalId: string): void {
      const withdrawal = withdrawals.get(withdrawalId);
      if (!withdrawal) throw new Error(`no withdrawal ${withdrawalId}`);
      withdrawal.status = 'transferred';
      withdrawal.updated_at = stamp();
      recipients.get(withdrawal.recipientId)!.transferred += withdrawal.amount;
    },
    order(orderId: string): Json | undefined {
      const order = orders.get(orderId);
      return order && orderView(order);
    },
    refunded(orderId: string): number {
      const order = orders.get(orderId);
      if (!order) return 0;
      return order.charge.transactions
        .filter((transaction) => ['refunded', 'partial_refunded'].includes(transaction.status))
        .reduce((sum, t) => sum + t.amount, 0);
    },
  });
  return standIn;
}
