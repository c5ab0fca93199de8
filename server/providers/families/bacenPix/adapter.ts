import type { RefundResult, TransactionInput, TransactionResult, WebhookResult, WithdrawInput, WithdrawResult } from '../../../domain/types.js';
import { GatewayError, invalidArgument, outcomeOf } from '../../../lib/errors.js';
import type { ProviderHttp } from '../../../lib/http/index.js';
import { pixCodeOnly } from '../../../lib/pixQrCode.js';
import { CATALOGUE, catalogueError, providerFailure } from '../../../lib/providerMessages.js';
import type { AccountSettings, AdapterContext, CertificateField, IncomingNotification } from '../../adapter.js';
import { fillPath, type AdapterRuntime } from '../../kit/declaration.js';
import { DeclaredAdapter } from '../../kit/declaredAdapter.js';
import {
  devolucaoId,
  fromCob,
  fromDevolucao,
  fromDictPayment,
  fromSellsRefund,
  payoutIdempotencyKey,
  receivedEndToEndId,
  toCobRequest,
  toDevolucaoRequest,
  toDictPaymentRequest,
  toSellsRefundRequest,
} from './mappers.js';
import { BACEN_PIX_CREDENTIALS, DICT_PAYMENT_PATH, IDEMPOTENCY_HEADER, type BacenPixMember, type BacenPixPayout, type BacenPixRefund } from './member.js';
import { bacenPixNotificationKey, readBacenPixNotification } from './notifications.js';
import { COB_STATUSES, PAYOUT_STATUSES } from './statuses.js';
import {
  BACEN_COB_CREATED,
  BACEN_COB_READ,
  BACEN_DEVOLUCAO,
  DICT_PAYMENT_ACCEPTED,
  DICT_PAYMENT_CREATED,
  DICT_PAYMENT_READ,
  SELLS_REFUND,
  type Devolucao,
} from './wire.js';

const COB_PATH = '/cob/{txid}';
const DEVOLUCAO_PATH = '/pix/{e2eid}/devolucao/{id}';

