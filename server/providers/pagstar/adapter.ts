import { randomUUID } from 'node:crypto';
import axios from 'axios';
import { z } from 'zod';
import type { TransactionInput, TransactionResult, TransactionStatus, WebhookResult, WithdrawInput, WithdrawResult } from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { GatewayError, invalidArgument } from '../../lib/errors.js';
import { providerError, providerMessage, type ProviderResponse } from '../../lib/http/index.js';
import { parseJsonObject } from '../../lib/json.js';
import { normalizePixKey } from '../../lib/pixKey.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { bodyText } from '../../lib/providerMessages.js';
import { dateOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { statusTable } from '../../lib/statusTable.js';
import { COMMON_WITHDRAWAL_STATUSES } from '../kit/commonStatuses.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { absentable, parseAnswer, wireId, wireText } from '../kit/answers.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { notificationKeyOf } from '../notificationKeys.js';

/**
 * PAGSTAR (spec doc 2, group 1): the spec shows no paths for group 1, so
 * Pagstar's partner wallet API as public integrations use it (research:
 * integrations 5724479281, 29194478410, 21467406233, 20156574827, 20974580968,
 * 22102778476, 8070928710):
 * - base `https://api.pagstar.com/api`, `Authorization: Bearer <access token>`
 *   and a `User-Agent` naming the partner, `Company (e-mail)`;
 * - PIX charges `POST /v2/wallet/partner/transactions/generate-anonymous-pix
 *   {value (reais), name, document, tenant_id, expiration (s), transaction_id,
 *   callback, description}` answered `{message, data{external_reference,
 *   pix_key (the copy-and-paste code), qr_code_url, expiration_date}}`;
 * - `GET /v2/wallet/partner/transactions/{external_reference}/check`: 200 when
 *   paid, an error status otherwise;
 * - PIX payouts `POST /v2/wallet/partner/withdrawals/solicit-for-customer
 *   {pix_key, customer_document, value, transaction_id}`, 200 when accepted,
 *   checked by `GET /v2/wallet/partner/transfers/{transaction_id}/check` the same way;
 * - the callback `{external_reference, transaction_id}`: no status, no signature.
 * Pagstar's newer API (docs.pagstar.com, mTLS) is a different product the
 * research could not read; this is the one integrations in the wild call.
 */

// ---------------------------------------------------------------- declaration

export const PAGSTAR_PATHS = {
  charge: '/v2/wallet/partner/transactions/generate-anonymous-pix',
  chargeCheck: '/v2/wallet/partner/transactions/{id}/check',
  payout: '/v2/wallet/partner/withdrawals/solicit-for-customer',
  payoutCheck: '/v2/wallet/partner/transfers/{id}/check',
} as const;

/** The User-Agent when the account names none: Pagstar asks partners for `Company (e-mail)`. */
export const PAGSTAR_DEFAULT_USER_AGENT = 'payment-gateway (no contact configured)';

/** The account's public key: the tenant id Pagstar gave the partner, then, optionally, its `Company (e-mail)` User-Agent. */
const CREDENTIALS = { publicKey: ['tenantId', 'userAgent?'], required: ['publicKey', 'secretKey'] } as const;

const userAgentOf = (publicKey: string): string => publicKey.split('|')[1]?.trim() || PAGSTAR_DEFAULT_USER_AGENT;

export const PAGSTAR: ProviderDeclaration = {
  identity: { id: 'PAGSTAR', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.pagstar.com/api' },
  // PIX charges and PIX payouts, both checked by their /check reads; the callback is a hint to read.
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, webhooks: true },
  auth: { type: 'bearer', token: 'secretKey' },
  headers: { 'user-agent': (account) => userAgentOf(account.publicKey) },
  credentials: CREDENTIALS,
  money: 'reais',
  // Document 1 §9: "HTTP timeouts: 20000 ms for one provider" (which one is not said; see docs/decisions.md).
  timeoutMs: 20_000,
  sources:
    "host `api.pagstar.com/api`, Bearer access token, the `Company (e-mail)` User-Agent, reais, generate-anonymous-pix `{value, name, document, tenant_id, expiration, transaction_id, callback, description}` → `data{external_reference, pix_key, qr_code_url, expiration_date}`, the transaction and transfer /check reads (200 paid), solicit-for-customer `{pix_key, customer_document, value, transaction_id}`, the `{external_reference, transaction_id}` callback: research (integrations 5724479281, 29194478410, 21467406233, 20156574827, 20974580968, 22102778476, 8070928710); PIX valid 1 day, sent as `expiration` 86400: document 1 §9; the 20000 ms timeout and payout failures as the response body's text: document 1 §8/§9 (providers not named; assigned here, docs/decisions.md); tenant id and User-Agent packed in the public key, every non-200 check PENDING: gateway",
};

// ---------------------------------------------------------------- request mappers

/** The generate-anonymous-pix body; Pagstar's integrations always send the payer's name and document, so a charge without them is refused. */
export function toPagstarCharge(input: TransactionInput, terms: { value: number; tenantId: string; expiration: number; callback: string; reference: string }) {
  const customer = input.customer;
  if (!customer?.name?.trim() || !digitsOnly(customer.document ?? ''))
    throw invalidArgument('transaction.customer', 'transaction.customer with name and document is required for PAGSTAR charges (its payer)');
  return {
    value: terms.value,
    name: customer.name.trim(),
    document: digitsOnly(customer.document),
    tenant_id: terms.tenantId,
    expiration: terms.expiration,
    transaction_id: terms.reference,
    callback: terms.callback,
    ...(input.description?.trim() ? { description: input.description.trim() } : {}),
  };
}

// ---------------------------------------------------------------- statuses

/**
 * Pagstar names no status anywhere: its checks answer 200 (paid) or an
 * error, and its callback says nothing; so no provider word is ever looked
 * up, and an unknown one would be REJECTED (document 1 §4, group 1).
 */
export const PAGSTAR_STATUSES = statusTable<TransactionStatus>({}, 'REJECTED');

// ---- wire

/** A 2xx that says it failed (`success: false`) is not the success the answer claims: never read as paid nor as refused. */
const notAFailureFlag = z
  .unknown()
  .optional()
  .refine((value) => value !== false, 'success false');

/** Answer of generate-anonymous-pix: `{message, data{external_reference, pix_key, qr_code_url, expiration_date}}`. */
export const pagstarCharge = z.object({
  data: z.object({ external_reference: wireId, pix_key: wireText, expiration_date: absentable(wireText) }),
});

/** Answer of a /check: 200 is "done"; only a JSON object that does not say it failed counts (an HTML page is not Pagstar's answer). */
export const pagstarCheck = z.object({ success: notAFailureFlag });

/** Answer of solicit-for-customer: accepted, with Pagstar's reference where it sends one (bare or in `data`). */
export const pagstarPayout = z.object({
  success: notAFailureFlag,
  external_reference: absentable(wireId),
  data: absentable(z.object({ external_reference: absentable(wireId) })),
});

/** The callback `{external_reference, transaction_id}`, bare or in `data`. */
const callbackFields = z.object({ external_reference: wireId, transaction_id: absentable(wireId) });
export const pagstarCallback = z.union([z.object({ data: callbackFields }), callbackFields]).transform((body) => ('data' in body ? body.data : body));

/** The callback: the charge it is about (Pagstar's id); undefined for anything else. */
export function readPagstarCallback(body: Buffer): { id: string; reference?: string } | undefined {
  const parsed = pagstarCallback.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const { external_reference: id, transaction_id: reference } = parsed.data;
  return { id, ...(reference ? { reference } : {}) };
}

const statusOf = (error: unknown): number | undefined => (axios.isAxiosError(error) ? error.response?.status : undefined);

/** A check's "not (yet) done" answer: a refusal about the resource, not about the caller's credentials or an outage. */
const notDone = (status: number | undefined): boolean => status !== undefined && status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);

