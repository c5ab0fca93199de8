import { statedPixPayment } from '../../domain/pixPayments.js';
import type { Operation, TransactionInput, TransactionResult, WebhookResult, WithdrawInput, WithdrawResult } from '../../domain/types.js';
import { digitsOnly, inferDocumentType } from '../../lib/documents.js';
import { invalidArgument } from '../../lib/errors.js';
import type { ProviderHttp, ProviderResponse } from '../../lib/http/index.js';
import { z } from 'zod';
import { parseJsonObject } from '../../lib/json.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { normalizePixKey, type PixKeyType } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { declaredStatusTable } from '../../lib/statusTable.js';
import { dateOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AccountSettings, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { orderItems } from '../kit/orderItems.js';
import { COMMON_WITHDRAWAL_STATUSES, DOC3_COMMON_STATUSES } from '../kit/commonStatuses.js';
import { credentialPart, parseCredentials, type CredentialLayout } from '../kit/credentials.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { absentable, parseAnswer, wireAmount, wireFact, wireId, wireStatus, wireText } from '../kit/answers.js';
import { unusableAnswer, type ObjectNotification } from '../kit/declaredAdapter.js';
import { LoginTokenAdapter, type LoginStyle } from '../kit/loginSession.js';

/**
 * WITETEC (spec doc 3, group 3): a bespoke dialect (the Witetec platform,
 * provider research F4). What the spec says: POST /withdrawals/auth, POST
 * /v2/transactions/pix/create, POST /v2/transactions/card/create, GET
 * /transactions/pix/{id} (§7); new PIX payments start PENDING, otherwise the
 * common pattern with unknown REJECTED (§4); the card is encrypted in the page
 * by a script loaded from the provider (§5); 'Falha ao carregar o
 * ShieldHelper', 'Erro ao processar dados do cartão', 'Erro ao criar
 * transação' (§8); no expiry of its own, so the defaults (§9).
 *
 * From the official Java SDK (github TechSete/witetec-sdk, commit 91f8a9d,
 * the stand-in tests/standins/witetec.ts): host api.witetec.net, amounts in
 * cents, `POST /transactions` and `GET /transactions/{id}`, the body `{amount,
 * method PIX|BOLETO|CREDIT_CARD, customer{name, email, phone, documentType,
 * document} (required), items[{title, amount, quantity, tangible,
 * externalRef}], metadata{sellerExternalRef}}`, the envelope `{status,
 * data{id, amount, feeAmount, netAmount, status, method, pix{qrcode,
 * qrcodeUrl, copyPaste, expirationDate}, end2endId}}` (PixTransactionResponse:
 * `feeAmount` and `netAmount` in cents), the statuses, `POST /withdrawals {amount, pixKey,
 * pixKeyType EMAIL|PHONE|CPF|CNPJ|EVP, method}` and `GET /withdrawals/{id}`
 * with the same caller headers as the charges, flat webhooks `{eventType, id,
 * status, end2endId, …}` (WebhookTransactionEventRequest: no fee), unsigned.
 * A charge's `end2endId` is kept as its PIX's end-to-end id; its `feeAmount`
 * as the provider's fee only when `feeAmount` + `netAmount` = `amount` (the
 * gateway's decision: PushPag's page shows both 0 on a charge just created,
 * a fee not yet taken, not a free charge). The SDK names no auth header (its caller passes the
 * headers): `x-api-key: sk_…` is what integrations send (research F4). The
 * payout login `POST /withdrawals/auth {email, password}` (with x-api-key,
 * answering `{token}`) is the spec's (§7) and one integration's, not the
 * SDK's. The spec's paths win over the SDK's `/transactions`; the SDK's are
 * api_version `public`, where a payout logs in only when the secret carries
 * the login. What none shows is the gateway's decision (docs/decisions.md):
 * the card charge carries the encrypted card as `card{hash}` (the ShieldHelper
 * mechanism, research F1); the SDK carries no card data.
 *
 * Read top to bottom: declaration → request shapes → request mappers → status
 * tables → answers and notifications (schemas) → the operations.
 */

// ---------------------------------------------------------------- declaration

/**
 * The secret key packs the API key and, for payouts, the login of
 * /withdrawals/auth: 'sk_…|email|password' (email and password together or
 * not at all; in api_version `public` a payout without them sends the API key
 * alone, as the SDK does). The public key is not used by the server (the card
 * script's key, for the page).
 */
export const WITETEC_CREDENTIALS = { secretKey: ['apiKey', 'email?', 'password?'], required: ['secretKey'] } as const satisfies CredentialLayout;

/** The same keys as a payout needs them: the login's email and password are then required. */
export const WITETEC_PAYOUT_CREDENTIALS = { ...WITETEC_CREDENTIALS, secretKey: ['apiKey', 'email', 'password'] } as const satisfies CredentialLayout;

export type WitetecDeclaration = ProviderDeclaration & { credentials: typeof WITETEC_CREDENTIALS };

const WITETEC_SDK = 'https://github.com/TechSete/witetec-sdk/blob/91f8a9dc0745bcc2bc30591bcb85dcb8830d65ee/src/main/java/tech/techsete/witetec_sdk';

/** The SDK files (commit 91f8a9d) and the white-label page the public dialect was verified against. */
export const WITETEC_ADDRESSES = [
  `${WITETEC_SDK}/configurations/WebClientConfiguration.java`,
  `${WITETEC_SDK}/services/TransactionService.java`,
  `${WITETEC_SDK}/services/WithdrawService.java`,
  `${WITETEC_SDK}/dtos/requests/PixTransactionRequest.java`,
  `${WITETEC_SDK}/dtos/responses/PixTransactionResponse.java`,
  `${WITETEC_SDK}/dtos/requests/WithdrawRequest.java`,
  `${WITETEC_SDK}/dtos/responses/WithdrawResponse.java`,
  `${WITETEC_SDK}/dtos/requests/WebhookTransactionEventRequest.java`,
  `${WITETEC_SDK}/dtos/requests/WebhookWithdrawEventRequest.java`,
  `${WITETEC_SDK}/deserializers/MetadataDeserializer.java`,
  `${WITETEC_SDK}/enums/TransactionMethod.java`,
  `${WITETEC_SDK}/enums/TransactionStatus.java`,
  `${WITETEC_SDK}/enums/PixKeyType.java`,
  `${WITETEC_SDK}/enums/WebhookEventType.java`,
  'https://doc.pushpag.com/criar-cobran%C3%A7a-pix-32557470e0',
] as const;

export const WITETEC: WitetecDeclaration = {
  identity: { id: 'WITETEC', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.witetec.net' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD'], withdrawMethods: ['PIX'], withdrawalLookup: true, webhooks: true },
  auth: { type: 'apiKey', header: 'x-api-key', value: credentialPart(WITETEC_CREDENTIALS, 'apiKey') },
  credentials: WITETEC_CREDENTIALS,
  money: 'cents',
  // The specification's paths stay the default; the SDK's (POST /transactions, GET /transactions/{id}) are the account's choice.
  apiVersions: ['specification', 'public'],
  evidence: { level: 'documented', addresses: WITETEC_ADDRESSES },
  sources:
    "paths (`/withdrawals/auth`, `/v2/transactions/pix/create`, `/v2/transactions/card/create`, `/transactions/pix/{id}`), PIX PENDING at creation, card encrypted by the provider's script, texts, default expiries: spec (doc 3 §4/§5/§7/§8/§9); host, cents, `POST /transactions` and `GET /transactions/{id}` (api_version `public`), the charge body with its required customer and items, the `{status, data}` envelope with `pix{qrcode, copyPaste, expirationDate}`, `end2endId` and `feeAmount`/`netAmount` in cents (PixTransactionResponse), the statuses, `POST /withdrawals {amount, pixKey, pixKeyType EMAIL|PHONE|CPF|CNPJ|EVP, method}` and `GET /withdrawals/{id}` with the charges' headers, the flat unsigned webhook events `TRANSACTION_*` / `WITHDRAWAL_*` with a charge's `end2endId` (WebhookTransactionEventRequest): Witetec's official SDK (github TechSete/witetec-sdk, commit 91f8a9d), the answer at creation also PushPag's page (same platform); the `x-api-key` header name (the SDK leaves headers to its caller) and the payout login `{email, password}` → `{token}`: integrations (research F4) and, for the login, the spec; `end2endId` kept as the charge's PIX end-to-end id, `feeAmount` as its fee only when `feeAmount + netAmount = amount` (both 0 at creation on PushPag's page: no fee yet), the encrypted card as `card{hash}` (the SDK carries no card data), the packed secret `apiKey|email|password`, a `public` payout logging in only when the secret carries the login, reads of card charges by the spec's PIX read: the gateway's decision",
};

