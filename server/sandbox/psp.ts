import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { barcodeToDigitableLine, buildBarcode } from '../lib/boleto.js';
import { calculateInstallments, type InstallmentRules } from '../lib/installments.js';
import { qrPng } from '../lib/pixQrCode.js';
import type { Logger } from '../lib/logger.js';
import { BadHttpRequest, checkedTarget } from '../lib/httpServer.js';
import {
  SANDBOX_FAILING_PIX_KEY,
  SANDBOX_FAILURE_REASON,
  SANDBOX_REFUSAL_MESSAGE,
  SANDBOX_REFUSED_PIX_KEY,
  signSandboxPayload,
  SIGNATURE_HEADER,
  type SandboxCharge,
  type SandboxEvent,
  type SandboxEventType,
  type SandboxForgottenCharge,
  type SandboxForgottenWithdrawal,
  type SandboxRecipient,
  type SandboxSentNotification,
  type SandboxWithdrawal,
} from './api.js';
import { sandboxBalance } from './balance.js';
import { staticPixCode } from './brCode.js';
import { OldestFirst } from '../lib/oldestFirst.js';
import { ByReference, type Notified } from './references.js';
import { StateJournal } from './stateJournal.js';
import { DECLINE_MESSAGES, DECLINING_CARDS, passesLuhn } from './testCards.js';
import { cardSummary } from '../lib/cardBrand.js';
import { sandboxPixPayment } from './pixPayer.js';

/**
 * A fake PSP with its own REST API, so that SANDBOX accounts go through the same
 * code paths (HTTP adapter, webhook sidecar) as real providers. It is not part of
 * the gateway: the gateway reaches it only over HTTP.
 */

export const SANDBOX_INSTALLMENT_RULES: InstallmentRules = {
  maxInstallments: 12,
  interestFreeInstallments: 3,
  feePercentByInstallment: [0, 0, 0, 4.99, 5.99, 6.99, 7.99, 8.99, 9.99, 10.99, 11.99, 12.99],
  minInstallmentValue: 500,
};

const SANDBOX_PIX_KEY = '2f1d7c8e-5b4a-4e3f-9a1b-0c2d3e4f5a6b';
const SANDBOX_BANK_CODE = '999';
/** SandboxPspOptions.pixTtlMs' default. */
const PIX_TTL_MS = 24 * 3600_000;
const BOLETO_DAYS = 3;

interface StoredCharge extends SandboxCharge, Notified {
  /** The customer the charge was asked for, who pays it when paid (sandboxPixPayment); kept off the answers. */
  customer?: { name?: string; document?: string };
}
interface StoredWithdrawal extends SandboxWithdrawal, Notified {}
/** What is left of a charge or payout past `wholeRecords` (api.ts): with its merchant and key, by which it is still found. */
type ForgottenCharge = SandboxForgottenCharge & Pick<Notified, 'apiKey' | 'idempotencyKey'>;
type ForgottenWithdrawal = SandboxForgottenWithdrawal & Pick<Notified, 'apiKey' | 'idempotencyKey'>;
type KeptCharge = StoredCharge | ForgottenCharge;
type KeptWithdrawal = StoredWithdrawal | ForgottenWithdrawal;
const isForgotten = <T extends object>(record: T): record is Extract<T, { forgotten: true }> => 'forgotten' in record && record.forgotten === true;
interface StoredCard {
  number: string;
  apiKey: string;
}

type StoredRecipient = SandboxRecipient & { apiKey: string };
interface PspState {
  charges: Record<string, KeptCharge>;
  withdrawals: Record<string, KeptWithdrawal>;
  recipients: Record<string, StoredRecipient>;
  /** Card tokens and saved cards, by id. Kept in memory only: card numbers are never written to disk. */
  cards: Map<string, StoredCard>;
}

/**
 * A fault for tests, used once by the next create of its kind: the PSP does the
 * work (charges, pays out) and then answers late or with a 500, as a real
 * provider does when it fails after acting.
 */