// ---------------------------------------------------------------- operations

export class PagstarAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = PAGSTAR, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: PAGSTAR_STATUSES, withdrawalStatuses: COMMON_WITHDRAWAL_STATUSES });
  }

  /** POST generate-anonymous-pix; valid for document 1's PIX day, sent in seconds. */
  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const { tenantId } = this.credentials(ctx) as unknown as { tenantId: string };
    const body = toPagstarCharge(input, {
      value: this.toProviderAmount(input.amount),
      tenantId,
      expiration: this.pixExpirySeconds,
      callback: ctx.notificationUrl,
      reference: input.orderId?.trim() || input.idempotencyKey?.trim() || randomUUID(),
    });
    const prefix = this.prefixFor('createTransaction');
    const { data } = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<unknown>(PAGSTAR_PATHS.charge, body), pagstarCharge);
    return withPixQrImage({
      paymentMethod: 'PIX',
      transactionId: data.external_reference,
      status: 'PENDING',
      amount: input.amount,
      pixCode: data.pix_key,
      expiresAt: dateOf(data.expiration_date) ?? this.expiresAt(this.pixExpirySeconds),
    });
  }

  /** Its checks answer paid or not, never how much (see getTransaction). */
  override get readsStateAmounts(): boolean {
    return false;
  }

  /**
   * GET …/transactions/{id}/check: 200 is paid (APPROVED); a 4xx about the
   * charge is "not paid" (PENDING). The check says no amount: the read reports
   * 0, which the gateway reads as "not said" (it keeps the charge's own).
   */
  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const paid = await this.check(ctx, 'getTransaction', fillPath(PAGSTAR_PATHS.chargeCheck, { id: transactionId }));
    return { paymentMethod: 'PIX', transactionId, status: paid ? 'APPROVED' : 'PENDING', amount: 0 };
  }

  /**
   * POST solicit-for-customer. Pagstar answers 200 without an id of its own:
   * the payout is known by the `transaction_id` sent (the caller's reference,
   * else its idempotency key, else a UUID). A failure is the answer's body as
   * text (document 1 §8: "one provider's withdrawal failure throws the response body as text").
   */
  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const key = normalizePixKey(payout.pixKey, payout.pixType);
    const document = digitsOnly(input.document ?? '') || (payout.pixType === 'CPF' || payout.pixType === 'CNPJ' ? key : '');
    if (!document)
      throw invalidArgument('withdraw.document', "withdraw.document is required for PAGSTAR payouts unless the key is a CPF or CNPJ (the customer's document)");
    const reference = input.withdrawReference?.trim() || input.idempotencyKey?.trim() || randomUUID();
    const body = { pix_key: key, customer_document: document, value: this.toProviderAmount(input.amount), transaction_id: reference };
    const data = await this.bodyAsTextOnFailure(() => this.http(ctx).post<unknown>(PAGSTAR_PATHS.payout, body));
    const answer = this.mapped('withdraw', this.prefixFor('withdraw'), () => parseAnswer(pagstarPayout, data));
    return { withdrawId: answer.data?.external_reference ?? answer.external_reference ?? reference, status: 'PENDING', amount: input.amount };
  }

  /** GET …/transfers/{id}/check: 200 is paid (APPROVED), a 4xx about the transfer not yet (PENDING); amount 0, "not said", as for charges. */
  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const paid = await this.check(ctx, 'getWithdraw', fillPath(PAGSTAR_PATHS.payoutCheck, { id: withdrawId }));
    return { withdrawId, status: paid ? 'APPROVED' : 'PENDING', amount: 0 };
  }

  /**
   * Pagstar calls back when a charge is paid, with no status and no
   * signature: the callback claims APPROVED, which the gateway applies only
   * once the check confirms it (an unsigned claim is always read back).
   */
  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const callback = readPagstarCallback(notification.body);
    return callback ? { type: 'TRANSACTION', transactionId: callback.id, status: 'APPROVED' } : undefined;
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const callback = readPagstarCallback(notification.body);
    // A callback says only that the charge was paid: one per charge.
    return callback
      ? notificationKeyOf({ subject: 'transaction', id: callback.id, status: 'paid' }, notification.body)
      : super.notificationKey(ctx, notification);
  }

  private async check(ctx: AdapterContext, operation: 'getTransaction' | 'getWithdraw', path: string): Promise<boolean> {
    try {
      parseAnswer(pagstarCheck, (await this.http(ctx).get<unknown>(path)).data);
      return true;
    } catch (error) {
      if (notDone(statusOf(error))) return false;
      throw this.failure(operation, this.prefixFor(operation), error);
    }
  }

  private async bodyAsTextOnFailure(send: () => Promise<ProviderResponse<unknown>>): Promise<unknown> {
    try {
      return (await send()).data;
    } catch (error) {
      const failure = providerError(this.prefixFor('withdraw'), error);
      const body = axios.isAxiosError(error) ? error.response?.data : undefined;
      const text = body === undefined || body === '' ? undefined : providerMessage(bodyText(body));
      throw text ? new GatewayError(failure.code, text, failure.details) : failure;
    }
  }
}
