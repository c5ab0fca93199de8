import { createHash, randomUUID } from 'node:crypto';
import { centsToReais, reaisToCents } from '../../server/lib/money.js';
import { standInBrCode } from '../support/brCode.js';
import { startStandIn, type StandIn, type StandInReply } from './standIn.js';

/**
 * NOXPAY's stand-in, written from NoxPay's own API document
 * (github.com/NoxPay/apidocs: apiv2.org "API V2", webhook_signature.org):
 * - every call carries the merchant's key in the `api-key` header;
 * - GET /test-auth answers the key's data `{ID, MerchantID, Name, Hash, CreatedAt}`
 *   ("Checking APIKEY");
 * - GET /account answers the merchant's `name` and `balance`, the balance in
 *   reais as a JSON number (`{"name":"NoxPay","balance":389.6}`, "Getting account
 *   data"; the document's amounts sent in POST /payment are reais too);
 * - POST /payment `{method: "PIX", code, amount (reais), webhook_url?,
 *   client_name?, client_document?}` answers `{method, code, amount, URL,
 *   QRCode, QRCodeText, txid, Status: "WAITING_PAYMENT"}` ("Creating a new
 *   payment - CASH IN");
 * - GET /payment/{code or txid} answers `{Method, Status, Code, TxID, Amount,
 *   end2end, receipt}`: `end2end` and `receipt` empty while waiting, Status
 *   PAY with both filled once paid ("Get Payment's info"); Amount is in the
 *   balance's unit (the document's example doubles the balance by it), reais;
 * - once paid, a webhook to the payment's `webhook_url` `{id, merchant_id,
 *   method, status: "PAID", code, txid, amount, created_at_date, receipt_name,
 *   receipt_cpf_cnpj, pix_end2end_id}` ("Webhook Notifications"), signed in
 *   `X-Signature` and `noxpay-sign` with base64(SHA-256(secret + body)) under
 *   the secret the merchant defined (webhook_signature.org).
 * The document shows no error bodies: the stand-in refuses a wrong key (401)
 * and a payment without its method, code or amount (400) with the status
 * alone, and invents no message. Payouts (PIXOUT) are not in this stand-in
 * (the adapter's suite covers them with canned answers). The receipt link and
 * the end-to-end id's bank (ISPB 18236120) are the stand-in's own values.
 */
export const NOXPAY_SOURCES = [
  "https://github.com/NoxPay/apidocs (apiv2.org: API V2, Checking APIKEY, Getting account data, Creating a new payment, Get Payment's info, Webhook Notifications)",
  'https://github.com/NoxPay/apidocs (apiv2-postman.json: the api-key header on GET /test-auth and GET /account)',
  'https://github.com/NoxPay/apidocs (webhook_signature.org: X-Signature and noxpay-sign)',
] as const;

export interface NoxpayPayer {
  name: string;
  document: string;
}

interface NoxpayPayment {
  id: number;
  txid: string;
  code: string;
  /** Reais, as sent. */
  amount: number;
  webhookUrl?: string;
  status: 'WAITING_PAYMENT' | 'PAY';
  createdAt: string;
  end2end: string;
  receipt: string;
  payer?: NoxpayPayer;
}

export interface NoxpayStandIn extends StandIn {
  /** The merchant's balance, in cents. */
  balance: number;
  readonly payments: ReadonlyMap<string, NoxpayPayment>;
  /** The payer pays the charge: its read says PAY with its end-to-end id, and its webhook goes out; the webhook's HTTP status. */
  pay(txid: string, payer: NoxpayPayer): Promise<number | undefined>;
}

const MERCHANT_ID = 999;

const brCode = (amount: number, txid: string): string =>
  standInBrCode({
    merchantName: 'NOXPAY',
    merchantCity: 'SAO PAULO',
    pixKey: 'pix@noxpay.example',
    infoAdicional: txid.slice(0, 25),
    transactionAmount: amount,
  });