export const WITETEC_PATHS = {
  pixCreate: '/v2/transactions/pix/create',
  cardCreate: '/v2/transactions/card/create',
  read: '/transactions/pix/{id}',
  login: '/withdrawals/auth',
  withdraw: '/withdrawals',
  withdrawal: '/withdrawals/{id}',
} as const;

/**
 * api_version `public`: the charge paths of Witetec's official SDK and every
 * public integration (one create for every method, the method in the body),
 * where the specification has its own per method; payouts take the same paths
 * in both, but `public` logs in only when the secret carries the login.
 */
export const WITETEC_PUBLIC_PATHS = { create: '/transactions', read: '/transactions/{id}' } as const;

// ---------------------------------------------------------------- request shapes

/** An encrypted card is one run of printable characters; anything else cannot be what the script produced. */
const ENCRYPTED_CARD = /^[\x21-\x7e]+$/;

/**
 * A charge (the SDK's transaction requests): `amount` and item amounts in
 * integer cents, at least one item; the customer as the SDK requires it where
 * it is sent (api_version `public` always sends it); a card only as the
 * provider's script encrypted it.
 */
export const witetecChargeRequest = z.object({
  amount: z.number().int().positive(),
  method: z.enum(['PIX', 'CREDIT_CARD']),
  customer: z
    .object({
      name: z.string().min(1),
      email: z.string().min(1),
      phone: z.string().min(1),
      documentType: z.enum(['CPF', 'CNPJ']),
      document: z.string().regex(/^\d+$/),
    })
    .optional(),
  items: z
    .array(
      z.object({
        title: z.string().min(1),
        amount: z.number().int(),
        quantity: z.number().int().positive(),
        tangible: z.boolean(),
        externalRef: z.string().optional(),
      }),
    )
    .min(1),
  metadata: z.object({ sellerExternalRef: z.string().min(1) }).optional(),
  postbackUrl: z.string().min(1),
  installments: z.number().int().positive().optional(),
  card: z.object({ hash: z.string().regex(ENCRYPTED_CARD) }).optional(),
});
export type WitetecChargeRequest = z.infer<typeof witetecChargeRequest>;

