import { notImplemented, type GatewayError } from '../lib/errors.js';
import { assertPaymentMethodOffered } from '../lib/paymentMethods.js';
import { catalogueError } from '../lib/providerMessages.js';
import { defaultWithdrawDescription } from '../lib/withdrawDescription.js';
import type { PixKeyType } from '../lib/pixKey.js';
import type { DisputeDefense, DisputeDefenseReceipt } from '../domain/disputes.js';
import {
  OPERATIONS,
  type CardInput,
  type Customer,
  type InstallmentOption,
  type AccountBalance,
  type Operation,
  type PaymentMethod,
  type ReadCharge,
  type ReceiverInput,
  type ReceiverResult,
  type RefundedCharge,
  type RefundResult,
  type TransactionInput,
  type TransactionResult,
  type WebhookResult,
  type WithdrawInput,
  type WithdrawMethod,
  type WithdrawResult,
} from '../domain/types.js';
import { notificationKeyOf } from './notificationKeys.js';
import { testConnection, type ConnectionTest } from './kit/connectionTest.js';
import type { CredentialKey } from './kit/credentials.js';

export type { ConnectionTest, CredentialKey };

/** Everything an adapter may know about the account it acts for. */

/** What CalculateInstallments knows of the card to quote for: its BIN (6 to 8 digits, checked), when the caller gave it. */
export interface InstallmentCard {
  bin?: string;
}

export interface AdapterContext {
  accountId: string;
  publicKey: string;
  secretKey: string;
  /** The account's base_url, or the provider's default address. */
  baseUrl: string;
  platformId?: string;
  certCashInUrl?: string;
  certCashOutUrl?: string;
  /** Where the gateway reads a certificate URL from (a presigned GET for one in its own private store): HttpAccount's. */
  certificateReadUrl?: (url: string) => Promise<string>;
  webhookSecret?: string;
  /** The API dialect the account chose (ProviderAdapter.apiVersions); undefined: the provider's default. */
  apiVersion?: string;
  /** Where this provider must send notifications for this account (the webhook sidecar). */
  notificationUrl: string;
}

/** What an account gives an adapter before any call: its keys and certificate URLs. */
/** What the gateway keeps of a receiver that its adapter may need to read it again. */
export interface StoredReceiver {
  secret?: string;
}

/** A client certificate an adapter reads (mutual TLS, or one sent in a header): the account field with its address. */
export interface CertificateField {
  readonly field: 'certCashInUrl' | 'certCashOutUrl';
  /** False where only some of the provider's dialects read it (checkAccount then decides by the account's dialect). */
  readonly required: boolean;
}

export type AccountSettings = Pick<AdapterContext, 'publicKey' | 'secretKey' | 'platformId' | 'certCashInUrl' | 'certCashOutUrl' | 'apiVersion'>;

