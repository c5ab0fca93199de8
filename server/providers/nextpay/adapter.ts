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
import { ProviderCallError } from '../../lib/http/index.js';
import { isRecord } from '../../lib/json.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { normalizePixKey } from '../../lib/pixKey.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf, idText, textOf } from '../../lib/values.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';

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
 * Read top to bottom: declaration → wire shapes → request mappers → status
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
  sources:
    "paths, OAuth form token (grant_type, client_id, client_secret), amounts in reais, `/pix/generate` fields (amount, fixedAmount, description, customer), `/pix/cashout` fields (description, destinatary.dictKey, amount, customer), common status pattern: spec (doc 2 §4/§7/§9); token path `/oauth/token`, which GET reads a charge (`/pix/consult/{id}`) and which a payout (`/payments/queryTransaction/{id}`), `PUT /payments/cancel/{id} {amount}` as the refund, every answer's shape, host: gateway (no public API material found)",
};

// ---------------------------------------------------------------- wire shapes

export interface NextpayCustomer {
  name: string;
  document: string;
  email?: string;
  phone?: string;
}

/** Body of POST /pix/generate (§7). */
export interface PixGenerateRequest {
  /** Reais. */
  amount: number;
  /** The payer must pay exactly this amount. */
  fixedAmount: true;
  description?: string;
  customer?: NextpayCustomer;
}

/** Answer of /pix/generate and /pix/consult/{id}. */
export interface PixAnswer {
  id?: string | number;
  status?: string;
  amount?: number | string;
  /** The copy-and-paste code. */
  qrCode?: string;
  expiresAt?: string;
}

/** Body of POST /pix/cashout (§7). */
export interface PixCashoutRequest {
  description: string;
  destinatary: { dictKey: string };
  /** Reais. */
  amount: number;
  customer?: NextpayCustomer;
}

/** Answer of /pix/cashout and /payments/queryTransaction/{id}. */
export interface PaymentAnswer {
  id?: string | number;
  status?: string;
  amount?: number | string;
  paidAt?: string;
}

/** Answer of PUT /payments/cancel/{id}. */
export interface CancelAnswer {
  id?: string | number;
  status?: string;
}

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
  status: (value: unknown) => S;
  /** Reais → cents; undefined for anything that is not an amount. */
  amount: (value: unknown) => number | undefined;
}