export interface SandboxFault {
  /** charges and withdrawals: their creation; refunds: a refund of any charge. */
  resource: 'charges' | 'withdrawals' | 'refunds';
  /**
   * dropWithoutActing: the connection is cut before anything is done, as when a request is lost on the way.
   * decline (charges): the charge is made and declined with `declineReason`, whatever its method or card.
   */
  mode: 'slowAnswer' | 'errorAfterActing' | 'dropWithoutActing' | 'decline';
  /** For slowAnswer. */
  delayMs?: number;
  /**
   * For slowAnswer, instead of delayMs: the answer waits until this settles (a test that holds calls in flight for
   * as long as it needs, not for a time a loaded machine may outlast).
   */
  heldUntil?: Promise<unknown>;
  /** For decline, e.g. do_not_honor. */
  declineReason?: string;
}

/**
 * How the PSP behaves as a provider, for tests of what the gateway does with
 * providers unlike this one: changed at any time, applied to the requests that
 * arrive after.
 */
export interface SandboxBehaviour {
  /**
   * Every create of a charge or withdrawal is queued and acted on this long
   * after it arrived, whether or not its caller still waits (then answered): a
   * provider that acts late, where a lookup finds nothing until it has.
   */
  actLateMs?: number;
  /**
   * false: a create's Idempotency-Key is kept as its reference (lookups find it)
   * but a repeated key makes another resource, as a provider that does not
   * honour the header does.
   */
  honourIdempotencyKeys?: boolean;
}

export interface SandboxPspOptions {
  behaviour?: SandboxBehaviour;
  host?: string;
  port?: number;
  /**
   * Where charges, withdrawals and recipients survive a restart; cards never do.
   * This file is a snapshot; each change is appended to `${stateFile}.journal`
   * beside it, and the snapshot is rewritten from memory at start and when the
   * journal has grown (a state file from before the journal loads as a snapshot).
   */
  stateFile?: string;
  /** The least size in bytes of a journal before the snapshot is rewritten (8 MiB); tests make it small. */
  journalCompactBytes?: number;
  /** How long a withdrawal stays processing before it settles. */
  settleDelayMs?: number;
  /** How long a PIX charge can be paid (24 hours): past it, a pending one is canceled when next read. */
  pixTtlMs?: number;
  /**
   * How many charges, settled payouts and cards the PSP keeps whole: all unless told (the gateway's
   * SANDBOX_WHOLE_RECORDS tells it 5,000 of each), so that its memory and state file grow far slower than the charges
   * a load test makes. Past that, the oldest charge or payout keeps only its id, amount, method and status (a pending
   * charge is canceled first) and its Idempotency-Key, which its lookups, its refunds and the merchant's balance still
   * read (about 340 bytes of memory a charge against 840 whole); the oldest card is forgotten.
   */
  wholeRecords?: number;
  logger?: Logger;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const newId = (prefix: string): string => `${prefix}_${randomBytes(9).toString('base64url')}`;

export class SandboxPsp {
  private server?: Server;
  private readonly state: PspState;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly faults: SandboxFault[] = [];
  /** Tests: see SandboxBehaviour. */
  behaviour: SandboxBehaviour;
  /** Tests: the requests received, by `METHOD /path`, counted when they arrive (whatever came of them). */
  readonly received = new Map<string, number>();
  /** Tests: the requests acted on, by `METHOD /path`: a late one when it is, whether or not its caller still waits. */
  readonly acted = new Map<string, number>();
  /** Creates held by `actLateMs`, each acted on when called. */
  private readonly queued = new Set<() => void>();
  private readonly chargesByReference = new ByReference<KeptCharge>();
  private readonly withdrawalsByReference = new ByReference<KeptWithdrawal>();
  /** The ids of what is kept whole, oldest first (options.wholeRecords). */
  private readonly wholeCharges = new OldestFirst();
  private readonly wholeWithdrawals = new OldestFirst();
  private readonly cardIds = new OldestFirst();
  private readonly wholeRecords: number;
  /** One string per merchant's hashed key, shared by all its charges, payouts and cards instead of a copy each. */
  private readonly merchants = new Map<string, string>();
  /** Where the state survives a restart (options.stateFile). */
  private readonly journal?: StateJournal;

