import { randomUUID } from 'node:crypto';
import axios from 'axios';
import { z } from 'zod';
import type { TransactionInput, TransactionResult, TransactionStatus, WebhookResult, WithdrawInput, WithdrawResult } from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { GatewayError, invalidArgument } from '../../lib/errors.js';
import { providerError, providerMessage, type ProviderResponse } from '../../lib/http/index.js';
import { parseJsonObject } from '../../lib/json.js';
import { normalizePixKey } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { bodyText } from '../../lib/providerMessages.js';
import { dateOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AccountSettings, type AdapterContext, type CertificateField, type IncomingNotification } from '../adapter.js';
import { statusTable } from '../../lib/statusTable.js';
import { COMMON_WITHDRAWAL_STATUSES } from '../kit/commonStatuses.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { absentable, parseAnswer, wireId, wireText } from '../kit/answers.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { BacenPixAdapter, bacenPixAuth, type BacenPixMember } from '../families/bacenPix/index.js';
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
 * That is the default dialect, the specification's ('specification').
 *
 * api_version 'public': Pagstar's current public API as docs.pagstar.com
 * documents it (PAGSTAR_DOCUMENTATION), a white label of Onz's bank PIX
 * software, spoken by the BACEN API Pix family (PAGSTAR_PUBLIC):
 * - the QR Codes API at `https://api.pix.pagstar.com`, over mTLS with the
 *   certificate Pagstar issues, OAuth2 client credentials by a JSON body
 *   `{grant_type, client_id, client_secret}` at POST /oauth/token answered
 *   `{access_token, expires_in 300, refresh_expires_in, token_type Bearer}`;
 *   its cob pages are the Banco Central's API Pix (txid rules, cob.write …
 *   scopes): POST /cob, GET /cob/{txid};
 * - the Accounts API at `https://secureapi.pagstar-prod.onz.software/api/v2`:
 *   payouts POST /pix/payments/dict answered 202, read back by GET
 *   /pix/payments/idempotencyKey/{idempotencyKey} (statuses PROCESSING,
 *   LIQUIDATED, CANCELED, REFUNDED, PARTIALLY_REFUNDED), and the transfer
 *   webhook `{data{id, idempotencyKey, endToEndId, status, payment{amount}, …}, type TRANSFER}`
 *   that fires when a cash-out settles or is cancelled, confirmed by that read.
 * Refunds are offered by neither dialect: no docs.pagstar.com page on the
 * devolução could be read, and the specification shows none for group 1.
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

/** The specification's dialect's host (Pagstar's legacy partner wallet API). */
const PAGSTAR_LEGACY_BASE_URL = 'https://api.pagstar.com/api';

/** The docs.pagstar.com pages the public dialect and its stand-in (tests/standins/pagstar.ts) were written from. */
export const PAGSTAR_DOCUMENTATION = {
  auth: 'https://docs.pagstar.com/reference',
  cobv: 'https://docs.pagstar.com/reference/criar-cobran%C3%A7a-imediata-copy-1',
  cashOut: 'https://docs.pagstar.com/reference/criar-transfer%C3%AAncia-com-dados-banc%C3%A1rios-copy',
  transferDetails: 'https://docs.pagstar.com/reference/account-api-get-transfer-details',
  transferWebhook: 'https://docs.pagstar.com/reference/account-api-configure-webhook',
  pixTopics: 'https://docs.pagstar.com/docs/assuntos-relacionados-ao-pix-1',
} as const;

/** The Banco Central's API Pix, which Pagstar's QR Codes API pages reproduce (cob, txid, scopes). */
export const PAGSTAR_API_PIX = 'https://github.com/bacen/pix-api/blob/0d74e5e1a2eefc0eb3f373860d1266ceab5f864e/openapi.yaml';

export const PAGSTAR_PUBLIC_PATHS = { payoutLookup: '/pix/payments/idempotencyKey/{id}' } as const;

/**
 * api_version 'public': Pagstar's documented API as a member of the BACEN API
 * Pix family (never registered on its own: PagstarAdapter speaks through it).
 * Its host replaces the specification's when the account sets no base_url.
 */
