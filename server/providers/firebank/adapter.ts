import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { statedPixPayment } from '../../domain/pixPayments.js';
import type {
  AccountBalance,
  Operation,
  PixKeyType,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { safeEqualText } from '../../lib/constantTime.js';
import { digitsOnly } from '../../lib/documents.js';
import { GatewayError, invalidArgument } from '../../lib/errors.js';
import { DEFAULT_PROVIDER_TIMEOUT_MS, loadCertificatePem, type ProviderHttp, type ProviderResponse } from '../../lib/http/index.js';
import { parseJsonObject } from '../../lib/json.js';
import { normalizePixKey } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { CATALOGUE, catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf } from '../../lib/values.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import {
  SPEC_GROUPS,
  type AccountSettings,
  type AdapterContext,
  type CertificateField,
  type IncomingNotification,
  type NotificationVerdict,
} from '../adapter.js';
import { absentable, parseAnswer, wireAmount, wireFact, wireId, wireStatus, wireText, type AnswerSchema } from '../kit/answers.js';
import { COMMON_WITHDRAWAL_STATUSES } from '../kit/commonStatuses.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import type { ObjectNotification } from '../kit/declaredAdapter.js';
import { LoginTokenAdapter, type LoginStyle } from '../kit/loginSession.js';
import { notificationKeyOf } from '../notificationKeys.js';

/**
 * FIREBANK (spec doc 2, group 1): the spec shows no paths for group 1, so the
 * API of Fire Banking, a white label of the Avista platform (research: the
 * brand table names `api.public.firebanking.com.br`; the platform's public
 * documentation, `api-reference/openapi.json` and its guides):
 * - a JWT by `POST /api/auth/token {clientId, clientSecret}` with the
 *   platform's certificate, URL-encoded PEM, in `X-SSL-Client-Cert`; then
 *   `Authorization: Bearer`;
 * - PIX charges `POST /api/pix/cash-in {transaction{value (reais),
 *   description, expirationTime (s), externalId, generateQrCode}, payer{fullName,
 *   document}}` answered `{transactionId, externalId, status, pixCode,
 *   expirationDate, qrCodeImage}`;
 * - reads `GET /api/pix/transaction/{id}` answered `{id, type, status
 *   PENDING|CONFIRMED|ERROR, originalAmount, feeAmount, e2eId, …}`, for
 *   charges and payouts alike: a charge's `feeAmount` (reais) is the
 *   provider's fee, its `e2eId` the PIX's end-to-end id;
 * - refunds `POST /api/pix/refund-in/{id} {refundValue, externalId, reason}`;
 * - PIX payouts `POST /api/pix/cash-out {value, details{key, keyType
 *   EMAIL|PHONE|DOCUMENT|RANDOM, name, document}, externalId, description}`;
 * - webhooks `{event CashIn|CashOut|CashInReversal|CashOutReversal, status,
 *   transactionId, endToEndId, feeAmount, …, parentTransaction?}` (CashIn's
 *   end-to-end id and fee kept as the charge's) sent with the credentials the
 *   merchant registered: Basic, or the custom headers of POST /api/webhooks;
 * - the account's balance `GET /api/balance` answered `{grossBalance,
 *   blockedBalance, netBalance, consultedAt}` in reais.
 */

// ---------------------------------------------------------------- declaration

export const FIREBANK_PATHS = {
  token: '/api/auth/token',
  cashIn: '/api/pix/cash-in',
  transaction: '/api/pix/transaction/{id}',
  refundIn: '/api/pix/refund-in/{id}',
  cashOut: '/api/pix/cash-out',
  balance: '/api/balance',
} as const;

