import axios from 'axios';
import type {
  AccountBalance,
  CardInput,
  Operation,
  ReceiverInput,
  ReceiverResult,
  RefundResult,
  TransactionInput,
  TransactionResult,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
} from '../../../domain/types.js';
import { digitsOnly, inferDocumentType } from '../../../lib/documents.js';
import { GatewayError, invalidArgument } from '../../../lib/errors.js';
import { DEFAULT_PROVIDER_TIMEOUT_MS, providerMessage, type ProviderHttp } from '../../../lib/http/index.js';
import { centsToReais } from '../../../lib/money.js';
import { pixCodeOnly } from '../../../lib/pixQrCode.js';
import { catalogueError, withPrefix } from '../../../lib/providerMessages.js';
import type { AdapterContext, IncomingNotification, NotificationVerdict, StoredReceiver } from '../../adapter.js';
import { fillPath, type AdapterRuntime } from '../../kit/declaration.js';
import { DeclaredAdapter, type ExtraOperation } from '../../kit/declaredAdapter.js';
import {
  acceptedAnswer,
  fromIuguInvoice,
  fromIuguRefund,
  iuguChargeDecline,
  iuguChargeKey,
  iuguErrorText,
  planIuguRefund,
  toIuguCharge,
  toIuguInvoice,
  toIuguPaymentToken,
  type InvoiceReading,
} from './mappers.js';
import { IUGU_INVOICE_EVENTS, IUGU_PATHS, IUGU_WITHDRAW_EVENTS, type IuguMember, type IuguPaths } from './member.js';
import { iuguTriggerAuthorized, readIuguTrigger, readIuguWithdrawTrigger } from './notifications.js';
import { payoutRefusal } from '../../kit/payoutRefusal.js';
import { IUGU_STATUSES, IUGU_WITHDRAW_STATUSES } from './statuses.js';
import {
  fromIuguCreatedAccount,
  IUGU_SUBACCOUNT_PATHS,
  iuguReceiverStatus,
  planSubAccount,
  readDocument,
  toIuguSubAccount,
  toIuguVerification,
} from './subAccounts.js';
import {
  IUGU_ACCOUNT,
  IUGU_CHARGE,
  IUGU_CREATED_ACCOUNT,
  IUGU_INVOICE,
  IUGU_PAYMENT_TOKEN,
  IUGU_REFUSAL,
  IUGU_VERIFICATION,
  IUGU_WITHDRAW,
  refusable,
  type IuguAnswer,
} from './wire.js';
import { notificationKeyOf } from '../../notificationKeys.js';

/**
 * The Iugu family (API v1; spec doc 2 §7 for IUGUBAAS). Every charge is an
 * invoice: PIX and boleto are one POST /invoices; a card is an invoice paid by
 * POST /charge with a payment token (two exchanges). Reads and refunds address
 * the invoice; triggers are form-encoded. Amounts are integer cents.
 */
/** The Iugu account the account's public key names (its payouts and balance are that account's). */
function ownAccountId(ctx: AdapterContext, what: string): string {
  const accountId = ctx.publicKey.trim();
  if (!accountId)
    throw new GatewayError('FAILED_PRECONDITION', `publicKey is required: the Iugu account id ${what}`, { reason: 'CREDENTIALS_MISSING', field: 'publicKey' });
  return accountId;
}

export class IuguAdapter extends DeclaredAdapter<IuguMember> {
  protected readonly paths: IuguPaths;
  private readonly events: readonly string[];

