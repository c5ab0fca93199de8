import { createHash } from 'node:crypto';
import { notImplemented } from '../lib/errors.js';
import {
  OPERATIONS,
  type CardInput,
  type Customer,
  type InstallmentOption,
  type Operation,
  type PaymentMethod,
  type ReceiverInput,
  type ReceiverResult,
  type RefundResult,
  type TransactionInput,
  type TransactionResult,
  type WebhookResult,
  type WithdrawInput,
  type WithdrawMethod,
  type WithdrawResult,
} from '../domain/types.js';

/** Everything an adapter may know about the account it acts for. */
export interface AdapterContext {
  accountId: string;
  publicKey: string;
  secretKey: string;
  /** The account's base_url, or the provider's default address. */
  baseUrl: string;
  platformId?: string;
  certCashInUrl?: string;
  certCashOutUrl?: string;
  webhookSecret?: string;
  /** Where this provider must send notifications for this account (the webhook sidecar). */
  notificationUrl: string;
}

export interface IncomingNotification {
  /** The body exactly as received. */
  body: Buffer;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** When the sidecar received it, for a stored notification checked again; signature age is measured against it (default now). */
  receivedAt?: Date;
}

/**
 * What a notification's signature says: 'valid' or 'invalid' where the provider
 * signs and the account holds the secret; 'unsigned' otherwise, and then the
 * notification is only a hint that the gateway confirms with the provider.
 */
export type NotificationVerdict = 'valid' | 'invalid' | 'unsigned';

export interface CardIdInput {
  cardToken?: string;
  card?: CardInput;
  customer?: Customer;
}

/** Who an adapter is and what it supports, declared by the adapter itself. */
export interface ProviderIdentity {
  /** Upper-case provider id, e.g. VOLUTI. */
  id: string;
  /** Other registry keys that reach the same adapter. */
  aliases: readonly string[];
  /** Which part of the specification describes it. */
  specGroup: string;
  paymentMethods: readonly PaymentMethod[];
  withdrawMethods: readonly WithdrawMethod[];
  /** The provider's address when an account sets none. */
  defaultBaseUrl: string;
}

/**
 * The contract's eleven operations (named as in the specification). An adapter
 * overrides those it supports; the rest throw the specification's
 * not-implemented error, and `operations` is derived from what was overridden.
 */
export abstract class ProviderAdapter {
  abstract readonly identity: ProviderIdentity;

  get operations(): Operation[] {
    return OPERATIONS.filter((operation) => this[operation] !== ProviderAdapter.prototype[operation]);
  }

  supports(operation: Operation): boolean {
    return this.operations.includes(operation);
  }

  createCardToken(_ctx: AdapterContext, _card: CardInput): Promise<string> {
    throw notImplemented();
  }
  createCardId(_ctx: AdapterContext, _input: CardIdInput): Promise<string> {
    throw notImplemented();
  }
  createTransaction(_ctx: AdapterContext, _input: TransactionInput): Promise<TransactionResult> {
    throw notImplemented();
  }
  getTransaction(_ctx: AdapterContext, _transactionId: string): Promise<TransactionResult> {
    throw notImplemented();
  }
  refoundTransaction(_ctx: AdapterContext, _transactionId: string, _amount: number): Promise<RefundResult> {
    throw notImplemented();
  }
  withdraw(_ctx: AdapterContext, _input: WithdrawInput): Promise<WithdrawResult> {
    throw notImplemented();
  }
  getWithdraw(_ctx: AdapterContext, _withdrawId: string): Promise<WithdrawResult> {
    throw notImplemented();
  }
  createReceiver(_ctx: AdapterContext, _input: ReceiverInput): Promise<ReceiverResult> {
    throw notImplemented();
  }
  getReceiver(_ctx: AdapterContext, _receiverId: string): Promise<ReceiverResult> {
    throw notImplemented();
  }
  /** Resolves to undefined for notifications the provider's rules ignore or that cannot be parsed. */
  processWebhook(_ctx: AdapterContext, _notification: IncomingNotification): Promise<WebhookResult | undefined> {
    throw notImplemented();
  }
  calculateInstallments(_ctx: AdapterContext, _amount: number): Promise<InstallmentOption[]> {
    throw notImplemented();
  }

  /** Providers that sign their notifications override this (it must not parse more than the signature needs). */
  verifyNotification(_ctx: AdapterContext, _notification: IncomingNotification): NotificationVerdict {
    return 'unsigned';
  }

  /** Identifies one notification across re-deliveries: the provider's event id where it has one; by default the body's hash. */
  notificationKey(_ctx: AdapterContext, notification: IncomingNotification): string {
    return `sha256:${createHash('sha256').update(notification.body).digest('hex')}`;
  }
}

/** A notification a provider sent while the gateway watched (the sandbox reports it, so a demo can show it). */
export interface SentNotification {
  url: string;
  body: string;
  headers: Record<string, string>;
  responseStatus: number;
}

/**
 * An optional capability: a provider that can pretend a buyer paid a pending
 * charge (the sandbox), after which it notifies the sidecar as for a real payment.
 */
export interface PaymentSimulator {
  simulatePayment(ctx: AdapterContext, transactionId: string): Promise<{ transaction: TransactionResult; notification?: SentNotification }>;
}

export function canSimulatePayments(adapter: ProviderAdapter): adapter is ProviderAdapter & PaymentSimulator {
  return typeof (adapter as Partial<PaymentSimulator>).simulatePayment === 'function';
}

/**
 * An optional capability: a provider that can be asked for the charge or payout
 * it created for a reference of the gateway's (the idempotency key it was sent).
 * It settles a request whose outcome was unknown (a timeout, a 5xx) without
 * sending it again. Resolves to undefined only when the provider certainly has
 * none; a failure to ask rejects.
 */
export interface ReferenceLookup {
  findTransactionByReference(ctx: AdapterContext, reference: string): Promise<TransactionResult | undefined>;
  findWithdrawalByReference(ctx: AdapterContext, reference: string): Promise<WithdrawResult | undefined>;
}

export function canLookUpByReference(adapter: ProviderAdapter): adapter is ProviderAdapter & ReferenceLookup {
  const candidate = adapter as Partial<ReferenceLookup>;
  return typeof candidate.findTransactionByReference === 'function' && typeof candidate.findWithdrawalByReference === 'function';
}
