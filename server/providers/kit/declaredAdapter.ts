import type { PixPayment, WebhookResult } from '../../domain/types.js';
import { safeEqualText } from '../../lib/constantTime.js';
import { verifySignatureHeader } from '../../lib/hmacSignature.js';
import { identifiedObject, isRecord, parseJsonObject } from '../../lib/json.js';
import { idText } from '../../lib/values.js';
import type { AdapterContext, IncomingNotification, NotificationVerdict } from '../adapter.js';
import type { ProviderDeclaration } from './declaration.js';
import { DeclaredAdapterCore } from './declaredAdapterCore.js';
import { payoutRefusal } from './payoutRefusal.js';
import { notificationKeyOf } from '../notificationKeys.js';

export { unusableAnswer, type ExtraOperation, type FamilyDefaults } from './declaredAdapterCore.js';

/**
 * The class every adapter extends: the declaration's core (declaredAdapterCore.ts:
 * HTTP, credentials, statuses, money, expiries, failures, exchange) and what
 * notifications share: a postback read as the provider's object, its dedup
 * key, and the verdicts of the usual signature schemes.
 */
export abstract class DeclaredAdapter<D extends ProviderDeclaration = ProviderDeclaration> extends DeclaredAdapterCore<D> {
  /**
   * A postback that is the provider's object (a charge or a payout, its id and status) as a result; payouts only where
   * the provider has them, a failed one with the reason it states. A charge's fee, where stated, in the provider's unit; one that cannot be read is left out.
   */
  protected objectNotification(parsed: ObjectNotification | undefined): WebhookResult | undefined {
    if (!parsed) return undefined;
    if (parsed.kind === 'withdrawal') {
      if (!this.capabilities.withdrawMethods.length) return undefined;
      const status = this.withdrawalStatus(parsed.status);
      return { type: 'WITHDRAW', transactionId: parsed.id, status, ...payoutRefusal(status, parsed.refusalReason) };
    }
    const pixPayment = parsed.pixPayment ? { pixPayment: parsed.pixPayment } : {};
    const fee = this.optionalProviderAmount(parsed.fee);
    const providerFee = fee !== undefined && fee >= 0 ? { providerFee: fee } : {};
    return { type: 'TRANSACTION', transactionId: parsed.id, status: this.transactionStatus(parsed.status), ...pixPayment, ...providerFee };
  }

  /** Unsigned postbacks carry no event id that survives re-delivery: the object's kind, id and status identify one (else the body's hash). */
  protected objectNotificationKey(parsed: ObjectNotification | undefined, ctx: AdapterContext, notification: IncomingNotification): string {
    return parsed
      ? notificationKeyOf({ subject: parsed.kind, id: parsed.id, status: parsed.status }, notification.body)
      : super.notificationKey(ctx, notification);
  }

  /** The key of a `chargePostback`: the event's own id where the body has one, else the charge's id and status. */
  protected chargePostbackKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.eventNotificationKey(chargePostback(notification.body), ctx, notification);
  }

  /**
   * A notification authenticated by a credential the sender attaches as it is
   * (Asaas's `asaas-access-token`, Iugu's trigger `authorization`), compared
   * in constant time with the account's webhook secret. Without a secret, or
   * without the header, it is unsigned: the credential is never stored, so a
   * stored notification has none, and the gateway keeps what intake proved.
   */
  protected credentialHeaderVerdict(ctx: AdapterContext, value: string | undefined): NotificationVerdict {
    if (!ctx.webhookSecret || value === undefined) return 'unsigned';
    return safeEqualText(value, ctx.webhookSecret) ? 'valid' : 'invalid';
  }

  /**
   * A notification signed Stripe-style, HMAC-SHA256 (hex) of `<t>.<raw body>`
   * in one header of `t=…,<scheme>=…` pairs (Transfeera, EzzeBank), checked with
   * the account's webhook secret within the tolerance of its arrival; unsigned
   * without a secret. `format` names the provider's keys and timestamp unit.
   */
  protected timestampedBodyVerdict(
    ctx: AdapterContext,
    notification: IncomingNotification,
    header: string,
    format: Pick<Parameters<typeof verifySignatureHeader>[3] & object, 'signatureKey' | 'timestampKey' | 'timestampUnit'> = {},
  ): NotificationVerdict {
    if (!ctx.webhookSecret) return 'unsigned';
    const signed = (timestamp: string) => Buffer.concat([Buffer.from(`${timestamp}.`), notification.body]);
    const check = verifySignatureHeader(ctx.webhookSecret, notification.headers[header], signed, {
      ...format,
      receivedAt: (notification.receivedAt ?? this.now()).getTime(),
    });
    return check.valid ? 'valid' : 'invalid';
  }

  /** The key of a notification read as an object: the provider's event id where it has one (it survives re-delivery), else the object's kind, id and status. */
  protected eventNotificationKey(
    parsed: (ObjectNotification & { eventId?: string }) | undefined,
    ctx: AdapterContext,
    notification: IncomingNotification,
  ): string {
    return parsed?.eventId ? notificationKeyOf({ eventId: parsed.eventId }, notification.body) : this.objectNotificationKey(parsed, ctx, notification);
  }
}

/** A postback read as the provider's object: a charge ('transaction') or a payout ('withdrawal'), its id and status. */
export interface ObjectNotification {
  kind: 'transaction' | 'withdrawal';
  id: string;
  status: string;
  /** A charge's PIX payment, where the notification states it. */
  pixPayment?: PixPayment;
  /** The fee the provider takes of a charge, as the notification states it (the provider's unit). */
  fee?: string | number;
  /** Why a payout failed, as the notification states it: kept only where the payout's status is a failure. */
  refusalReason?: string;
}

/**
 * A postback that is the provider's charge itself, bare or under one of
 * `wrappers`, with its id and status (providers whose postback shape is not
 * documented: Pluggou, Rapdyn); `eventId` is an id beside a wrapped charge.
 * Undefined for anything else (ignored).
 */
export function chargePostback(body: Buffer, wrappers: readonly string[] = ['data']): (ObjectNotification & { eventId?: string }) | undefined {
  const parsed = parseJsonObject(body);
  const charge = identifiedObject(parsed, wrappers);
  if (!parsed || !charge) return undefined;
  const wrapped = wrappers.some((key) => isRecord(parsed[key]));
  const eventId = wrapped ? idText(parsed.id) : undefined;
  return { kind: 'transaction', id: charge.id, status: charge.status, ...(eventId ? { eventId } : {}) };
}