  constructor(member: IuguMember, runtime: AdapterRuntime = {}) {
    super(member, runtime, { family: 'Iugu', transactionStatuses: IUGU_STATUSES, withdrawalStatuses: IUGU_WITHDRAW_STATUSES });
    // Iugu carries integer cents everywhere (`*_cents`): a member cannot declare otherwise.
    if (member.money !== 'cents') throw new Error(`${member.identity.id}: Iugu carries amounts in cents, not ${member.money}`);
    // Iugu's withdraw request goes to the account's registered bank domicile: no PIX key, no other account.
    if (this.capabilities.withdrawMethods.some((method) => method !== 'BANK_ACCOUNT'))
      throw new Error(`${member.identity.id}: Iugu pays out only to the account's registered bank domicile (BANK_ACCOUNT)`);
    this.paths = { ...IUGU_PATHS, ...member.paths };
    this.events = member.events ?? IUGU_INVOICE_EVENTS;
  }

  /** Iugu's errors ({"errors": {"email": ["não é válido"]}}) as the provider's message of a failure, where the common reader finds none. */
  protected override failure(operation: Operation | ExtraOperation, prefix: string, error: unknown): GatewayError {
    const failure = super.failure(operation, prefix, error);
    const refusal = IUGU_REFUSAL.safeParse(axios.isAxiosError(error) ? error.response?.data : undefined);
    const errors = refusal.success ? iuguErrorText(refusal.data.errors) : undefined;
    // A fixed text of the spec (the declaration's failures or notFound) replaced the prefixed one: it stays as it is.
    if (!errors || !failure.message.startsWith(`${prefix}: `) || failure.message.includes(errors)) return failure;
    return new GatewayError(failure.code, withPrefix(prefix, errors), failure.details);
  }

  /** The resource of an answer, or Iugu's refusal in it as the operation's failure (its text under the prefix, or the declared fixed text). */
  private accepted<T>(operation: Operation, prefix: string, answer: IuguAnswer<T>): T {
    return this.mapped(operation, prefix, () => acceptedAnswer(answer, prefix));
  }

  private reading(requested?: InvoiceReading['requested']): InvoiceReading {
    return { amount: (value) => this.fromProviderAmount(value), status: (value) => this.transactionStatus(value), requested };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const card = input.paymentMethod === 'CREDIT_CARD';
    if (card && !input.cardId) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const prefix = this.prefixFor('createTransaction');
    const validitySeconds = input.paymentMethod === 'BILLET' ? this.boletoExpirySeconds : this.pixExpirySeconds;
    const body = toIuguInvoice(input, { now: this.now(), validitySeconds, notificationUrl: ctx.notificationUrl });
    const key = input.idempotencyKey;
    const created = await this.exchange(
      'createTransaction',
      prefix,
      () => this.http(ctx).post(this.paths.invoices, body, { headers: key ? { 'idempotency-key': key } : {} }),
      refusable(IUGU_INVOICE),
    );
    const invoice = fromIuguInvoice(
      this.accepted('createTransaction', prefix, created),
      this.reading({ paymentMethod: input.paymentMethod, amount: input.amount, dueDate: body.due_date }),
    );
    if (!card) return pixCodeOnly(invoice);
    const answer = await this.exchange(
      'createTransaction',
      prefix,
      () =>
        this.http(ctx).post(this.paths.charge, toIuguCharge(invoice.transactionId, input), {
          headers: key ? { 'idempotency-key': iuguChargeKey(key, invoice.transactionId) } : {},
        }),
      // Read before any refusal: a decline is an outcome even where Iugu puts its reason in `errors`.
      refusable(IUGU_CHARGE, { resourceFirst: true }),
    );
    const charged = this.accepted('createTransaction', prefix, answer);
    // A declined card is an outcome (REJECTED), not an error; the invoice stays the transaction.
    return { ...invoice, paymentMethod: 'CREDIT_CARD', status: charged.success ? this.transactionStatus('paid') : 'REJECTED', ...iuguChargeDecline(charged) };
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange(
      'getTransaction',
      prefix,
      () => this.http(ctx).get(fillPath(this.paths.invoice, { id: transactionId })),
      refusable(IUGU_INVOICE),
    );
    const invoice = fromIuguInvoice(this.accepted('getTransaction', prefix, answer), this.reading());
    return pixCodeOnly({ ...invoice, transactionId });
  }

