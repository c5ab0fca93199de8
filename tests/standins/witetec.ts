import { randomUUID } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * Witetec's API as its official Java SDK describes it (github
 * TechSete/witetec-sdk, commit 91f8a9d), for the gateway's acceptance test of
 * WITETEC with api_version `public` (tests/standins/witetec.test.ts).
 *
 * From the SDK:
 * - the client (configurations/WebClientConfiguration.java): host
 *   https://api.witetec.net, JSON both ways; a 4xx or 5xx answer is a failure
 *   whose body the SDK reads as text. Every call carries the headers its
 *   caller passes (the services take a header map): the SDK names no auth
 *   header, so the stand-in only asks that one of the account's API keys
 *   arrives as a header's value, whatever its name, on every call;
 * - charges (services/TransactionService.java): `POST /transactions` with
 *   PixTransactionRequest and `GET /transactions/{id}`, both answering
 *   PixTransactionResponse;
 * - PixTransactionRequest: `amount` (Integer, cents) and `method` (PIX,
 *   BOLETO or CREDIT_CARD, enums/TransactionMethod.java) not null; `customer`
 *   not null with `name` not null and `email`, `phone`, `documentType`,
 *   `document` not empty; `items` not null, each `title` not empty, `amount`
 *   (Integer) and `quantity` (Integer) not null, `tangible` and `externalRef`
 *   optional; `metadata` optional, its `sellerExternalRef` not empty;
 * - PixTransactionResponse: `{status (boolean), data: {id, amount, feeAmount,
 *   netAmount, sellerId, sellerName, customer{id, externalRef, name, email,
 *   phone, documentType, document, createdAt}, items[{id, title, amount,
 *   quantity, tangible, externalRef, transactionId, createdAt, updatedAt}],
 *   method, status, pix{id, qrcode, qrcodeUrl, expirationDate, copyPaste,
 *   createdAt, updatedAt, transactionId}, description, installments,
 *   metadata, paidAt, end2endId, postbackUrl, createdAt}}`; the statuses
 *   (enums/TransactionStatus.java) PENDING, PAID, FAILED, REFUNDED,
 *   WAITING_PAYMENT, PROCESSING, AUTHORIZED, REFUSED, CHARGEDBACK, DISPUTE,
 *   BLOCKED;
 * - payouts (services/WithdrawService.java): `POST /withdrawals` with
 *   WithdrawRequest `{amount (Integer, cents) not null, pixKey not empty,
 *   pixKeyType (EMAIL, PHONE, CPF, CNPJ, EVP, enums/PixKeyType.java), method
 *   not empty, metadata optional}` and `GET /withdrawals/{id}`, both
 *   answering WithdrawResponse `{status, data: {id, amount, method, pixKey,
 *   pixKeyType, status, withdrawalType, approvedAt, processedAt, createdAt,
 *   externalRef, metadata}}`, with the same caller headers as the charges (no
 *   login call: the SDK has none);
 * - webhooks (dtos/requests/WebhookTransactionEventRequest.java,
 *   WebhookWithdrawEventRequest.java, enums/WebhookEventType.java): flat
 *   objects, `eventType` TRANSACTION_PAID, _PENDING, _FAILED, _DISPUTE,
 *   _REFUNDED, _CHARGEDBACK or WITHDRAWAL_PENDING, _APPROVED, _REJECTED,
 *   _PROCESSING, _PAID, _FAILED, _REFUNDED, _CANCELED, _BLOCKED, beside the
 *   object's own fields (`id`, `amount`, `status`, …; a charge's also
 *   `customer`, `items`, `method`, `pix`, `boleto`, `card`, `metadata`
 *   (`{id, externalRef}`, or the text "null", deserializers/
 *   MetadataDeserializer.java), `paidAt`, `end2endId`, `postbackUrl`, the
 *   payer's bank `toBank`…`toCNPJ`); no signature.
 *
 * From PushPag's page for a PIX charge (doc.pushpag.com, the same platform:
 * the same envelope and fields): an answer at creation with `status: true`,
 * `data.status` PENDING, the BR Code in `pix.qrcode`, `pix.qrcodeUrl` and
 * `pix.copyPaste`, `pix.expirationDate` the next midnight in Brasília
 * (03:00Z), `feeAmount` and `netAmount` 0, `boleto` and `card` null.
 *
 * The stand-in's own readings, where the SDK is silent: a refusal is 400 (a
 * field the SDK requires), 401 (no known key) or 404 (unknown id), each
 * `{status: false, message}` with the stand-in's texts; a charge's events go to
 * its `postbackUrl` (the answer and the events carry one) else to the URLs
 * registered on the account, a payout's to those URLs; the payout answer
 * starts PENDING; once paid, a charge's `feeAmount` is 1,99 % of it plus
 * R$ 0,50 and its `netAmount` the rest (0 and 0 before, as PushPag's page
 * shows at creation). Card and boleto charges are not modelled: the SDK carries no
 * card or boleto data (no encrypted card), so such a request is a crash of the
 * stand-in, never an answer.
 */