/** The SDK's PixKeyType: phone keys as digits, RANDOM named EVP. */
const witetecPixKeyType = z.enum(['EMAIL', 'PHONE', 'CPF', 'CNPJ', 'EVP']);

/** Our key types by the SDK's names. */
export const WITETEC_PIX_KEY_TYPES = { CPF: 'CPF', CNPJ: 'CNPJ', EMAIL: 'EMAIL', PHONE: 'PHONE', RANDOM: 'EVP' } as const satisfies Record<
  PixKeyType,
  z.infer<typeof witetecPixKeyType>
>;

/** POST /withdrawals (the SDK's withdrawal request): `amount` in integer cents. */
export const witetecPayoutRequest = z.object({
  amount: z.number().int().positive(),
  pixKey: z.string().min(1),
  pixKeyType: witetecPixKeyType,
  method: z.literal('PIX'),
});
export type WitetecPayoutRequest = z.infer<typeof witetecPayoutRequest>;

// ---------------------------------------------------------------- request mappers

/** The card_id as the provider's encrypted card; missing or unreadable is 'Erro ao processar dados do cartão' (§8), before anything is sent. */
export function encryptedCard(cardId: string | undefined): string {
  const hash = cardId?.trim();
  if (!hash || !ENCRYPTED_CARD.test(hash)) throw catalogueError('WITETEC_CARD_DATA_UNREADABLE', { field: 'transaction.card_id' });
  return hash;
}

/**
 * api_version `public`: the SDK's PixTransactionRequest requires the customer
 * (not null) with its name, email, phone, document type and document (not
 * empty); a charge without them, which Witetec would refuse, is refused before
 * anything is sent.
 */
