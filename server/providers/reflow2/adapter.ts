import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type {
  Customer,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { invalidArgument } from '../../lib/errors.js';
import { parseJsonObject } from '../../lib/json.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { normalizePixKey, type PixKeyType } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { statusTable } from '../../lib/statusTable.js';
import { statedPixPayment } from '../../domain/pixPayments.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../kit/answers.js';
import { DeclaredAdapter, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * REFLOW2 (spec doc 3, group 4), ReflowPay's second API (not REFLOWPAY, the
 * cashtime family's member): a bespoke dialect. What the spec says: Bearer,
 * POST /transaction/qrcode/cashin on the cash-in host, POST
 * /transaction/cashout on the cash-out host (§7); webhook created PENDING, paid
 * and infraction APPROVED, refund CHARGEBACK, failed and canceled REJECTED;
 * withdraw code 0 PENDING, 1 APPROVED, 2 to 4 REJECTED; unknown PENDING (§4,
 * most of the fourth group); PIX only, payouts PIX only (§5); the fourth
 * group's texts (§8); PIX valid 1 day, a fixed placeholder phone on payouts (§9).
 *
 * From the documentation of the white-label platform it runs on (IntegraPay /
 * SafePayments, research F6; REFLOW2_PLATFORM_DOCUMENTATION), verified by a
 * stand-in written from it (tests/standins/reflow2.ts): `Authorization: Bearer
 * <API key>` (401 "Invalid token."); the Cash-In body `{payerName,
 * payerDocument, payerEmail, payerPhone, productName, productDescription (all
 * required), value (cents), orderId, postbackUrl}` answered `{transactionId (a
 * number), externalId, orderId, qrCode, qrCodeBase64}`; the Cash-Out body
 * `{value (cents), pixKeyType 0..4, pixKey, cpfCnpj, person{name, email, phone}
 * (all required), orderId, postbackUrl}` answered `{transactionId, status "0",
 * gross, …}`, numeric statuses 0 Pending, 1 Paid, 2 Failed, 3 Canceled, 4
 * Refund; the lookup GET /transaction/get/by/id/{id}; the unsigned webhook
 * `{transactionId, object cashin|transfer, status, method, value, endToEndId,
 * payer {name, documentId, bankName, bankIspb} (cashin), …}`, whose endToEndId
 * and payer are kept as the charge's PIX payment. The hosts cashin.safepayments.cloud and cashout.safepayments.cloud come
 * from ReflowPay V2 integrations (research); how an account names the two
 * hosts is the gateway's decision (docs/decisions.md).
 */

// ---------------------------------------------------------------- declaration

/** The platform's documentation the stand-in (tests/standins/reflow2.ts) was written from; the last page is a sibling instance of the same platform. */
export const REFLOW2_PLATFORM_DOCUMENTATION = [
  'https://docs.integrapay.io/docs/Authentication',
  'https://docs.integrapay.io/docs/Cash-In',
  'https://docs.integrapay.io/docs/Cash-Out',
  'https://docs.integrapay.io/docs/Webhooks',
  'https://docs.paguemaster.com.br/docs/Cash-Out',
] as const;

export const REFLOW2: ProviderDeclaration = {
  // The cash-in host; the cash-out host follows from it (reflow2CashOutUrl).
  identity: { id: 'REFLOW2', specGroup: SPEC_GROUPS.DOC3_GROUP4, defaultBaseUrl: 'https://cashin.safepayments.cloud' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, webhooks: true },
  // Authorization: Bearer <the secret key, the API key>.
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  failurePrefixes: { createTransaction: 'CREATE_PIX_TRANSACTION_FOURTH_GROUP', withdraw: 'WITHDRAW_FOURTH_GROUP' },
  sources:
    "paths, Bearer, two hosts, statuses, withdraw codes, PIX only, placeholder phone, 'Erro na criação da transação PIX: …', 'Erro no saque: …': spec (doc 3 §4/§5/§7/§8/§9); Bearer and its 401, the cash-in and cash-out bodies (cents, their required fields) and answers, the numeric pixKeyType and status codes, the lookup GET /transaction/get/by/id/{id}, the unsigned webhook {transactionId, object cashin|transfer, status, value, endToEndId, payer{name, documentId, bankName, bankIspb} (cashin), …}: the IntegraPay platform's documentation (Authentication, Cash-In, Cash-Out, Webhooks pages); the hosts cashin./cashout.safepayments.cloud: research (ReflowPay V2 integrations); the cash-out host derived from the base_url, the lookup answer's fields past `object` (its documented example is cut off; read like the webhook), a charge without the whole payer or a payout without the payee's name and email refused before sending: gateway's decision",
  evidence: { level: 'platform', addresses: REFLOW2_PLATFORM_DOCUMENTATION },
};

export const REFLOW2_PATHS = {
  cashIn: '/transaction/qrcode/cashin',
  cashOut: '/transaction/cashout',
  byId: '/transaction/get/by/id/{id}',
} as const;

/** §9: "Reflow2 withdrawals use a fixed placeholder phone" (the payout's `person.phone`; the value is the gateway's). */
export const REFLOW2_PLACEHOLDER_PHONE = '11999999999';

/** F6's pixKeyType codes: 0 CPF, 1 CNPJ, 2 EMAIL, 3 TELEFONE, 4 RANDOM_KEY. */
export const REFLOW2_PIX_KEY_TYPES = { CPF: 0, CNPJ: 1, EMAIL: 2, PHONE: 3, RANDOM: 4 } as const satisfies Record<PixKeyType, number>;

/**
 * The cash-out host for an account's base_url (the cash-in host): the
 * production `cashin.` host becomes its `cashout.` twin; any other base_url (a
 * proxy, a sandbox, a test fake) serves both calls.
 */
export function reflow2CashOutUrl(baseUrl: string): string {
  return baseUrl.replace(/^(https?:\/\/)cashin\./i, '$1cashout.');
}

// ---------------------------------------------------------------- wire shapes

/** The Cash-In body (the platform's Cash-In page): every field required, `value` in integer cents. */
export const cashInRequest = z.object({
  payerName: z.string().min(1),
  payerDocument: z.string().regex(/^\d+$/),
  payerEmail: z.string().min(1),
  payerPhone: z.string().regex(/^\d+$/),
  productName: z.string().min(1),
  productDescription: z.string().min(1),
  value: z.number().int().positive(),
  orderId: z.string().min(1),
  postbackUrl: z.string().min(1),
});
export type CashInRequest = z.infer<typeof cashInRequest>;

/** The Cash-Out body (the platform's Cash-Out page): `value` in integer cents, `pixKeyType` one of the codes 0..4, the payee's name, email and phone required. */
export const cashOutRequest = z.object({
  value: z.number().int().positive(),
  pixKeyType: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  pixKey: z.string().min(1),
  cpfCnpj: z.string().regex(/^\d+$/),
  person: z.object({ name: z.string().min(1), email: z.string().min(1), phone: z.string().min(1) }),
  orderId: z.string().min(1),
  postbackUrl: z.string().min(1),
});
export type CashOutRequest = z.infer<typeof cashOutRequest>;

// ---------------------------------------------------------------- request mappers

export function toCashIn(input: TransactionInput, terms: { amount: number; orderId: string; postbackUrl: string }): CashInRequest {
  const payer = requiredPayer(input.customer);
  const productName = input.items[0]?.title ?? input.description ?? 'Pagamento PIX';
  return {
    ...payer,
    productName,
    productDescription: input.description ?? productName,
    value: terms.amount,
    orderId: terms.orderId,
    postbackUrl: terms.postbackUrl,
  };
}

/**
 * The platform's Cash-In requires the whole payer (name, document, email and
 * phone): a charge without one is refused here, before anything is sent,
 * rather than by the platform's 'Validation Failed - … is required'.
 */
function requiredPayer(customer: Customer | undefined): Pick<CashInRequest, 'payerName' | 'payerDocument' | 'payerEmail' | 'payerPhone'> {
  const required = (field: string) => invalidArgument(`transaction.${field}`, `transaction.${field} is required for REFLOW2 charges`, 'REQUIRED');
  if (!customer) throw required('customer');
  const payerName = customer.name.trim();
  if (!payerName) throw required('customer.name');
  const payerDocument = digitsOnly(customer.document);
  if (!payerDocument) throw required('customer.document');
  const payerEmail = customer.email.trim();
  if (!payerEmail) throw required('customer.email');
  const payerPhone = nationalPhoneDigits(customer.phone);
  if (!payerPhone) throw required('customer.phone');
  return { payerName, payerDocument, payerEmail, payerPhone };
}

export function toCashOut(
  input: WithdrawInput & { pixKey: string; pixType: PixKeyType },
  terms: { amount: number; orderId: string; postbackUrl: string },
): CashOutRequest {
  const pixKey = normalizePixKey(input.pixKey, input.pixType);
  const cpfCnpj = digitsOnly(input.document ?? '') || (input.pixType === 'CPF' || input.pixType === 'CNPJ' ? pixKey : '');
  if (!cpfCnpj) throw invalidArgument('withdraw.document', 'withdraw.document is required for REFLOW2 withdrawals', 'REQUIRED');
  // The platform's Cash-Out requires the payee's name and email (person.name, person.email): refused here, before sending.
  const name = input.name?.trim();
  if (!name) throw invalidArgument('withdraw.name', 'withdraw.name is required for REFLOW2 withdrawals', 'REQUIRED');
  const email = input.email?.trim();
  if (!email) throw invalidArgument('withdraw.email', 'withdraw.email is required for REFLOW2 withdrawals', 'REQUIRED');
  return {
    value: terms.amount,
    pixKeyType: REFLOW2_PIX_KEY_TYPES[input.pixType],
    pixKey,
    cpfCnpj,
    person: { name, email, phone: REFLOW2_PLACEHOLDER_PHONE },
    orderId: terms.orderId,
    postbackUrl: terms.postbackUrl,
  };
}

// ---------------------------------------------------------------- status tables

/** §4's webhook words, and F6's numeric codes read alike (0 Pending, 1 Paid, 2 Failed, 3 Canceled, 4 Refund); unknown PENDING. */
export const REFLOW2_STATUSES = statusTable<TransactionStatus>(
  {
    ...{ created: 'PENDING', paid: 'APPROVED', infraction: 'APPROVED', refund: 'CHARGEBACK', failed: 'REJECTED', canceled: 'REJECTED' },
    ...{ 0: 'PENDING', 1: 'APPROVED', 2: 'REJECTED', 3: 'REJECTED', 4: 'CHARGEBACK' },
  },
  'PENDING',
);

/** §4: code 0 PENDING, 1 APPROVED, 2 to 4 REJECTED; a transfer's webhook words alike; unknown PENDING (a payout wrongly failed could be paid twice). */
export const REFLOW2_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  {
    ...{ 0: 'PENDING', 1: 'APPROVED', 2: 'REJECTED', 3: 'REJECTED', 4: 'REJECTED' },
    ...{ created: 'PENDING', paid: 'APPROVED', failed: 'REJECTED', canceled: 'REJECTED', refund: 'REJECTED' },
  },
  'PENDING',
);

// ---------------------------------------------------------------- wire: answers and notifications

/** A status as text: F6 sends codes as numbers or strings ("0"), webhook words as text. */
const reflowStatus = z.union([wireStatus, z.number().int().transform(String)]);

/** An envelope `{ data: {…} }`: the object is its `data`. */
const reflowEnvelope = z.object({ data: z.record(z.string(), z.unknown()) });

const objectFields = {
  transactionId: absentable(wireId),
  id: absentable(wireId),
  status: absentable(reflowStatus),
  value: absentable(wireAmount),
  qrCode: absentable(wireText),
};

/** The object an answer carries, bare or under `data`, named by its transactionId (else `id`); one of them is required. */
function reflowObject<T extends z.ZodType<{ transactionId?: string; id?: string }>>(object: T) {
  return z.preprocess(
    (answer) => {
      const envelope = reflowEnvelope.safeParse(answer);
      return envelope.success ? envelope.data.data : answer;
    },
    object.transform((value, ctx) => {
      const id = value.transactionId ?? value.id;
      if (id !== undefined) return { ...value, id };
      ctx.addIssue({ code: 'custom', path: ['transactionId'], message: 'transactionId ausente' });
      return z.NEVER;
    }),
  );
}

/** The answer of POST /transaction/qrcode/cashin: the charge's id and its copy-and-paste code (a charge nobody can pay is no charge). */
export const reflow2CashIn = reflowObject(z.object({ ...objectFields, qrCode: wireText }));

/** The answer of GET /transaction/get/by/id/{id} (a charge or a payout) and of POST /transaction/cashout: an id and a status. */
export const reflow2Transaction = reflowObject(z.object({ ...objectFields, status: reflowStatus }));
export type Reflow2Transaction = z.output<typeof reflow2Transaction>;

/** A webhook `{transactionId, object cashin|transfer, status, …}`; any other object is not one the gateway reads. */
export const reflow2Notification = z.object({
  transactionId: wireId,
  status: reflowStatus,
  object: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['cashin', 'transfer'])),
});