const SDK = 'https://github.com/TechSete/witetec-sdk/blob/91f8a9dc0745bcc2bc30591bcb85dcb8830d65ee/src/main/java/tech/techsete/witetec_sdk';
export const WITETEC_SOURCES = [
  `${SDK}/configurations/WebClientConfiguration.java`,
  `${SDK}/services/TransactionService.java`,
  `${SDK}/services/WithdrawService.java`,
  `${SDK}/dtos/requests/PixTransactionRequest.java`,
  `${SDK}/dtos/responses/PixTransactionResponse.java`,
  `${SDK}/dtos/requests/WithdrawRequest.java`,
  `${SDK}/dtos/responses/WithdrawResponse.java`,
  `${SDK}/dtos/requests/WebhookTransactionEventRequest.java`,
  `${SDK}/dtos/requests/WebhookWithdrawEventRequest.java`,
  `${SDK}/deserializers/MetadataDeserializer.java`,
  `${SDK}/enums/TransactionMethod.java`,
  `${SDK}/enums/TransactionStatus.java`,
  `${SDK}/enums/PixKeyType.java`,
  `${SDK}/enums/WebhookEventType.java`,
  'https://doc.pushpag.com/criar-cobran%C3%A7a-pix-32557470e0',
] as const;

export const WITETEC_TRANSACTION_STATUSES = [
  'PENDING',
  'PAID',
  'FAILED',
  'REFUNDED',
  'WAITING_PAYMENT',
  'PROCESSING',
  'AUTHORIZED',
  'REFUSED',
  'CHARGEDBACK',
  'DISPUTE',
  'BLOCKED',
] as const;
export type WitetecTransactionStatus = (typeof WITETEC_TRANSACTION_STATUSES)[number];

/** A charge event's name: TRANSACTION_ and the status it announces. */
export type WitetecTransactionEvent = 'PAID' | 'PENDING' | 'FAILED' | 'DISPUTE' | 'REFUNDED' | 'CHARGEDBACK';
export type WitetecWithdrawalEvent = 'PENDING' | 'APPROVED' | 'REJECTED' | 'PROCESSING' | 'PAID' | 'FAILED' | 'REFUNDED' | 'CANCELED' | 'BLOCKED';

const PIX_KEY_TYPES = ['EMAIL', 'PHONE', 'CPF', 'CNPJ', 'EVP'] as const;
const METHODS = ['PIX', 'BOLETO', 'CREDIT_CARD'] as const;

export interface WitetecCharge {
  id: string;
  amount: number;
  feeAmount: number;
  netAmount: number;
  sellerId: string;
  sellerName: string;
  customer: { id: string; externalRef: string | null; name: string; email: string; phone: string; documentType: string; document: string; createdAt: string };
  items: Array<{
    id: string;
    title: string;
    amount: number;
    quantity: number;
    tangible: boolean | null;
    externalRef: string | null;
    transactionId: string;
    createdAt: string;
    updatedAt: string;
  }>;
  method: 'PIX';
  status: WitetecTransactionStatus;
  pix: {
    id: string;
    qrcode: string;
    qrcodeUrl: string;
    expirationDate: string;
    copyPaste: string;
    createdAt: string;
    updatedAt: string;
    transactionId: string;
  };
  boleto: null;
  card: null;
  description: string | null;
  installments: number | null;
  metadata: { sellerExternalRef: string } | null;
  paidAt: string | null;
  end2endId: string | null;
  postbackUrl: string | null;
  createdAt: string;
}