/** "E", the payer's bank's ISPB, yyyyMMddHHmm in UTC and 11 alphanumerics (the Banco Central's format). */
const endToEndId = (paidAt: Date): string => `E18236120${paidAt.toISOString().replace(/\D/g, '').slice(0, 12)}${randomUUID().replace(/-/g, '').slice(0, 11)}`;

const refused = (status: number): StandInReply => ({ status, body: '' });

export async function startNoxpayStandIn(options: { apiKey: string; name?: string; balanceCents?: number; webhookSecret?: string }): Promise<NoxpayStandIn> {
  const name = options.name ?? 'Loja Exemplo';
  const state = { balance: options.balanceCents ?? 38_960 };
  const payments = new Map<string, NoxpayPayment>();
  const find = (id: string) => payments.get(id) ?? [...payments.values()].find((payment) => payment.code === id);

  const standIn = await startStandIn({
    name: 'NOXPAY',
    sources: NOXPAY_SOURCES,
    authenticate: (request) => (request.headers['api-key'] === options.apiKey ? undefined : refused(401)),
    routes: [
      {
        method: 'GET',
        path: '/test-auth',
        handle: () => ({ body: { ID: 1, MerchantID: MERCHANT_ID, Name: name, Hash: '-', CreatedAt: '2022-08-23T16:48:37Z' } }),
      },
      { method: 'GET', path: '/account', handle: () => ({ body: { name, balance: centsToReais(state.balance) } }) },
      {
        method: 'POST',
        path: '/payment',
        handle: ({ body }) => {
          const asked = (body ?? {}) as Record<string, unknown>;
          const { method, code, amount } = asked;
          if (method !== 'PIX' || typeof code !== 'string' || !code || typeof amount !== 'number' || !(amount > 0)) return refused(400);
          const payment: NoxpayPayment = {
            ...{ id: payments.size + 1, txid: randomUUID(), code, amount, status: 'WAITING_PAYMENT', createdAt: new Date().toISOString() },
            ...{ end2end: '', receipt: '' },
            ...(typeof asked.webhook_url === 'string' ? { webhookUrl: asked.webhook_url } : {}),
          };
          payments.set(payment.txid, payment);
          const QRCodeText = brCode(amount, payment.txid);
          const URL = `https://noxpay.example/qr.svg?id=${payment.id}`;
          return {
            body: { method, code, amount, URL, QRCode: Buffer.from(QRCodeText).toString('base64'), QRCodeText, txid: payment.txid, Status: payment.status },
          };
        },
      },
      {
        method: 'GET',
        path: '/payment/{id}',
        handle: ({ params }) => {
          const payment = find(params.id!);
          if (!payment) return refused(404);
          const { status: Status, code: Code, txid: TxID, amount: Amount, end2end, receipt } = payment;
          return { body: { Method: 'PIX', Status, Code, TxID, Amount, end2end, receipt } };
        },
      },
    ],
  });

  async function pay(txid: string, payer: NoxpayPayer): Promise<number | undefined> {
    const payment = payments.get(txid);
    if (!payment) throw new Error(`no NoxPay payment ${txid}`);
    Object.assign(payment, { status: 'PAY', end2end: endToEndId(new Date()), receipt: `https://noxpay.example/receipt/${txid}`, payer });
    state.balance += reaisToCents(payment.amount);
    if (!payment.webhookUrl) return undefined;
    const body = JSON.stringify({
      ...{ id: payment.id, merchant_id: MERCHANT_ID, method: 'PIX', status: 'PAID', code: payment.code, txid, amount: payment.amount },
      ...{ created_at_date: payment.createdAt, receipt_name: payer.name, receipt_cpf_cnpj: payer.document, pix_end2end_id: payment.end2end },
    });
    const signature = options.webhookSecret
      ? createHash('sha256')
          .update(options.webhookSecret + body)
          .digest('base64')
      : undefined;
    const response = await fetch(payment.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'X-Signature': signature, 'noxpay-sign': signature } : {}) },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  }

  return {
    ...standIn,
    payments,
    pay,
    get balance() {
      return state.balance;
    },
    set balance(cents: number) {
      state.balance = cents;
    },
  };
}