export function requireWitetecCustomer(input: TransactionInput): void {
  const customer = input.customer;
  const refuse = (field: string) => {
    throw invalidArgument(`transaction.${field}`, `transaction.${field} is required for WITETEC charges`, 'REQUIRED');
  };
  if (!customer) return refuse('customer');
  if (!customer.name.trim()) refuse('customer.name');
  if (!customer.email.trim()) refuse('customer.email');
  if (!nationalPhoneDigits(customer.phone)) refuse('customer.phone');
  if (!digitsOnly(customer.document)) refuse('customer.document');
}

export function toWitetecCharge(input: TransactionInput, terms: { notificationUrl: string }): WitetecChargeRequest {
  const customer = input.customer;
  return {
    amount: input.amount,
    method: input.paymentMethod === 'CREDIT_CARD' ? 'CREDIT_CARD' : 'PIX',
    ...(customer
      ? {
          customer: {
            name: customer.name,
            email: customer.email,
            phone: nationalPhoneDigits(customer.phone),
            documentType: inferDocumentType(customer.document),
            document: digitsOnly(customer.document),
          },
        }
      : {}),
    items: orderItems(input, (cents) => cents).map(({ unitPrice, ...item }) => ({ ...item, amount: unitPrice })),
    ...(input.orderId ? { metadata: { sellerExternalRef: input.orderId } } : {}),
    postbackUrl: terms.notificationUrl,
    ...(input.paymentMethod === 'CREDIT_CARD' ? { installments: input.installments || 1, card: { hash: encryptedCard(input.cardId) } } : {}),
  };
}

export function toWitetecPayout(input: WithdrawInput & { pixKey: string; pixType: PixKeyType }): WitetecPayoutRequest {
  return { amount: input.amount, pixKey: normalizePixKey(input.pixKey, input.pixType), pixKeyType: WITETEC_PIX_KEY_TYPES[input.pixType], method: 'PIX' };
}

// ---------------------------------------------------------------- status tables

/**
 * Doc 3 §4's common pattern (unknown REJECTED) with the SDK's names:
 * WAITING_PAYMENT PENDING; FAILED and REFUSED REJECTED; DISPUTE and BLOCKED
 * (money held, §4's "retained") CHARGEBACK.
 */
export const WITETEC_STATUSES = declaredStatusTable(DOC3_COMMON_STATUSES, {
  overrides: { waiting_payment: 'PENDING', failed: 'REJECTED', refused: 'REJECTED', dispute: 'CHARGEBACK', blocked: 'CHARGEBACK' },
});

/**
 * Payouts: the common vocabulary (unknown PENDING, never falsely failed) with
 * the SDK's events: REFUNDED (the money came back: nothing was paid) REJECTED,
 * BLOCKED (held) PENDING.
 */
export const WITETEC_WITHDRAWAL_STATUSES = declaredStatusTable(COMMON_WITHDRAWAL_STATUSES, { overrides: { refunded: 'REJECTED', blocked: 'PENDING' } });

// ---------------------------------------------------------------- wire: answers and notifications

/** The `{status, data}` envelope: the object is its `data`. */
const witetecEnvelope = z.object({ data: z.record(z.string(), z.unknown()) });

const witetecPix = z.object({ copyPaste: absentable(wireText), qrcode: absentable(wireText), expirationDate: absentable(wireText) });

/** A fee or net amount that cannot be read is none, never a reason to refuse the answer. */
const witetecFactAmount = absentable(wireAmount).catch(undefined);

/**
 * A charge or a payout, inside the `{status, data}` envelope or bare: its id and status required; a charge's
 * end-to-end id (`end2endId`), fee and net amount (`feeAmount`, `netAmount`, cents) where stated.
 */
export const witetecObject = z.preprocess(
  (answer) => {
    const envelope = witetecEnvelope.safeParse(answer);
    return envelope.success ? envelope.data.data : answer;
  },
  z.object({
    id: wireId,
    status: wireStatus,
    amount: absentable(wireAmount),
    method: absentable(wireText),
    pix: absentable(witetecPix),
    end2endId: wireFact,
    feeAmount: witetecFactAmount,
    netAmount: witetecFactAmount,
  }),
);
export type WitetecObject = z.output<typeof witetecObject>;

/** The BR Code: `pix.copyPaste`, else `pix.qrcode` when it is one (a BR Code starts with its format indicator '0002'). */
function pixCodeOf(object: WitetecObject): string | undefined {
  const qrcode = object.pix?.qrcode;
  return object.pix?.copyPaste ?? (qrcode?.startsWith('0002') ? qrcode : undefined);
}