export interface WitetecWithdrawal {
  id: string;
  amount: number;
  method: string;
  pixKey: string;
  pixKeyType: (typeof PIX_KEY_TYPES)[number];
  status: string;
  withdrawalType: string;
  approvedAt: string | null;
  processedAt: string | null;
  createdAt: string;
  externalRef: string | null;
  metadata: unknown;
}

export interface WitetecStandIn extends StandIn {
  readonly charges: ReadonlyMap<string, WitetecCharge>;
  readonly withdrawals: ReadonlyMap<string, WitetecWithdrawal>;
  /** The header that carried the key on each authenticated call (the SDK leaves its name to the caller). */
  readonly keyHeaders: string[];
  /** A webhook URL registered on the account (the merchant's panel). */
  registerWebhook(url: string): void;
  /** The payer pays the PIX: PAID, and TRANSACTION_PAID sent; the HTTP statuses the receivers answered. */
  pay(id: string): Promise<number[]>;
  /** The charge moves at Witetec and its event is sent: TRANSACTION_<event>, the status of the same name. */
  settle(id: string, event: WitetecTransactionEvent): Promise<number[]>;
  /** The charge moves at Witetec without any event (a read finds it). */
  setStatus(id: string, status: WitetecTransactionStatus): void;
  /** The payout moves at Witetec and WITHDRAWAL_<event> is sent, its status the event's. */
  settlePayout(id: string, event: WitetecWithdrawalEvent): Promise<number[]>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const filled = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const integer = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

const refused = (status: number, message: string): StandInReply => ({ status, body: { status: false, message } });

/** A BR Code for the amount, its CRC valid, as the payer's bank reads it. */
function brCode(cents: number, id: string): string {
  const pix = createStaticPix({
    merchantName: 'WITETEC PAGAMENTOS',
    merchantCity: 'NITEROI',
    pixKey: '6f1d2c3b-4a59-4e7f-8a1b-2c3d4e5f6a7b',
    infoAdicional: id.replace(/-/g, '').slice(0, 25),
    transactionAmount: cents / 100,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

/** The next midnight in Brasília (UTC-3), as PushPag's example shows it. */
function nextMidnightBrasilia(now: Date): string {
  const local = new Date(now.getTime() - 3 * 3600_000);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1, 3)).toISOString();
}

/** The SDK's constraints on PixTransactionRequest, the first broken one; undefined when the body keeps them all. */
function chargeViolation(body: Record<string, unknown>): string | undefined {
  if (!integer(body.amount)) return 'amount: Amount cannot be null.';
  if (!METHODS.includes(body.method as (typeof METHODS)[number])) return 'method: Method cannot be null.';
  if (!isRecord(body.customer)) return 'customer: Customer cannot be null.';
  const customer = body.customer;
  if (typeof customer.name !== 'string') return 'customer.name: Name cannot be empty.';
  for (const [field, label] of [
    ['email', 'Email'],
    ['phone', 'Phone'],
    ['documentType', 'DocumentType'],
    ['document', 'Document'],
  ] as const)
    if (!filled(customer[field])) return `customer.${field}: ${label} cannot be empty.`;
  if (!Array.isArray(body.items)) return 'items: Items cannot be null.';
  for (const [index, item] of body.items.entries()) {
    if (!isRecord(item) || !filled(item.title)) return `items[${index}].title: Title cannot be empty.`;
    if (!integer(item.amount)) return `items[${index}].amount: Amount cannot be null.`;
    if (!integer(item.quantity)) return `items[${index}].quantity: Quantity cannot be null.`;
  }
  if (body.metadata !== undefined && body.metadata !== null && !(isRecord(body.metadata) && filled(body.metadata.sellerExternalRef)))
    return 'metadata.sellerExternalRef: SellerExternalRef cannot be empty.';
  return undefined;
}

/** The SDK's constraints on WithdrawRequest. */
function withdrawalViolation(body: Record<string, unknown>): string | undefined {
  if (!integer(body.amount)) return 'amount: Amount cannot be null.';
  if (!filled(body.pixKey)) return 'pixKey: PixKey cannot be empty.';
  if (!PIX_KEY_TYPES.includes(body.pixKeyType as (typeof PIX_KEY_TYPES)[number])) return 'pixKeyType: PixKeyType cannot be empty.';
  if (!filled(body.method)) return 'method: Method cannot be empty.';
  return undefined;
}

export async function startWitetecStandIn(options: { apiKeys: readonly string[] }): Promise<WitetecStandIn> {
  const charges = new Map<string, WitetecCharge>();
  const withdrawals = new Map<string, WitetecWithdrawal>();
  const webhooks: string[] = [];
  const keyHeaders: string[] = [];
  const sellerId = randomUUID();

  /** One of the account's keys as some header's value (the SDK forwards the caller's headers, naming none). */
  function authenticate(request: StandInRequest): StandInReply | undefined {
    const header = Object.entries(request.headers).find(([, value]) => options.apiKeys.includes(value.trim()));
    if (!header) return refused(401, 'Chave de API ausente ou inválida');
    keyHeaders.push(header[0]);
    return undefined;
  }

  const envelope = (data: unknown): StandInReply => ({ body: { status: true, data } });

  async function send(urls: readonly string[], event: Record<string, unknown>): Promise<number[]> {
    const body = JSON.stringify(event);
    return Promise.all(
      urls.map(async (url) => {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        return response.status;
      }),
    );
  }

  /** A charge's event: the flat object of WebhookTransactionEventRequest, metadata `{id, externalRef}` or the text "null". */
  function chargeEvent(charge: WitetecCharge, eventType: string): Promise<number[]> {
    const { feeAmount: _fee, netAmount: _net, sellerId: _seller, sellerName: _name, metadata, ...fields } = charge;
    return send(charge.postbackUrl ? [charge.postbackUrl] : webhooks, {
      eventType,
      ...fields,
      metadata: metadata ? { id: randomUUID(), externalRef: metadata.sellerExternalRef } : 'null',
      toBank: null,
      toBankBranch: null,
      toBankAccount: null,
      ispb: null,
      toName: null,
      toCNPJ: null,
    });
  }

  const chargeOf = (id: string): WitetecCharge => {
    const charge = charges.get(id);
    if (!charge) throw new Error(`no Witetec charge ${id}`);
    return charge;
  };

  const standIn = await startStandIn({
    name: 'Witetec',
    sources: WITETEC_SOURCES,
    authenticate,
    routes: [
      {
        method: 'POST',
        path: '/transactions',
        handle: (request) => {
          const body = isRecord(request.body) ? request.body : {};
          const violation = chargeViolation(body);
          if (violation) return refused(400, violation);
          if (body.method !== 'PIX') throw new Error(`the SDK carries no ${String(body.method)} data: not modelled`);
          const id = randomUUID();
          const now = new Date().toISOString();
          const customer = body.customer as Record<string, string>;
          const code = brCode(body.amount as number, id);
          const charge: WitetecCharge = {
            id,
            amount: body.amount as number,
            feeAmount: 0,
            netAmount: 0,
            sellerId,
            sellerName: 'LOJA DE TESTE LTDA',
            customer: {
              id: randomUUID(),
              externalRef: null,
              name: customer.name!,
              email: customer.email!,
              phone: customer.phone!,
              documentType: customer.documentType!,
              document: customer.document!,
              createdAt: now,
            },
            items: (body.items as Array<Record<string, unknown>>).map((item) => ({
              id: randomUUID(),
              title: item.title as string,
              amount: item.amount as number,
              quantity: item.quantity as number,
              tangible: typeof item.tangible === 'boolean' ? item.tangible : null,
              externalRef: filled(item.externalRef) ? item.externalRef : null,
              transactionId: id,
              createdAt: now,
              updatedAt: now,
            })),
            method: 'PIX',
            status: 'PENDING',
            pix: {
              id: randomUUID(),
              qrcode: code,
              qrcodeUrl: code,
              expirationDate: nextMidnightBrasilia(new Date()),
              copyPaste: code,
              createdAt: now,
              updatedAt: now,
              transactionId: id,
            },
            boleto: null,
            card: null,
            description: filled(body.description) ? body.description : null,
            installments: null,
            metadata: isRecord(body.metadata) ? { sellerExternalRef: body.metadata.sellerExternalRef as string } : null,
            paidAt: null,
            end2endId: null,
            postbackUrl: filled(body.postbackUrl) ? body.postbackUrl : null,
            createdAt: now,
          };
          charges.set(id, charge);
          return envelope(charge);
        },
      },
      {
        method: 'GET',
        path: '/transactions/{id}',
        handle: (request) => {
          const charge = charges.get(request.params.id!);
          return charge ? envelope(charge) : refused(404, 'Transação não encontrada');
        },
      },
      {
        method: 'POST',
        path: '/withdrawals',
        handle: (request) => {
          const body = isRecord(request.body) ? request.body : {};
          const violation = withdrawalViolation(body);
          if (violation) return refused(400, violation);
          const withdrawal: WitetecWithdrawal = {
            id: randomUUID(),
            amount: body.amount as number,
            method: body.method as string,
            pixKey: body.pixKey as string,
            pixKeyType: body.pixKeyType as WitetecWithdrawal['pixKeyType'],
            status: 'PENDING',
            withdrawalType: 'API',
            approvedAt: null,
            processedAt: null,
            createdAt: new Date().toISOString(),
            externalRef: null,
            metadata: body.metadata ?? null,
          };
          withdrawals.set(withdrawal.id, withdrawal);
          return envelope(withdrawal);
        },
      },
      {
        method: 'GET',
        path: '/withdrawals/{id}',
        handle: (request) => {
          const withdrawal = withdrawals.get(request.params.id!);
          return withdrawal ? envelope(withdrawal) : refused(404, 'Saque não encontrado');
        },
      },
    ],
  });

  return Object.assign(standIn, {
    charges,
    withdrawals,
    keyHeaders,
    registerWebhook: (url: string) => {
      webhooks.push(url);
    },
    async pay(id: string) {
      const charge = chargeOf(id);
      if (charge.status !== 'PENDING') throw new Error(`Witetec charge ${id} is ${charge.status}`);
      charge.status = 'PAID';
      charge.paidAt = new Date().toISOString();
      charge.end2endId = `E${Date.now()}${Math.floor(Math.random() * 1e9)}`.padEnd(32, '0').slice(0, 32);
      charge.feeAmount = Math.round(charge.amount * 0.0199) + 50;
      charge.netAmount = charge.amount - charge.feeAmount;
      return chargeEvent(charge, 'TRANSACTION_PAID');
    },
    async settle(id: string, event: WitetecTransactionEvent) {
      const charge = chargeOf(id);
      charge.status = event;
      return chargeEvent(charge, `TRANSACTION_${event}`);
    },
    setStatus(id: string, status: WitetecTransactionStatus) {
      chargeOf(id).status = status;
    },
    async settlePayout(id: string, event: WitetecWithdrawalEvent) {
      const withdrawal = withdrawals.get(id);
      if (!withdrawal) throw new Error(`no Witetec withdrawal ${id}`);
      const now = new Date().toISOString();
      withdrawal.status = event;
      if (event === 'APPROVED') withdrawal.approvedAt = now;
      if (event === 'PAID') withdrawal.processedAt = now;
      const { metadata: _metadata, ...fields } = withdrawal;
      return send(webhooks, { eventType: `WITHDRAWAL_${event}`, ...fields });
    },
  });
}
