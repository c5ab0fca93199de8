import { z } from 'zod';
import { statedPixPayment } from '../../domain/pixPayments.js';
import type { Customer, TransactionInput, TransactionResult, WebhookResult } from '../../domain/types.js';
import { digitsOnly, isValidDocument } from '../../lib/documents.js';
import { invalidArgument } from '../../lib/errors.js';
import { ProviderCallError } from '../../lib/http/index.js';
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { declaredStatusTable } from '../../lib/statusTable.js';
import { SPEC_GROUPS, type AccountSettings, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { absentable, wireAmount, wireFact, wireId, wireStatus, wireText } from '../kit/answers.js';
import { DOC3_COMMON_STATUSES } from '../kit/commonStatuses.js';
import { credentialPart, parseCredentials, type CredentialLayout } from '../kit/credentials.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, type ObjectNotification } from '../kit/declaredAdapter.js';
import { notificationKeyOf } from '../notificationKeys.js';

/**
 * PLUGGOU (spec doc 3, group 3; not PLUGGO): a bespoke dialect. What the spec
 * says: POST /payments/transactions?organizationId and GET
 * /payments/transactions/{id} (§7), nothing else; new PIX payments start
 * PENDING, doc 3's common pattern, unknown REJECTED (§4); no expiry of its own,
 * so PIX 1 day (§9).
 *
 * From Pluggou's documentation (docs.pluggoucash.com: the transactions guide
 * and the webhooks page): the headers `X-Public-Key` and `X-Secret-Key`
 * (missing or wrong: 401 `{error, message}`; a credential without cash-in
 * permission, an account not approved or blocked: 403 `{success: false,
 * message, data: null}`); the required fields `payment_method`, `amount`,
 * `buyer.buyer_name`, `buyer.buyer_document` (CPF or CNPJ, check digits
 * verified) and `buyer.buyer_phone` (else 422 with the errors per field);
 * webhooks sent to every webhook registered on the account, with
 * `X-Webhook-Event-ID` (one id per event, for idempotency) and
 * `X-Webhook-Code` (the account's code, to check that Pluggou sent it). From
 * integrations that follow those pages: host `api.pluggoutech.com/api`,
 * `POST /transactions` and `GET /transactions/{id}`, amounts in cents, the
 * answer `{success, message, data: {id, amount, platform_tax, liquid_amount,
 * status, pix: {emv}}}`, the webhook body `{event_type: transaction |
 * withdrawal, data: {id, status, amount, e2e_id, platform_tax,
 * liquid_amount, …}}` and the statuses pending, paid, failed, canceled,
 * refunded, chargeback. A paid charge's `e2e_id` (in the webhook and the read)
 * is the PIX's end-to-end id; `platform_tax` (cents, "taxa da plataforma",
 * `liquid_amount` = `amount` − `platform_tax`) is the provider's fee.
 *
 * The specification's paths stay the default; `api_version: public` speaks
 * the documented ones. The buyer's fields are checked before anything is sent.
 *
 * Read top to bottom: declaration → wire → request mapper → status table → readers → operations.
 */

// ---------------------------------------------------------------- declaration

/** The pages of Pluggou's documentation its stand-in (tests/standins/pluggou.ts) was written from. */
export const PLUGGOU_ADDRESSES = [
  'https://docs.pluggoucash.com/api-reference/transactions/guide',
  'https://docs.pluggoucash.com/api-reference/webhooks',
] as const;

/**
 * The public key packs Pluggou's public key and, for the specification's
 * dialect, the organization id of §7's query: 'publicKey|organizationId'. The
 * documented dialect has no organization id.
 */
export const PLUGGOU_CREDENTIALS = { publicKey: ['publicKey', 'organizationId?'], required: ['publicKey', 'secretKey'] } as const satisfies CredentialLayout;

/** The same keys as the specification's dialect needs them: the organization id is then required. */
export const PLUGGOU_SPECIFICATION_CREDENTIALS = { ...PLUGGOU_CREDENTIALS, publicKey: ['publicKey', 'organizationId'] } as const satisfies CredentialLayout;

export type PluggouDeclaration = ProviderDeclaration & { credentials: typeof PLUGGOU_CREDENTIALS };

export const PLUGGOU: PluggouDeclaration = {
  identity: { id: 'PLUGGOU', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.pluggoutech.com/api' },
  capabilities: { paymentMethods: ['PIX'], webhooks: true },
  auth: { type: 'apiKey', header: 'X-Secret-Key', value: 'secretKey' },
  headers: { 'X-Public-Key': credentialPart(PLUGGOU_CREDENTIALS, 'publicKey') },
  credentials: PLUGGOU_CREDENTIALS,
  money: 'cents',
  evidence: { level: 'documented', addresses: PLUGGOU_ADDRESSES },
  // The specification's paths stay the default; the documented ones (POST /transactions, GET /transactions/{id}) are the account's choice.
  apiVersions: ['specification', 'public'],
  sources:
    "paths, PIX PENDING at creation, statuses' pattern, default PIX validity: spec (doc 3 §4/§7/§9); `X-Public-Key` / `X-Secret-Key`, the 401 `{error, message}` and 403 `{success: false, message, data: null}` refusals, the required `payment_method`, `amount`, `buyer.buyer_name`, `buyer.buyer_document` (check digits) and `buyer.buyer_phone`, webhooks to the account's registered URLs with `X-Webhook-Event-ID` and `X-Webhook-Code`: Pluggou's documentation (docs.pluggoucash.com, transactions guide and webhooks page); host `api.pluggoutech.com/api`, cents, the answer `{success, data: {id, amount, platform_tax, liquid_amount, status, e2e_id, pix: {emv}}}`, the webhook body `{event_type, data: {id, status, e2e_id, platform_tax, liquid_amount}}`, the status words: integrations that follow it (a webhook receiver that keeps `e2e_id`, `platform_tax` and `liquid_amount` in cents; an operator's guide to the same API: `platform_tax` the platform's fee, `liquid_amount` = `amount` − `platform_tax`); `e2e_id` kept as the charge's PIX end-to-end id, `platform_tax` as the provider's fee; the organization id packed in the public key (`publicKey|organizationId`), PIX only: the gateway's decision; api_version `public`: the documented `POST /transactions` and `GET /transactions/{id}`",
};

export const PLUGGOU_PATHS = { create: '/payments/transactions', get: '/payments/transactions/{id}' } as const;

/** api_version `public`: the paths of Pluggou's documentation, without the organization id. */
export const PLUGGOU_PUBLIC_PATHS = { create: '/transactions', get: '/transactions/{id}' } as const;

// ---------------------------------------------------------------- wire

/**
 * The documented charge body: `payment_method`, `amount` (integer cents) and
 * the buyer's name, document (a CPF or CNPJ, digits) and phone (area code and
 * number) required; e-mail and description optional.
 */
export const pluggouChargeRequest = z.object({
  payment_method: z.literal('pix'),
  amount: z.number().int().positive(),
  buyer: z.object({
    buyer_name: z.string().min(1),
    buyer_document: z.string().regex(/^(\d{11}|\d{14})$/),
    buyer_phone: z.string().regex(/^\d{10,11}$/),
    buyer_email: z.string().min(1).optional(),
  }),
  description: z.string().optional(),
});
export type PluggouChargeRequest = z.infer<typeof pluggouChargeRequest>;

/** A fee that cannot be read is no fee, never a reason to refuse the answer. */
const pluggouFee = absentable(wireAmount).catch(undefined);

/**
 * A charge as Pluggou answers it (POST and GET); the PIX code is `pix.emv`, a
 * paid charge's end-to-end id `e2e_id`, the fee `platform_tax` (cents).
 */
const pluggouChargeObject = z.object({
  id: wireId,
  status: absentable(wireStatus),
  amount: absentable(wireAmount),
  e2e_id: wireFact,
  platform_tax: pluggouFee,
  pix: absentable(z.object({ emv: absentable(wireText) })),
});

/** A created charge: nobody can pay one without its PIX code. */
const pluggouCreatedObject = pluggouChargeObject.extend({ pix: z.object({ emv: wireText }) });

/** A read charge carries its status. */
const pluggouReadObject = pluggouChargeObject.extend({ status: wireStatus });

/**
 * A 2xx body that says it failed, in the shape of Pluggou's 403s (`{success:
 * false, message, data: null}`): its message is kept; whether anything was
 * done is not known (a 2xx refusal is not documented).
 */
const pluggouRefusal = z.object({ kind: z.literal('refused'), message: absentable(wireText), error: absentable(wireText) });

/**
 * Pluggou's envelope `{success, message, data}`: the charge under `data` (or
 * bare), or a refusal. Read as one discriminated value, so a charge that does
 * not fit names the field at fault.
 */
function pluggouReply<S extends z.ZodRawShape>(charge: z.ZodObject<S>) {
  return z.preprocess(
    (answer) => {
      if (!isRecord(answer)) return answer;
      if (answer.success === false) return { kind: 'refused', message: answer.message, error: answer.error };
      return { ...(isRecord(answer.data) ? answer.data : answer), kind: 'charge' };
    },
    z.discriminatedUnion('kind', [pluggouRefusal, charge.extend({ kind: z.literal('charge') })]),
  );
}

export const pluggouCreated = pluggouReply(pluggouCreatedObject);
export const pluggouRead = pluggouReply(pluggouReadObject);

/**
 * A webhook: `{event_type: transaction | withdrawal, data: {id, status,
 * e2e_id, platform_tax, …}}` (an event id beside it where the body has one).
 */
export const pluggouNotification = z.object({
  id: absentable(wireText),
  event_type: absentable(wireText),
  data: z.object({ id: wireId, status: wireStatus, e2e_id: wireFact, platform_tax: pluggouFee }),
});

// ---------------------------------------------------------------- request mapper

/**
 * The documented body. Pluggou requires the buyer's name, document and phone
 * and verifies the document's check digits, so they are checked here first: a
 * charge Pluggou would refuse is refused before anything is sent.
 */
export function toPluggouCharge(input: TransactionInput, terms: { amount: number }): PluggouChargeRequest {
  const customer = requiredBuyer(input.customer);
  const email = customer.email.trim();
  return {
    payment_method: 'pix',
    amount: terms.amount,
    buyer: {
      buyer_name: customer.name.trim(),
      buyer_document: digitsOnly(customer.document),
      buyer_phone: nationalPhoneDigits(customer.phone),
      ...(email ? { buyer_email: email } : {}),
    },
    ...(input.description ? { description: input.description } : {}),
  };
}

function requiredBuyer(customer: Customer | undefined): Customer {
  if (!customer) throw invalidArgument('transaction.customer', 'transaction.customer is required for PLUGGOU charges', 'REQUIRED');
  if (!customer.name.trim()) throw invalidArgument('transaction.customer.name', 'transaction.customer.name is required for PLUGGOU charges', 'REQUIRED');
  const document = digitsOnly(customer.document);
  if (!document) throw invalidArgument('transaction.customer.document', 'transaction.customer.document is required for PLUGGOU charges', 'REQUIRED');
  if (![11, 14].includes(document.length) || !isValidDocument(document))
    throw invalidArgument('transaction.customer.document', 'transaction.customer.document must be a valid CPF or CNPJ for PLUGGOU charges', 'INVALID_DOCUMENT');
  const phone = nationalPhoneDigits(customer.phone);
  if (!phone) throw invalidArgument('transaction.customer.phone', 'transaction.customer.phone is required for PLUGGOU charges', 'REQUIRED');
  if (phone.length < 10 || phone.length > 11)
    throw invalidArgument(
      'transaction.customer.phone',
      'transaction.customer.phone must have 10 or 11 digits (area code and number) for PLUGGOU charges',
      'INVALID_VALUE',
    );
  return customer;
}

// ---------------------------------------------------------------- status table

/**
 * Doc 3 §4's common pattern (unknown REJECTED) with Pluggou's words named:
 * failed and canceled (expired or cancelled) are REJECTED, as the unknown rule
 * would have them, but without the unknown-status warning.
 */
export const PLUGGOU_STATUSES = declaredStatusTable(DOC3_COMMON_STATUSES, {
  overrides: { failed: 'REJECTED', canceled: 'REJECTED', cancelled: 'REJECTED', expired: 'REJECTED' },
});

// ---------------------------------------------------------------- readers

type PluggouRefusal = z.output<typeof pluggouRefusal>;

/**
 * The charge of a reply; a 2xx refusal is the operation's failure with
 * Pluggou's message, UNAVAILABLE and its outcome unknown (never a status).
 */
function acceptedCharge<C extends { kind: 'charge' }>(reply: C | PluggouRefusal): C {
  if (reply.kind === 'refused')
    throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', reply.message ?? reply.error ?? 'resposta do provedor com success: false');
  return reply;
}

/**
 * A webhook about a charge or a payout, its event id from the body (the header
 * is preferred: see notificationKey); a charge's also with its PIX's
 * end-to-end id and Pluggou's fee, where it states them.
 */
export function readPluggouNotification(body: Buffer): (ObjectNotification & { eventId?: string }) | undefined {
  const parsed = pluggouNotification.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const { id: eventId, event_type: eventType, data } = parsed.data;
  const kind = eventType?.toLowerCase() === 'withdrawal' ? 'withdrawal' : 'transaction';
  const facts =
    kind === 'transaction' ? { ...statedPixPayment({ endToEndId: data.e2e_id }), ...(data.platform_tax === undefined ? {} : { fee: data.platform_tax }) } : {};
  return { kind, id: data.id, status: data.status, ...(eventId ? { eventId } : {}), ...facts };
}

// ---------------------------------------------------------------- operations

export class PluggouAdapter extends DeclaredAdapter<PluggouDeclaration> {
  constructor(declaration: PluggouDeclaration = PLUGGOU, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: PLUGGOU_STATUSES });
  }

  /** What a charge's answer states besides its status: the PIX's end-to-end id, and Pluggou's fee (`platform_tax`, cents). */
  private chargeFacts(charge: { e2e_id?: string; platform_tax?: string | number }): Pick<TransactionResult, 'pixPayment' | 'providerFee'> {
    const fee = this.optionalProviderAmount(charge.platform_tax);
    return { ...statedPixPayment({ endToEndId: charge.e2e_id }), ...(fee === undefined ? {} : { providerFee: fee }) };
  }

  private isPublic(account: Pick<AccountSettings, 'apiVersion'>): boolean {
    return (account.apiVersion ?? this.declaration.apiVersions?.[0]) === 'public';
  }

  /** The declared layout; the specification's dialect also needs the organization id ('publicKey|organizationId'). */
  override checkAccount(account: AccountSettings): void {
    super.checkAccount(account);
    if (!this.isPublic(account)) this.checkCredentials(PLUGGOU_SPECIFICATION_CREDENTIALS, account);
  }

  /** The create path and its query: the specification's with the organization id, or the documented one. */
  private createCall(ctx: AdapterContext): { path: string; params?: Record<string, string> } {
    if (this.isPublic(ctx)) return { path: PLUGGOU_PUBLIC_PATHS.create };
    const { organizationId } = parseCredentials(PLUGGOU_SPECIFICATION_CREDENTIALS, ctx);
    return { path: PLUGGOU_PATHS.create, params: { organizationId } };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const body = toPluggouCharge(input, { amount: this.toProviderAmount(input.amount) });
    const { path, params } = this.createCall(ctx);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const reply = await this.exchange('createTransaction', prefix, () => this.http(ctx).post(path, body, params ? { params } : {}), pluggouCreated);
    const charge = this.mapped('createTransaction', prefix, () => acceptedCharge(reply));
    // §4: a new PIX payment starts PENDING, whatever the answer says.
    return pixCodeOnly({
      paymentMethod: 'PIX',
      transactionId: charge.id,
      status: 'PENDING',
      amount: this.mapped('createTransaction', prefix, () => this.amountOr(charge.amount, input.amount, 'valor da transação')),
      pixCode: charge.pix.emv,
      expiresAt,
      ...this.chargeFacts(charge),
    });
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const template = this.isPublic(ctx) ? PLUGGOU_PUBLIC_PATHS.get : PLUGGOU_PATHS.get;
    const reply = await this.exchange('getTransaction', prefix, () => this.http(ctx).get(fillPath(template, { id: transactionId })), pluggouRead);
    const charge = this.mapped('getTransaction', prefix, () => acceptedCharge(reply));
    const pixCode = charge.pix?.emv;
    return {
      paymentMethod: 'PIX',
      transactionId: charge.id,
      status: this.transactionStatus(charge.status),
      amount: this.mapped('getTransaction', prefix, () => this.amountOr(charge.amount, undefined, 'valor da transação')),
      ...(pixCode ? { pixCode } : {}),
      ...this.chargeFacts(charge),
    };
  }

  /** A charge's webhook also states its PIX's end-to-end id and Pluggou's fee, where it carries them. */
  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readPluggouNotification(notification.body));
  }

  /** `X-Webhook-Event-ID` (Pluggou's id of the event, "use it for idempotency"), else an event id in the body, else the charge's id and status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const eventId = notification.headers['x-webhook-event-id']?.trim();
    if (eventId) return notificationKeyOf({ eventId }, notification.body);
    return this.eventNotificationKey(readPluggouNotification(notification.body), ctx, notification);
  }

  /**
   * The account's webhook code arrives in `X-Webhook-Code`, compared (constant
   * time) with the account's webhook secret: a wrong code is refused at the
   * door. Without a secret, or without the header, the notification is
   * unsigned and its status is confirmed by GET.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    return this.credentialHeaderVerdict(ctx, notification.headers['x-webhook-code']);
  }
}