/** The platform documentation its stand-in (tests/standins/firebank.ts) was written from: Avista's, at commit 8349efd. */
const PLATFORM_DOCS = 'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference';
export const FIREBANK_ADDRESSES = [
  `${PLATFORM_DOCS}/openapi.json`,
  `${PLATFORM_DOCS}/guides/authentication.mdx`,
  `${PLATFORM_DOCS}/guides/pix-cash-in.mdx`,
  `${PLATFORM_DOCS}/guides/pix-refund-in.mdx`,
  `${PLATFORM_DOCS}/guides/pix-cash-out.mdx`,
  `${PLATFORM_DOCS}/guides/balance.mdx`,
  `${PLATFORM_DOCS}/guides/webhooks/overview.mdx`,
  `${PLATFORM_DOCS}/guides/webhooks/setup.mdx`,
  `${PLATFORM_DOCS}/guides/webhooks/cash-in.mdx`,
  `${PLATFORM_DOCS}/guides/webhooks/cash-out.mdx`,
  `${PLATFORM_DOCS}/guides/webhooks/cash-in-reversal.mdx`,
] as const;

export const FIREBANK: ProviderDeclaration = {
  identity: { id: 'FIREBANK', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.public.firebanking.com.br' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], refunds: true, withdrawalLookup: true, webhooks: true, balances: true },
  // The bearer token comes from the login call with the client id and secret (kit/loginSession.ts), not from a declared style.
  auth: { type: 'none' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'reais',
  // Its payout body's own default ('Saque solicitado', doc 1 §9), also what the gateway fills in for a caller who gives none.
  payouts: { description: 'requested' },
  evidence: { level: 'platform', addresses: FIREBANK_ADDRESSES },
  sources:
    "the Avista platform's public documentation (repository advanced-digital-services/docs at commit 8349efd, Avista branding), on which Fire Banking runs: POST /api/auth/token `{clientId, clientSecret}` with the certificate URL-encoded in `X-SSL-Client-Cert` answering `{access_token, token_type, expires_in: 1800}` (openapi.json, authentication guide); the cash-in body `{transaction{value, description ≤ 140, expirationTime, externalId, generateQrCode}, payer{fullName, document}}` and its answer `{transactionId, status, pixCode, expirationDate, qrCodeImage}` (openapi.json CashInInputDto/OutputDto, cash-in guide); the transaction read `{id, type, status PENDING|CONFIRMED|ERROR, originalAmount, feeAmount, e2eId}` (TransactionPollOutputDto), a charge's `feeAmount` kept as the provider's fee and `e2eId` as its PIX's end-to-end id; refund-in `{refundValue, externalId}` → `{transactionId, status}` (refund-in guide); cash-out `{value, details{key, keyType EMAIL|PHONE|DOCUMENT|RANDOM, name, document}, externalId, description ≤ 140}` → `{transactionId, status}` (cash-out guide); the CashIn, CashOut, CashInReversal (`parentTransaction.wasTotalRefunded`) and CashOutReversal events, CashIn's `endToEndId` and `feeAmount` (`finalAmount = originalAmount - feeAmount`) kept as the charge's, sent with Basic credentials or the custom headers of POST /api/webhooks (webhook guides); a failed CashOut's `errorMessage` (else `errorCode`), \"Código de erro quando `status` é `ERROR`\", kept as the payout's refusal reason (webhooks overview; the transaction read names no error); the account's balance GET /api/balance `{grossBalance, blockedBalance, netBalance, consultedAt}` in reais, `netBalance` what can be used now (openapi.json GetBalanceOutputDto, balance guide; Fire Banking's own English reference, docs.firebanking.com.br/en/api-reference/get-balance, shows the same); host `api.public.firebanking.com.br`: research (the platform's brand table; FIREBANK is Fire Banking by name only); 'Unauthorized.' without the platform's certificate: spec (doc 1 §8); PIX valid 1 day, sent as `expirationTime` 86400: document 1 §9; unknown REJECTED: document 1 §4; the default description, the certificate from `cert_cash_in_url` for every call, refunds named by the caller's idempotency key: the gateway's decision",
};

// ---------------------------------------------------------------- request mappers

/** The charge's description when the caller gives none (the API requires one). */
export const DEFAULT_CHARGE_DESCRIPTION = 'Cobrança PIX';

/** The platform's limit on a charge's or a payout's description ("Máximo: 140 caracteres"). */
export const FIREBANK_DESCRIPTION_MAX = 140;

/** A description within the platform's limit, cut by characters (never inside one). */
const withinLimit = (text: string): string => Array.from(text).slice(0, FIREBANK_DESCRIPTION_MAX).join('');

// ---- wire: requests (the platform's openapi.json and guides)

const firebankDescription = z.string().refine((text) => Array.from(text).length <= FIREBANK_DESCRIPTION_MAX);

/** Body of POST /api/pix/cash-in: `value` in reais, the validity in seconds, the payer required. */
export const firebankCashInRequest = z.object({
  transaction: z.object({
    value: z.number().positive(),
    description: firebankDescription.pipe(z.string().min(1)),
    expirationTime: z.number().int().positive(),
    externalId: z.string().min(1),
    generateQrCode: z.literal(true),
  }),
  payer: z.object({ fullName: z.string().min(1), document: z.string().regex(/^\d+$/) }),
});
export type FirebankCashInRequest = z.infer<typeof firebankCashInRequest>;

/** The platform's key types: CPF and CNPJ keys are both DOCUMENT. */
const firebankKeyType = z.enum(['EMAIL', 'PHONE', 'DOCUMENT', 'RANDOM']);

/** Body of POST /api/pix/cash-out: `value` in reais, the key holder's name and document required. */
export const firebankCashOutRequest = z.object({
  value: z.number().positive(),
  details: z.object({ key: z.string().min(1), keyType: firebankKeyType, name: z.string().min(1), document: z.string().regex(/^\d+$/) }),
  externalId: z.string().min(1),
  description: firebankDescription,
});
export type FirebankCashOutRequest = z.infer<typeof firebankCashOutRequest>;

/** Body of POST /api/pix/refund-in/{id}: `refundValue` in reais, `externalId` the devolução's id. */
export const firebankRefundRequest = z.object({ refundValue: z.number().nonnegative(), externalId: z.string().min(1) });
export type FirebankRefundRequest = z.infer<typeof firebankRefundRequest>;

/** POST /api/pix/cash-in: `externalId` is the caller's order id, else its idempotency key, else a UUID; the payer is required by the API. */
export function toFirebankCashIn(input: TransactionInput, terms: { value: number; expirationTime: number }): FirebankCashInRequest {
  const customer = input.customer;
  if (!customer?.name?.trim() || !digitsOnly(customer.document ?? ''))
    throw invalidArgument('transaction.customer', 'transaction.customer with name and document is required for FIREBANK charges (its payer)', 'REQUIRED');
  return {
    transaction: {
      value: terms.value,
      description: withinLimit(input.description?.trim() || DEFAULT_CHARGE_DESCRIPTION),
      expirationTime: terms.expirationTime,
      externalId: input.orderId?.trim() || input.idempotencyKey?.trim() || randomUUID(),
      generateQrCode: true,
    },
    payer: { fullName: customer.name.trim(), document: digitsOnly(customer.document) },
  };
}

/** The platform's key types: CPF and CNPJ keys are both DOCUMENT; phone keys carry 55 and the area code, digits only (cash-out guide). */
export const FIREBANK_KEY_TYPES: Readonly<Record<PixKeyType, z.infer<typeof firebankKeyType>>> = {
  CPF: 'DOCUMENT',
  CNPJ: 'DOCUMENT',
  PHONE: 'PHONE',
  EMAIL: 'EMAIL',
  RANDOM: 'RANDOM',
};

const firebankKey = (key: string, type: PixKeyType): string => {
  const normalized = normalizePixKey(key, type);
  return type === 'PHONE' && !normalized.startsWith('55') ? `55${normalized}` : normalized;
};

/**
 * POST /api/pix/cash-out. The platform checks that `document` is the key
 * holder's and requires a name: the caller's, or for a CPF/CNPJ key the key
 * itself as the document; a missing name or document is refused before
 * anything is sent, never invented.
 */
export function toFirebankCashOut(input: WithdrawInput & { pixKey: string; pixType: PixKeyType }, value: number): FirebankCashOutRequest {
  const key = firebankKey(input.pixKey, input.pixType);
  const document = digitsOnly(input.document ?? '') || (input.pixType === 'CPF' || input.pixType === 'CNPJ' ? key : '');
  if (!input.name?.trim()) throw invalidArgument('withdraw.name', "withdraw.name is required for FIREBANK payouts (the key holder's name)", 'REQUIRED');
  if (!document)
    throw invalidArgument(
      'withdraw.document',
      "withdraw.document is required for FIREBANK payouts unless the key is a CPF or CNPJ (the key holder's document)",
      'REQUIRED',
    );
  return {
    value,
    details: { key, keyType: FIREBANK_KEY_TYPES[input.pixType], name: input.name.trim(), document },
    externalId: input.withdrawReference?.trim() || input.idempotencyKey?.trim() || randomUUID(),
    description: withinLimit(input.description ?? defaultWithdrawDescription(input.amount, 'requested')),
  };
}

/**
 * A refund's `externalId` (the devolução's id, "Na API BACEN, corresponde ao
 * parâmetro 'id' da URL"): derived from the key the gateway runs the refund
 * under, so a retried refund names the same devolução; random only without a key.
 */
export function firebankRefundExternalId(transactionId: string, idempotencyKey?: string): string {
  const key = idempotencyKey?.trim();
  const tail = key ? createHash('sha256').update(`${transactionId}\0${key}`).digest('hex').slice(0, 16) : randomUUID().replace(/-/g, '').slice(0, 16);
  return `${transactionId}-r${tail}`;
}

/** A refund of `refundValue` (reais), named by its devolução id. */
export const toFirebankRefund = (refundValue: number, externalId: string): FirebankRefundRequest => ({ refundValue, externalId });

// ---------------------------------------------------------------- wire

/** POST /api/pix/cash-in answers (201): the charge's id, its status, the copy-and-paste code; the QR image only when asked for. */
export const firebankCashIn = z.object({
  transactionId: wireId,
  status: wireStatus,
  pixCode: wireText,
  expirationDate: absentable(wireText),
  qrCodeImage: absentable(wireText),
});

/** A fee that cannot be read is no fee, never a reason to refuse the answer. */
const firebankFee = absentable(wireAmount).catch(undefined);

/**
 * GET /api/pix/transaction/{id}: any transaction (a charge, a refund, a payout), its status and its original amount in
 * reais; a charge's fee (`feeAmount`, reais) and PIX end-to-end id (`e2eId`) where stated.
 */
export const firebankTransaction = z.object({
  id: absentable(wireId),
  type: absentable(wireText),
  status: wireStatus,
  originalAmount: wireAmount,
  feeAmount: firebankFee,
  e2eId: wireFact,
});

/** POST /api/pix/refund-in/{id} answers (201): the refund's own transaction and its status. */
export const firebankRefund = z.object({ transactionId: wireId, status: wireStatus });

/**
 * GET /api/balance: `netBalance` (reais) is what can be used now. The
 * blocked part is not read: the platform blocks payouts in processing and
 * refunds under analysis in it too, money on its way out, not money received
 * and not yet released.
 */
export const firebankBalance = z.object({ netBalance: wireAmount });

/** POST /api/pix/cash-out answers (201): the payout's transaction and its status. */
export const firebankCashOut = z.object({ transactionId: wireId, status: wireStatus });

/** The original transaction a reversal names. */
const parentTransaction = z.object({ transactionId: wireId, wasTotalRefunded: absentable(z.boolean()) });

/** A webhook: the event, the status, the transaction it is about; a reversal also names its parent. */
export const firebankNotification = z.discriminatedUnion('event', [
  z.object({ event: z.literal('CashIn'), status: wireStatus, transactionId: wireId, endToEndId: wireFact, feeAmount: firebankFee }),
  // errorCode and errorMessage: why a payout failed (status ERROR), null on success (webhooks overview, CashOut page).
  z.object({ event: z.literal('CashOut'), status: wireStatus, transactionId: wireId, errorCode: wireFact, errorMessage: wireFact }),
  z.object({ event: z.literal('CashInReversal'), status: wireStatus, transactionId: absentable(wireId), parentTransaction }),
  z.object({ event: z.literal('CashOutReversal'), status: wireStatus, transactionId: absentable(wireId), parentTransaction }),
]);

// ---------------------------------------------------------------- statuses

/** Charges: the platform's three statuses (CONFIRMED is paid, ERROR failed) over document 1 §4's words; unknown REJECTED (group 1). */
export const FIREBANK_STATUSES = statusTable<TransactionStatus>(
  {
    ...{ pending: 'PENDING', confirmed: 'APPROVED', error: 'REJECTED' },
    ...{ waiting: 'PENDING', processing: 'PENDING', paid: 'APPROVED', refunded: 'REFUNDED', chargeback: 'CHARGEBACK', expired: 'REJECTED' },
  },
  'REJECTED',
);

/** Payouts: CONFIRMED paid, ERROR failed, over document 1 §4's payout words. */
export const FIREBANK_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  { ...COMMON_WITHDRAWAL_STATUSES.entries, confirmed: 'APPROVED', error: 'REJECTED' },
  COMMON_WITHDRAWAL_STATUSES.unknown,
);

// ---------------------------------------------------------------- readers

/** A webhook as the news it carries: about which object, with which status, under which event id. */
export type FirebankNews = ObjectNotification & { event: string };

/**
 * A webhook by its event: CashIn is a charge's, CashOut a payout's (a failed
 * one with its errorMessage, else its errorCode, as the reason); a
 * reversal is its parent's news: CashInReversal a charge REFUNDED once the
 * parent says it was refunded in full (a partial one changes no status, so
 * it is ignored), CashOutReversal a payout that came back (REJECTED). Only
 * CONFIRMED reversals count. Undefined for any other event or shape.
 */
export function readFirebankWebhook(body: Buffer): FirebankNews | undefined {
  const parsed = firebankNotification.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const news = parsed.data;
  switch (news.event) {
    case 'CashIn':
      return {
        ...{ kind: 'transaction', id: news.transactionId, status: news.status, event: news.event },
        ...statedPixPayment({ endToEndId: news.endToEndId }),
        ...(news.feeAmount === undefined ? {} : { fee: news.feeAmount }),
      };
    case 'CashOut': {
      const reason = news.errorMessage ?? news.errorCode;
      return { kind: 'withdrawal', id: news.transactionId, status: news.status, event: news.event, ...(reason ? { refusalReason: reason } : {}) };
    }
    case 'CashInReversal':
      if (news.status.toUpperCase() !== 'CONFIRMED' || news.parentTransaction.wasTotalRefunded !== true) return undefined;
      return { kind: 'transaction', id: news.parentTransaction.transactionId, status: 'refunded', event: news.event };
    case 'CashOutReversal':
      if (news.status.toUpperCase() !== 'CONFIRMED') return undefined;
      return { kind: 'withdrawal', id: news.parentTransaction.transactionId, status: 'error', event: news.event };
  }
}

// ---------------------------------------------------------------- operations

export class FirebankAdapter extends LoginTokenAdapter {
  constructor(declaration: ProviderDeclaration = FIREBANK, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: FIREBANK_STATUSES, withdrawalStatuses: FIREBANK_WITHDRAWAL_STATUSES });
  }

  protected readonly loginPath = FIREBANK_PATHS.token;

  /** The token call presents the platform's certificate: without one the platform cannot authenticate ('Unauthorized.', doc 1 §8). */
  /** The platform's certificate, sent in a header at login. */
  override get certificateFields(): readonly CertificateField[] {
    return [{ field: 'certCashInUrl', required: true }];
  }

  override checkAccount(account: AccountSettings): void {
    super.checkAccount(account);
    if (!account.certCashInUrl?.trim())
      throw new GatewayError('INVALID_ARGUMENT', CATALOGUE.UNAUTHORIZED.message, { reason: 'UNAUTHORIZED', field: 'cert_cash_in_url' });
  }

  /** POST /api/auth/token {clientId, clientSecret}, the certificate behind `cert_cash_in_url` URL-encoded in `X-SSL-Client-Cert`. */
  protected override async login(ctx: AdapterContext): Promise<LoginStyle> {
    const { publicKey: clientId, secretKey: clientSecret } = this.credentials(ctx);
    if (!ctx.certCashInUrl) throw catalogueError('UNAUTHORIZED');
    const pem = await loadCertificatePem(ctx.certCashInUrl, {
      timeoutMs: this.runtime.timeoutMs ?? this.declaration.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
      readUrl: ctx.certificateReadUrl,
    });
    return { path: this.loginPath, body: { clientId, clientSecret }, headers: { 'x-ssl-client-cert': encodeURIComponent(pem) }, lifetimeSeconds: 1800 };
  }

  /** One call with the session's token, its answer read by `schema`: a mismatch is the operation's bad-answer failure. */
  private async call<T>(
    ctx: AdapterContext,
    operation: Operation,
    send: (http: ProviderHttp) => Promise<ProviderResponse<unknown>>,
    schema: AnswerSchema<T>,
  ): Promise<T> {
    const answer = await this.loginCall<unknown>(ctx, operation, send);
    return this.mapped(operation, this.prefixFor(operation), () => parseAnswer(schema, answer));
  }

  /** POST /api/pix/cash-in; valid for document 1's PIX day, sent in seconds. */
  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const body = toFirebankCashIn(input, { value: this.toProviderAmount(input.amount), expirationTime: this.pixExpirySeconds });
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const charge = await this.call(ctx, 'createTransaction', (http) => http.post(FIREBANK_PATHS.cashIn, body), firebankCashIn);
    const result: TransactionResult = {
      paymentMethod: 'PIX',
      transactionId: charge.transactionId,
      status: this.transactionStatus(charge.status),
      amount: input.amount,
      pixCode: charge.pixCode,
      ...(charge.qrCodeImage?.startsWith('data:image/') ? { pixQrCode: charge.qrCodeImage } : {}),
      expiresAt: dateOf(charge.expirationDate) ?? expiresAt,
    };
    return pixCodeOnly(result);
  }

  /** GET /api/pix/transaction/{id}. */
  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const charge = await this.call(ctx, 'getTransaction', (http) => http.get(fillPath(FIREBANK_PATHS.transaction, { id: transactionId })), firebankTransaction);
    const fee = this.optionalProviderAmount(charge.feeAmount);
    return {
      paymentMethod: 'PIX',
      transactionId: charge.id ?? transactionId,
      status: this.transactionStatus(charge.status),
      amount: this.mapped('getTransaction', this.prefixFor('getTransaction'), () =>
        this.amountOr(charge.originalAmount, undefined, 'valor da cobrança (originalAmount)'),
      ),
      ...statedPixPayment({ endToEndId: charge.e2eId }),
      ...(fee !== undefined && fee >= 0 ? { providerFee: fee } : {}),
    };
  }

  /** POST /api/pix/refund-in/{id}, named by the gateway's idempotency key: the refund's own id is the platform's; ERROR is a refusal. */
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number, idempotencyKey?: string): Promise<RefundResult> {
    const body = toFirebankRefund(this.toProviderAmount(amount), firebankRefundExternalId(transactionId, idempotencyKey));
    const refund = await this.call(
      ctx,
      'refoundTransaction',
      (http) => http.post(fillPath(FIREBANK_PATHS.refundIn, { id: transactionId }), body),
      firebankRefund,
    );
    return { refundId: refund.transactionId, status: refund.status.toUpperCase() !== 'ERROR' };
  }

  /** POST /api/pix/cash-out. */
  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const body = toFirebankCashOut(this.pixPayout(input), this.toProviderAmount(input.amount));
    const payout = await this.call(ctx, 'withdraw', (http) => http.post(FIREBANK_PATHS.cashOut, body), firebankCashOut);
    return { withdrawId: payout.transactionId, status: this.withdrawalStatus(payout.status), amount: input.amount };
  }

  /** GET /api/pix/transaction/{id}, the same read as a charge's. */
  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const payout = await this.call(ctx, 'getWithdraw', (http) => http.get(fillPath(FIREBANK_PATHS.transaction, { id: withdrawId })), firebankTransaction);
    return {
      withdrawId: payout.id ?? withdrawId,
      status: this.withdrawalStatus(payout.status),
      amount: this.mapped('getWithdraw', this.prefixFor('getWithdraw'), () =>
        this.amountOr(payout.originalAmount, undefined, 'valor do saque (originalAmount)'),
      ),
    };
  }

  /** GET /api/balance, with the session's token like every call. */
  override async getAccountBalance(ctx: AdapterContext): Promise<AccountBalance> {
    const answer = await this.call(ctx, 'getAccountBalance', (http) => http.get(FIREBANK_PATHS.balance), firebankBalance);
    return {
      available: this.mapped('getAccountBalance', this.prefixFor('getAccountBalance'), () => this.amountOr(answer.netBalance, undefined, 'saldo (netBalance)')),
      currency: 'BRL',
    };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readFirebankWebhook(notification.body));
  }

  /** No event id in the payload: the event, the object and its status identify one across the platform's retries. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const news = readFirebankWebhook(notification.body);
    return news ? notificationKeyOf({ subject: news.event, id: news.id, status: news.status }, notification.body) : super.notificationKey(ctx, notification);
  }

  /**
   * The credentials the merchant registered with the webhook, compared with
   * the account's webhook secret: the platform sends Basic credentials
   * (`user:password`) or the custom headers set at POST /api/webhooks
   * (`Authorization: Bearer <token>`, `X-Webhook-Secret`, as its setup guide
   * shows). Any of them equal to the secret is valid, other credentials are
   * invalid (refused at intake); none, or no secret on the account, unsigned:
   * the gateway then confirms by reading the transaction.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    const secret = ctx.webhookSecret;
    const offered = firebankWebhookCredentials(notification.headers);
    if (!secret || !offered.length) return 'unsigned';
    return offered.some((value) => safeEqualText(value, secret)) ? 'valid' : 'invalid';
  }
}

/** What a notification's headers offer as the webhook's credential: Basic's `user:password`, a Bearer token, the Authorization value as sent, an `X-Webhook-Secret`. */
export function firebankWebhookCredentials(headers: Readonly<Record<string, string | undefined>>): string[] {
  const offered: string[] = [];
  const authorization = headers.authorization?.trim();
  if (authorization) {
    const [, scheme, value] = /^(\S+)\s+(\S+)$/.exec(authorization) ?? [];
    if (scheme?.toLowerCase() === 'basic' && value) offered.push(Buffer.from(value, 'base64').toString('utf8'));
    if (scheme?.toLowerCase() === 'bearer' && value) offered.push(value);
    offered.push(authorization);
  }
  const custom = headers['x-webhook-secret']?.trim();
  if (custom) offered.push(custom);
  return offered;
}