  /**
   * A refund by Iugu's rules: the invoice is read first (how it was paid,
   * what is left), then POST /invoices/{id}/refund (doc 2 §7): empty for the
   * whole invoice, `partial_value_refund_cents` for part of a card invoice. A
   * refund Iugu documents it refuses (part of a PIX invoice, any boleto) is
   * refused here, nothing sent, with the member's refund failure text.
   */
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const path = (template: string) => fillPath(template, { id: transactionId });
    const read = await this.exchange('refoundTransaction', prefix, () => this.http(ctx).get(path(this.paths.invoice)), refusable(IUGU_INVOICE));
    const plan = planIuguRefund(this.accepted('refoundTransaction', prefix, read), this.toProviderAmount(amount), prefix);
    if ('refusal' in plan) throw this.failure('refoundTransaction', prefix, plan.refusal);
    const answer = await this.exchange('refoundTransaction', prefix, () => this.http(ctx).post(path(this.paths.refund), plan.body), refusable(IUGU_INVOICE));
    return fromIuguRefund(this.accepted('refoundTransaction', prefix, answer));
  }

  /**
   * POST /payment_token as Iugu.js sends it: the account id (the account's
   * public key) identifies the seller, and the API token is not sent.
   */
  override async createCardToken(ctx: AdapterContext, card: CardInput): Promise<string> {
    const prefix = this.prefixFor('createCardToken');
    const accountId = ctx.publicKey.trim();
    if (!accountId) throw new GatewayError('FAILED_PRECONDITION', 'publicKey is required', { reason: 'CREDENTIALS_MISSING', field: 'publicKey' });
    const answer = await this.exchange(
      'createCardToken',
      prefix,
      () => this.http(ctx, { auth: { type: 'none' } }).post(this.paths.paymentToken, toIuguPaymentToken(card, accountId)),
      refusable(IUGU_PAYMENT_TOKEN),
    );
    return this.accepted('createCardToken', prefix, answer).id;
  }

  /**
   * A withdraw request, POST /accounts/{account id}/request_withdraw `{amount}`
   * in reais (Iugu's own unit for this call): the money goes to the bank
   * domicile registered on the Iugu account (the account's public key names
   * it), so a payout that names a destination is refused rather than sent elsewhere.
   */
  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    if (!this.capabilities.withdrawMethods.includes(input.paymentMethod))
      throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    if (input.bankAccount || input.pixKey || input.receiverId)
      throw invalidArgument(
        'withdraw.bank_account',
        `${this.identity.id} pays out only to the bank account registered on the Iugu account: leave withdraw.bank_account, pix_key and receiver_id empty`,
        'NOT_ALLOWED',
      );
    const accountId = ownAccountId(ctx, 'whose balance is withdrawn');
    const prefix = this.prefixFor('withdraw');
    const answer = await this.exchange(
      'withdraw',
      prefix,
      () => this.http(ctx).post(fillPath(this.paths.withdraw, { id: accountId }), { amount: centsToReais(input.amount) }),
      refusable(IUGU_WITHDRAW),
    );
    const request = this.accepted('withdraw', prefix, answer);
    return { withdrawId: request.id, status: this.withdrawalStatus(request.status ?? 'pending'), amount: input.amount };
  }

  /**
   * GET /accounts/{account id} (Informações da Conta) with the account's own API token: what it can withdraw
   * (`balance_available_for_withdraw`, else `balance`, formatted "R$ 1.234,56"). Iugu reports no pending figure there.
   */
  override async getAccountBalance(ctx: AdapterContext): Promise<AccountBalance> {
    const accountId = ownAccountId(ctx, 'whose balance is read');
    const prefix = this.prefixFor('getAccountBalance');
    const answer = await this.exchange(
      'getAccountBalance',
      prefix,
      () => this.http(ctx).get(fillPath(IUGU_SUBACCOUNT_PATHS.account, { id: accountId })),
      refusable(IUGU_ACCOUNT),
    );
    return { available: this.accepted('getAccountBalance', prefix, answer).balanceCents, currency: 'BRL' };
  }

  /** The HTTP client of one sub-account: its own API token as the Basic user, as for the marketplace's. */
  private subAccount(ctx: AdapterContext, token: string): ProviderHttp {
    return this.http(ctx, { auth: { type: 'basic', username: () => token, password: 'empty' } });
  }

  /**
   * A receiver is an Iugu sub-account (document 1 §5's verification-document
   * receivers): checked and its documents read before anything is sent
   * ('Error on upload pdf' for one that cannot be read), then created with
   * the marketplace's token and sent for verification with its own. It is
   * PENDING until Iugu verifies it; its API token is kept, sealed, to read it.
   */
  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    const plan = planSubAccount(input);
    const timeoutMs = this.runtime.timeoutMs ?? this.declaration.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
    const files = Object.fromEntries(await Promise.all(plan.documents.map(async (document) => [document.file, await readDocument(document, timeoutMs)])));
    const prefix = this.prefixFor('createReceiver');
    const created = await this.exchange(
      'createReceiver',
      prefix,
      () => this.http(ctx).post(IUGU_SUBACCOUNT_PATHS.createAccount, toIuguSubAccount(input)),
      refusable(IUGU_CREATED_ACCOUNT),
    );
    const account = fromIuguCreatedAccount(this.accepted('createReceiver', prefix, created));
    const body = toIuguVerification(input, plan, files);
    try {
      const verification = await this.exchange(
        'createReceiver',
        prefix,
        () => this.subAccount(ctx, account.userToken).post(fillPath(IUGU_SUBACCOUNT_PATHS.requestVerification, { id: account.accountId }), body),
        refusable(IUGU_VERIFICATION),
      );
      this.accepted('createReceiver', prefix, verification);
    } catch (error) {
      // The sub-account exists (Iugu cannot delete one): the failure says which, so an operator can verify it in Iugu's panel within 24 hours.
      const failure = error instanceof GatewayError ? error : this.failure('createReceiver', prefix, error);
      throw new GatewayError(failure.code, `${failure.message} (subconta ${account.accountId} criada sem verificação)`, failure.details);
    }
    return {
      receiverId: account.accountId,
      receiverProvider: this.identity.id,
      name: input.name,
      document: digitsOnly(input.document),
      documentType: plan.isCompany ? 'CNPJ' : 'CPF',
      email: input.email,
      status: 'PENDING',
      balance: 0,
      secret: account.liveToken,
    };
  }

  /**
   * GET /accounts/{id} with the sub-account's own token (kept at its
   * creation): document 1 §4's first receiver rule and its balance. An ACTIVE
   * sub-account gets PIX and installments switched on (document 1 §4).
   */
  override async getReceiver(ctx: AdapterContext, receiverId: string, stored?: StoredReceiver): Promise<ReceiverResult> {
    const prefix = this.prefixFor('getReceiver');
    if (!stored?.secret)
      throw new GatewayError('FAILED_PRECONDITION', `${prefix}: receiver ${receiverId} was not created through the gateway, so its Iugu API token is unknown`, {
        field: 'receiver_id',
        reason: 'RECEIVER_NOT_CREATED_HERE',
      });
    const http = this.subAccount(ctx, stored.secret);
    // A 404 is the declaration's `notFound` text (IUGU: 'Recebedor não encontrado.').
    const answer = await this.exchange(
      'getReceiver',
      prefix,
      () => http.get(fillPath(IUGU_SUBACCOUNT_PATHS.account, { id: receiverId })),
      refusable(IUGU_ACCOUNT),
    );
    const account = this.accepted('getReceiver', prefix, answer);
    const status = iuguReceiverStatus(account);
    if (status === 'ACTIVE') await this.switchOnPixAndInstallments(http, receiverId);
    const document = digitsOnly(account.cnpj ?? account.cpf ?? '');
    return {
      receiverId,
      receiverProvider: this.identity.id,
      name: account.name ?? '',
      document,
      documentType: document ? inferDocumentType(document) : 'CPF',
      email: account.email ?? '',
      status,
      balance: account.balanceCents,
    };
  }

  /**
   * Document 1 §4: "whenever a receiver is ACTIVE, PIX and installments are
   * switched on automatically if off": PUT /payments/pix {enable: true} (Iugu
   * answers 400 "Conta já possui Pix ativo" when it is on) and POST
   * /accounts/configuration {credit_card: {active, installments}}, both with
   * the sub-account's token. Neither is the read's outcome: a failure is logged
   * and the next read tries again.
   */
  private async switchOnPixAndInstallments(http: ProviderHttp, receiverId: string): Promise<void> {
    const attempt = async (what: string, send: () => Promise<unknown>, alreadyOn?: RegExp) => {
      try {
        await send();
      } catch (error) {
        const body = axios.isAxiosError(error) ? error.response?.data : undefined;
        const refusal = IUGU_REFUSAL.safeParse(body);
        const reason = refusal.success ? iuguErrorText(refusal.data.errors) : providerMessage(body);
        if (reason && alreadyOn?.test(reason)) return;
        this.log.warn({ provider: this.identity.id, receiverId, what, failure: reason ?? String(error) }, 'could not switch on a sub-account setting');
      }
    };
    await attempt('pix', () => http.put(IUGU_SUBACCOUNT_PATHS.pix, { enable: true }), /j[aá] possui Pix ativo/i);
    await attempt('installments', () => http.post(IUGU_SUBACCOUNT_PATHS.configuration, { credit_card: { active: true, installments: true } }));
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const payout = this.capabilities.withdrawMethods.length ? readIuguWithdrawTrigger(notification.body, IUGU_WITHDRAW_EVENTS) : undefined;
    if (payout) {
      const status = this.withdrawalStatus(payout.status);
      return { type: 'WITHDRAW', transactionId: payout.withdrawRequestId, status, ...payoutRefusal(status, payout.feedback) };
    }
    const trigger = readIuguTrigger(notification.body, this.events);
    return trigger && { type: 'TRANSACTION', transactionId: trigger.invoiceId, status: this.transactionStatus(trigger.status) };
  }

  /**
   * A trigger registered with an `authorization` (POST /web_hooks `{event,
   * url, authorization}`) carries it as Basic Authentication: Iugu's Criar
   * Gatilho, "Grave uma chave / key para usar como 'Basic Authentication' na
   * validação do recebimento dos gatilhos". With the account's webhook secret
   * set to that key, a trigger is valid when its Authorization header is the
   * key as Basic credentials (`Basic <key>`, or the key base64-encoded) or the
   * key alone; another value is refused. Without a secret, or without the
   * header (an invoice's notification_url), it is unsigned: confirmed by a read.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    const header = notification.headers.authorization;
    if (!ctx.webhookSecret || header === undefined) return 'unsigned';
    return iuguTriggerAuthorized(header, ctx.webhookSecret) ? 'valid' : 'invalid';
  }

  /** Triggers carry no id of their own: the invoice (or withdraw request) and its status identify one (created and status_changed 'pending' are the same news). */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const payout = readIuguWithdrawTrigger(notification.body, IUGU_WITHDRAW_EVENTS);
    if (payout) return notificationKeyOf({ subject: 'withdraw_request', id: payout.withdrawRequestId, status: payout.status }, notification.body);
    const trigger = readIuguTrigger(notification.body, this.events);
    return trigger
      ? notificationKeyOf({ subject: 'invoice', id: trigger.invoiceId, status: trigger.status }, notification.body)
      : super.notificationKey(ctx, notification);
  }
}
