import { randomUUID } from 'node:crypto';
import type { RefundResult, TransactionInput, TransactionResult, WebhookResult, WithdrawInput, WithdrawResult } from '../../../domain/types.js';
import { GatewayError, invalidArgument } from '../../../lib/errors.js';
import type { ProviderHttp } from '../../../lib/http/index.js';
import { isRecord } from '../../../lib/json.js';
import { centsToReais, centsToReaisString } from '../../../lib/money.js';
import { withPixQrImage } from '../../../lib/pixQrCode.js';
import { CATALOGUE, catalogueError, providerFailure } from '../../../lib/providerMessages.js';
import { textOf } from '../../../lib/values.js';
import type { AccountSettings, AdapterContext, IncomingNotification } from '../../adapter.js';
import { fillPath, type AdapterRuntime } from '../../kit/declaration.js';
import { DeclaredAdapter } from '../../kit/declaredAdapter.js';
import { fromCob, fromDictPayment, toCobRequest, toDictPaymentRequest } from './mappers.js';
import { BACEN_PIX_CREDENTIALS, DICT_PAYMENT_PATH, IDEMPOTENCY_HEADER, type BacenPixMember, type BacenPixPayout } from './member.js';
import { bacenPixNotificationKey, readBacenPixNotification } from './notifications.js';
import { COB_STATUSES, PAYOUT_STATUSES, REFUND_FAILED } from './statuses.js';
import type { Cob, Devolucao, DictPayment } from './wire.js';

/** Bacen's devolução id: [a-zA-Z0-9]{1,35}. */
const newDevolucaoId = (): string => randomUUID().replace(/-/g, '');

/**
 * The "BACEN API Pix" family (DESIGN §3; spec doc 2 §4/§7 for VOLUTI and TREEAL,
 * doc 3 §4/§5/§7 for Podpay and Onz): OAuth2 client credentials over mTLS with
 * the platform's certificate, immediate charges by POST /cob and GET /cob/{txid}
 * as the Banco Central's API Pix defines them, payouts by POST
 * /pix/payments/dict (the payment-initiation dialect these PSPs share), and
 * their notifications. One class for every member.
 *
 * Where the specification is silent: the payout id is the endToEndId (what GET
 * /pix/payments/{id} and the TRANSFER event carry), else the PSP's numeric id;
 * the idempotency header carries the caller's idempotency key, else its
 * withdrawReference, else a fresh UUID.
 */
export class BacenPixAdapter extends DeclaredAdapter<BacenPixMember> {
  constructor(member: BacenPixMember, runtime: AdapterRuntime = {}) {
    super({ ...member, credentials: member.credentials ?? BACEN_PIX_CREDENTIALS }, runtime, {
      family: 'BACEN API Pix',
      transactionStatuses: COB_STATUSES,
      withdrawalStatuses: PAYOUT_STATUSES,
    });
    // The API Pix carries reais (valor.original "10.00", payment.amount 10): a member cannot declare otherwise.
    if (member.money !== 'reais') throw new Error(`${member.identity.id}: the BACEN API Pix carries amounts in reais, not ${member.money}`);
    if (this.capabilities.refunds && !member.refund) throw new Error(`${member.identity.id} declares refunds without saying how (refund)`);
    if (this.capabilities.withdrawMethods.length && !member.payout) throw new Error(`${member.identity.id} declares withdrawals without saying how (payout)`);
    if (this.capabilities.withdrawalLookup && !member.payout?.lookupPath)
      throw new Error(`${member.identity.id} declares withdrawal lookups without a payout lookupPath`);
  }

  /**
   * Beyond the keys: the platform's certificate URLs, which every cash-in and
   * cash-out call presents ('Unauthorized.' without them, doc 2 §5/§8), and
   * the platform record where the member's payouts need it.
   */
  override checkAccount(account: AccountSettings): void {
    super.checkAccount(account);
    const refuse = (field: string) => new GatewayError('INVALID_ARGUMENT', CATALOGUE.UNAUTHORIZED.message, { reason: 'UNAUTHORIZED', field });
    if (!account.certCashInUrl) throw refuse('cert_cash_in_url');
    const payout = this.declaration.payout;
    if (payout && payout.mtls !== false && !account.certCashOutUrl) throw refuse('cert_cash_out_url');
    if (payout?.requirePlatform && !account.platformId) throw refuse('platform_id');
  }

  private passphrase = (account: AdapterContext): string =>
    String((this.credentials(account) as { certificatePassphrase?: string }).certificatePassphrase ?? '');

  /** Cash-in: the account's host, the platform's cash-in certificate. */
  private cashIn(ctx: AdapterContext): ProviderHttp {
    return this.http(ctx, { mtls: { certificate: 'cashIn', passphrase: (account) => this.passphrase(account as AdapterContext) } });
  }

  /** Cash-out: the payout host, the platform's cash-out certificate unless the member says its host asks for none. */
  private cashOut(ctx: AdapterContext, payout: BacenPixPayout): ProviderHttp {
    if (payout.requirePlatform && !ctx.platformId) throw catalogueError('UNAUTHORIZED');
    return this.http(ctx, {
      ...(payout.baseUrl ? { baseUrl: payout.baseUrl } : {}),
      ...(payout.mtls === false ? {} : { mtls: { certificate: 'cashOut' as const, passphrase: (account) => this.passphrase(account as AdapterContext) } }),
    });
  }

