/** The gateway's own vocabulary. No protobuf, ORM or HTTP types appear here. */
import type { ProviderChargeback } from './disputes.js';
import type { RoutingRecord } from './routing.js';

// Defined beside the toolkit code that checks them (the toolkit imports nothing of ours); part of the vocabulary all the same.
import type { CardInput } from '../lib/card.js';
import type { DocumentType } from '../lib/documents.js';
import type { UnreadableAmount } from '../lib/money.js';
import type { PixKeyType } from '../lib/pixKey.js';
export type { CardInput, DocumentType, PixKeyType, UnreadableAmount };

export const PAYMENT_METHODS = ['PIX', 'CREDIT_CARD', 'BILLET'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const TRANSACTION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'REFUNDED', 'CHARGEBACK', 'CANCELED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const WITHDRAW_METHODS = ['PIX', 'BANK_ACCOUNT', 'RECEIVER'] as const;
export type WithdrawMethod = (typeof WITHDRAW_METHODS)[number];

/** AWAITING_APPROVAL: held for a second operator's approval, never sent to the provider (no provider reports it). */
export const WITHDRAW_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELED', 'AWAITING_APPROVAL'] as const;
export type WithdrawStatus = (typeof WITHDRAW_STATUSES)[number];

export type ReceiverStatus = 'PENDING' | 'ACTIVE' | 'REJECTED';
export type StatusSource = 'api' | 'webhook' | 'poll';
/** How a transaction came to be: a caller's CreateTransaction, or a provider's notification of a payment with no charge. */
export type TransactionOrigin = 'api' | 'webhook';

export const OPERATIONS = [
  'createCardToken',
  'createCardId',
  'createTransaction',
  'getTransaction',
  'refoundTransaction',
  'withdraw',
  'getWithdraw',
  'createReceiver',
  'getReceiver',
  'processWebhook',
  'calculateInstallments',
  'getAccountBalance',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface Customer {
  name: string;
  email: string;
  document: string;
  phone: string;
}

export interface Item {
  id: string;
  title: string;
  unitPrice: number;
  quantity: number;
  tangible: boolean;
}

export interface Address {
  zipCode: string;
  address: string;
  number: string;
  district: string;
  city: string;
  state: string;
}

export interface Split {
  recipientId: string;
  amount: number;
  type: 'PERCENTAGE' | 'FIXED';
  chargeProcessingFee: boolean;
  chargeRemainder: boolean;
  liable: boolean;
}

export interface TransactionInput {
  amount: number;
  paymentMethod: PaymentMethod;
  customer?: Customer;
  items: Item[];
  description?: string;
  orderId?: string;
  userId?: string;
  userDocument?: string;
  webhookUrl?: string;
  referrerUrl?: string;
  checkoutUrl?: string;
  cardId?: string;
  /**
   * The card itself, opened from the gateway's card token only for the provider call (never stored, never logged);
   * handed only to an adapter that `takesCardData`, which sends it instead of `cardId`.
   */
  card?: CardInput;
  installments: number;
  fingerPrints: { provider: string; value: string }[];
  address?: Address;
  receiverToken?: string;
  customerIp?: string;
  splits: Split[];
  currency: string;
  /** The caller's idempotency key, for providers that take one of their own (so a retry is recognised there too). */
  idempotencyKey?: string;
}

/** What an adapter returns for a charge. */
export interface TransactionResult {
  paymentMethod: PaymentMethod;
  transactionId: string;
  status: TransactionStatus;
  /** Integer cents; 0 from a read whose provider does not say the amount (PAGSTAR's check): the gateway keeps the charge's own. */
  amount: number;
  pixCode?: string;
  pixQrCode?: string;
  billetCode?: string;
  billetUrl?: string;
  expiresAt?: Date;
  /** Integer cents the provider's read says were refunded of the charge so far; absent where it does not say (or said nothing readable). */
  providerRefundedAmount?: number;
  /**
   * A REJECTED charge's reason as the provider states it (a code such as do_not_honor or 05), where the adapter reads
   * one; routes retry a card decline whose reason is on their soft-decline list. Stored with the charge.
   */
  declineReason?: string;
  /**
   * The same decline in the provider's own words (Iugu's message beside its LR, Cel_Cash's ABECS message, Pagar.me's
   * acquirer message), where it gives a text; where it gives only a text, that text is also the declineReason.
   * Stored with the reason, and only with it: the two come from one answer.
   */
  declineMessage?: string;
  /**
   * A card charge's brand and last four digits (never more of a card): as the provider answered them, where it does;
   * on a stored charge, else as read from the gateway's card token when the charge opened it.
   */
  cardBrand?: string;
  cardLast4?: string;
  /**
   * Integer cents of fee the provider says it takes of the charge (its gross less its net), where its answer says so:
   * stored with the charge, and from a later read or notification kept in its place (a silent one keeps the known fee).
   */
  providerFee?: number;
  /** A PIX charge paid: the payment's end-to-end id and payer, where the provider's answer states them. */
  pixPayment?: PixPayment;
}

/**
 * The PIX payment that paid a charge, as its provider reports it: the Banco Central's end-to-end id and the payer
 * (the document as the provider sent it: digits, formatted or masked). Personal data: shown, never logged.
 */
export interface PixPayment {
  endToEndId?: string;
  payerName?: string;
  payerDocument?: string;
  payerBankIspb?: string;
  payerBankName?: string;
}

/**
 * What the gateway has stored of the charge a refund returns, for a provider whose refund names the payment rather
 * than the charge (a PIX's end-to-end id). Facts it does not know are absent: the adapter falls back as documented.
 */
export interface RefundedCharge {
  pixEndToEndId?: string;
}

/**
 * What the gateway has stored of a charge it asks its provider about, for a provider whose read takes further calls
 * to state a fact the gateway already keeps (Pagar.me's fee, from the payables). Facts it does not know are absent:
 * the adapter reads them as usual.
 */
export interface ReadCharge {
  providerFee?: number;
}

export interface RefundResult {
  refundId: string;
  /** True when the provider made or accepted the refund; false when it refused it (its cents are released). */
  status: boolean;
  /**
   * The provider accepted the refund and is still carrying it out (Pagar.me's
   * PIX `pending_refund`): its cents stay reserved, neither refundable again
   * nor counted as refunded, until the provider confirms it. Only with status true.
   */
  pending?: boolean;
}

export interface BankAccount {
  bankCode: string;
  branchNumber: string;
  accountNumber: string;
  accountHolder: string;
  accountDocument: string;
  accountType: string;
}

export interface WithdrawInput {
  paymentMethod: WithdrawMethod;
  amount: number;
  pixKey?: string;
  pixType?: PixKeyType;
  description?: string;
  withdrawReference?: string;
  document?: string;
  documentType?: DocumentType;
  name?: string;
  email?: string;
  receiverId?: string;
  bankAccount?: BankAccount;
  /** The caller's idempotency key, for providers that take one of their own (so a retry is recognised there too). */
  idempotencyKey?: string;
}

export interface WithdrawResult {
  withdrawId: string;
  /** Integer cents; 0 from a read whose provider does not say the amount (PAGSTAR's check): the gateway keeps the payout's own. */
  amount: number;
  status: WithdrawStatus;
  approvedAt?: Date;
  /** A refused or provider-cancelled payout (REJECTED, CANCELED): why, where the provider's answer states it; its text, shown, never parsed. */
  refusalReason?: string;
}

/**
 * What a provider says the account holds, read at the provider (issue 33 §4): integer cents in BRL; `pending`
 * only where the provider reports money received and not yet released.
 */
export interface AccountBalance {
  available: number;
  pending?: number;
  currency: 'BRL';
}

export interface ReceiverInput {
  name: string;
  document: string;
  documentType?: DocumentType;
  email: string;
  description?: string;
  userId?: string;
  bankAccount?: {
    bankCode: string;
    branchNumber: string;
    branchDigit: string;
    accountNumber: string;
    accountDigit: string;
    accountType: string;
    pixCode: string;
  };
  address?: { street: string; number: string; district: string; city: string; state: string; zipcode: string };
  monthlyRevenue?: number;
  /** Where the verification documents of document 1 §5 can be read (providers that verify receivers: IUGU). */
  documents?: ReceiverDocuments;
  /** How the receiver is paid its money (document 1 §3's receiver `paymentMethod`); absent, the provider's default. */
  paymentMethod?: ReceiverPaymentMethod;
}

/** A receiver is paid by PIX (to its bank account's PIX key) or by bank transfer; a receiver is never paid to a receiver. */
export type ReceiverPaymentMethod = Exclude<WithdrawMethod, 'RECEIVER'>;

/** Document 1 §5: document photo, photo with the document, address proof, balance sheet; a CNPJ also the social contract. URLs. */
export interface ReceiverDocuments {
  documentPhotoUrl?: string;
  selfieWithDocumentUrl?: string;
  addressProofUrl?: string;
  balanceSheetUrl?: string;
  socialContractUrl?: string;
}

export interface ReceiverResult {
  receiverId: string;
  receiverProvider: string;
  receiverToken?: string;
  name: string;
  document: string;
  documentType: DocumentType;
  email: string;
  status: ReceiverStatus;
  balance: number;
  /** How the provider pays the receiver, where it says (document 1 §3's `paymentMethod`). */
  paymentMethod?: ReceiverPaymentMethod;
  /** A credential the provider issued for this receiver (an Iugu sub-account's API token): sealed in storage, never returned by the API. */
  secret?: string;
}

export interface InstallmentOption {
  installmentNumber: number;
  /** Cents: each installment but the last. */
  installmentValue: number;
  /** Cents: what the buyer pays in all. */
  finalValue: number;
  /** Cents: the last installment, absorbing the rounding; the gateway fills it in where a provider's answer has none. */
  lastInstallmentValue?: number;
}

/**
 * An account's installment plan (document 000 §5 "Installments"): what CalculateInstallments offers at a provider that
 * takes cards and quotes no installments itself.
 */
export interface InstallmentPlan {
  maxInstallments: number;
  interestFreeInstallments: number;
  /** Percent, one per count from 1 (0 for the interest-free ones). */
  feePercentByInstallment: number[];
  /** Cents. */
  minInstallmentValue: number;
}

/**
 * A payment the provider reports with no charge behind it in the gateway: a
 * static QR code paid, a PIX sent to the account's key. The gateway records it
 * as a transaction of its own (origin webhook).
 */
export interface UnsolicitedPayment {
  type: 'UNSOLICITED_PAYMENT';
  /** The provider's id of the payment; a transaction is recorded once per account and id. */
  transactionId: string;
  /** Integer cents. */
  amount: number;
  paymentMethod: PaymentMethod;
  status: TransactionStatus;
  /** When the provider says the money arrived. */
  paidAt?: Date;
  /** A PIX received: its end-to-end id and payer, where the notification states them. */
  pixPayment?: PixPayment;
}

/**
 * What a notification says happened. `amount` where the provider's notification format carries one: integer cents,
 * or what was sent instead when it is not a whole number of cents (or missing where the format always has it). Any
 * money status for another amount than the record's is refused like any answer that does not match
 * (flowIntegrity.ts), signed or not. Absent where the format has no amount: the provider's read says it.
 */
export type WebhookResult =
  | {
      type: 'TRANSACTION';
      transactionId: string;
      status: TransactionStatus;
      amount?: number | UnreadableAmount;
      pixPayment?: PixPayment;
      /** Integer cents of fee the provider says it takes of the charge, where the notification (or the read behind it) says so. */
      providerFee?: number;
      /**
       * The provider's chargeback of the charge, where the notification is about one, as the adapter read it from the
       * provider (never from the notification's body alone, which may be forged): kept on the charge's dispute.
       */
      chargeback?: ProviderChargeback;
    }
  | { type: 'WITHDRAW'; transactionId: string; status: WithdrawStatus; amount?: number | UnreadableAmount; refusalReason?: string }
  | UnsolicitedPayment;

/** What a stored notification keeps of its result. */
export type WebhookResultSummary =
  | { type: 'TRANSACTION' | 'UNSOLICITED_PAYMENT'; transactionId: string; status: TransactionStatus }
  | { type: 'WITHDRAW'; transactionId: string; status: WithdrawStatus };

export interface StatusChange<S extends string> {
  status: S;
  source: StatusSource;
  changedAt: Date;
}

/** A charge as the gateway keeps it. */
export interface Transaction extends TransactionResult {
  id: string;
  origin: TransactionOrigin;
  provider: string;
  providerAccountId: string;
  installments: number;
  currency: string;
  orderId?: string;
  webhookUrl?: string;
  /** Cents refunded so far; a partial refund leaves the charge APPROVED. */
  refundedAmount: number;
  createdAt: Date;
  updatedAt: Date;
  statusHistory: StatusChange<TransactionStatus>[];
  /** For a charge that named a route: what the route decided and which accounts were tried. */
  routing?: RoutingRecord;
  /** The customer as the charge was asked with (the document as digits, the e-mail lower-cased; no phone). */
  customer?: ChargeCustomer;
  description?: string;
  items?: Item[];
  /** Only where asked for (GetTransaction): every refund the provider answered, oldest first. */
  refunds?: RefundRecord[];
}

export interface ChargeCustomer {
  name?: string;
  email?: string;
  document?: string;
}

export type RefundRecordStatus = 'SUCCEEDED' | 'PENDING' | 'FAILED';

/** One refund of a charge as the provider answered it, and who asked for it. */
export interface RefundRecord {
  id: string;
  amount: number;
  status: RefundRecordStatus;
  providerRefundId?: string;
  requestedBy?: Actor;
  createdAt: Date;
  updatedAt: Date;
}

export interface Withdrawal {
  id: string;
  provider: string;
  providerAccountId: string;
  withdrawId: string;
  paymentMethod: WithdrawMethod;
  status: WithdrawStatus;
  amount: number;
  approvedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
  statusHistory: StatusChange<WithdrawStatus>[];
  /** What was asked (destination, recipient, description); payouts recorded before it was kept, or settled from a notification alone, have none. */
  request?: PayoutRequest;
  /** Who asked for it (an operator's e-mail, a token's name). */
  requestedBy?: Actor;
  /** A second operator's decision on a payout held for approval. */
  review?: PayoutReview;
  /** Why it was refused: the reviewer's reason, or the provider's failure when the approved payout was sent. */
  refusalReason?: string;
  /** For a payout that named a route: what the route decided and which accounts were tried. */
  routing?: RoutingRecord;
}

/** A payout's request as kept with it: the input without the idempotency key. */
export type PayoutRequest = Omit<WithdrawInput, 'idempotencyKey'>;

/** Someone who acted on a payout: the principal's id and the name the audit trail shows. */
export interface Actor {
  id: string;
  name: string;
}

export interface PayoutReview {
  outcome: 'APPROVED' | 'REJECTED';
  by: Actor;
  at: Date;
}

/** What CreateReceiver was given beyond the identity, kept by the gateway (providers do not read it back). */
export type ReceiverDetails = Pick<ReceiverInput, 'description' | 'userId' | 'bankAccount' | 'address' | 'monthlyRevenue' | 'documents' | 'paymentMethod'>;

export interface Receiver extends ReceiverResult {
  id: string;
  providerAccountId: string;
  /** Absent for a receiver the gateway only looked up. */
  details?: ReceiverDetails;
  createdAt: Date;
  updatedAt: Date;
}

/** A provider account as callers see it: secrets are never part of it. */
export interface ProviderAccount {
  id: string;
  provider: string;
  name: string;
  publicKey: string;
  hasSecretKey: boolean;
  baseUrl?: string;
  platformId?: string;
  certCashInUrl?: string;
  certCashOutUrl?: string;
  /** The provider's API dialect this account speaks; undefined: the provider's default. */
  apiVersion?: string;
  /** How CalculateInstallments quotes at this account; undefined: one installment, no fee. */
  installmentPlan?: InstallmentPlan;
  hasWebhookSecret: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The account with its secrets opened, handed only to adapters. */
export interface ProviderAccountWithSecrets extends ProviderAccount {
  secretKey: string;
  webhookSecret?: string;
}

export interface ProviderAccountInput {
  provider: string;
  name: string;
  publicKey: string;
  secretKey: string;
  baseUrl?: string;
  platformId?: string;
  certCashInUrl?: string;
  certCashOutUrl?: string;
  webhookSecret?: string;
  apiVersion?: string;
  installmentPlan?: InstallmentPlan;
}

/** Unset fields keep their value; `installmentPlan: null` removes the plan. */
export type ProviderAccountPatch = Partial<Omit<ProviderAccountInput, 'provider' | 'installmentPlan'>> & { installmentPlan?: InstallmentPlan | null };

/** RECEIVED: stored, waiting for a worker; PROCESSING: a worker holds it. The rest are final except FAILED and UNKNOWN_SUBJECT, which are retried. */
/** A provider answer refused for not matching the gateway's record (ListFlowMismatches). */
export interface FlowMismatch {
  id: string;
  provider: string;
  providerAccountId: string;
  subjectKind: 'transaction' | 'withdrawal';
  subjectId: string;
  source: 'webhook' | 'poll';
  claimedStatus: string;
  expectedAmount: number;
  reportedAmount: number;
  expectedProviderId: string;
  reportedProviderId: string;
  reason: string;
  createdAt: Date;
  /** Set once an operator settled it. */
  settlement?: FlowMismatchSettlement;
}

/** What following a mismatch up with the provider found: the gateway's record stands, or the provider put its side right. */
export type FlowMismatchOutcome = 'ACCEPTED_RECORD' | 'CORRECTED_AT_PROVIDER';

export interface FlowMismatchSettlement {
  outcome: FlowMismatchOutcome;
  note: string;
  by: Actor;
  at: Date;
}

/** Which mismatches a list holds: the open ones are what operators need first. */
export type FlowMismatchState = 'OPEN' | 'SETTLED' | 'ANY';

export type WebhookOutcome =
  'RECEIVED' | 'PROCESSING' | 'APPLIED' | 'UNCHANGED' | 'IGNORED' | 'UNKNOWN_SUBJECT' | 'FAILED' | 'DUPLICATE' | 'REJECTED' | 'UNCONFIRMED' | 'MISMATCH';

export interface WebhookNotification {
  id: string;
  provider: string;
  providerAccountId: string;
  receivedAt: Date;
  outcome: WebhookOutcome;
  outcomeReason?: string;
  result?: WebhookResultSummary;
  /** The gateway's id of the transaction or withdrawal, once known. */
  subjectId?: string;
  processedAt?: Date;
  attempts: number;
}

export type DeliveryState = 'PENDING' | 'DELIVERED' | 'GAVE_UP';

/** After failure n, the next attempt waits schedule[n-1]; past the schedule's end the delivery gives up (24 h and more). */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 86_400_000];

/**
 * When a request whose outcome is unknown is checked with its provider, counted from the moment its outcome became
 * unknown: a request the provider queued may land minutes late, so one lookup that finds nothing proves nothing;
 * after the last check an operator is asked.
 */
export const DEFAULT_UNKNOWN_CHECK_SCHEDULE_MS: readonly number[] = [5_000, 60_000, 300_000, 1_800_000];

export interface OutboundDeliveryAttempt {
  number: number;
  attemptedAt: Date;
  responseStatus: number;
  error?: string;
}

/** One status change on its way to a transaction's webhook_url. */
export interface OutboundDelivery {
  id: string;
  eventId: string;
  transactionId: string;
  url: string;
  state: DeliveryState;
  body: string;
  attempts: OutboundDeliveryAttempt[];
  nextAttemptAt?: Date;
  createdAt: Date;
}

/** Which deliveries in one state the operations console lists (newest first, a page at a time). */
export interface DeliveryListFilter {
  state: DeliveryState;
  url?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

/** What an event is about. Receivers and provider accounts have events too, sent only to watchers that ask for them. */
export type EventSubject = 'TRANSACTION' | 'WITHDRAWAL' | 'RECEIVER' | 'PROVIDER_ACCOUNT';
/** The subjects a watcher that names none gets: those that had events before receivers and accounts did. */
export const DEFAULT_EVENT_SUBJECTS: readonly EventSubject[] = ['TRANSACTION', 'WITHDRAWAL'];
/** What happened to a provider account; its event says no more (never which secret or URL changed). */
export type AccountChange = 'CREATED' | 'UPDATED' | 'DELETED';

export interface StatusEvent {
  /** Increasing, as a decimal string. */
  eventId: string;
  subject: EventSubject;
  subjectId: string;
  providerAccountId: string;
  /** The status after the change; for a provider account, what happened to it. */
  status: TransactionStatus | WithdrawStatus | ReceiverStatus | AccountChange;
  source: StatusSource;
  occurredAt: Date;
}

export interface ServiceToken {
  id: string;
  name: string;
  scopes: string[];
  providerAccountIds: string[];
  /** Not empty for a publishable key only: the web pages' origins it may be used from. */
  allowedOrigins: string[];
  createdAt: Date;
  createdBy: string;
  lastUsedAt?: Date;
  revokedAt?: Date;
}

export interface AuditEvent {
  id: string;
  at: Date;
  actorKind: string;
  actorId: string;
  actorName: string;
  action: string;
  resource: string;
  source: string;
  outcome: string;
  detail: string;
}

export interface Operator {
  id: string;
  email: string;
  role: string;
  disabled: boolean;
  createdAt: Date;
  lastSignInAt?: Date;
  /** Two-step verification (TOTP) is on. */
  totpEnabled: boolean;
}