/**
 * What a cashin webhook states of the PIX payment, read leniently (shown, never acted on): its `endToEndId` and
 * `payer {name, documentId, bankName, bankIspb}` (the Webhooks page's example; `bankCode` is not kept).
 */
const reflow2Payment = z.object({
  endToEndId: absentable(wireText).catch(undefined),
  payer: absentable(
    z.object({
      name: absentable(wireText).catch(undefined),
      documentId: absentable(wireText).catch(undefined),
      bankName: absentable(wireText).catch(undefined),
      bankIspb: absentable(wireText).catch(undefined),
    }),
  ).catch(undefined),
});

/** A cashin webhook's PIX payment, for its charge's record. */
export function reflow2PixPayment(body: Buffer) {
  const event = reflow2Payment.safeParse(parseJsonObject(body));
  const payer = event.success ? event.data.payer : undefined;
  return event.success
    ? statedPixPayment({
        endToEndId: event.data.endToEndId,
        payerName: payer?.name,
        payerDocument: payer?.documentId,
        payerBankName: payer?.bankName,
        payerBankIspb: payer?.bankIspb,
      })
    : {};
}

/** A webhook: `object` cashin is a charge, transfer a payout; undefined without an id, a status or a known object. */
export function readReflow2Notification(body: Buffer): ObjectNotification | undefined {
  const event = reflow2Notification.safeParse(parseJsonObject(body));
  if (!event.success) return undefined;
  return { kind: event.data.object === 'transfer' ? 'withdrawal' : 'transaction', id: event.data.transactionId, status: event.data.status };
}