export const PAGSTAR_PUBLIC: BacenPixMember = {
  identity: { id: 'PAGSTAR', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.pix.pagstar.com' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, webhooks: true },
  auth: bacenPixAuth({ body: 'json', clientAuth: 'body' }),
  money: 'reais',
  timeoutMs: 20_000,
  sources: 'see PAGSTAR',
  payout: {
    baseUrl: 'https://secureapi.pagstar-prod.onz.software/api/v2',
    lookupPath: PAGSTAR_PUBLIC_PATHS.payoutLookup,
    knownBy: 'idempotencyKey',
  },
};

/**
 * The host a public account calls: its own base_url, else the documented one
 * (an account that sets none gets the specification's default, which speaks
 * only the legacy API).
 */
export const pagstarPublicBaseUrl = (baseUrl: string | undefined): string =>
  baseUrl && baseUrl !== PAGSTAR_LEGACY_BASE_URL ? baseUrl : PAGSTAR_PUBLIC.identity.defaultBaseUrl;

export const PAGSTAR: ProviderDeclaration = {
  identity: { id: 'PAGSTAR', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: PAGSTAR_LEGACY_BASE_URL },
  // PIX charges and PIX payouts, both checked by their /check reads; the callback is a hint to read.
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, webhooks: true },
  auth: { type: 'bearer', token: 'secretKey' },
  headers: { 'user-agent': (account) => userAgentOf(account.publicKey) },
  credentials: CREDENTIALS,
  money: 'reais',
  // Document 1 §9: "HTTP timeouts: 20000 ms for one provider" (which one is not said; see docs/decisions.md).
  timeoutMs: 20_000,
  // The specification's (legacy) dialect stays the default; Pagstar's documented API is the account's choice.
  apiVersions: ['specification', 'public'],
  evidence: { level: 'documented', addresses: [...Object.values(PAGSTAR_DOCUMENTATION), PAGSTAR_API_PIX] },
  sources:
    "default dialect 'specification', Pagstar's legacy partner wallet API (from integrations): host `api.pagstar.com/api`, Bearer access token, the `Company (e-mail)` User-Agent, reais, generate-anonymous-pix `{value, name, document, tenant_id, expiration, transaction_id, callback, description}` → `data{external_reference, pix_key, qr_code_url, expiration_date}`, the transaction and transfer /check reads (200 paid), solicit-for-customer `{pix_key, customer_document, value, transaction_id}`, the `{external_reference, transaction_id}` callback: research (integrations 5724479281, 29194478410, 21467406233, 20156574827, 20974580968, 22102778476, 8070928710); PIX valid 1 day, sent as `expiration` 86400: document 1 §9; the 20000 ms timeout and payout failures as the response body's text: document 1 §8/§9 (providers not named; assigned here, docs/decisions.md); tenant id and User-Agent packed in the public key, every non-200 check PENDING: gateway. api_version 'public', from docs.pagstar.com (verified by tests/standins/pagstar.test.ts): host `api.pix.pagstar.com` over mTLS, JSON token `{grant_type, client_id, client_secret}` → `{access_token, expires_in 300, token_type}`, the Banco Central's API Pix cob its QR Codes pages reproduce (POST /cob, GET /cob/{txid}), the Accounts API host `secureapi.pagstar-prod.onz.software/api/v2` with POST /pix/payments/dict answered 202, GET /pix/payments/idempotencyKey/{key}, transfer statuses and the TRANSFER webhook, a cancelled transfer's `errorCode` (AB03, AC03, …) kept as the payout's refusal reason (transfer details, transfer webhook); the BACEN API Pix family's cob and payout bodies, `x-idempotency-key`, the same token asked at the Accounts API host, the public key 'clientId|chave', no refunds (no devolução page could be read): gateway",
};

// ---------------------------------------------------------------- request mappers

