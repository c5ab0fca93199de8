import { randomUUID } from 'node:crypto';
import type { TransactionInput, TransactionResult, WebhookResult, WithdrawInput, WithdrawResult } from '../../../domain/types.js';
import { invalidArgument } from '../../../lib/errors.js';
import { pixCodeOnly } from '../../../lib/pixQrCode.js';
import { catalogueError } from '../../../lib/providerMessages.js';
import type { AdapterContext, IncomingNotification } from '../../adapter.js';
import { fillPath, type AdapterRuntime } from '../../kit/declaration.js';
import { DeclaredAdapter } from '../../kit/declaredAdapter.js';
import { fromCreatedQrCode, fromPayment, fromQrCode, toPaymentRequest, toQrCodeRequest } from './mappers.js';
import { PRIMEPAG_CREDENTIALS, PRIMEPAG_PATHS, PRIMEPAG_PIX_KEY_STYLE, type PrimePagMember, type PrimePagPaths } from './member.js';
import { primePagNotificationKey, readPrimePagNotification } from './notifications.js';
import { PRIMEPAG_PAYMENT_STATUSES, PRIMEPAG_QR_CODE_STATUSES } from './statuses.js';
import { primePagCreatedQrCode, primePagPayment, primePagQrCode } from './wire.js';

/**
 * The PrimePag platform (DESIGN §3; spec doc 2 §4/§7 for ZENDRY; research
 * "G-B"): an OAuth2 token from POST /auth/generate_token, PIX charges as QR
 * codes (POST /v1/pix/qrcodes, GET /v1/pix/qrcodes/{reference_code}), payouts
 * to a PIX key (POST /v1/pix/payments), and the platform's notifications. One
 * class for every member; a member is `new PrimePagAdapter(ITS_DECLARATION, runtime)`.
 *
 * Where neither the spec nor the research says: the payout's idempotent_id is
 * the caller's idempotency key, else its withdrawReference, else a fresh UUID;
 * the charge's external_reference is the caller's order id.
 */
export class PrimePagAdapter extends DeclaredAdapter<PrimePagMember> {
  protected readonly paths: PrimePagPaths;

  constructor(member: PrimePagMember, runtime: AdapterRuntime = {}) {
    super({ ...member, credentials: member.credentials ?? PRIMEPAG_CREDENTIALS }, runtime, {
      family: 'PrimePag platform',
      transactionStatuses: PRIMEPAG_QR_CODE_STATUSES,
      withdrawalStatuses: PRIMEPAG_PAYMENT_STATUSES,
    });
    this.paths = { ...PRIMEPAG_PATHS, ...member.paths };
    const id = member.identity.id;
    // What the platform cannot do cannot be declared: the operation would answer from nowhere.
    if (member.money !== 'cents') throw new Error(`${id}: the PrimePag platform carries amounts in cents (value_cents), not ${member.money}`);
    if (this.capabilities.paymentMethods.some((method) => method !== 'PIX')) throw new Error(`${id}: the PrimePag platform takes PIX charges only`);
    if (this.capabilities.withdrawMethods.some((method) => method !== 'PIX')) throw new Error(`${id}: the PrimePag platform pays out to PIX keys only`);
    for (const capability of ['refunds', 'withdrawalLookup', 'receivers', 'cardTokens', 'savedCards', 'installments'] as const) {
      if (this.capabilities[capability]) throw new Error(`${id} declares ${capability}, which the PrimePag platform does not offer`);
    }
  }

  private terms<S>(status: (value: string) => S, requestedAmount?: number) {
    // An amount the schema let through that is still no amount in cents (12.5) makes the answer unusable: never a guess, never INTERNAL.
    return { status, amount: (value: number | string) => this.amountOr(value, undefined, 'value_cents em centavos'), requestedAmount };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toQrCodeRequest(input, { valueCents: this.toProviderAmount(input.amount), expirySeconds: this.pixExpirySeconds });
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post(this.paths.qrCodes, body), primePagCreatedQrCode);
    const result = this.mapped('createTransaction', prefix, () =>
      fromCreatedQrCode(answer, { ...this.terms((value) => this.transactionStatus(value), input.amount), expiresAt }),
    );
    // The image is drawn from the BR Code, never taken from the provider's image_base64.
    return pixCodeOnly(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange('getTransaction', prefix, () => this.http(ctx).get(fillPath(this.paths.qrCode, { id: transactionId })), primePagQrCode);
    const result = this.mapped('getTransaction', prefix, () =>
      fromQrCode(
        answer,
        transactionId,
        this.terms((value) => this.transactionStatus(value)),
      ),
    );
    return pixCodeOnly(result);
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    const { pixKey, pixType } = input;
    if (!pixKey?.trim()) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals', 'REQUIRED');
    if (!pixType) throw invalidArgument('withdraw.pix_type', 'withdraw.pix_type is required for PIX withdrawals', 'REQUIRED');
    const prefix = this.prefixFor('withdraw');
    const body = toPaymentRequest(
      { amount: input.amount, pixKey, pixType },
      {
        valueCents: this.toProviderAmount(input.amount),
        idempotentId: input.idempotencyKey || input.withdrawReference?.trim() || randomUUID(),
        style: this.declaration.pixKeyStyle ?? PRIMEPAG_PIX_KEY_STYLE,
      },
    );
    const answer = await this.exchange('withdraw', prefix, () => this.http(ctx).post(this.paths.payments, body), primePagPayment);
    return this.mapped('withdraw', prefix, () =>
      fromPayment(
        answer,
        this.terms((value) => this.withdrawalStatus(value), input.amount),
      ),
    );
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return readPrimePagNotification(notification.body, {
      chargeStatus: (value) => this.transactionStatus(value),
      // A member without payouts has none to be told about.
      ...(this.capabilities.withdrawMethods.length ? { payoutStatus: (value: string) => this.withdrawalStatus(value) } : {}),
    });
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return primePagNotificationKey(notification.body) ?? super.notificationKey(ctx, notification);
  }
}
