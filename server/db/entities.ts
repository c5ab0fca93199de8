import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { InstallmentPlan, Item, ReceiverDetails } from '../domain/types.js';
import type { RouteRule, RoutingRecord } from '../domain/routing.js';
import { CREATE_SEARCH_INDEX, SEARCH_INDEX } from './transactionSearch.js';

/**
 * Tables. Money columns are integer cents (bigint, read as number); secrets are
 * stored sealed (AES-256-GCM), never in clear; card data is never stored.
 */

export const ProviderAccountEntity = defineEntity({
  name: 'ProviderAccount',
  tableName: 'provider_accounts',
  properties: {
    id: p.uuid().primary(),
    provider: p.string().length(64).index(),
    name: p.string(),
    publicKey: p.text(),
    secretKeySealed: p.text(),
    baseUrl: p.text().nullable(),
    platformId: p.string().nullable(),
    certCashInUrl: p.text().nullable(),
    certCashOutUrl: p.text().nullable(),
    webhookSecretSealed: p.text().nullable(),
    apiVersion: p.string().length(32).nullable(),
    /** The account's installment plan (no secret in it); null: one installment, no fee. */
    installmentPlan: p.json<InstallmentPlan>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** Deleted accounts take no new work but still accept notifications for earlier charges. */
    deletedAt: p.datetime().nullable(),
  },
});
export type ProviderAccountRow = InferEntity<typeof ProviderAccountEntity>;