  constructor(private readonly options: SandboxPspOptions = {}) {
    this.state = { charges: {}, withdrawals: {}, recipients: {}, cards: new Map() };
    this.behaviour = { ...options.behaviour };
    if (options.stateFile) {
      this.journal = new StateJournal(options.stateFile, this.state, {
        journalCompactBytes: options.journalCompactBytes,
        saved: withoutSecret,
        logger: options.logger,
      });
      this.journal.load();
    }
    this.wholeRecords = options.wholeRecords ?? Number.POSITIVE_INFINITY;
    for (const charge of Object.values(this.state.charges)) {
      charge.apiKey = this.merchant(charge.apiKey);
      this.chargesByReference.add(charge);
      if (!isForgotten(charge)) this.wholeCharges.push(charge.id);
    }
    for (const withdrawal of Object.values(this.state.withdrawals)) {
      withdrawal.apiKey = this.merchant(withdrawal.apiKey);
      this.withdrawalsByReference.add(withdrawal);
      if (!isForgotten(withdrawal)) this.wholeWithdrawals.push(withdrawal.id);
    }
    // A state saved under a higher limit (or before there was one) is brought under this one, and saved so.
    this.forgetOldCharges();
    this.forgetOldWithdrawals();
  }

  /** The one copy of a merchant's hashed key. */
  private merchant(apiKey: string): string {
    const kept = this.merchants.get(apiKey);
    if (kept !== undefined) return kept;
    this.merchants.set(apiKey, apiKey);
    return apiKey;
  }

  /** Tests: make the next create of a kind fail after acting. */
  injectFault(fault: SandboxFault): void {
    this.faults.push(fault);
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('sandbox PSP is not listening');
    return `http://${this.options.host ?? '127.0.0.1'}:${address.port}`;
  }