/** A flat webhook event `{eventType, id, …}`; a charge's also its `end2endId` once paid. */
export const witetecNotification = z.object({ eventType: wireText, id: wireId, end2endId: wireFact });

// ---------------------------------------------------------------- notifications

/** The SDK's webhook events; any other event is ignored. */
const TRANSACTION_EVENTS = ['PAID', 'PENDING', 'FAILED', 'DISPUTE', 'REFUNDED', 'CHARGEDBACK'].map((status) => `TRANSACTION_${status}`);
const WITHDRAWAL_EVENTS = ['PENDING', 'APPROVED', 'REJECTED', 'PROCESSING', 'PAID', 'FAILED', 'REFUNDED', 'CANCELED', 'BLOCKED'].map(
  (status) => `WITHDRAWAL_${status}`,
);

/** A flat event `{eventType, id, …}`: its kind and status are the event type's (TRANSACTION_PAID: a charge, PAID). */
export function readWitetecNotification(body: Buffer): ObjectNotification | undefined {
  const event = witetecNotification.safeParse(parseJsonObject(body));
  if (!event.success) return undefined;
  const { eventType, id, end2endId } = event.data;
  if (TRANSACTION_EVENTS.includes(eventType))
    return { kind: 'transaction', id, status: eventType.slice('TRANSACTION_'.length), ...statedPixPayment({ endToEndId: end2endId }) };
  if (WITHDRAWAL_EVENTS.includes(eventType)) return { kind: 'withdrawal', id, status: eventType.slice('WITHDRAWAL_'.length) };
  return undefined;
}

// ---------------------------------------------------------------- operations