export interface IncomingNotification {
  /** The body exactly as received. */
  body: Buffer;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The URL's query parameters (first value of each), credential-like ones left out; empty where none came. */
  query?: Record<string, string>;
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

/** The parts of the specification a provider can come from (typed, so a typo is a compile error). */
export const SPEC_GROUPS = {
  DOC2_GROUP1: 'document 2 (group 1)',
  DOC2_GROUP2: 'document 2 (group 2)',
  DOC3_GROUP3: 'document 3 (group 3)',
  DOC3_GROUP4: 'document 3 (group 4)',
  /** The gateway's own sandbox provider, in no document. */
  GATEWAY: 'gateway sandbox (not in the specification)',
} as const;
export type SpecGroup = (typeof SPEC_GROUPS)[keyof typeof SPEC_GROUPS];

/** Who an adapter is. */
export interface ProviderIdentity {
  /** Upper-case provider id, e.g. VOLUTI. */
  id: string;
  /** Other registry keys that reach the same adapter. */
  aliases: readonly string[];
  /** Which part of the specification describes it. */
  specGroup: SpecGroup;
  /** The provider's address when an account sets none. */
  defaultBaseUrl: string;
}

/**
 * What an adapter supports, declared as data (never inferred from which
 * methods a class happens to override). The operations follow from it, and an
 * operation it does not declare rejects with the spec's not-implemented text.
 */
export interface Capabilities {
  /** createTransaction (and getTransaction, unless `transactionLookup` says the provider has no read), for these methods. */
  paymentMethods: readonly PaymentMethod[];
  /** getTransaction: by default whenever the provider takes payments; false for a provider with no read call (FLOW2PAY). */
  transactionLookup: boolean;
  /** withdraw, for these methods (none: no withdrawals). */
  withdrawMethods: readonly WithdrawMethod[];
  /** getWithdraw. */
  withdrawalLookup: boolean;
  /** refoundTransaction. */
  refunds: boolean;
  /** createReceiver and getReceiver. */
  receivers: boolean;
  /** createCardToken. */
  cardTokens: boolean;
  /** createCardId (a card saved at the provider). */
  savedCards: boolean;
  /** calculateInstallments. */
  installments: boolean;
  /** processWebhook. */
  webhooks: boolean;
  /** getAccountBalance: only where the provider's documentation has a balance read (issue 33 §4). */
  balances: boolean;
  /** What the provider's own documentation promises about a create whose answer the gateway did not get; none unless declared. */
  outcomeEvidence?: OutcomeEvidence;
  /** submitDisputeDefense: the provider's API takes a dispute's defence; left out, a defence is recorded by the gateway only. */
  disputeDefense?: boolean;
}

/**
 * What a provider's documentation promises about a charge or payout the gateway sent without hearing the answer (a
 * timeout, a 5xx, a crash while the call was in flight). Each promise is declared only with its source; left out
 * (the default), the gateway never sends such a request again and never takes a lookup that finds nothing as proof
 * that the provider did not act: it keeps looking, then asks an operator.
 */
export interface OutcomeEvidence {
  /**
   * The provider documents that a create carrying the same idempotency key (the adapter sends the gateway's key)
   * within this many seconds of the first answers with the first resource and acts no second time: a retry whose
   * first attempt's outcome is unknown is sent again, with the key, inside that window.
   */
  idempotentResendSeconds?: number;
  /**
   * The provider documents that a create's reference is stored synchronously with the request (no queue in front of
   * it): a lookup by reference that finds nothing at least this many seconds after the request was sent proves that
   * it was not acted on, and frees the key.
   */
  absentAfterSeconds?: number;
  /** Where the documentation says so (address and section). */
  source: string;
}

/** A declaration states what is true; everything it leaves out is not offered. */
export type CapabilityDeclaration = Partial<Capabilities> & Pick<Capabilities, 'paymentMethods'>;

export function capabilitiesOf(declared: CapabilityDeclaration): Capabilities {
  return {
    paymentMethods: declared.paymentMethods,
    withdrawMethods: declared.withdrawMethods ?? [],
    transactionLookup: declared.paymentMethods.length > 0 && (declared.transactionLookup ?? true),
    withdrawalLookup: declared.withdrawalLookup ?? false,
    refunds: declared.refunds ?? false,
    receivers: declared.receivers ?? false,
    cardTokens: declared.cardTokens ?? false,
    savedCards: declared.savedCards ?? false,
    installments: declared.installments ?? false,
    webhooks: declared.webhooks ?? false,
    balances: declared.balances ?? false,
    ...(declared.outcomeEvidence ? { outcomeEvidence: declared.outcomeEvidence } : {}),
    ...(declared.disputeDefense ? { disputeDefense: true } : {}),
  };
}

const OFFERED_WHEN: Record<Operation, (capabilities: Capabilities) => boolean> = {
  createCardToken: (c) => c.cardTokens,
  createCardId: (c) => c.savedCards,
  createTransaction: (c) => c.paymentMethods.length > 0,
  getTransaction: (c) => c.transactionLookup,
  refoundTransaction: (c) => c.refunds,
  withdraw: (c) => c.withdrawMethods.length > 0,
  getWithdraw: (c) => c.withdrawalLookup,
  createReceiver: (c) => c.receivers,
  getReceiver: (c) => c.receivers,
  processWebhook: (c) => c.webhooks,
  calculateInstallments: (c) => c.installments,
  getAccountBalance: (c) => c.balances,
};

/** The contract's operations a set of capabilities offers, in the contract's order. */
export const operationsOf = (capabilities: Capabilities): Operation[] => OPERATIONS.filter((operation) => OFFERED_WHEN[operation](capabilities));

/** The operations of each capabilities object (data, declared once per adapter): ProviderAdapter.operations. */
const offered = new WeakMap<Capabilities, readonly Operation[]>();

/** The spec's not-implemented error, always as a rejected promise (never thrown synchronously). */
const unsupported = (): Promise<never> => Promise.reject(notImplemented());

/**
 * What a provider adapter's request and answer shapes rest on:
 * `documented` or `platform`, a stand-in written from the provider's own (or
 * its white-label platform's) documentation passes in the suite;
 * `unverified`, that documentation exists but no stand-in from it runs yet;
 * `third-party`, no documentation of the provider's own could be read, and
 * third-party public material (integration code, or a platform it is only
 * thought to run on) shaped it; `specification-only`, there is no public
 * material; `built-in`, the gateway's own SANDBOX.
 */
export type EvidenceLevel = 'documented' | 'platform' | 'unverified' | 'third-party' | 'specification-only' | 'built-in';

export interface ProviderEvidence {
  level: EvidenceLevel;
  /** Where that documentation is; empty when there is none. */
  addresses: readonly string[];
}

/**
 * The contract's eleven operations (named as in the specification), and the optional balance read (issue 33 §4). An adapter
 * declares its capabilities and implements the operations they offer; every
 * other operation rejects with 'Method not implemented.'.
 */
export abstract class ProviderAdapter {
  abstract readonly identity: ProviderIdentity;
  abstract readonly capabilities: Capabilities;