  async start(): Promise<this> {
    // A journal with changes in it (or none yet) becomes a new snapshot before the first request.
    await this.journal?.open();
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    return this;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.server) {
      await new Promise<void>((resolve) => this.server!.close(() => resolve()));
      this.server.closeAllConnections();
    }
    // What the last requests changed is on disk before stop() returns.
    await this.journal?.settled();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      // An odd target (`*`, `http://…`, `//x`, a malformed escape) is refused before anything reads it.
      checkedTarget(req);
      // A PIX charge's QR image, public like the image URLs providers answer (the charge id is not guessable): drawn
      // only when asked, so a charge costs no drawing (the QR took about 70 % of the PSP's CPU per PIX charge).
      const image = req.method === 'GET' ? /^\/v1\/charges\/([\w-]+)\/qr\.png$/.exec(new URL(req.url ?? '/', 'http://sandbox').pathname) : null;
      if (image) return this.sendQrImage(res, image[1]!);
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer) throw new HttpError(401, 'missing or malformed Authorization: Bearer <api key>');
      const apiKey = createHash('sha256').update(bearer).digest('hex');
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const body = req.method === 'POST' ? await readJson(req) : {};
      const idempotencyKey = typeof req.headers['idempotency-key'] === 'string' && req.headers['idempotency-key'] ? req.headers['idempotency-key'] : undefined;
      const path = url.pathname.replace(/\/+$/, '');
      const request = `${req.method ?? 'GET'} ${path}`;
      this.received.set(request, (this.received.get(request) ?? 0) + 1);
      const fault = req.method === 'POST' ? this.takeFault(url.pathname) : undefined;
      if (fault?.mode === 'dropWithoutActing') {
        req.socket.destroy();
        return;
      }
      if (this.behaviour.actLateMs && (request === 'POST /v1/charges' || request === 'POST /v1/withdrawals')) await this.later(this.behaviour.actLateMs);
      const result = await this.route(req.method ?? 'GET', url, body, apiKey, idempotencyKey, fault?.mode === 'decline' ? fault.declineReason : undefined);
      this.acted.set(request, (this.acted.get(request) ?? 0) + 1);
      if (fault?.mode === 'errorAfterActing') throw new HttpError(500, 'internal error after the request was processed');
      if (fault?.mode === 'slowAnswer')
        await (fault.heldUntil?.catch(() => undefined) ?? new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 1_000)));
      send(res, result.status, result.body);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : error instanceof BadHttpRequest ? 400 : 500;
      if (status === 500) this.options.logger?.error({ err: error }, 'sandbox PSP failed');
      send(res, status, { error: { message: error instanceof Error ? error.message : String(error) } });
    }
  }

  /** The QR image of a PIX charge's BR Code: `qrcode`'s default picture (4 modules of margin), as a 1-bit PNG. */
  private sendQrImage(res: ServerResponse, id: string): void {
    const charge = this.state.charges[id];
    const code = charge && !isForgotten(charge) ? charge.pix?.copyPaste : undefined;
    if (!code) return send(res, 404, { error: { message: 'charge not found' } });
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'public, max-age=86400, immutable' });
    res.end(qrPng(code, 4));
  }

  /** Waits on a timer that stop() clears: a request still queued when the PSP stops is never acted on. */
  private later(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const act = () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        this.queued.delete(act);
        resolve();
      };
      const timer = setTimeout(act, ms);
      this.timers.add(timer);
      this.queued.add(act);
    });
  }

  /** Tests: acts now on every create that `actLateMs` still holds queued; returns how many. */
  actOnQueued(): number {
    const queued = [...this.queued];
    for (const act of queued) act();
    return queued.length;
  }

  private takeFault(path: string): SandboxFault | undefined {
    const trimmed = path.replace(/\/+$/, '');
    const index = this.faults.findIndex((fault) =>
      fault.resource === 'refunds' ? /^\/v1\/charges\/[\w-]+\/refunds$/.test(trimmed) : trimmed === `/v1/${fault.resource}`,
    );
    return index < 0 ? undefined : this.faults.splice(index, 1)[0];
  }

  private async route(
    method: string,
    url: URL,
    body: any,
    apiKey: string,
    idempotencyKey?: string,
    decline?: string,
  ): Promise<{ status: number; body: unknown }> {
    const path = url.pathname.replace(/\/+$/, '');
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/card-tokens') return { status: 201, body: this.createCardToken(body, apiKey) };
    if (method === 'POST' && path === '/v1/cards') return { status: 201, body: this.saveCard(body, apiKey) };
    if (method === 'POST' && path === '/v1/charges') {
      const earlier = this.honoured(idempotencyKey) && this.chargesByReference.find(apiKey, idempotencyKey)[0];
      if (earlier) return { status: 200, body: visible(this.current(earlier)) };
      return { status: 201, body: this.createCharge(body, apiKey, idempotencyKey, decline) };
    }
    if (method === 'GET' && path === '/v1/charges') {
      const reference = url.searchParams.get('reference') ?? '';
      return {
        status: 200,
        body: {
          data: reference ? this.chargesByReference.find(apiKey, reference).map((charge) => visible(this.current(charge))) : [],
        },
      };
    }
    if (method === 'GET' && path === '/v1/withdrawals') {
      const reference = url.searchParams.get('reference') ?? '';
      return {
        status: 200,
        body: {
          data: reference ? this.withdrawalsByReference.find(apiKey, reference).map(visible) : [],
        },
      };
    }
    if (method === 'GET' && (match = /^\/v1\/charges\/([\w-]+)$/.exec(path))) return { status: 200, body: visible(this.charge(match[1]!, apiKey)) };
    if (method === 'POST' && (match = /^\/v1\/charges\/([\w-]+)\/pay$/.exec(path))) return { status: 200, body: await this.pay(match[1]!, apiKey) };
    if (method === 'POST' && (match = /^\/v1\/charges\/([\w-]+)\/refunds$/.exec(path)))
      return { status: 201, body: await this.refund(match[1]!, body, apiKey) };
    if (method === 'POST' && path === '/v1/withdrawals') {
      const earlier = this.honoured(idempotencyKey) && this.withdrawalsByReference.find(apiKey, idempotencyKey)[0];
      if (earlier) return { status: 200, body: visible(earlier) };
      return { status: 201, body: this.createWithdrawal(body, apiKey, idempotencyKey) };
    }
    if (method === 'GET' && (match = /^\/v1\/withdrawals\/([\w-]+)$/.exec(path))) return { status: 200, body: visible(this.withdrawal(match[1]!, apiKey)) };
    if (method === 'POST' && path === '/v1/recipients') return { status: 201, body: this.createRecipient(body, apiKey) };
    if (method === 'GET' && (match = /^\/v1\/recipients\/([\w-]+)$/.exec(path))) return { status: 200, body: this.recipient(match[1]!, apiKey) };
    if (method === 'GET' && path === '/v1/balance') {
      const own = <T extends Notified>(records: Record<string, T>) => Object.values(records).filter((record) => record.apiKey === apiKey);
      return { status: 200, body: sandboxBalance(own(this.state.charges), own(this.state.withdrawals)) };
    }
    if (method === 'GET' && path === '/v1/installments') {
      const amount = Number(url.searchParams.get('amount'));
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new HttpError(422, 'amount must be a positive integer number of cents');
      return { status: 200, body: { options: calculateInstallments(amount, SANDBOX_INSTALLMENT_RULES) } };
    }
    throw new HttpError(404, `no route for ${method} ${path}`);
  }

  private honoured(idempotencyKey: string | undefined): idempotencyKey is string {
    return Boolean(idempotencyKey) && this.behaviour.honourIdempotencyKeys !== false;
  }

  private createCardToken(body: any, apiKey: string): { token: string } {
    const number = String(body.number ?? '').replace(/\D/g, '');
    if (!passesLuhn(number)) throw new HttpError(422, 'invalid card number');
    if (!/^\d{1,2}$/.test(String(body.expMonth ?? '')) || Number(body.expMonth) < 1 || Number(body.expMonth) > 12)
      throw new HttpError(422, 'invalid expiry month');
    if (!/^\d{4}$/.test(String(body.expYear ?? ''))) throw new HttpError(422, 'expiry year must have 4 digits');
    if (!/^\d{3,4}$/.test(String(body.cvv ?? ''))) throw new HttpError(422, 'invalid cvv');
    if (!String(body.holderName ?? '').trim()) throw new HttpError(422, 'holderName is required');
    const token = newId('tok');
    this.keepCard(token, { number, apiKey: this.merchant(apiKey) });
    return { token };
  }

  private saveCard(body: any, apiKey: string): { id: string; last4: string } {
    const tokenCard = this.state.cards.get(String(body.token ?? ''));
    if (!tokenCard || tokenCard.apiKey !== apiKey) throw new HttpError(422, 'unknown card token');
    const id = newId('card');
    this.keepCard(id, tokenCard);
    return { id, last4: tokenCard.number.slice(-4) };
  }

  /** Keeps a card token or saved card, forgetting the oldest past `wholeRecords` (cards are kept in memory only). */
  private keepCard(id: string, card: StoredCard): void {
    this.state.cards.set(id, card);
    this.cardIds.push(id);
    while (this.cardIds.size > this.wholeRecords) this.state.cards.delete(this.cardIds.shift()!);
  }

  /** Synchronous from the Idempotency-Key's check to the charge's insert: two requests with one key get one charge. */
  private createCharge(body: any, apiKey: string, idempotencyKey?: string, decline?: string): SandboxCharge {
    const amount = Number(body.amount);
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new HttpError(422, 'amount must be a positive integer number of cents');
    const now = new Date();
    const charge: StoredCharge = {
      id: newId('ch'),
      amount,
      method: body.method,
      status: 'pending',
      installments: Number(body.installments) || 1,
      description: body.description,
      createdAt: now.toISOString(),
      refundedAmount: 0,
      ...notified(body, this.merchant(apiKey), idempotencyKey),
      ...(body.customer && typeof body.customer === 'object'
        ? { customer: { name: String(body.customer.name ?? ''), document: String(body.customer.document ?? '') } }
        : {}),
    };
    if (body.method === 'pix') {
      const copyPaste = staticPixCode({
        merchantName: 'Gateway Sandbox',
        merchantCity: 'Sao Paulo',
        pixKey: SANDBOX_PIX_KEY,
        txid: charge.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 25),
        amountCents: amount,
      });
      charge.pix = {
        copyPaste,
        qrCodeUrl: `${this.url}/v1/charges/${charge.id}/qr.png`,
        expiresAt: new Date(now.getTime() + (this.options.pixTtlMs ?? PIX_TTL_MS)).toISOString(),
      };
    } else if (body.method === 'boleto') {
      const dueDate = new Date(now.getTime() + BOLETO_DAYS * 86_400_000);
      const freeField = BigInt(`0x${randomBytes(10).toString('hex')}`)
        .toString()
        .padStart(25, '0')
        .slice(-25);
      const barcode = buildBarcode({ bankCode: SANDBOX_BANK_CODE, amountCents: amount, dueDate, freeField });
      charge.boleto = { barcode, digitableLine: barcodeToDigitableLine(barcode), url: `${this.url}/boletos/${charge.id}`, dueDate: dueDate.toISOString() };
    } else if (body.method === 'card') {
      const card = this.state.cards.get(String(body.cardId ?? ''));
      if (!card || card.apiKey !== apiKey) throw new HttpError(422, 'unknown card id');
      const declineReason = DECLINING_CARDS.get(card.number);
      const summary = cardSummary(card.number);
      if (summary) charge.card = summary;
      charge.status = declineReason ? 'declined' : 'paid';
      charge.declineReason = declineReason;
      if (!declineReason) charge.paidAt = now.toISOString();
    } else {
      throw new HttpError(422, "method must be one of 'pix', 'card', 'boleto'");
    }
    if (decline) Object.assign(charge, { status: 'declined', declineReason: decline, paidAt: undefined });
    if (charge.declineReason && DECLINE_MESSAGES.has(charge.declineReason)) charge.declineMessage = DECLINE_MESSAGES.get(charge.declineReason);
    this.state.charges[charge.id] = charge;
    this.chargesByReference.add(charge);
    this.journal?.record('charges', charge.id);
    this.wholeCharges.push(charge.id);
    this.forgetOldCharges();
    return visible(charge);
  }

  /**
   * Past `wholeRecords` charges, the oldest keeps only its id, amount, method, status, what was refunded and its
   * Idempotency-Key; one still pending is canceled first, as it can no longer be paid. Its key still finds it: the
   * gateway asks by key about a charge whose outcome it does not know, for up to half an hour, and a key that found
   * nothing would have it charged again.
   */
  private forgetOldCharges(): void {
    while (this.wholeCharges.size > this.wholeRecords) {
      const id = this.wholeCharges.shift()!;
      const charge = this.state.charges[id];
      if (!charge || isForgotten(charge)) continue;
      const { amount, method, refundedAmount, apiKey, idempotencyKey } = charge;
      const status = charge.status === 'pending' ? 'canceled' : charge.status;
      const forgotten: ForgottenCharge = { id, amount, method, status, refundedAmount, apiKey, idempotencyKey, forgotten: true };
      this.state.charges[id] = forgotten;
      this.chargesByReference.replace(charge, forgotten);
      this.journal?.record('charges', id);
    }
  }

  /** The same for payouts, once settled: a payout still processing (it settles within `settleDelayMs`) is forgotten after it settles. */
  private forgetOldWithdrawals(): void {
    while (this.wholeWithdrawals.size > this.wholeRecords) {
      const id = this.wholeWithdrawals.peek()!;
      const withdrawal = this.state.withdrawals[id];
      if (withdrawal && !isForgotten(withdrawal)) {
        if (withdrawal.status === 'processing') return;
        const { amount, status, failureReason, apiKey, idempotencyKey } = withdrawal;
        const forgotten: ForgottenWithdrawal = { id, amount, status, ...(failureReason ? { failureReason } : {}), apiKey, idempotencyKey, forgotten: true };
        this.state.withdrawals[id] = forgotten;
        this.withdrawalsByReference.replace(withdrawal, forgotten);
        this.journal?.record('withdrawals', id);
      }
      this.wholeWithdrawals.shift();
    }
  }

  private charge(id: string, apiKey: string): KeptCharge {
    const charge = this.state.charges[id];
    if (!charge || charge.apiKey !== apiKey) throw new HttpError(404, 'charge not found');
    return this.current(charge);
  }

  /** A pending PIX charge past its expiry is canceled when next read, as a PSP removes an expired charge: its code no longer pays. */
  private current(charge: KeptCharge): KeptCharge {
    if (charge.status === 'pending' && !isForgotten(charge) && charge.pix && Date.parse(charge.pix.expiresAt) <= Date.now()) {
      charge.status = 'canceled';
      this.journal?.record('charges', charge.id);
    }
    return charge;
  }

  private async pay(id: string, apiKey: string): Promise<{ charge: SandboxCharge; notification?: SandboxSentNotification }> {
    const charge = this.charge(id, apiKey);
    if (charge.status !== 'pending' || isForgotten(charge))
      throw new HttpError(409, `charge is ${charge.status}, only a pending charge can be paid${this.whyCanceled(charge)}`);
    const now = new Date();
    charge.status = 'paid';
    charge.paidAt = now.toISOString();
    if (charge.pix) charge.pix.payment = sandboxPixPayment(now, charge.customer);
    this.journal?.record('charges', charge.id);
    const notification = await this.notify(charge, 'charge.paid', charge);
    return { charge: visible(charge), notification };
  }

  /** Why a charge is canceled: its PIX expired, or (forgotten, when which is no longer known) that or newer charges. */
  private whyCanceled(charge: KeptCharge): string {
    if (charge.status !== 'canceled') return '';
    if (!isForgotten(charge)) return charge.pix ? `: its PIX expired at ${charge.pix.expiresAt}` : '';
    return `: the sandbox cancels a pending charge when its PIX expires, or once ${this.wholeRecords} newer charges were made (SANDBOX_WHOLE_RECORDS)`;
  }

  private async refund(id: string, body: any, apiKey: string): Promise<{ id: string; chargeId: string; amount: number; status: 'succeeded' }> {
    const charge = this.charge(id, apiKey);
    if (charge.status !== 'paid') throw new HttpError(409, `charge is ${charge.status}, only a paid charge can be refunded`);
    const amount = body.amount === undefined ? charge.amount : Number(body.amount);
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > charge.amount - charge.refundedAmount)
      throw new HttpError(422, 'refund amount must be positive and at most what is left to refund');
    charge.refundedAmount += amount;
    if (charge.refundedAmount === charge.amount) charge.status = 'refunded';
    this.journal?.record('charges', charge.id);
    if (charge.status === 'refunded') await this.notify(charge, 'charge.refunded', charge);
    return { id: newId('re'), chargeId: charge.id, amount, status: 'succeeded' };
  }

  private createWithdrawal(body: any, apiKey: string, idempotencyKey?: string): SandboxWithdrawal {
    const amount = Number(body.amount);
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new HttpError(422, 'amount must be a positive integer number of cents');
    if (!String(body.pixKey ?? '').trim()) throw new HttpError(422, 'pixKey is required');
    if (body.pixKey === SANDBOX_REFUSED_PIX_KEY) throw new HttpError(422, SANDBOX_REFUSAL_MESSAGE);
    const withdrawal: StoredWithdrawal = {
      id: newId('wd'),
      amount,
      status: 'processing',
      pixKey: String(body.pixKey),
      pixKeyType: String(body.pixKeyType ?? ''),
      description: String(body.description ?? ''),
      createdAt: new Date().toISOString(),
      ...notified(body, this.merchant(apiKey), idempotencyKey),
    };
    this.state.withdrawals[withdrawal.id] = withdrawal;
    this.withdrawalsByReference.add(withdrawal);
    this.journal?.record('withdrawals', withdrawal.id);
    this.wholeWithdrawals.push(withdrawal.id);
    this.forgetOldWithdrawals();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.settle(withdrawal);
    }, this.options.settleDelayMs ?? 1000);
    this.timers.add(timer);
    return visible(withdrawal);
  }

  private async settle(withdrawal: StoredWithdrawal): Promise<void> {
    const failed = withdrawal.pixKey === SANDBOX_FAILING_PIX_KEY;
    withdrawal.status = failed ? 'failed' : 'paid';
    if (failed) withdrawal.failureReason = SANDBOX_FAILURE_REASON;
    else withdrawal.paidAt = new Date().toISOString();
    this.journal?.record('withdrawals', withdrawal.id);
    const notified = this.notify(withdrawal, failed ? 'withdrawal.failed' : 'withdrawal.paid', withdrawal);
    this.forgetOldWithdrawals();
    await notified;
  }

  private withdrawal(id: string, apiKey: string): KeptWithdrawal {
    const withdrawal = this.state.withdrawals[id];
    if (!withdrawal || withdrawal.apiKey !== apiKey) throw new HttpError(404, 'withdrawal not found');
    return withdrawal;
  }

  private createRecipient(body: any, apiKey: string): SandboxRecipient {
    const document = String(body.document ?? '').replace(/\D/g, '');
    if (!String(body.name ?? '').trim()) throw new HttpError(422, 'name is required');
    if (document.length !== 11 && document.length !== 14) throw new HttpError(422, 'document must be a CPF (11 digits) or a CNPJ (14 digits)');
    const paymentMethod = body.paymentMethod ?? 'bank_transfer';
    if (paymentMethod !== 'pix' && paymentMethod !== 'bank_transfer') throw new HttpError(422, 'paymentMethod must be pix or bank_transfer');
    if (paymentMethod === 'pix' && !String(body.bankAccount?.pixCode ?? '').trim())
      throw new HttpError(422, 'bankAccount.pixCode is required to pay a recipient by pix');
    const recipient: StoredRecipient = {
      id: newId('rp'),
      token: randomUUID(),
      name: String(body.name),
      document,
      email: String(body.email ?? ''),
      status: 'active' as const,
      balance: 0,
      paymentMethod,
      createdAt: new Date().toISOString(),
      apiKey,
    };
    this.state.recipients[recipient.id] = recipient;
    this.journal?.record('recipients', recipient.id);
    const { apiKey: _omit, ...visible } = recipient;
    return visible;
  }

  private recipient(id: string, apiKey: string): SandboxRecipient {
    const recipient = this.state.recipients[id];
    if (!recipient || recipient.apiKey !== apiKey) throw new HttpError(404, 'recipient not found');
    const { apiKey: _omit, ...visible } = recipient;
    return visible;
  }

  /** Posts an event (signed when the merchant gave a secret) to the merchant's notification URL and reports exactly what was sent. */
  private async notify(
    { notificationUrl: url, notificationSecret }: Notified,
    type: SandboxEventType,
    subject: { id: string; status: string; amount: number; pix?: SandboxCharge['pix']; failureReason?: string },
  ): Promise<SandboxSentNotification | undefined> {
    if (!url) return undefined;
    const event: SandboxEvent = {
      id: newId('evt'),
      type,
      createdAt: new Date().toISOString(),
      data: {
        id: subject.id,
        status: subject.status,
        amount: subject.amount,
        ...(subject.pix?.payment ? { pix: { payment: subject.pix.payment } } : {}),
        ...(subject.failureReason ? { failureReason: subject.failureReason } : {}),
      },
    };
    const body = JSON.stringify(event);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (notificationSecret) headers[SIGNATURE_HEADER] = signSandboxPayload(notificationSecret, timestamp, body);
    let responseStatus = 0;
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
      responseStatus = response.status;
      await response.arrayBuffer();
    } catch (error) {
      this.options.logger?.warn({ err: error, url, type }, 'sandbox PSP could not deliver a notification');
    }
    return { url, body, headers, responseStatus };
  }
}