export class WitetecAdapter extends LoginTokenAdapter<WitetecDeclaration> {
  constructor(declaration: WitetecDeclaration = WITETEC, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { family: 'bespoke', transactionStatuses: WITETEC_STATUSES, withdrawalStatuses: WITETEC_WITHDRAWAL_STATUSES });
  }

  /** The declared layout; a secret that carries the payout login carries all of it ('apiKey|email|password'). */
  override checkAccount(account: AccountSettings): void {
    super.checkAccount(account);
    const { email, password } = parseCredentials(WITETEC_CREDENTIALS, account);
    if (email || password) this.checkCredentials(WITETEC_PAYOUT_CREDENTIALS, account);
  }

  /** POST /withdrawals/auth {email, password} (§7), with the account's x-api-key; a secret without the login is refused before anything is sent. */
  protected readonly loginPath = WITETEC_PATHS.login;

  protected override login(ctx: AdapterContext): LoginStyle {
    const { email, password } = parseCredentials(WITETEC_PAYOUT_CREDENTIALS, ctx);
    return { path: this.loginPath, body: { email, password } };
  }

  private charge(operation: Operation, object: WitetecObject, requested?: number): TransactionResult {
    return this.mapped(operation, this.prefixFor(operation), () => {
      const pixCode = pixCodeOf(object);
      const expiresAt = dateOf(object.pix?.expirationDate);
      const amount = this.amountOr(object.amount, requested, 'valor da transação');
      return {
        paymentMethod: object.method?.toUpperCase() === 'CREDIT_CARD' ? 'CREDIT_CARD' : 'PIX',
        transactionId: object.id,
        status: this.transactionStatus(object.status),
        amount,
        ...(pixCode ? { pixCode } : {}),
        ...(expiresAt ? { expiresAt } : {}),
        ...statedPixPayment({ endToEndId: object.end2endId }),
        ...this.takenFee(object, amount),
      };
    });
  }

  /**
   * The fee of a charge, `feeAmount` (cents), once the answer accounts for it: fee and net amount add up to the
   * amount. A charge just created answers both 0 (PushPag's page): no fee taken yet, so none is stated.
   */
  private takenFee(object: WitetecObject, amount: number): Pick<TransactionResult, 'providerFee'> {
    const fee = this.optionalProviderAmount(object.feeAmount);
    const net = this.optionalProviderAmount(object.netAmount);
    return fee !== undefined && net !== undefined && fee >= 0 && fee + net === amount ? { providerFee: fee } : {};
  }

  /** A payout answer (the login session's exchange hands it back unread): parsed here, under the operation's prefix. */
  private payout(operation: Operation, answer: unknown, requested?: number): WithdrawResult {
    return this.mapped(operation, this.prefixFor(operation), () => {
      const object = parseAnswer(witetecObject, answer);
      return { withdrawId: object.id, status: this.withdrawalStatus(object.status), amount: this.amountOr(object.amount, requested, 'valor do saque') };
    });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const isPublic = this.apiVersion(ctx) === 'public';
    if (isPublic) requireWitetecCustomer(input);
    const body = toWitetecCharge(input, { notificationUrl: ctx.notificationUrl });
    const specificationPath = input.paymentMethod === 'CREDIT_CARD' ? WITETEC_PATHS.cardCreate : WITETEC_PATHS.pixCreate;
    const path = isPublic ? WITETEC_PUBLIC_PATHS.create : specificationPath;
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post(path, body), witetecObject);
    const created = this.charge('createTransaction', answer, input.amount);
    if (input.paymentMethod === 'CREDIT_CARD') return { ...created, paymentMethod: 'CREDIT_CARD' };
    // A PIX charge without its BR Code is one nobody can pay.
    if (!created.pixCode) this.mapped('createTransaction', prefix, () => unusableAnswer('código PIX da transação'));
    // §4: "New PIX payments start PENDING at Witetec", whatever the answer says.
    return pixCodeOnly({ ...created, paymentMethod: 'PIX', status: 'PENDING', expiresAt: created.expiresAt ?? this.expiresAt(this.pixExpirySeconds) });
  }

  /** GET /transactions/pix/{id}, the only read the spec gives (§7), for PIX and card charges alike (api_version public: the SDK's GET /transactions/{id}). */
  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const read = this.apiVersion(ctx) === 'public' ? WITETEC_PUBLIC_PATHS.read : WITETEC_PATHS.read;
    const answer = await this.exchange(
      'getTransaction',
      this.prefixFor('getTransaction'),
      () => this.http(ctx).get(fillPath(read, { id: transactionId })),
      witetecObject,
    );
    // The id asked for stays the id, whatever the answer echoes.
    return pixCodeOnly({ ...this.charge('getTransaction', answer), transactionId });
  }

  /** The payout calls carry the login's Bearer token and the account's x-api-key. */
  private apiKeyHeader(ctx: AdapterContext): { headers: Record<string, string> } {
    return { headers: { 'x-api-key': this.credentials(ctx).apiKey } };
  }

  /**
   * Whether this account's payouts log in first: always in the
   * specification's dialect (§7's POST /withdrawals/auth); in api_version
   * `public` only when the secret carries the login, since the SDK's
   * WithdrawService sends the same headers as its charges and has no login.
   */
  private payoutLogsIn(ctx: AdapterContext): boolean {
    if (this.apiVersion(ctx) !== 'public') return true;
    const { email, password } = parseCredentials(WITETEC_CREDENTIALS, ctx);
    return Boolean(email && password);
  }

  /** One payout call: with the login's token (and x-api-key), or, in `public` without a login, with the declared x-api-key alone. */
  private payoutCall(
    ctx: AdapterContext,
    operation: 'withdraw' | 'getWithdraw',
    send: (http: ProviderHttp, options?: { headers: Record<string, string> }) => Promise<ProviderResponse<unknown>>,
  ): Promise<unknown> {
    if (this.payoutLogsIn(ctx)) return this.loginCall(ctx, operation, (http) => send(http, this.apiKeyHeader(ctx)));
    return this.exchange(operation, this.prefixFor(operation), () => send(this.http(ctx)));
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const body = toWitetecPayout(this.pixPayout(input));
    const answer = await this.payoutCall(ctx, 'withdraw', (http, options) => http.post<unknown>(WITETEC_PATHS.withdraw, body, options));
    return this.payout('withdraw', answer, input.amount);
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const path = fillPath(WITETEC_PATHS.withdrawal, { id: withdrawId });
    const answer = await this.payoutCall(ctx, 'getWithdraw', (http, options) => http.get<unknown>(path, options));
    return { ...this.payout('getWithdraw', answer), withdrawId };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readWitetecNotification(notification.body));
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(readWitetecNotification(notification.body), ctx, notification);
  }
}
