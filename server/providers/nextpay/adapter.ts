import { z } from 'zod';
import type {
  Customer,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { invalidArgument } from '../../lib/errors.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { normalizePixKey } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf } from '../../lib/values.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../kit/answers.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, unusableAnswer } from '../kit/declaredAdapter.js';

/**
 * NEXTPAY (spec doc 2, group 2): a bespoke PIX dialect. What the spec says
 * (§7): an OAuth token asked with a form (grant_type, client_id,
 * client_secret); POST /pix/generate (amount in reais, fixedAmount,
 * description, customer); POST /pix/cashout (description, destinatary.dictKey,
 * amount, customer); GET /pix/consult/{id}; GET /payments/queryTransaction/{id};
 * PUT /payments/cancel/{id}; statuses by the common pattern (§4); amounts in
 * reais, multiplied back by 100 (§9). No public material on NEXTPAY's API was
 * found (provider research, groups 1–2), so everything else is the gateway's
 * decision, recorded in docs/decisions.md:
 * - the token at POST /oauth/token, client credentials (publicKey, secretKey) in the form;
 * - GET /pix/consult/{id} reads a charge (it pairs with /pix/generate), GET
 *   /payments/queryTransaction/{id} reads a payout (a "payment" sent);
 * - PUT /payments/cancel/{id} is the refund of a PIX charge (the contract's
 *   only operation it can be; the spec does not list NEXTPAY among the
 *   providers without refunds), sent with the amount asked, in reais;
 * - answers `{id, status, amount, qrCode, expiresAt}` for charges,
 *   `{id, status, amount}` for payouts, `{id, status}` for a cancellation.
 *
 * Read top to bottom: declaration → wire (zod schemas) → request mappers → status
 * tables → response mappers → the operations, one HTTP exchange each.
 */

// ---------------------------------------------------------------- declaration

/** The spec's calls (§7); the token path is the gateway's decision. */
export const NEXTPAY_PATHS = {
  token: '/oauth/token',
  generate: '/pix/generate',
  consult: '/pix/consult/{id}',
  cashout: '/pix/cashout',
  queryTransaction: '/payments/queryTransaction/{id}',
  cancel: '/payments/cancel/{id}',
} as const;