  /**
   * A read answer must be an object carrying a status: an HTML page, `null`,
   * `{}` or a failure flag is the provider failing (UNAVAILABLE), never a status
   * for the table's unknown default to turn into a rejection.
   */
  private withStatus<T extends { status?: unknown }>(prefix: string, data: unknown, what: string): T {
    if (!isRecord(data) || typeof data.status !== 'string') throw providerFailure(prefix, `resposta do provedor sem ${what} com status`, 'UNAVAILABLE');
    return data as T;
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expirySeconds = this.pixExpirySeconds;
    const { chave } = this.credentials(ctx) as { chave?: string };
    const requestedAt = this.now();
    const { data } = await this.cashIn(ctx).post<Cob>('/cob', toCobRequest(input, { expirySeconds, chave }), { errorPrefix: prefix });
    const result = fromCob(isRecord(data) ? data : {}, (value) => this.transactionStatus(value), { amount: input.amount, requestedAt, expirySeconds });
    if (!result.transactionId) throw providerFailure(prefix, 'a cobrança criada não trouxe txid', 'UNAVAILABLE');
    if (!result.pixCode) throw providerFailure(prefix, `a cobrança ${result.transactionId} não trouxe pixCopiaECola`, 'UNAVAILABLE');
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const { data } = await this.cashIn(ctx).get<Cob>(fillPath('/cob/{txid}', { txid: transactionId }), { errorPrefix: prefix });
    // The id asked for stays the id, whatever the answer echoes.
    return { ...fromCob(this.withStatus(prefix, data, 'cobrança'), (value) => this.transactionStatus(value)), transactionId };
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const refund = this.declaration.refund!;
    const prefix = this.prefixFor('refoundTransaction');
    const http = this.cashIn(ctx);
    if (refund.kind === 'post') {
      const { data } = await http.post<unknown>(fillPath(refund.path, { id: transactionId }), { amount: centsToReais(amount) }, { errorPrefix: prefix });
      const answer = isRecord(data) ? data : {};
      const status = textOf(answer.status)?.toUpperCase();
      const refundId = textOf(answer.id) ?? textOf(answer.refundId) ?? textOf(answer.rtrId) ?? textOf(answer.endToEndId);
      // An answer with neither a status, an id nor a success flag says nothing about the refund: never "ok".
      if (!status && !refundId && typeof answer.success !== 'boolean')
        throw providerFailure(prefix, 'resposta do provedor sem dados do estorno', 'UNAVAILABLE');
      // The PSP's own refund id where it gives one; else the charge's, the only id the refund has.
      return { refundId: refundId ?? transactionId, status: answer.success !== false && !(status && REFUND_FAILED.has(status)) };
    }
    const { data } = await http.get<Cob>(fillPath('/cob/{txid}', { txid: transactionId }), { errorPrefix: prefix });
    // A garbage answer is the provider failing, not a charge without a Pix to return.
    const cob = this.withStatus<Cob>(prefix, data, 'cobrança');
    const endToEndId = cob.pix?.find((pix) => pix.endToEndId)?.endToEndId;
    if (!endToEndId) throw providerFailure(prefix, `a cobrança ${transactionId} não tem Pix recebido`, 'FAILED_PRECONDITION');
    const { data: answer } = await http.put<Devolucao>(
      fillPath('/pix/{e2eid}/devolucao/{id}', { e2eid: endToEndId, id: newDevolucaoId() }),
      { valor: centsToReaisString(amount) },
      { errorPrefix: prefix },
    );
    // An answer with neither an id nor a status ({} or a failure flag) says nothing about the devolução: never "ok".
    if (!isRecord(answer) || (!textOf(answer.id) && !textOf(answer.rtrId) && !textOf(answer.status)))
      throw providerFailure(prefix, 'resposta do provedor sem dados da devolução', 'UNAVAILABLE');
    const devolucao: Devolucao = answer;
    return { refundId: devolucao.rtrId || devolucao.id || endToEndId, status: !REFUND_FAILED.has(String(devolucao.status ?? '').toUpperCase()) };
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.declaration.payout!;
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    if (!input.pixKey?.trim()) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals');
    const prefix = this.prefixFor('withdraw');
    const http = this.cashOut(ctx, payout);
    const idempotencyKey = input.idempotencyKey || input.withdrawReference?.trim() || randomUUID();
    const { data } = await http.post<DictPayment>(
      payout.path ?? DICT_PAYMENT_PATH,
      toDictPaymentRequest(input, this.declaration.pixKeyStyle ?? { phonePrefix: '+55' }),
      {
        errorPrefix: prefix,
        headers: { [payout.idempotencyHeader ?? IDEMPOTENCY_HEADER]: idempotencyKey },
      },
    );
    const result = fromDictPayment(isRecord(data) ? data : {}, (value) => this.withdrawalStatus(value), {
      amount: input.amount,
      approvedAtCreation: payout.statusAtCreation === 'approved',
      now: this.now(),
    });
    if (!result.withdrawId) throw providerFailure(prefix, 'o pagamento criado não trouxe id nem endToEndId', 'UNAVAILABLE');
    return result;
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const payout = this.declaration.payout!;
    const prefix = this.prefixFor('getWithdraw');
    const { data } = await this.cashOut(ctx, payout).get<DictPayment>(fillPath(payout.lookupPath!, { id: withdrawId }), { errorPrefix: prefix });
    return { ...fromDictPayment(this.withStatus(prefix, data, 'pagamento'), (value) => this.withdrawalStatus(value), { now: this.now() }), withdrawId };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return readBacenPixNotification(notification.body, (value) => this.withdrawalStatus(value), { untypedEvent: this.declaration.untypedEvent });
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return bacenPixNotificationKey(notification.body) ?? super.notificationKey(ctx, notification);
  }
}