  /** Its family of dialects, for the provider catalogue; 'bespoke' for an adapter of its own. */
  get family(): string {
    return 'bespoke';
  }

  /** The API dialects an account may choose (`api_version`), the default first; empty: one dialect only. */
  get apiVersions(): readonly string[] {
    return [];
  }

  /** The account keys it reads, by its own names (kit/credentials.ts); empty: it declares none, and either key may be needed. */
  get credentialKeys(): readonly CredentialKey[] {
    return [];
  }

  /** The client certificates it reads, by the account field holding each one's address; empty: it uses none. */
  get certificateFields(): readonly CertificateField[] {
    return [];
  }

  /** What its shapes rest on (the catalogue's evidence); an adapter that declares nothing is unverified. */
  get evidence(): ProviderEvidence {
    return { level: 'unverified', addresses: [] };
  }

  /** Worked out once per capabilities object: asked several times a charge (the registry's metering asks on every method read). */
  get operations(): readonly Operation[] {
    let operations = offered.get(this.capabilities);
    if (!operations) offered.set(this.capabilities, (operations = Object.freeze(operationsOf(this.capabilities))));
    return operations;
  }

  supports(operation: Operation): boolean {
    return this.operations.includes(operation);
  }

  /**
   * Whether the provider's reads (getTransaction, getWithdraw) say the amount. False only for a provider whose reads
   * never do (PAGSTAR's checks answer paid or not): their amount 0 means "not said" and the gateway compares them by
   * id alone. For any other provider a read's 0 is what it answered, and it matches no charge or payout.
   */
  get readsStateAmounts(): boolean {
    return true;
  }