export const NEXTPAY: ProviderDeclaration = {
  identity: { id: 'NEXTPAY', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.nextpay.com.br' },
  // PIX charges, their refund (PUT /payments/cancel/{id}) and PIX payouts read back; the spec gives NEXTPAY no notifications.
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, refunds: true },
  // "POST oauth token form (grant_type, client_id, client_secret)": client credentials, both in the form body.
  auth: { type: 'oauth2', tokenPath: NEXTPAY_PATHS.token, body: 'form', clientAuth: 'body' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'reais',
  evidence: { level: 'specification-only' },
  sources:
    "paths, OAuth form token (grant_type, client_id, client_secret), amounts in reais, `/pix/generate` fields (amount, fixedAmount, description, customer), `/pix/cashout` fields (description, destinatary.dictKey, amount, customer), common status pattern: spec (doc 2 §4/§7/§9); token path `/oauth/token`, which GET reads a charge (`/pix/consult/{id}`) and which a payout (`/payments/queryTransaction/{id}`), `PUT /payments/cancel/{id} {amount}` as the refund, every answer's shape, host: gateway (no public API material found)",
};

// ---------------------------------------------------------------- wire

export const NEXTPAY_CUSTOMER = z.object({
  name: z.string().min(1),
  document: z.string().min(1),
  email: z.string().optional(),
  phone: z.string().optional(),
});
export type NextpayCustomer = z.infer<typeof NEXTPAY_CUSTOMER>;

/** Body of POST /pix/generate (§7): amount in reais; `fixedAmount`, the payer must pay exactly this amount. */
export const NEXTPAY_PIX_GENERATE_REQUEST = z.object({
  amount: z.number().positive(),
  fixedAmount: z.literal(true),
  description: z.string().optional(),
  customer: NEXTPAY_CUSTOMER.optional(),
});
export type PixGenerateRequest = z.infer<typeof NEXTPAY_PIX_GENERATE_REQUEST>;

/** Body of POST /pix/cashout (§7): amount in reais. */
export const NEXTPAY_PIX_CASHOUT_REQUEST = z.object({
  description: z.string(),
  destinatary: z.object({ dictKey: z.string().min(1) }),
  amount: z.number().positive(),
  customer: NEXTPAY_CUSTOMER.optional(),
});
export type PixCashoutRequest = z.infer<typeof NEXTPAY_PIX_CASHOUT_REQUEST>;

/** A date-time as answered; an unreadable one reads as absent (the charge's own expiry, a payout's payment time: details). */
const wireDate = absentable(z.union([z.string(), z.number()]))
  .catch(undefined)
  .transform(dateOf);

/** Answer of /pix/consult/{id} (gateway's decision): id and status required; `qrCode` the copy-and-paste code. */
export const NEXTPAY_PIX = z.object({
  id: wireId,
  status: wireStatus,
  amount: absentable(wireAmount),
  qrCode: absentable(wireText),
  expiresAt: wireDate,
});
export type NextpayPix = z.output<typeof NEXTPAY_PIX>;

/** Answer of /pix/generate: as a read, and its code is required (a charge nobody can pay is no charge). */
export const NEXTPAY_PIX_CREATED = NEXTPAY_PIX.extend({ qrCode: wireText });

/** Answer of /pix/cashout and /payments/queryTransaction/{id} (gateway's decision): id and status required. */
export const NEXTPAY_PAYMENT = z.object({
  id: wireId,
  status: wireStatus,
  amount: absentable(wireAmount),
  paidAt: wireDate,
});
export type NextpayPayment = z.output<typeof NEXTPAY_PAYMENT>;

/** Answer of PUT /payments/cancel/{id}: an id or a status, at least one (an answer with neither says nothing, never "ok"). */
export const NEXTPAY_CANCEL = z
  .object({ id: absentable(wireId), status: absentable(wireStatus) })
  .refine((cancel) => cancel.id !== undefined || cancel.status !== undefined, { message: 'no id or status', path: ['status'] });
export type NextpayCancel = z.output<typeof NEXTPAY_CANCEL>;

// ---------------------------------------------------------------- request mappers

/** A person with a name and a document, else nothing: NEXTPAY gets no half-filled customer. */
export function toNextpayCustomer(person: Partial<Customer>): NextpayCustomer | undefined {
  const document = digitsOnly(person.document ?? '');
  if (!person.name?.trim() || !document) return undefined;
  const phone = nationalPhoneDigits(person.phone ?? '');
  return { name: person.name.trim(), document, ...(person.email ? { email: person.email } : {}), ...(phone ? { phone } : {}) };
}

export function toPixGenerate(input: TransactionInput, amount: number): PixGenerateRequest {
  const customer = input.customer ? toNextpayCustomer(input.customer) : undefined;
  return {
    amount,
    fixedAmount: true,
    ...(input.description ? { description: input.description } : {}),
    ...(customer ? { customer } : {}),
  };
}

export function toPixCashout(input: WithdrawInput & { pixKey: string }, amount: number): PixCashoutRequest {
  const customer = toNextpayCustomer({ name: input.name, document: input.document, email: input.email });
  return {
    description: input.description || defaultWithdrawDescription(input.amount, 'withAmount'),
    // CPF, CNPJ and PHONE keys lose their mask (doc 2 §5); NEXTPAY is not among the providers that prefix +55.
    destinatary: { dictKey: input.pixType ? normalizePixKey(input.pixKey, input.pixType) : input.pixKey.trim() },
    amount,
    ...(customer ? { customer } : {}),
  };
}

// ---------------------------------------------------------------- status tables

/**
 * Charges: the spec's common pattern (doc 2 §4: waiting, processing,
 * authorized PENDING; paid APPROVED; unknown REJECTED), with doc 1 §4's
 * families for the words NEXTPAY may use besides (its own are not public).
 */
export const NEXTPAY_STATUSES = statusTable<TransactionStatus>(
  {
    waiting: 'PENDING',
    processing: 'PENDING',
    authorized: 'PENDING',
    paid: 'APPROVED',
    pending: 'PENDING',
    created: 'PENDING',
    waiting_payment: 'PENDING',
    approved: 'APPROVED',
    confirmed: 'APPROVED',
    completed: 'APPROVED',
    refunded: 'REFUNDED',
    canceled: 'CANCELED',
    cancelled: 'CANCELED',
    chargeback: 'CHARGEBACK',
    chargedback: 'CHARGEBACK',
    expired: 'REJECTED',
    refused: 'REJECTED',
    failed: 'REJECTED',
  },
  'REJECTED',
);

/**
 * Payouts (doc 1 §4): paid, approved, transferred, finalized, completed
 * APPROVED; canceled CANCELED; refusals REJECTED; anything else PENDING, as in
 * every family of the gateway (a payout wrongly recorded as failed could be paid twice).
 */
export const NEXTPAY_PAYOUT_STATUSES = statusTable<WithdrawStatus>(
  {
    pending: 'PENDING',
    processing: 'PENDING',
    waiting: 'PENDING',
    created: 'PENDING',
    paid: 'APPROVED',
    approved: 'APPROVED',
    transferred: 'APPROVED',
    finalized: 'APPROVED',
    completed: 'APPROVED',
    canceled: 'CANCELED',
    cancelled: 'CANCELED',
    refused: 'REJECTED',
    rejected: 'REJECTED',
    failed: 'REJECTED',
    error: 'REJECTED',
  },
  'PENDING',
);

/** A cancellation answered with one of these did not happen. */
const CANCEL_FAILED = new Set(['failed', 'refused', 'rejected', 'denied', 'error']);

// ---------------------------------------------------------------- response mappers

interface Terms<S> {
  status: (value: string) => S;
  /** Reais (number or decimal text) → cents. */
  amount: (value: number | string) => number;
}

/** The answered amount, else the one asked for; neither is an unusable answer, never a guess. */
function amountOf(
  answered: number | string | undefined,
  terms: { amount: (value: number | string) => number; requestedAmount?: number },
  what: string,
): number {
  return answered !== undefined ? terms.amount(answered) : (terms.requestedAmount ?? unusableAnswer(what));
}

export function fromPixAnswer(pix: NextpayPix, terms: Terms<TransactionStatus> & { requestedAmount?: number; expiresAt?: Date }): TransactionResult {
  const expiresAt = pix.expiresAt ?? terms.expiresAt;
  return {
    paymentMethod: 'PIX',
    transactionId: pix.id,
    status: terms.status(pix.status),
    amount: amountOf(pix.amount, terms, 'valor do PIX'),
    ...(pix.qrCode ? { pixCode: pix.qrCode } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

export function fromPaymentAnswer(payment: NextpayPayment, terms: Terms<WithdrawStatus> & { requestedAmount?: number }): WithdrawResult {
  const status = terms.status(payment.status);
  const approvedAt = status === 'APPROVED' ? payment.paidAt : undefined;
  return { withdrawId: payment.id, amount: amountOf(payment.amount, terms, 'valor do saque'), status, ...(approvedAt ? { approvedAt } : {}) };
}

export function fromCancelAnswer(cancel: NextpayCancel, transactionId: string): RefundResult {
  const status = cancel.status?.toLowerCase();
  // NEXTPAY's own id of the cancellation where it gives one; else the charge's, the only id the refund has.
  return { refundId: cancel.id ?? transactionId, status: !(status && CANCEL_FAILED.has(status)) };
}

// ---------------------------------------------------------------- operations

export class NextpayAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = NEXTPAY, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: NEXTPAY_STATUSES, withdrawalStatuses: NEXTPAY_PAYOUT_STATUSES });
  }

  private readonly amountOf = (value: number | string): number => this.fromProviderAmount(value);

  private charges(): Terms<TransactionStatus> {
    return { status: (value) => this.transactionStatus(value), amount: this.amountOf };
  }

  private payouts(): Terms<WithdrawStatus> {
    return { status: (value) => this.withdrawalStatus(value), amount: this.amountOf };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const requestedAt = this.now();
    const body = toPixGenerate(input, this.toProviderAmount(input.amount));
    const pix = await this.exchange('createTransaction', prefix, () => this.http(ctx).post(NEXTPAY_PATHS.generate, body), NEXTPAY_PIX_CREATED);
    // NEXTPAY is sent no validity (the spec lists none), so without its own expiry the spec's default applies (1 day, §9).
    const expiresAt = this.expiresAt(this.pixExpirySeconds, requestedAt);
    return pixCodeOnly(this.mapped('createTransaction', prefix, () => fromPixAnswer(pix, { ...this.charges(), requestedAmount: input.amount, expiresAt })));
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const pix = await this.exchange('getTransaction', prefix, () => this.http(ctx).get(fillPath(NEXTPAY_PATHS.consult, { id: transactionId })), NEXTPAY_PIX);
    // The id asked for stays the id, whatever the answer echoes.
    return pixCodeOnly({ ...this.mapped('getTransaction', prefix, () => fromPixAnswer(pix, this.charges())), transactionId });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const cancel = await this.exchange(
      'refoundTransaction',
      prefix,
      () => this.http(ctx).put(fillPath(NEXTPAY_PATHS.cancel, { id: transactionId }), { amount: this.toProviderAmount(amount) }),
      NEXTPAY_CANCEL,
    );
    return fromCancelAnswer(cancel, transactionId);
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    const pixKey = input.pixKey?.trim();
    if (!pixKey) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals', 'REQUIRED');
    const prefix = this.prefixFor('withdraw');
    const body = toPixCashout({ ...input, pixKey }, this.toProviderAmount(input.amount));
    const payment = await this.exchange('withdraw', prefix, () => this.http(ctx).post(NEXTPAY_PATHS.cashout, body), NEXTPAY_PAYMENT);
    return fromPaymentAnswer(payment, { ...this.payouts(), requestedAmount: input.amount });
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const payment = await this.exchange(
      'getWithdraw',
      prefix,
      () => this.http(ctx).get(fillPath(NEXTPAY_PATHS.queryTransaction, { id: withdrawId })),
      NEXTPAY_PAYMENT,
    );
    return { ...this.mapped('getWithdraw', prefix, () => fromPaymentAnswer(payment, this.payouts())), withdrawId };
  }
}
