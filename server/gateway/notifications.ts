import { GatewayError, isGatewayError, notFound } from '../lib/errors.js';
import type { WebhookNotification, WebhookOutcome, WebhookResult } from '../domain/types.js';
import { resolveAccount, type GatewayDeps } from './context.js';

export interface IncomingWebhook {
  /** The provider named in the sidecar path; checked against the account's. */
  provider?: string;
  providerAccountId: string;
  body: Buffer;
  headers: Record<string, string>;
}

/**
 * Provider notifications: stored as received first, then handed to the
 * account's adapter, and the status it yields applied through the state machine.
 */
export class NotificationsService {
  constructor(private readonly deps: GatewayDeps) {}

  async receive(incoming: IncomingWebhook): Promise<WebhookNotification> {
    // Deleted accounts still take notifications: a charge made before the deletion must still settle.
    const { account, adapter, ctx } = await resolveAccount(this.deps, incoming.providerAccountId, { includeDeleted: true }).catch((error) => {
      throw isGatewayError(error) && error.code === 'NOT_FOUND' ? notFound(`provider account ${incoming.providerAccountId} not found`) : error;
    });
    if (incoming.provider && this.deps.registry.find(incoming.provider) !== adapter) {
      throw notFound(`provider account ${account.id} does not belong to provider ${incoming.provider}`);
    }
    const em = this.deps.db.em();
    const headers = Object.fromEntries(Object.entries(incoming.headers).map(([name, value]) => [name.toLowerCase(), value]));
    const stored = await this.deps.notifications.store(em, { provider: account.provider, providerAccountId: account.id, body: incoming.body, headers });
    const record = (outcome: WebhookOutcome, reason?: string, result?: WebhookResult) =>
      this.deps.notifications.recordOutcome(this.deps.db.em(), stored.id, outcome, reason, result);

    let result: WebhookResult | undefined;
    try {
      result = await adapter.processWebhook(ctx, { body: incoming.body, headers });
    } catch (error) {
      if (isGatewayError(error) && error.code === 'UNAUTHENTICATED') {
        await record('IGNORED', `refused: ${error.message}`);
        throw error;
      }
      await record('FAILED', error instanceof Error ? error.message : String(error));
      throw error;
    }
    if (!result) return record('IGNORED', 'the adapter yields nothing for this notification');

    try {
      if (result.type === 'TRANSACTION') {
        const transaction = await this.deps.transactions.findTransactionByProviderId(em, account.id, result.transactionId);
        if (!transaction) return record('UNKNOWN_SUBJECT', `no transaction ${result.transactionId} for this account`, result);
        const move = await this.deps.transactions.moveTransactionStatus(em, transaction.id, result.status, 'webhook');
        if (move?.event) this.deps.events.published(move.event);
        return move?.changed ? record('APPLIED', `${move.from} → ${move.to}`, result) : record('UNCHANGED', `${move?.from} → ${result.status} is not a move forward`, result);
      }
      const withdrawal = await this.deps.transactions.findWithdrawalByProviderId(em, account.id, result.transactionId);
      if (!withdrawal) return record('UNKNOWN_SUBJECT', `no withdrawal ${result.transactionId} for this account`, result);
      const move = await this.deps.transactions.moveWithdrawalStatus(em, withdrawal.id, result.status, 'webhook');
      if (move?.event) this.deps.events.published(move.event);
      return move?.changed ? record('APPLIED', `${move.from} → ${move.to}`, result) : record('UNCHANGED', `${move?.from} → ${result.status} is not a move forward`, result);
    } catch (error) {
      await record('FAILED', error instanceof Error ? error.message : String(error), result);
      throw isGatewayError(error) ? error : new GatewayError('INTERNAL', 'could not apply the notification');
    }
  }
}