/** The generate-anonymous-pix body; Pagstar's integrations always send the payer's name and document, so a charge without them is refused. */
export function toPagstarCharge(input: TransactionInput, terms: { value: number; tenantId: string; expiration: number; callback: string; reference: string }) {
  const customer = input.customer;
  if (!customer?.name?.trim() || !digitsOnly(customer.document ?? ''))
    throw invalidArgument('transaction.customer', 'transaction.customer with name and document is required for PAGSTAR charges (its payer)', 'REQUIRED');
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
  /** The public dialect: Pagstar's documented API, spoken by the BACEN API Pix family. */
  private readonly documented: BacenPixAdapter;
  /** Each account's context as the public dialect sees it (one per context, so its clients and tokens are kept). */
  private readonly publicContexts = new WeakMap<AdapterContext, AdapterContext>();

  constructor(declaration: ProviderDeclaration = PAGSTAR, runtime: AdapterRuntime = {}, publicMember: BacenPixMember = PAGSTAR_PUBLIC) {
    super(declaration, runtime, { transactionStatuses: PAGSTAR_STATUSES, withdrawalStatuses: COMMON_WITHDRAWAL_STATUSES });
    this.documented = new BacenPixAdapter(publicMember, runtime);
  }

  /**
   * The account's context when it chose the public dialect (api_version
   * 'public'), its host the documented one unless the account set its own
   * base_url; undefined on the specification's dialect.
   */
  private publicContext(ctx: AdapterContext): AdapterContext | undefined {
    if (this.apiVersion(ctx) !== 'public') return undefined;
    let known = this.publicContexts.get(ctx);
    if (!known) {
      const baseUrl = pagstarPublicBaseUrl(ctx.baseUrl);
      known = baseUrl === ctx.baseUrl ? ctx : { ...ctx, baseUrl };
      this.publicContexts.set(ctx, known);
    }
    return known;
  }

  /** The public dialect's keys and certificates ('clientId|chave', the secret, the cash-in and cash-out certificates), else the specification's. */
  /** Only the public dialect (the BACEN API Pix) presents certificates: asked for, not required by every account. */
  override get certificateFields(): readonly CertificateField[] {
    return this.documented.certificateFields.map((field) => ({ ...field, required: false }));
  }

  override checkAccount(account: AccountSettings): void {
    if (this.apiVersion(account as AdapterContext) === 'public') this.documented.checkAccount(account);
    else super.checkAccount(account);
  }

  /** POST generate-anonymous-pix; valid for document 1's PIX day, sent in seconds. Public dialect: POST /cob. */
  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    const documented = this.publicContext(ctx);
    if (documented) return this.documented.createTransaction(documented, input);
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
    return pixCodeOnly({
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
    const documented = this.publicContext(ctx);
    if (documented) return this.documented.getTransaction(documented, transactionId);
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
    const documented = this.publicContext(ctx);
    if (documented) return this.documented.withdraw(documented, input);
    const payout = this.pixPayout(input);
    const key = normalizePixKey(payout.pixKey, payout.pixType);
    const document = digitsOnly(input.document ?? '') || (payout.pixType === 'CPF' || payout.pixType === 'CNPJ' ? key : '');
    if (!document)
      throw invalidArgument(
        'withdraw.document',
        "withdraw.document is required for PAGSTAR payouts unless the key is a CPF or CNPJ (the customer's document)",
        'REQUIRED',
      );
    const reference = input.withdrawReference?.trim() || input.idempotencyKey?.trim() || randomUUID();
    const body = { pix_key: key, customer_document: document, value: this.toProviderAmount(input.amount), transaction_id: reference };
    const data = await this.bodyAsTextOnFailure(() => this.http(ctx).post<unknown>(PAGSTAR_PATHS.payout, body));
    const answer = this.mapped('withdraw', this.prefixFor('withdraw'), () => parseAnswer(pagstarPayout, data));
    return { withdrawId: answer.data?.external_reference ?? answer.external_reference ?? reference, status: 'PENDING', amount: input.amount };
  }

  /** GET …/transfers/{id}/check: 200 is paid (APPROVED), a 4xx about the transfer not yet (PENDING); amount 0, "not said", as for charges. */
  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const documented = this.publicContext(ctx);
    if (documented) return this.documented.getWithdraw(documented, withdrawId);
    const paid = await this.check(ctx, 'getWithdraw', fillPath(PAGSTAR_PATHS.payoutCheck, { id: withdrawId }));
    return { withdrawId, status: paid ? 'APPROVED' : 'PENDING', amount: 0 };
  }

  /**
   * Pagstar calls back when a charge is paid, with no status and no
   * signature: the callback claims APPROVED, which the gateway applies only
   * once the check confirms it (an unsigned claim is always read back).
   */
  override async processWebhook(ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const documented = this.publicContext(ctx);
    if (documented) return this.documented.processWebhook(documented, notification);
    const callback = readPagstarCallback(notification.body);
    return callback ? { type: 'TRANSACTION', transactionId: callback.id, status: 'APPROVED' } : undefined;
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const documented = this.publicContext(ctx);
    if (documented) return this.documented.notificationKey(documented, notification);
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