  /**
   * Checks an account's settings against what the provider needs (required
   * keys, packed formats, certificate URLs) when the account is created or
   * changed, so a mistake is INVALID_ARGUMENT at the door, with the spec's
   * text, not a failure at the first payment. Nothing by default.
   */
  checkAccount(_account: AccountSettings): void {}

  /**
   * The error an operation this provider does not offer rejects with: the
   * spec's 'Method not implemented.', unless the provider has its own text
   * for it (doc 3 §8: Payber's 'Withdraw method not implemented'). The
   * gateway refuses early with it too.
   */
  notOffered(_operation: Operation): GatewayError {
    return notImplemented();
  }

  /**
   * Sends a dispute's defence (its evidence documents, as files or links, as the provider takes them) to the
   * provider, its limits on the documents checked before anything is sent. Offered only where
   * `capabilities.disputeDefense` says so; outside the contract's eleven operations.
   */
  submitDisputeDefense(_ctx: AdapterContext, _defense: DisputeDefense): Promise<DisputeDefenseReceipt> {
    return unsupported();
  }

  /** The payment-method guard with this provider's text (the gateway refuses early with it). */
  assertPaymentMethod(method: PaymentMethod): void {
    assertPaymentMethodOffered(this.capabilities.paymentMethods, method, this.identity.id);
  }

  /**
   * The withdraw-method guard with this provider's text (the gateway refuses early with it): doc 1 §8's 'Método de
   * saque não implementado', unless the provider has its own (doc 3 §8: 'Veltrax suporta apenas saques via PIX').
   */
  assertWithdrawMethod(method: WithdrawMethod): void {
    if (!this.capabilities.withdrawMethods.includes(method)) throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
  }

  /**
   * The description a payout carries when the caller gives none (doc 1 §9, doc 3 §9: "'Saque solicitado' or 'Saque
   * de R$ {amount}'"): 'Saque de R$ {amount}' unless the provider words it 'Saque solicitado'.
   */
  defaultWithdrawDescription(amountCents: number): string {
    return defaultWithdrawDescription(amountCents, 'withAmount');
  }

  /**
   * The key type of a PIX payout whose caller names none, where the specification gives the provider a rule (doc 3
   * §5: Veltrax infers it from the key; PaySharkGateway defaults to evp); undefined, the payout is refused.
   */
  pixKeyTypeWithout(_pixKey: string): PixKeyType | undefined {
    return undefined;
  }

  /**
   * A card charge needs a card reference (doc 1: 'cardId is required for
   * credit card transactions'), checked before anything is sent; a provider
   * whose spec words it otherwise says so in its own text (LYNXPAY's 'Card
   * token is required for credit card payments.', PODPAY2's 'Dados do cartão
   * são obrigatórios…'). The gateway refuses early with it too. `ctx`: the
   * account, for a check that depends on its dialect (AXISBANK's `public`).
   */
  assertCardReference(input: Pick<TransactionInput, 'paymentMethod' | 'cardId'>, _ctx?: AdapterContext): void {
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId?.trim()) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
  }

  /**
   * Whether createTransaction sends a card's own fields (`TransactionInput.card`, opened from the gateway's card
   * token) in this provider's shape, for this account's dialect. False by default: such an adapter is never handed a
   * card, and a charge with a gateway card token is refused before anything is sent.
   */
  takesCardData(_ctx: AdapterContext): boolean {
    return false;
  }

  /**
   * Whether createTransaction can send a card the gateway saved, which has no CVV (none is kept): the request then
   * leaves the CVV out. False by default: a saved card is refused there before anything is sent.
   */
  takesSavedCards(_ctx: AdapterContext): boolean {
    return false;
  }