/**
 * The "BACEN API Pix" family (DESIGN §3; spec doc 2 §4/§7 for VOLUTI and TREEAL,
 * doc 3 §4/§5/§7 for Podpay and Onz): OAuth2 client credentials over mTLS with
 * the platform's certificate, immediate charges by POST /cob and GET /cob/{txid}
 * as the Banco Central's API Pix defines them, payouts by POST
 * /pix/payments/dict (the payment-initiation dialect these PSPs share), and
 * their notifications. One class for every member. Every call is one
 * `exchange` whose answer is parsed by its schema (wire.ts) and whose failure is
 * the kit's `failure`, so a member's declared texts apply to all of them.
 *
 * Where the specification is silent: the payout id is the endToEndId (what GET
 * /pix/payments/{id} and the TRANSFER event carry), else the PSP's numeric id;
 * the idempotency header and the devolução id are derived from the key the
 * call runs under (mappers.ts), so a call sent again is the same one at the PSP.
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
    if (member.publicRefund && member.apiVersions?.[1] !== 'public')
      throw new Error(`${member.identity.id} declares a public refund without the api_version that chooses it (apiVersions: ['specification', 'public'])`);
    if (this.capabilities.withdrawMethods.length && !member.payout) throw new Error(`${member.identity.id} declares withdrawals without saying how (payout)`);
    if (this.capabilities.withdrawalLookup && !member.payout?.lookupPath)
      throw new Error(`${member.identity.id} declares withdrawal lookups without a payout lookupPath`);
  }

  /** Cash-in always presents its certificate; cash-out too unless the member's payout host asks for none. */
  override get certificateFields(): readonly CertificateField[] {
    const payout = this.declaration.payout;
    return [{ field: 'certCashInUrl', required: true }, ...(payout && payout.mtls !== false ? [{ field: 'certCashOutUrl' as const, required: true }] : [])];
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

  /** The refund this account makes: the public material's where the member has one and the account chose it (api_version 'public'), else the specification's. */
  private refundFor(ctx: AdapterContext): BacenPixRefund {
    const { refund, publicRefund } = this.declaration;
    return publicRefund && this.apiVersion(ctx) === 'public' ? publicRefund : refund!;
  }

  private readonly cobStatus = (value: string) => this.transactionStatus(value);
  private readonly payoutStatus = (value: string) => this.withdrawalStatus(value);

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expirySeconds = this.pixExpirySeconds;
    const { chave } = this.credentials(ctx) as { chave?: string };
    const requestedAt = this.now();
    const body = toCobRequest(input, { expirySeconds, chave });
    const cob = await this.exchange('createTransaction', prefix, () => this.cashIn(ctx).post('/cob', body), BACEN_COB_CREATED);
    return pixCodeOnly(fromCob(cob, this.cobStatus, { amount: input.amount, requestedAt, expirySeconds }));
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const cob = await this.exchange(
      'getTransaction',
      this.prefixFor('getTransaction'),
      () => this.cashIn(ctx).get(fillPath(COB_PATH, { txid: transactionId })),
      BACEN_COB_READ,
    );
    // The id asked for stays the id, whatever the answer echoes.
    return { ...fromCob(cob, this.cobStatus), transactionId };
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number, idempotencyKey?: string): Promise<RefundResult> {
    const refund = this.refundFor(ctx);
    const prefix = this.prefixFor('refoundTransaction');
    const http = this.cashIn(ctx);
    if (refund.kind === 'post') {
      const path = fillPath(refund.path, { id: transactionId });
      const answer = await this.exchange('refoundTransaction', prefix, () => http.post(path, toSellsRefundRequest(amount)), SELLS_REFUND);
      return fromSellsRefund(answer, transactionId);
    }
    const cob = await this.exchange('refoundTransaction', prefix, () => http.get(fillPath(COB_PATH, { txid: transactionId })), BACEN_COB_READ);
    const endToEndId = this.mapped('refoundTransaction', prefix, () => receivedEndToEndId(cob) ?? this.nothingToReturn(prefix, transactionId));
    const path = fillPath(DEVOLUCAO_PATH, { e2eid: endToEndId, id: devolucaoId(endToEndId, idempotencyKey) });
    let devolucao: Devolucao;
    try {
      devolucao = await this.exchange('refoundTransaction', prefix, () => http.put(path, toDevolucaoRequest(amount)), BACEN_DEVOLUCAO);
    } catch (refused) {
      // Sent again after its answer was lost, a devolução names an id the PSP already used (a PixDevolucaoInvalida of the
      // API Pix): the one made the first time is read back, never taken for a refusal that would free its cents.
      if (!idempotencyKey || outcomeOf(refused) !== 'failed') throw refused;
      devolucao = await this.madeBefore(path, http, prefix, refused);
    }
    return fromDevolucao(devolucao, endToEndId);
  }

  /** A charge whose cob shows no Pix received has nothing to return. */
  private nothingToReturn(prefix: string, transactionId: string): never {
    throw providerFailure(prefix, `a cobrança ${transactionId} não tem Pix recebido`, 'FAILED_PRECONDITION');
  }

  /** GET on the devolução's path: the devolução made before, or the PUT's refusal when there is none (404); a read that fails otherwise is that failure (its outcome unknown). */
  private async madeBefore(path: string, http: ProviderHttp, prefix: string, refused: unknown): Promise<Devolucao> {
    try {
      return await this.exchange('refoundTransaction', prefix, () => http.get(path), BACEN_DEVOLUCAO);
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'NOT_FOUND') throw refused;
      throw error;
    }
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.declaration.payout!;
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    if (!input.pixKey?.trim()) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals', 'REQUIRED');
    const key = payoutIdempotencyKey(ctx.accountId, input.idempotencyKey || input.withdrawReference?.trim());
    const body = toDictPaymentRequest(input, this.declaration.pixKeyStyle ?? { phonePrefix: '+55' });
    const byKey = payout.knownBy === 'idempotencyKey';
    const payment = await this.exchange(
      'withdraw',
      this.prefixFor('withdraw'),
      () => this.cashOut(ctx, payout).post(payout.path ?? DICT_PAYMENT_PATH, body, { headers: { [payout.idempotencyHeader ?? IDEMPOTENCY_HEADER]: key } }),
      byKey ? DICT_PAYMENT_ACCEPTED : DICT_PAYMENT_CREATED,
    );
    const result = fromDictPayment(payment, this.payoutStatus, {
      amount: input.amount,
      approvedAtCreation: payout.statusAtCreation === 'approved',
      now: this.now(),
    });
    return byKey ? { ...result, withdrawId: key } : result;
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const payout = this.declaration.payout!;
    const payment = await this.exchange(
      'getWithdraw',
      this.prefixFor('getWithdraw'),
      () => this.cashOut(ctx, payout).get(fillPath(payout.lookupPath!, { id: withdrawId })),
      DICT_PAYMENT_READ,
    );
    return { ...fromDictPayment(payment, this.payoutStatus, { now: this.now() }), withdrawId };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return readBacenPixNotification(notification.body, this.payoutStatus, {
      untypedEvent: this.declaration.untypedEvent,
      payoutKnownBy: this.declaration.payout?.knownBy,
    });
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return bacenPixNotificationKey(notification.body) ?? super.notificationKey(ctx, notification);
  }
}
