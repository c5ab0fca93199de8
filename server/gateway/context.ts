import type { GatewaySettingsRepository } from '../db/gatewaySettingsRepository.js';
import type { Database } from '../db/orm.js';
import type { AccountsRepository } from '../db/accountsRepository.js';
import type { TransactionsRepository } from '../db/transactionsRepository.js';
import type { WithdrawalsRepository } from '../db/withdrawalsRepository.js';
import type { ReceiversRepository } from '../db/receiversRepository.js';
import type { FlowMismatchesRepository } from '../db/flowMismatchesRepository.js';
import type { NotificationsRepository } from '../db/notificationsRepository.js';
import type { IdempotencyRepository } from '../db/idempotencyRepository.js';
import type { OutboundRepository } from '../db/outboundRepository.js';
import type { CardTokenUsesRepository } from '../db/cardTokenUsesRepository.js';
import type { SavedCardsRepository } from '../db/savedCardsRepository.js';
import type { CardTokenKeys } from '../lib/gatewayCardToken.js';
import type { DerivedKeys } from '../lib/secretBox.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { AdapterContext, ProviderAdapter } from '../providers/adapter.js';
import type { ProviderAccountWithSecrets } from '../domain/types.js';
import type { Logger } from '../lib/logger.js';
import { GatewayError, invalidArgument, notFound } from '../lib/errors.js';
import type { StatusEvents } from './events.js';
import type { UseCaseObserver } from './observer.js';
import type { UploadsService } from './uploads.js';

/** What the use cases are built from; main.ts assembles it. */
export interface GatewayDeps {
  db: Database;
  registry: ProviderRegistry;
  accounts: AccountsRepository;
  transactions: TransactionsRepository;
  withdrawals: WithdrawalsRepository;
  receivers: ReceiversRepository;
  notifications: NotificationsRepository;
  /** Provider answers refused for not matching the record (flowIntegrity.ts). */
  mismatches: FlowMismatchesRepository;
  idempotency: IdempotencyRepository;
  outbound: OutboundRepository;
  events: StatusEvents;
  /** Whether accounts' provider URLs and charges' webhook_url may point at internal addresses (ALLOW_PRIVATE_*_URLS). */
  urlPolicy: { privateProviderUrls: boolean; privateWebhookUrls: boolean };
  /** The webhook sidecar's address as providers reach it, e.g. http://127.0.0.1:8081. */
  webhookBaseUrl: string;
  logger: Logger;
  /** Told what happens, for the metrics. */
  observer: UseCaseObserver;
  /**
   * The gateway's own object store, whose uploads (receivers' documents) are trusted wherever it listens, and read
   * through a presigned link (they may be private).
   */
  ownUploads?: Pick<
    UploadsService,
    | 'isOwnObject'
    | 'isEvidenceObject'
    | 'isCertificateObject'
    | 'assertCompleteCertificate'
    | 'joinCertificateFiles'
    | 'assertPrivate'
    | 'readableUrl'
    | 'readDocument'
  >;
  /**
   * PAYOUT_APPROVAL_ABOVE_CENTS: operators' payouts above it wait for a second operator (payouts.ts); unset, none waits.
   * The default of the back-office's setting, kept in `settings` once an admin sets it (gatewaySettings.ts).
   */
  payoutApprovalAboveCents?: number;
  /** Settings an admin changes in the back-office; without it, the environment's values hold. */
  settings?: GatewaySettingsRepository;
  /** When an unknown outcome is checked with the provider (UNKNOWN_CHECK_SCHEDULE_MS); idempotency.ts has the default. */
  unknownCheckScheduleMs?: readonly number[];
  /** The gateway's own card tokens (cardTokens.ts): their keys, how long they open (CARD_TOKEN_TTL_SECONDS), their uses. */
  cardTokens: { keys: CardTokenKeys; ttlSeconds: number; uses: CardTokenUsesRepository };
  /** Cards the gateway saved (savedCards.ts): where they are kept, and each account's sealing key. */
  savedCards: { repository: SavedCardsRepository; keysFor(accountId: string): DerivedKeys };
}

export function notificationUrl(webhookBaseUrl: string, provider: string, accountId: string): string {
  return `${webhookBaseUrl.replace(/\/+$/, '')}/webhooks/${encodeURIComponent(provider)}/${encodeURIComponent(accountId)}`;
}

export interface ResolvedAccount {
  account: ProviderAccountWithSecrets;
  adapter: ProviderAdapter;
  ctx: AdapterContext;
}

export function adapterContext(deps: GatewayDeps, account: ProviderAccountWithSecrets, adapter: ProviderAdapter): AdapterContext {
  const uploads = deps.ownUploads;
  return {
    accountId: account.id,
    publicKey: account.publicKey,
    secretKey: account.secretKey,
    baseUrl: account.baseUrl || adapter.identity.defaultBaseUrl,
    platformId: account.platformId,
    certCashInUrl: account.certCashInUrl,
    certCashOutUrl: account.certCashOutUrl,
    // A certificate uploaded to the gateway's store is private: read through a presigned GET signed at each fetch.
    ...(uploads ? { certificateReadUrl: (url: string) => uploads.readableUrl(url) } : {}),
    webhookSecret: account.webhookSecret,
    apiVersion: account.apiVersion,
    notificationUrl: notificationUrl(deps.webhookBaseUrl, account.provider, account.id),
  };
}

/**
 * One context per account as read (the accounts repository serves one object per account while it is cached), so
 * that what adapters keep per context, their HTTP client, lives as long as the account is unchanged.
 */
const resolved = new WeakMap<ProviderAccountWithSecrets, ResolvedAccount>();

/** The account, its adapter and the adapter's context, or NOT_FOUND. */
export async function resolveAccount(deps: GatewayDeps, providerAccountId: string, { includeDeleted = false } = {}): Promise<ResolvedAccount> {
  if (!providerAccountId) throw invalidArgument('provider_account_id', 'provider_account_id is required', 'REQUIRED');
  // The root EntityManager: a cached account needs no unit of work, and a miss forks one (accountsRepository.ts).
  const account = await deps.accounts.getWithSecrets(deps.db.rootEm(), providerAccountId, { includeDeleted });
  if (!account) throw notFound(`provider account ${providerAccountId} not found`);
  const known = resolved.get(account);
  if (known) return known;
  const adapter = deps.registry.find(account.provider);
  if (!adapter)
    throw new GatewayError('FAILED_PRECONDITION', `provider ${account.provider} of account ${account.id} is not registered`, {
      reason: 'PROVIDER_NOT_REGISTERED',
    });
  const result = { account, adapter, ctx: adapterContext(deps, account, adapter) };
  resolved.set(account, result);
  return result;
}