  createCardToken(_ctx: AdapterContext, _card: CardInput): Promise<string> {
    return unsupported();
  }
  createCardId(_ctx: AdapterContext, _input: CardIdInput): Promise<string> {
    return unsupported();
  }
  createTransaction(_ctx: AdapterContext, _input: TransactionInput): Promise<TransactionResult> {
    return unsupported();
  }
  /**
   * `charge`: what the gateway has stored of the charge (its fee, once an answer stated it), for a provider whose read
   * would otherwise ask again for what is known; absent for a charge the gateway has no record of.
   */
  getTransaction(_ctx: AdapterContext, _transactionId: string, _charge?: ReadCharge): Promise<TransactionResult> {
    return unsupported();
  }
  /**
   * `idempotencyKey`: the key the gateway runs this refund under (the caller's, else one of its own), the same on
   * every retry of it, for a provider that takes one (sent as the provider's own key, or derived from it).
   * `charge`: what the gateway has stored of the charge (its PIX's end-to-end id, once a notification or a read
   * stated it), for a provider whose refund names the payment; adapters never read the record themselves.
   */
  refoundTransaction(_ctx: AdapterContext, _transactionId: string, _amount: number, _idempotencyKey?: string, _charge?: RefundedCharge): Promise<RefundResult> {
    return unsupported();
  }
  withdraw(_ctx: AdapterContext, _input: WithdrawInput): Promise<WithdrawResult> {
    return unsupported();
  }
  getWithdraw(_ctx: AdapterContext, _withdrawId: string): Promise<WithdrawResult> {
    return unsupported();
  }
  createReceiver(_ctx: AdapterContext, _input: ReceiverInput): Promise<ReceiverResult> {
    return unsupported();
  }
  /** `stored.secret`: the credential the provider issued for this receiver at its creation, when the gateway keeps one. */
  getReceiver(_ctx: AdapterContext, _receiverId: string, _stored?: StoredReceiver): Promise<ReceiverResult> {
    return unsupported();
  }
  /** Resolves to undefined for notifications the provider's rules ignore or that cannot be parsed. */
  processWebhook(_ctx: AdapterContext, _notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return unsupported();
  }
  /** `card.bin`: the card's first 6 to 8 digits, checked by the gateway, for a provider whose quote depends on the card. */
  calculateInstallments(_ctx: AdapterContext, _amount: number, _card?: InstallmentCard): Promise<InstallmentOption[]> {
    return unsupported();
  }

  /** The account's balance at the provider, where its documentation has a balance read (`capabilities.balances`). */
  getAccountBalance(_ctx: AdapterContext): Promise<AccountBalance> {
    return unsupported();
  }

  /** "Testar conexão": the kit's one rule for every provider (kit/connectionTest.ts). */
  testConnection(ctx: AdapterContext): Promise<ConnectionTest> {
    return testConnection(this, ctx);
  }

  /** Providers that sign their notifications override this (it must not parse more than the signature needs). */
  verifyNotification(_ctx: AdapterContext, _notification: IncomingNotification): NotificationVerdict {
    return 'unsigned';
  }

  /**
   * What of a notification's body is stored, after it was verified: the body
   * as received, unless the provider puts a shared secret in it (SAQPAY's
   * `ipn_secret`), which is masked so no secret reaches the database. An
   * adapter that masks must answer 'unsigned' for a masked body (what intake
   * proved is kept with the notification).
   */
  storableBody(body: Buffer): Buffer {
    return body;
  }

  /** Identifies one notification across re-deliveries (the one scheme of notificationKeys.ts); by default the body's hash. */
  notificationKey(_ctx: AdapterContext, notification: IncomingNotification): string {
    return notificationKeyOf(undefined, notification.body);
  }
}

/**
 * Makes every operation the capabilities do not offer reject with the spec's
 * text (`notOffered`) on this instance, whatever its class implements (a family implements
 * refunds; a member without them must not reach the provider).
 */
export function lockToCapabilities(adapter: ProviderAdapter): void {
  const offered = new Set(adapter.operations);
  for (const operation of OPERATIONS) {
    if (!offered.has(operation))
      Object.defineProperty(adapter, operation, {
        value: () => Promise.reject(adapter.notOffered(operation)),
        enumerable: false,
        configurable: true,
        writable: true,
      });
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
