import { createHash, randomUUID } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import QRCode from 'qrcode';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * SuitPay as its own documentation describes it (its Postman collection,
 * Portuguese "Documentação API's SuitPay" and English "SuitPay API's PIX
 * Documentation"), for the PIX gateway:
 *
 * - every call carries the headers `ci` (Client ID) and `cs` (Client Secret); a
 *   wrong pair is 401 ("Falha na autenticação"); 400 is a request error whose
 *   `response` field says which; 500 an internal error;
 * - POST /api/v1/gateway/request-qrcode `{requestNumber, dueDate (AAAA-MM-DD),
 *   amount (reais: products + shipping), shippingAmount?, usernameCheckout?,
 *   callbackUrl?, client{name, document (CPF/CNPJ), phoneNumber? (DDD+TELEFONE),
 *   email, address?}, products?, split?}` answers `{idTransaction, paymentCode,
 *   response: "OK", paymentCodeBase64}`; a refusal is 400 `{response, message,
 *   codeAntiFraud}` (e.g. USER_SPLIT_NOT_FOUND); malformed data is
 *   WRONG_DATA_FORMAT (the card endpoint's documented refusal of bad data);
 * - POST /api/v1/gateway/pix-payment `{key, typeKey, value, callbackUrl?,
 *   documentValidation?, externalId?}`, `typeKey` one of document (CPF/CNPJ),
 *   phoneNumber (e.g. 6299995432), email, randomKey, paymentCode; answers
 *   `{idTransaction, response: "OK"}`; 400 `{response, message, codeAntiFraud}`
 *   with NO_FUNDS, DUPLICATE_EXTERNAL_ID (a repeated externalId is not
 *   processed), …; 404 for a key that is not found (PIX_KEY_NOT_FOUND). SuitPay
 *   runs on Java (its error pages are Spring's `{timestamp, status, error,
 *   message, path}`, as its recurring-billing endpoints show): a `typeKey`
 *   outside its enum is refused that way;
 * - webhooks, POSTed to the request's callbackUrl: PIX cash-in `{idTransaction,
 *   typeTransaction: "PIX", statusTransaction PAID_OUT|CHARGEBACK, value,
 *   payerName, payerTaxId, paymentDate (dd/MM/yyyy HH:mm:ss), paymentCode,
 *   requestNumber, hash}` and PIX cash-out `{idTransaction, typeTransaction:
 *   "PIX_CASHOUT", statusTransaction PAID_OUT|CANCELED, value, destinationName,
 *   destinationTaxId, destinationBank, hash}`; `hash` is the SHA-256 (hex) of
 *   every other field's value concatenated in the order sent, concatenated with
 *   the client secret (written here after the values, as the public integrations
 *   read the documentation).
 *
 * State across calls: charges are paid (`pay`, which adds to the balance) or
 * charged back (`chargeback`), payouts take from the balance and settle
 * (`settlePayout`, a cancelled one gives the money back), each sending
 * SuitPay's webhook with its hash. No route reads a charge or a payout, and
 * none refunds a PIX: the documentation has none.
 */

export const SUITPAY_SOURCES = [
  'https://pix.suitpay.app/view/metadata/2sA3BrXVKq',
  "SuitPay's Postman export 'Documentação API's SuitPay' (stored copy: index file id 56515434014): Autenticação, Retornos, Webhook (PIX Cash-in, PIX Cash-out), Gateway de Pix (request-qrcode, pix-payment), Gateway de Cartão (WRONG_DATA_FORMAT), Recorrência (Spring error pages)",
  'https://github.com/ronaldoarch/vertixbet/blob/main/backend/suitpay_api.py (an integration: the hash with the secret after the values)',
] as const;

/** The documented `typeKey` values. */
const TYPE_KEYS = ['document', 'phoneNumber', 'email', 'randomKey', 'paymentCode'] as const;
type TypeKey = (typeof TYPE_KEYS)[number];

export interface SuitpayCharge {
  idTransaction: string;
  requestNumber: string;
  amount: number;
  dueDate: string;
  client: { name: string; document: string; email: string; phoneNumber?: string };
  callbackUrl?: string;
  paymentCode: string;
  status: 'WAITING' | 'PAID_OUT' | 'CHARGEBACK';
}

export interface SuitpayPayout {
  idTransaction: string;
  key: string;
  typeKey: TypeKey;
  value: number;
  externalId?: string;
  callbackUrl?: string;
  status: 'PROCESSING' | 'PAID_OUT' | 'CANCELED';
}

export interface SuitpayStandIn extends StandIn {
  readonly charges: Map<string, SuitpayCharge>;
  readonly payouts: Map<string, SuitpayPayout>;
  /** The account's balance in reais: what was paid in, less what was paid out. */
  balance(): number;
  /** The payer pays the charge: PAID_OUT, and the PIX webhook is sent. Answers the receiver's HTTP status. */
  pay(idTransaction: string): Promise<number>;
  /** The payment is charged back: CHARGEBACK, and the PIX webhook is sent. */
  chargeback(idTransaction: string): Promise<number>;
  /** The payout is paid (PAID_OUT) or cancelled (CANCELED, its value back in the balance): the PIX_CASHOUT webhook is sent. */
  settlePayout(idTransaction: string, status: 'PAID_OUT' | 'CANCELED'): Promise<number>;
}

export interface SuitpayStandInOptions {
  clientId: string;
  clientSecret: string;
  /** Money already in the account, reais (payouts draw on it). */
  balance?: number;
}

const refusal = (status: number, response: string, message: string): StandInReply => ({ status, body: { response, message, codeAntiFraud: null } });

const wrongData = (field: string): StandInReply =>
  refusal(400, 'WRONG_DATA_FORMAT', `Formato de dados inválidos, verifique os dados e tente novamente.{${field}}`);

/** A Spring error page, as SuitPay's Java API answers a body it cannot read. */
const springBadRequest = (path: string, message: string): StandInReply => ({
  status: 400,
  body: { timestamp: Date.now(), status: 400, error: 'Bad Request', message, path },
});

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const reais = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 && Math.round(value * 100) === Number((value * 100).toFixed(6)) ? value : undefined;
const digits = (value: string) => value.replace(/\D/g, '');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a key is one the DICT could hold for its type, as the stand-in's directory of keys (anything else is not found). */
function keyExists(key: string, typeKey: TypeKey): boolean {
  switch (typeKey) {
    case 'document':
      return /^[\d.\-/]+$/.test(key) && [11, 14].includes(digits(key).length);
    case 'phoneNumber':
      // DDD + number, as the documentation's example (no country code).
      return /^\d{10,11}$/.test(key);
    case 'email':
      return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(key);
    case 'randomKey':
      return UUID.test(key);
    case 'paymentCode':
      return key.startsWith('000201');
  }
}

/** SuitPay's `hash`: the values in the order sent, then the client secret, SHA-256 in hex. */
function signed(fields: Record<string, string | number | null>, clientSecret: string): Record<string, string | number | null> {
  const values = Object.values(fields)
    .map((value) => (value === null ? '' : String(value)))
    .join('');
  return {
    ...fields,
    hash: createHash('sha256')
      .update(values + clientSecret)
      .digest('hex'),
  };
}

/** dd/MM/yyyy HH:mm:ss in Brasília time, as the cash-in webhook writes `paymentDate`. */
function brasiliaDateTime(instant: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/Sao_Paulo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
}

function brCode(amount: number, requestNumber: string): string {
  const pix = createStaticPix({
    merchantName: 'Suit Business Ltda',
    merchantCity: 'Goiania',
    pixKey: 'c873834c-ed18-4e63-8e5d-90190392b744',
    infoAdicional: requestNumber.slice(0, 20),
    transactionAmount: amount,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

export async function startSuitpayStandIn(options: SuitpayStandInOptions): Promise<SuitpayStandIn> {
  const charges = new Map<string, SuitpayCharge>();
  const payouts = new Map<string, SuitpayPayout>();
  const externalIds = new Set<string>();
  let balanceCents = Math.round((options.balance ?? 0) * 100);

  const requestQrCode = async (request: StandInRequest): Promise<StandInReply> => {
    const body = request.body;
    if (!isRecord(body)) return springBadRequest(request.path, 'Required request body is missing');
    const requestNumber = text(body.requestNumber);
    if (!requestNumber) return wrongData('requestNumber');
    const dueDate = text(body.dueDate);
    if (!dueDate || !/^\d{4}-\d{2}-\d{2}$/.test(dueDate)) return wrongData('dueDate');
    const amount = reais(body.amount);
    if (amount === undefined) return wrongData('amount');
    const client = isRecord(body.client) ? body.client : undefined;
    if (!client) return wrongData('client');
    const name = text(client.name);
    const document = text(client.document);
    const email = text(client.email);
    if (!name) return wrongData('client.name');
    if (!document || ![11, 14].includes(digits(document).length)) return wrongData('client.document');
    if (!email || !email.includes('@')) return wrongData('client.email');
    const phoneNumber = client.phoneNumber === undefined ? undefined : text(client.phoneNumber);
    if (client.phoneNumber !== undefined && (!phoneNumber || !/^\d{10,11}$/.test(phoneNumber))) return wrongData('client.phoneNumber');
    if (body.split !== undefined) return refusal(400, 'USER_SPLIT_NOT_FOUND', 'Usuário do split não encontrado.');
    const idTransaction = randomUUID();
    const paymentCode = brCode(amount, requestNumber);
    const charge: SuitpayCharge = {
      idTransaction,
      requestNumber,
      amount,
      dueDate,
      client: { name, document, email, ...(phoneNumber ? { phoneNumber } : {}) },
      ...(text(body.callbackUrl) ? { callbackUrl: text(body.callbackUrl) } : {}),
      paymentCode,
      status: 'WAITING',
    };
    charges.set(idTransaction, charge);
    const paymentCodeBase64 = (await QRCode.toBuffer(paymentCode)).toString('base64');
    return { body: { idTransaction, paymentCode, response: 'OK', paymentCodeBase64 } };
  };

  const pixPayment = (request: StandInRequest): StandInReply => {
    const body = request.body;
    if (!isRecord(body)) return springBadRequest(request.path, 'Required request body is missing');
    if (body.typeKey !== undefined && !TYPE_KEYS.includes(body.typeKey as TypeKey))
      return springBadRequest(request.path, `JSON parse error: typeKey "${String(body.typeKey)}" is not one of [${TYPE_KEYS.join(', ')}]`);
    const key = text(body.key);
    const typeKey = body.typeKey as TypeKey | undefined;
    const value = reais(body.value);
    if (!key) return wrongData('key');
    if (!typeKey) return wrongData('typeKey');
    if (value === undefined) return wrongData('value');
    const externalId = text(body.externalId);
    if (externalId && externalIds.has(externalId))
      return refusal(400, 'DUPLICATE_EXTERNAL_ID', 'External ID já foi utilizado, favor enviar outro External ID para realizar essa operação.');
    if (!keyExists(key, typeKey)) return refusal(404, 'PIX_KEY_NOT_FOUND', 'Chave PIX não encontrada');
    const cents = Math.round(value * 100);
    if (cents > balanceCents) return refusal(400, 'NO_FUNDS', 'Sem saldo para executar esta operação.');
    balanceCents -= cents;
    if (externalId) externalIds.add(externalId);
    const idTransaction = randomUUID();
    payouts.set(idTransaction, {
      idTransaction,
      key,
      typeKey,
      value,
      ...(externalId ? { externalId } : {}),
      ...(text(body.callbackUrl) ? { callbackUrl: text(body.callbackUrl) } : {}),
      status: 'PROCESSING',
    });
    return { body: { idTransaction, response: 'OK' } };
  };

  const base = await startStandIn({
    name: 'SuitPay',
    sources: SUITPAY_SOURCES,
    authenticate: (request) => (request.headers.ci === options.clientId && request.headers.cs === options.clientSecret ? undefined : { status: 401, body: '' }),
    routes: [
      { method: 'POST', path: '/api/v1/gateway/request-qrcode', handle: requestQrCode },
      { method: 'POST', path: '/api/v1/gateway/pix-payment', handle: pixPayment },
    ],
  });

  const post = async (url: string | undefined, fields: Record<string, string | number | null>): Promise<number> => {
    if (!url) throw new Error('SuitPay stand-in: the request carried no callbackUrl, so there is nowhere to send the webhook');
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(signed(fields, options.clientSecret)),
    });
    await response.arrayBuffer();
    return response.status;
  };

  const cashIn = (charge: SuitpayCharge) =>
    post(charge.callbackUrl, {
      idTransaction: charge.idTransaction,
      typeTransaction: 'PIX',
      statusTransaction: charge.status,
      value: charge.amount,
      payerName: charge.client.name,
      payerTaxId: digits(charge.client.document),
      paymentDate: brasiliaDateTime(new Date()),
      paymentCode: charge.paymentCode,
      requestNumber: charge.requestNumber,
    });

  const known = <T>(map: Map<string, T>, id: string): T => {
    const found = map.get(id);
    if (!found) throw new Error(`SuitPay stand-in: no transaction ${id}`);
    return found;
  };

  return {
    ...base,
    charges,
    payouts,
    balance: () => balanceCents / 100,
    pay: async (id) => {
      const charge = known(charges, id);
      if (charge.status !== 'WAITING') throw new Error(`SuitPay stand-in: ${id} is ${charge.status}`);
      charge.status = 'PAID_OUT';
      balanceCents += Math.round(charge.amount * 100);
      return cashIn(charge);
    },
    chargeback: async (id) => {
      const charge = known(charges, id);
      if (charge.status !== 'PAID_OUT') throw new Error(`SuitPay stand-in: ${id} is ${charge.status}`);
      charge.status = 'CHARGEBACK';
      balanceCents -= Math.round(charge.amount * 100);
      return cashIn(charge);
    },
    settlePayout: async (id, status) => {
      const payout = known(payouts, id);
      if (payout.status !== 'PROCESSING') throw new Error(`SuitPay stand-in: ${id} is ${payout.status}`);
      payout.status = status;
      if (status === 'CANCELED') balanceCents += Math.round(payout.value * 100);
      return post(payout.callbackUrl, {
        idTransaction: payout.idTransaction,
        typeTransaction: 'PIX_CASHOUT',
        statusTransaction: status,
        value: payout.value,
        destinationName: 'Maria Recebedora',
        destinationTaxId: payout.typeKey === 'document' ? digits(payout.key) : '98765432100',
        destinationBank: 'Banco Exemplo S.A.',
      });
    },
  };
}