// ---------------------------------------------------------------- operations

export class Reflow2Adapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = REFLOW2, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { family: 'bespoke', transactionStatuses: REFLOW2_STATUSES, withdrawalStatuses: REFLOW2_WITHDRAWAL_STATUSES });
  }

  private cashOutHttp(ctx: AdapterContext) {
    return this.http(ctx, { baseUrl: reflow2CashOutUrl(ctx.baseUrl) });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toCashIn(input, { amount: this.toProviderAmount(input.amount), orderId: input.orderId ?? randomUUID(), postbackUrl: ctx.notificationUrl });
    const charge = await this.exchange('createTransaction', prefix, () => this.http(ctx).post(REFLOW2_PATHS.cashIn, body), reflow2CashIn);
    // A charge just created has not been paid: PENDING until a notification or a read says otherwise.
    return pixCodeOnly({ paymentMethod: 'PIX', transactionId: charge.id, status: 'PENDING', amount: input.amount, pixCode: charge.qrCode, expiresAt });
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const charge = await this.exchange(
      'getTransaction',
      prefix,
      () => this.http(ctx).get(fillPath(REFLOW2_PATHS.byId, { id: transactionId })),
      reflow2Transaction,
    );
    return this.mapped('getTransaction', prefix, (): TransactionResult => {
      const amount = this.amountOr(charge.value, 0, 'valor legível da cobrança');
      // The id asked for stays the id, whatever the answer echoes.
      return {
        paymentMethod: 'PIX',
        transactionId,
        status: this.transactionStatus(charge.status),
        amount,
        ...(charge.qrCode ? { pixCode: charge.qrCode } : {}),
      };
    });
  }

  private payout(operation: 'withdraw' | 'getWithdraw', payout: Reflow2Transaction, fallback: { id?: string; amount?: number }): WithdrawResult {
    return this.mapped(operation, this.prefixFor(operation), () => ({
      withdrawId: fallback.id ?? payout.id,
      status: this.withdrawalStatus(payout.status),
      amount: this.amountOr(payout.value, fallback.amount, 'valor do saque'),
    }));
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const orderId = input.withdrawReference?.trim() || input.idempotencyKey || randomUUID();
    const body = toCashOut(payout, { amount: this.toProviderAmount(input.amount), orderId, postbackUrl: ctx.notificationUrl });
    const answer = await this.exchange(
      'withdraw',
      this.prefixFor('withdraw'),
      () => this.cashOutHttp(ctx).post(REFLOW2_PATHS.cashOut, body),
      reflow2Transaction,
    );
    return this.payout('withdraw', answer, { amount: input.amount });
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const path = fillPath(REFLOW2_PATHS.byId, { id: withdrawId });
    const answer = await this.exchange('getWithdraw', this.prefixFor('getWithdraw'), () => this.cashOutHttp(ctx).get(path), reflow2Transaction);
    return this.payout('getWithdraw', answer, { id: withdrawId });
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const result = this.objectNotification(readReflow2Notification(notification.body));
    return result?.type === 'TRANSACTION' ? { ...result, ...reflow2PixPayment(notification.body) } : result;
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(readReflow2Notification(notification.body), ctx, notification);
  }
}
