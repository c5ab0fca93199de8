import { randomUUID } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * AxisBanking's purchase (AXISBANK's api_version 'public'), as its
 * documentation's "Create Transaction" page (docs.axisbanking.com.br) gives
 * POST /v2/purchase, under the API's `/transactions` (the specification's
 * path, /transactions/v2/purchase).
 *
 * What the page shows and the stand-in enforces (400 with the fields at fault):
 * - required: `name` (text, at most 255), `email`, `cpf` (11 or 14 digits),
 *   `phone` (8 to 12 digits), `amount` (an integer in cents), `description`,
 *   `responsibleDocument` (CPF or CNPJ), `responsibleExternalId`,
 *   `paymentMethod` 'PIX' or 'CREDIT_CARD';
 * - optional: `currency` 'BRL' or 'MXN', `externalId`, `referrerUrl`,
 *   `checkoutUrl`, `postbackUrl`, `fingerPrint` (one text, the device's);
 * - `creditCard`, required for CREDIT_CARD: `number`, `holder`, `expMonth`
 *   (MM), `expYear` (YYYY), `cvv`, `installments` (1 to 12), all required.
 *
 * The stand-in's own readings, where the page that could be read is silent:
 * HTTP Basic with the account's key and an empty password (provider research
 * F10: AxisBanking's integrations), 401 otherwise; the answer, the
 * transaction as its family's members answer it (`{id, status, amount,
 * paymentMethod, pix{qrcode}}`, cents), a PIX `waiting_payment`, a card `paid`
 * unless its number ends in 0002 (`refused`); the card's number and CVV are not
 * kept.
 */
export const AXISBANK_SOURCES = ['https://docs.axisbanking.com.br/api/create-transaction'] as const;

export interface AxisPurchaseRecord {
  id: string;
  amount: number;
  paymentMethod: 'PIX' | 'CREDIT_CARD';
  status: string;
  buyer: { name: string; email: string; cpf: string; phone: string };
  responsibleDocument: string;
  responsibleExternalId: string;
  /** What the stand-in keeps of a card: its last digits and installments. */
  card: { lastDigits: string; holder: string; installments: number } | null;
}

export interface AxisbankStandIn extends StandIn {
  readonly purchases: ReadonlyMap<string, AxisPurchaseRecord>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const DOCUMENT = /^(\d{11}|\d{14})$/;

/** The fields of `body` the page marks required or typed, each at fault with why. */
function faults(body: Record<string, unknown>): Record<string, string> {
  const found: Record<string, string> = {};
  const check = (field: string, ok: boolean, why: string) => {
    if (!ok) found[field] = why;
  };
  check('name', isText(body.name) && body.name.length <= 255, 'required, at most 255 characters');
  check('email', isText(body.email) && body.email.includes('@'), 'a valid email is required');
  check('cpf', typeof body.cpf === 'string' && DOCUMENT.test(body.cpf), 'CPF (11 digits) or CNPJ (14 digits)');
  check('phone', typeof body.phone === 'string' && /^\d{8,12}$/.test(body.phone), '8 to 12 digits');
  check('amount', Number.isInteger(body.amount) && (body.amount as number) > 0, 'an integer amount in cents');
  check('description', isText(body.description), 'required');
  check('responsibleDocument', typeof body.responsibleDocument === 'string' && DOCUMENT.test(body.responsibleDocument), 'CPF or CNPJ');
  check('responsibleExternalId', isText(body.responsibleExternalId), 'required');
  check('paymentMethod', body.paymentMethod === 'PIX' || body.paymentMethod === 'CREDIT_CARD', "'PIX' or 'CREDIT_CARD'");
  check('currency', body.currency === undefined || body.currency === 'BRL' || body.currency === 'MXN', "'BRL' or 'MXN'");
  for (const field of ['externalId', 'referrerUrl', 'checkoutUrl', 'postbackUrl', 'fingerPrint'])
    check(field, body[field] === undefined || typeof body[field] === 'string', 'text');
  if (body.paymentMethod === 'CREDIT_CARD') {
    const card = body.creditCard;
    if (!isRecord(card)) found.creditCard = 'required when paymentMethod is CREDIT_CARD';
    else {
      check('creditCard.number', typeof card.number === 'string' && /^\d{12,19}$/.test(card.number), 'required');
      check('creditCard.holder', isText(card.holder), 'required');
      check('creditCard.expMonth', typeof card.expMonth === 'string' && /^(0[1-9]|1[0-2])$/.test(card.expMonth), 'MM');
      check('creditCard.expYear', typeof card.expYear === 'string' && /^\d{4}$/.test(card.expYear), 'YYYY');
      check('creditCard.cvv', typeof card.cvv === 'string' && /^\d{3,4}$/.test(card.cvv), 'required');
      check(
        'creditCard.installments',
        Number.isInteger(card.installments) && (card.installments as number) >= 1 && (card.installments as number) <= 12,
        '1 to 12',
      );
    }
  }
  return found;
}

function brCode(cents: number, reference: string): string {
  const pix = createStaticPix({
    merchantName: 'AXIS BANKING LOJA',
    merchantCity: 'SAO PAULO',
    pixKey: '0d6e1f7a-5b2c-4c3d-8e9f-1a2b3c4d5e6f',
    infoAdicional: reference,
    transactionAmount: cents / 100,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

export async function startAxisbankStandIn(options: { secretKey: string }): Promise<AxisbankStandIn> {
  const purchases = new Map<string, AxisPurchaseRecord>();
  const basic = `Basic ${Buffer.from(`${options.secretKey}:`).toString('base64')}`;

  function purchase(request: StandInRequest): StandInReply {
    const body = isRecord(request.body) ? request.body : {};
    const wrong = faults(body);
    if (Object.keys(wrong).length) return { status: 400, body: { message: 'Validation failed', errors: wrong } };
    const amount = body.amount as number;
    const card = body.paymentMethod === 'CREDIT_CARD' ? (body.creditCard as Record<string, unknown>) : undefined;
    const number = card ? String(card.number) : '';
    const record: AxisPurchaseRecord = {
      id: randomUUID(),
      amount,
      paymentMethod: body.paymentMethod as AxisPurchaseRecord['paymentMethod'],
      status: card ? (number.endsWith('0002') ? 'refused' : 'paid') : 'waiting_payment',
      buyer: { name: String(body.name), email: String(body.email), cpf: String(body.cpf), phone: String(body.phone) },
      responsibleDocument: String(body.responsibleDocument),
      responsibleExternalId: String(body.responsibleExternalId),
      card: card ? { lastDigits: number.slice(-4), holder: String(card.holder), installments: Number(card.installments) } : null,
    };
    purchases.set(record.id, record);
    return {
      body: {
        id: record.id,
        status: record.status,
        amount,
        paymentMethod: record.paymentMethod.toLowerCase(),
        ...(card ? { installments: record.card!.installments } : { pix: { qrcode: brCode(amount, record.id) } }),
      },
    };
  }

  const standIn = await startStandIn({
    name: 'AxisBanking',
    sources: AXISBANK_SOURCES,
    authenticate: (request) => (request.headers.authorization === basic ? undefined : { status: 401, body: { message: 'Unauthorized' } }),
    routes: [{ method: 'POST', path: '/transactions/v2/purchase', handle: purchase }],
  });
  return Object.assign(standIn, { purchases });
}