export const TransactionEntity = defineEntity({
  name: 'Transaction',
  tableName: 'transactions',
  // A provider's id names one charge per account (what makes the "already recorded?" check atomic).
  uniques: [{ properties: ['providerAccountId', 'providerTransactionId'] }],
  indexes: [
    // The back-office's lists (newest first, keyset over created_at and id) under each single filter, and the stats' range.
    { properties: ['createdAt', 'id'] },
    { properties: ['providerAccountId', 'createdAt', 'id'] },
    { properties: ['provider', 'createdAt', 'id'] },
    { properties: ['status', 'createdAt', 'id'] },
    { properties: ['paymentMethod', 'createdAt', 'id'] },
    // Its text search: exact matches, each column on its own index (a BitmapOr).
    { properties: ['providerTransactionId'] },
    { properties: ['orderId'] },
    { properties: ['customerDocument'] },
    { properties: ['customerEmail'] },
    // Its search by part (transactionSearch.ts).
    { name: SEARCH_INDEX, expression: CREATE_SEARCH_INDEX },
  ],
  properties: {
    id: p.uuid().primary(),
    providerAccountId: p.uuid(),
    provider: p.string().length(64),
    providerTransactionId: p.string(),
    paymentMethod: p.string().length(16),
    status: p.string().length(16),
    amount: p.bigint('number'),
    /** Cents the provider confirmed refunding. */
    refundedAmount: p.bigint('number').default(0),
    /** Cents reserved by refunds sent to the provider and not yet confirmed (or whose outcome is unknown). */
    refundPendingAmount: p.bigint('number').default(0),
    currency: p.string().length(3),
    installments: p.integer(),
    pixCode: p.text().nullable(),
    pixQrCode: p.text().nullable(),
    billetCode: p.string().nullable(),
    billetUrl: p.text().nullable(),
    expiresAt: p.datetime().nullable(),
    orderId: p.string().nullable(),
    /** The customer's CPF or CNPJ as digits, for the back-office's search; null for charges a provider reported unasked, and for those stored before it was kept. */
    customerDocument: p.string().nullable(),
    /** The customer's e-mail, lower-cased, for the back-office's search. */
    customerEmail: p.string().nullable(),
    /** The customer's name as the charge was asked with (searched by part, migration 20261129020000). */
    customerName: p.text().nullable(),
    description: p.text().nullable(),
    /** The charge's items as asked (titles, unit prices in cents, quantities). */
    items: p.json<Item[]>().nullable(),
    /** A card charged through the gateway's card token: its brand from the first digits and its last 4. Nothing more of a card. */
    cardBrand: p.string().length(16).nullable(),
    cardLast4: p.string().length(4).nullable(),
    /** A declined charge's reason as the provider gave it. */
    declineReason: p.text().nullable(),
    /** The same decline in the provider's words, where it gave a text (migration 20261204010000). */
    declineMessage: p.text().nullable(),
    /** Cents of fee the provider reported for the charge when it created it (the statement's fees); null where it reports none. */
    providerFee: p.bigint('number').nullable(),
    /** A PIX charge paid: the payment's end-to-end id and payer as the provider reported them (migration 20261201010000). */
    pixEndToEndId: p.text().nullable(),
    pixPayerName: p.text().nullable(),
    /** As the provider sent it (digits, formatted or masked). */
    pixPayerDocument: p.text().nullable(),
    pixPayerBankIspb: p.text().nullable(),
    pixPayerBankName: p.text().nullable(),
    webhookUrl: p.text().nullable(),
    idempotencyKey: p.string().nullable(),
    /** 'api' (CreateTransaction) or 'webhook' (a payment the provider reported with no charge). */
    origin: p.string().length(8).default('api'),
    /** When reconciliation last asked the provider. */
    lastPolledAt: p.datetime().nullable(),
    /** For a charge that named a route: the route, the rule, and each account tried (no card data). */
    routing: p.json<RoutingRecord>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type TransactionRow = InferEntity<typeof TransactionEntity>;

/** Each refund a provider answered: made, accepted and still being carried out, or refused. */
export const RefundEntity = defineEntity({
  name: 'Refund',
  tableName: 'refunds',
  // The statement's range of days (GetAccountStatement).
  indexes: [{ properties: ['transactionId', 'createdAt'] }, { properties: ['createdAt'] }],
  // One record per refund request: its idempotency key names it when a later answer settles it.
  uniques: [{ properties: ['transactionId', 'idempotencyKey'] }],
  properties: {
    id: p.uuid().primary(),
    transactionId: p.uuid(),
    amount: p.bigint('number'),
    /** SUCCEEDED, PENDING or FAILED. */
    status: p.string().length(16),
    providerRefundId: p.string().nullable(),
    idempotencyKey: p.string().nullable(),
    requestedById: p.string().nullable(),
    requestedByName: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type RefundRow = InferEntity<typeof RefundEntity>;

export const WithdrawalEntity = defineEntity({
  name: 'Withdrawal',
  tableName: 'withdrawals',
  uniques: [{ properties: ['providerAccountId', 'providerWithdrawId'] }],
  indexes: [
    // ListWithdrawals: newest first overall and per account; its search by the provider's id.
    { properties: ['createdAt', 'id'] },
    { properties: ['providerAccountId', 'createdAt', 'id'] },
    { properties: ['providerWithdrawId'] },
    // Reconciliation's search for payouts due a question: the PENDING ones only.
    {
      name: 'withdrawals_pending_updated_at_index',
      expression: `create index "withdrawals_pending_updated_at_index" on "withdrawals" ("updated_at") where "status" = 'PENDING'`,
    },
  ],
  properties: {
    id: p.uuid().primary(),
    providerAccountId: p.uuid(),
    provider: p.string().length(64),
    /** Null while the payout is held for a second operator's approval (nothing was sent yet). */
    providerWithdrawId: p.string().nullable(),
    paymentMethod: p.string().length(16),
    status: p.string().length(24),
    amount: p.bigint('number'),
    approvedAt: p.datetime().nullable(),
    idempotencyKey: p.string().nullable(),
    /** The payout as asked (destination, recipient, description); what a held payout is sent with once approved. */
    request: p.json<Record<string, unknown>>().nullable(),
    requestedById: p.string().nullable(),
    requestedByName: p.string().nullable(),
    /** A second operator's decision on a held payout: APPROVED or REJECTED. */
    review: p.string().length(16).nullable(),
    reviewedById: p.string().nullable(),
    reviewedByName: p.string().nullable(),
    reviewedAt: p.datetime().nullable(),
    refusalReason: p.text().nullable(),
    /** For a payout that named a route: the route, the rule, and each account tried. */
    routing: p.json<RoutingRecord>().nullable(),
    /** When reconciliation last asked the provider about this payout. */
    lastPolledAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type WithdrawalRow = InferEntity<typeof WithdrawalEntity>;

export const ReceiverEntity = defineEntity({
  name: 'Receiver',
  tableName: 'receivers',
  uniques: [{ properties: ['providerAccountId', 'receiverId'] }],
  // ListReceivers: newest first overall and per account; its search by the provider's id, the document and the e-mail (any case).
  indexes: [
    { properties: ['createdAt', 'id'] },
    { properties: ['providerAccountId', 'createdAt', 'id'] },
    { properties: ['receiverId'] },
    { properties: ['document'] },
    { name: 'receivers_lower_email_index', expression: 'create index "receivers_lower_email_index" on "receivers" (lower("email"))' },
  ],
  properties: {
    id: p.uuid().primary(),
    providerAccountId: p.uuid(),
    provider: p.string().length(64),
    receiverId: p.string(),
    receiverToken: p.string().nullable(),
    /** A credential the provider issued for this receiver (an Iugu sub-account's API token), sealed; never returned by the API. */
    secretSealed: p.text().nullable(),
    name: p.string(),
    document: p.string().length(14),
    documentType: p.string().length(4),
    email: p.string(),
    status: p.string().length(16),
    balance: p.bigint('number'),
    /** What CreateReceiver was given (bank account, address, document URLs…), for the back-office; null for a receiver only looked up. */
    details: p.json<ReceiverDetails>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ReceiverRow = InferEntity<typeof ReceiverEntity>;

/** Every status change of a transaction or withdrawal: its history, and the event log WatchEvents reads. */
export const StatusEventEntity = defineEntity({
  name: 'StatusEvent',
  tableName: 'status_events',
  indexes: [
    { properties: ['subject', 'subjectId'] },
    { properties: ['tx', 'id'] },
    // The statement's chargebacks by the day they happened (statementRepository.ts; migration Migration20261202060000_chargeback_days).
    {
      name: 'status_events_chargeback_days_index',
      expression: `create index "status_events_chargeback_days_index" on "status_events" ("occurred_at") where subject = 'TRANSACTION' and status = 'CHARGEBACK'`,
    },
    // What a charge refunded at the provider held, by the day it moved to REFUNDED (moneyMovements.ts; migration Migration20261204030000_refunded_days).
    {
      name: 'status_events_refunded_days_index',
      expression: `create index "status_events_refunded_days_index" on "status_events" ("occurred_at") where subject = 'TRANSACTION' and status = 'REFUNDED'`,
    },
  ],
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    subject: p.string().length(16),
    subjectId: p.uuid(),
    providerAccountId: p.uuid(),
    status: p.string().length(24),
    source: p.string().length(8),
    occurredAt: p.datetime(),
    /** The database transaction that wrote the event, filled by PostgreSQL: WatchEvents orders by it (statusRepository.ts). */
    tx: p.string().columnType('xid8').defaultRaw('pg_current_xact_id()').lazy(),
  },
});
export type StatusEventRow = InferEntity<typeof StatusEventEntity>;

/** Provider notifications as received: raw bytes and headers, then what came of them. */
export const WebhookNotificationEntity = defineEntity({
  name: 'WebhookNotification',
  tableName: 'webhook_notifications',
  indexes: [
    { properties: ['providerAccountId', 'receivedAt'] },
    { properties: ['outcome', 'nextAttemptAt'] },
    { properties: ['subjectId'] },
    // The backlog the workers scan, oldest first (notificationsRepository.ts BACKLOG; migration Migration20261127120000_notification_backlog).
    {
      name: 'webhook_notifications_backlog_index',
      expression: `create index "webhook_notifications_backlog_index" on "webhook_notifications" ("received_at") where outcome in ('RECEIVED', 'PROCESSING') or (outcome in ('FAILED', 'UNKNOWN_SUBJECT') and next_attempt_at is not null)`,
    },
  ],
  // One processed copy per notification: later deliveries of the same one are duplicates.
  uniques: [{ properties: ['providerAccountId', 'dedupKey'] }],
  properties: {
    id: p.uuid().primary(),
    provider: p.string().length(64),
    providerAccountId: p.uuid(),
    body: p.blob(),
    headers: p.json<Record<string, string>>(),
    /** The URL's query parameters as received, credential-like ones left out (Mercado Pago's IPN names its subject there). */
    query: p.json<Record<string, string>>().default('{}'),
    /**
     * The sender proved itself at intake with a credential header (a token,
     * Basic auth) that is not stored: processing, which sees the stored headers
     * only, trusts this instead of calling the notification unsigned.
     */
    authenticatedAtIntake: p.boolean().default(false),
    receivedAt: p.datetime(),
    outcome: p.string().length(16),
    outcomeReason: p.text().nullable(),
    resultType: p.string().length(32).nullable(),
    resultSubjectId: p.string().nullable(),
    resultStatus: p.string().length(16).nullable(),
    subjectId: p.uuid().nullable(),
    dedupKey: p.string().nullable(),
    attempts: p.integer().default(0),
    /** A worker's lease: past it, another worker may take the notification (at-least-once after a crash). */
    lockedUntil: p.datetime().nullable(),
    nextAttemptAt: p.datetime().nullable(),
    processedAt: p.datetime().nullable(),
  },
});
export type WebhookNotificationRow = InferEntity<typeof WebhookNotificationEntity>;

/**
 * One row per (account, operation, idempotency key): who holds it, whether the
 * first attempt finished, and what it produced. Kept at least 24 hours.
 */
export const IdempotencyKeyEntity = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  uniques: [{ properties: ['providerAccountId', 'operation', 'key'] }],
  indexes: [{ properties: ['expiresAt'] }, { properties: ['state', 'resolveAfter'] }],
  properties: {
    id: p.uuid().primary(),
    providerAccountId: p.uuid(),
    operation: p.string().length(32),
    key: p.string(),
    requestHash: p.string().length(64),
    state: p.string().length(16),
    subjectId: p.uuid().nullable(),
    response: p.json<unknown>().nullable(),
    failure: p.text().nullable(),
    /** For state UNKNOWN: what recording the provider's result needs (no card data, no secrets). */
    pending: p.json<unknown>().nullable(),
    resolveAfter: p.datetime().nullable(),
    resolveAttempts: p.integer().default(0),
    /** The gateway process that claimed it (gateway_processes): while IN_PROGRESS, its call is in flight only while that process lives. */
    ownerId: p.uuid().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});
export type IdempotencyKeyRow = InferEntity<typeof IdempotencyKeyEntity>;

/**
 * The gateway processes that may hold provider calls in flight, each marking itself alive (`heartbeat_at`, the
 * database's clock) every PROCESS_HEARTBEAT_MS: one row per process, whatever it has in flight.
 */
export const GatewayProcessEntity = defineEntity({
  name: 'GatewayProcess',
  tableName: 'gateway_processes',
  properties: {
    id: p.uuid().primary(),
    host: p.string(),
    pid: p.integer(),
    startedAt: p.datetime(),
    heartbeatAt: p.datetime(),
  },
});

/** A status change to POST to a transaction's webhook_url, with its retry schedule. */
export const OutboundDeliveryEntity = defineEntity({
  name: 'OutboundDelivery',
  tableName: 'outbound_deliveries',
  indexes: [
    { properties: ['state', 'nextAttemptAt'] },
    { properties: ['transactionId'] },
    // The operations console's deliveries that gave up, newest first, across merchants and to one (ListOutboundDeliveries).
    {
      name: 'outbound_deliveries_gave_up_index',
      expression: `create index "outbound_deliveries_gave_up_index" on "outbound_deliveries" ("created_at", "id") where state = 'GAVE_UP'`,
    },
    {
      name: 'outbound_deliveries_gave_up_url_index',
      expression: `create index "outbound_deliveries_gave_up_url_index" on "outbound_deliveries" ("url", "created_at", "id") where state = 'GAVE_UP'`,
    },
  ],
  properties: {
    id: p.uuid().primary(),
    eventId: p.bigint('string'),
    transactionId: p.uuid(),
    url: p.text(),
    body: p.text(),
    state: p.string().length(16),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime(),
    lockedUntil: p.datetime().nullable(),
    deliveredAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type OutboundDeliveryRow = InferEntity<typeof OutboundDeliveryEntity>;

/** Every attempt to deliver, whatever came of it. */
export const OutboundDeliveryAttemptEntity = defineEntity({
  name: 'OutboundDeliveryAttempt',
  tableName: 'outbound_delivery_attempts',
  indexes: [{ properties: ['deliveryId'] }],
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    deliveryId: p.uuid(),
    number: p.integer(),
    attemptedAt: p.datetime(),
    responseStatus: p.integer(),
    error: p.text().nullable(),
  },
});
export type OutboundDeliveryAttemptRow = InferEntity<typeof OutboundDeliveryAttemptEntity>;

/**
 * A provider answer that would have moved money for another amount, or about
 * another id, than the gateway's record (Prism's "flow integrity"): never
 * applied, kept for operators. Append-only, but for an operator's settlement.
 */
export const FlowMismatchEntity = defineEntity({
  name: 'FlowMismatch',
  tableName: 'flow_mismatches',
  indexes: [{ properties: ['providerAccountId', 'createdAt'] }, { properties: ['subjectId'] }],
  properties: {
    id: p.uuid().primary(),
    providerAccountId: p.uuid(),
    provider: p.string().length(64),
    subjectKind: p.string().length(16),
    subjectId: p.uuid(),
    source: p.string().length(16),
    claimedStatus: p.string().length(16),
    expectedAmount: p.bigint('number'),
    reportedAmount: p.bigint('number'),
    expectedProviderId: p.string(),
    reportedProviderId: p.string(),
    reason: p.text(),
    createdAt: p.datetime(),
    /** An operator's settlement (SettleFlowMismatch): set once, together, by one conditional update. */
    settledAt: p.datetime().nullable(),
    settledById: p.string().nullable(),
    settledByName: p.string().nullable(),
    settlementOutcome: p.string().length(32).nullable(),
    settlementNote: p.text().nullable(),
  },
});
export type FlowMismatchRow = InferEntity<typeof FlowMismatchEntity>;

/** A service's bearer token, kept as its SHA-256 only (the token is 32 random bytes, so no slow hash is needed). */
export const ServiceTokenEntity = defineEntity({
  name: 'ServiceToken',
  tableName: 'service_tokens',
  indexes: [{ properties: ['createdAt'] }],
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(100),
    tokenHash: p.string().length(64).unique(),
    scopes: p.json<string[]>(),
    providerAccountIds: p.json<string[]>(),
    /** Null for a service token; a publishable key's origins. */
    allowedOrigins: p.json<string[]>().nullable(),
    createdAt: p.datetime(),
    createdBy: p.string(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export type ServiceTokenRow = InferEntity<typeof ServiceTokenEntity>;

/** Who changed what, when, from where, with what outcome. Appended only: the database refuses UPDATE, DELETE and TRUNCATE on it. */
export const AuditEventEntity = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_events',
  indexes: [{ properties: ['at'] }, { properties: ['actorId', 'at'] }, { properties: ['resource', 'at'] }],
  triggers: [
    {
      name: 'audit_events_append_only',
      timing: 'before',
      // TRUNCATE is refused by a trigger of its own in the migration: MikroORM cannot read TRUNCATE triggers back, so it would diff forever.
      events: ['update', 'delete'],
      forEach: 'statement',
      body: `raise exception 'audit_events is append-only';`,
    },
  ],
  properties: {
    id: p.uuid().primary(),
    at: p.datetime(),
    actorKind: p.string().length(16),
    actorId: p.string(),
    actorName: p.string(),
    action: p.string(),
    resource: p.string(),
    source: p.string(),
    outcome: p.string().length(32),
    detail: p.text(),
  },
});
export type AuditEventRow = InferEntity<typeof AuditEventEntity>;

/** People who sign in to the back-office; the password only as a scrypt hash (server/lib/passwords.ts). */
export const OperatorEntity = defineEntity({
  name: 'Operator',
  tableName: 'operators',
  properties: {
    id: p.uuid().primary(),
    /** Lower-cased. */
    email: p.string().length(254).unique(),
    passwordHash: p.string(),
    role: p.string().length(16),
    disabled: p.boolean().default(false),
    createdAt: p.datetime(),
    lastSignInAt: p.datetime().nullable(),
    /** Two-step verification's TOTP secret, sealed; null when it is off. */
    totpSecretSealed: p.text().nullable(),
    /** A secret begun and not yet confirmed with a code, sealed. */
    totpPendingSealed: p.text().nullable(),
    /** The last TOTP step accepted: codes of it or earlier are refused. */
    totpLastStep: p.bigint('number').nullable(),
  },
});
export type OperatorRow = InferEntity<typeof OperatorEntity>;

/**
 * Failed sign-ins in a row per e-mail, whether an operator has that e-mail or not, so that the lock-out does not tell
 * which e-mails are operators. Keyed by the SHA-256 of the lower-cased e-mail: what strangers type is not kept in clear.
 */
export const SignInFailureEntity = defineEntity({
  name: 'SignInFailure',
  tableName: 'sign_in_failures',
  indexes: [{ properties: ['lastFailedAt'] }],
  properties: {
    emailHash: p.string().length(64).primary(),
    /** At the limit, sign-in is locked until lockedUntil. */
    failedSignIns: p.integer(),
    lockedUntil: p.datetime().nullable(),
    lastFailedAt: p.datetime(),
  },
});
export type SignInFailureRow = InferEntity<typeof SignInFailureEntity>;

/** A signed-in operator's session, by the SHA-256 of the cookie's token; ends idle, at its absolute expiry, or at sign-out. */
export const OperatorSessionEntity = defineEntity({
  name: 'OperatorSession',
  tableName: 'operator_sessions',
  indexes: [{ properties: ['operatorId'] }],
  properties: {
    id: p.uuid().primary(),
    tokenHash: p.string().length(64).unique(),
    operatorId: p.uuid(),
    createdAt: p.datetime(),
    lastSeenAt: p.datetime(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    source: p.string(),
  },
});
export type OperatorSessionRow = InferEntity<typeof OperatorSessionEntity>;

/**
 * Fingerprints of the keys every gateway process of this database must share (SECRETS_KEY, the outbound signing
 * secret), recorded by the first process that started: a process with another key refuses to start (sharedKeys.ts).
 * After a rotation of SECRETS_KEY, `secrets-key-retired` names the key the reseal moved away from.
 */
export const KeyFingerprintEntity = defineEntity({
  name: 'KeyFingerprint',
  tableName: 'key_fingerprints',
  properties: {
    name: p.string().length(64).primary(),
    fingerprint: p.string().length(64),
    recordedAt: p.datetime(),
  },
});
export type KeyFingerprintRow = InferEntity<typeof KeyFingerprintEntity>;

/**
 * The gateway's card tokens that a charge has used (gatewayCardToken.ts), by the SHA-256 of the token: never the token
 * or anything of the card. A token is single-use; a retry of the same charge (the same idempotency key) may use it
 * again. A row is of no use once its token has expired, and is deleted some time after.
 */
export const CardTokenUseEntity = defineEntity({
  name: 'CardTokenUse',
  tableName: 'card_token_uses',
  indexes: [{ properties: ['expiresAt'] }],
  properties: {
    tokenHash: p.string().length(64).primary(),
    providerAccountId: p.uuid(),
    /** The charge's idempotency key; none: the token cannot be used again at all. */
    idempotencyKey: p.string().nullable(),
    usedAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});
export type CardTokenUseRow = InferEntity<typeof CardTokenUseEntity>;

/** Cards the gateway saved for one account (savedCard.ts): sealed without the CVV; a revoked one charges no more. */
export const SavedCardEntity = defineEntity({
  name: 'SavedCard',
  tableName: 'saved_cards',
  properties: {
    id: p.uuid().primary(),
    providerAccountId: p.uuid().index(),
    cardSealed: p.text(),
    createdAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  },
});
export type SavedCardRow = InferEntity<typeof SavedCardEntity>;

/** Routes (RoutingService): a unique name and ordered rules naming provider accounts. */
export const RouteEntity = defineEntity({
  name: 'Route',
  tableName: 'routes',
  properties: {
    id: p.uuid().primary(),
    name: p.string().unique(),
    rules: p.json<RouteRule[]>(),
    maxAttempts: p.integer(),
    softDeclineCodes: p.json<string[]>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type RouteRow = InferEntity<typeof RouteEntity>;

/** Disputes (DisputeService): a chargeback or PIX infraction against a charge; at most one open per charge and kind. */
export const DisputeEntity = defineEntity({
  name: 'Dispute',
  tableName: 'disputes',
  indexes: [
    { properties: ['deadline', 'id'] },
    { properties: ['transactionId'] },
    {
      name: 'disputes_one_open_per_charge_and_kind',
      expression: `create unique index "disputes_one_open_per_charge_and_kind" on "disputes" ("transaction_id", "kind") where status in ('OPEN', 'EVIDENCE_SUBMITTED')`,
    },
  ],
  properties: {
    id: p.uuid().primary(),
    transactionId: p.uuid(),
    providerAccountId: p.uuid(),
    provider: p.string().length(64),
    kind: p.string().length(16),
    reasonCode: p.string().length(64),
    reason: p.text(),
    amount: p.bigint('number'),
    deadline: p.datetime(),
    status: p.string().length(24),
    outcomeNote: p.text(),
    providerDisputeId: p.string().length(128),
    sentToProvider: p.boolean(),
    openedById: p.string().length(64),
    openedByName: p.string().length(255),
    openedAt: p.datetime(),
    updatedAt: p.datetime(),
    submittedAt: p.datetime().nullable(),
    closedAt: p.datetime().nullable(),
  },
});
export type DisputeRow = InferEntity<typeof DisputeEntity>;

/** A dispute's evidence: a reference to a document in the object store (the upload flow), never its bytes. */
export const DisputeEvidenceEntity = defineEntity({
  name: 'DisputeEvidence',
  tableName: 'dispute_evidence',
  indexes: [{ properties: ['disputeId', 'addedAt'] }],
  properties: {
    id: p.uuid().primary(),
    disputeId: p.uuid(),
    documentUrl: p.text(),
    fileName: p.string().length(255),
    description: p.text(),
    addedById: p.string().length(64),
    addedByName: p.string().length(255),
    addedAt: p.datetime(),
    sentAt: p.datetime().nullable(),
    /** The SubmitDisputeDefense sending it now, until `sendingUntil` (its lease): no other call sends it meanwhile. */
    sendingClaim: p.uuid().nullable(),
    sendingUntil: p.datetime().nullable(),
  },
});
export type DisputeEvidenceRow = InferEntity<typeof DisputeEvidenceEntity>;

/**
 * Provider health (GetRoutingHealth) summed over every gateway process, per account, kind of call and minute
 * (Migration20261204020000_provider_health; written by providerHealthRepository.ts, never through the ORM).
 */
export const ProviderHealthEntity = defineEntity({
  name: 'ProviderHealth',
  tableName: 'provider_health',
  indexes: [{ properties: ['bucketStart'] }],
  properties: {
    providerAccountId: p.text().primary(),
    operation: p.text().primary(),
    bucketStart: p.datetime().primary(),
    calls: p.integer(),
    errors: p.integer(),
    answered: p.integer(),
    notRejected: p.integer(),
    totalMs: p.double(),
    latencyCounts: p.type('integer[]').columnType('integer[]'),
  },
});
/** A setting an admin changes in the back-office, by name; no row: the environment's value. */
export const GatewaySettingEntity = defineEntity({
  name: 'GatewaySetting',
  tableName: 'gateway_settings',
  properties: {
    name: p.string().length(64).primary(),
    /** Cents; null: the setting is off (e.g. no payout waits for approval). */
    valueCents: p.bigint('number').nullable(),
    updatedAt: p.datetime(),
  },
});
export type GatewaySettingRow = InferEntity<typeof GatewaySettingEntity>;

export const ENTITIES = [
  GatewaySettingEntity,
  DisputeEntity,
  DisputeEvidenceEntity,
  RouteEntity,
  CardTokenUseEntity,
  SavedCardEntity,
  KeyFingerprintEntity,
  OperatorEntity,
  OperatorSessionEntity,
  SignInFailureEntity,
  ServiceTokenEntity,
  AuditEventEntity,
  FlowMismatchEntity,
  OutboundDeliveryEntity,
  OutboundDeliveryAttemptEntity,
  IdempotencyKeyEntity,
  GatewayProcessEntity,
  ProviderAccountEntity,
  TransactionEntity,
  RefundEntity,
  WithdrawalEntity,
  ReceiverEntity,
  StatusEventEntity,
  WebhookNotificationEntity,
  ProviderHealthEntity,
];