/** Undefined without an id, a status or (unless one was asked for) an amount: the operation turns that into an error, never a status. */
export function fromPixAnswer(
  answer: unknown,
  terms: Terms<TransactionStatus> & { requestedAmount?: number; expiresAt?: Date },
): TransactionResult | undefined {
  if (!isRecord(answer)) return undefined;
  const pix = answer as PixAnswer;
  const transactionId = idText(pix.id);
  const amount = terms.amount(pix.amount) ?? terms.requestedAmount;
  if (!transactionId || !textOf(pix.status) || amount === undefined) return undefined;
  const pixCode = textOf(pix.qrCode);
  const expiresAt = dateOf(pix.expiresAt) ?? terms.expiresAt;
  return {
    paymentMethod: 'PIX',
    transactionId,
    status: terms.status(pix.status),
    amount,
    ...(pixCode ? { pixCode } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

export function fromPaymentAnswer(answer: unknown, terms: Terms<WithdrawStatus> & { requestedAmount?: number }): WithdrawResult | undefined {
  if (!isRecord(answer)) return undefined;
  const payment = answer as PaymentAnswer;
  const withdrawId = idText(payment.id);
  const amount = terms.amount(payment.amount) ?? terms.requestedAmount;
  if (!withdrawId || !textOf(payment.status) || amount === undefined) return undefined;
  const status = terms.status(payment.status);
  const approvedAt = status === 'APPROVED' ? dateOf(payment.paidAt) : undefined;
  return { withdrawId, amount, status, ...(approvedAt ? { approvedAt } : {}) };
}

/** Undefined for an answer with neither an id nor a status: it says nothing about the cancellation, never "ok". */
export function fromCancelAnswer(answer: unknown, transactionId: string): RefundResult | undefined {
  if (!isRecord(answer)) return undefined;
  const cancel = answer as CancelAnswer;
  const refundId = idText(cancel.id);
  const status = textOf(cancel.status)?.toLowerCase();
  if (!refundId && !status) return undefined;
  // NEXTPAY's own id of the cancellation where it gives one; else the charge's, the only id the refund has.
  return { refundId: refundId ?? transactionId, status: !(status && CANCEL_FAILED.has(status)) };
}

// ---------------------------------------------------------------- operations

type NextpayOperation = 'createTransaction' | 'getTransaction' | 'refoundTransaction' | 'withdraw' | 'getWithdraw';

export class NextpayAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = NEXTPAY, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: NEXTPAY_STATUSES, withdrawalStatuses: NEXTPAY_PAYOUT_STATUSES });
  }

  private readonly amountOf = (value: unknown): number | undefined => this.optionalProviderAmount(value);

  private charges(): Terms<TransactionStatus> {
    return { status: (value) => this.transactionStatus(value), amount: this.amountOf };
  }

  private payouts(): Terms<WithdrawStatus> {
    return { status: (value) => this.withdrawalStatus(value), amount: this.amountOf };
  }

  private unusable(operation: NextpayOperation, prefix: string, what: string): Error {
    return this.failure(operation, prefix, new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `resposta do provedor sem ${what}`));
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const requestedAt = this.now();
    const body = toPixGenerate(input, this.toProviderAmount(input.amount));
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<unknown>(NEXTPAY_PATHS.generate, body));
    // NEXTPAY is sent no validity (the spec lists none), so without its own expiry the spec's default applies (1 day, §9).
    const result = fromPixAnswer(answer, { ...this.charges(), requestedAmount: input.amount, expiresAt: this.expiresAt(this.pixExpirySeconds, requestedAt) });
    if (!result?.pixCode) throw this.unusable('createTransaction', prefix, 'id, status ou qrCode do PIX');
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange('getTransaction', prefix, () => this.http(ctx).get<unknown>(fillPath(NEXTPAY_PATHS.consult, { id: transactionId })));
    const result = fromPixAnswer(answer, this.charges());
    if (!result) throw this.unusable('getTransaction', prefix, 'id, status ou valor do PIX');
    // The id asked for stays the id, whatever the answer echoes.
    return withPixQrImage({ ...result, transactionId });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const answer = await this.exchange('refoundTransaction', prefix, () =>
      this.http(ctx).put<unknown>(fillPath(NEXTPAY_PATHS.cancel, { id: transactionId }), { amount: this.toProviderAmount(amount) }),
    );
    const result = fromCancelAnswer(answer, transactionId);
    if (!result) throw this.unusable('refoundTransaction', prefix, 'dados do cancelamento');
    return result;
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    const pixKey = input.pixKey?.trim();
    if (!pixKey) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals');
    const prefix = this.prefixFor('withdraw');
    const body = toPixCashout({ ...input, pixKey }, this.toProviderAmount(input.amount));
    const answer = await this.exchange('withdraw', prefix, () => this.http(ctx).post<unknown>(NEXTPAY_PATHS.cashout, body));
    const result = fromPaymentAnswer(answer, { ...this.payouts(), requestedAmount: input.amount });
    if (!result) throw this.unusable('withdraw', prefix, 'id ou status do saque');
    return result;
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const answer = await this.exchange('getWithdraw', prefix, () => this.http(ctx).get<unknown>(fillPath(NEXTPAY_PATHS.queryTransaction, { id: withdrawId })));
    const result = fromPaymentAnswer(answer, this.payouts());
    if (!result) throw this.unusable('getWithdraw', prefix, 'id, status ou valor do saque');
    return { ...result, withdrawId };
  }
}