/** Signing secrets stay in memory, like card numbers: after a restart those notifications go unsigned. */
function withoutSecret(record: object): object {
  const { notificationSecret: _secret, ...saved } = record as Notified;
  return saved;
}

function notified(body: any, apiKey: string, idempotencyKey?: string): Notified {
  return {
    apiKey,
    idempotencyKey,
    notificationUrl: typeof body.notificationUrl === 'string' ? body.notificationUrl : undefined,
    notificationSecret: typeof body.notificationSecret === 'string' && body.notificationSecret ? body.notificationSecret : undefined,
  };
}

/** A record as its merchant's answers show it: distributed over a union, so a forgotten record's answer is typed as one. */
type Visible<T> = T extends unknown ? Omit<T, keyof Notified | 'customer'> : never;

/**
 * A charge or payout without what the PSP keeps beside it (its merchant, key, notification address and secret, and a
 * charge's customer). A forgotten record has only the first two of those, and the same rest leaves them out.
 */
function visible<T extends Notified & { customer?: unknown }>(record: T): Visible<T> {
  const { apiKey: _key, idempotencyKey: _idem, notificationUrl: _url, notificationSecret: _secret, customer: _customer, ...shown } = record;
  return shown as Visible<T>;
}

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'body is not valid JSON');
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
