import { WebhookOutcome } from '../../gen/ts-proto/gateway/v1/types.js';
import type { Driver } from './clients.js';
import { eventually } from './eventually.js';

export interface ListedNotification {
  outcome: number;
  outcomeReason: string;
}

/** Stored notifications through the webhooks service, newest first: those about a subject, or of an account with one outcome. */
export async function listNotifications(
  client: Driver,
  filter: { subjectId?: string; providerAccountId?: string; outcome?: WebhookOutcome },
): Promise<ListedNotification[]> {
  const { notifications } = await client.call('webhooks', 'listWebhookNotifications', {
    subjectId: filter.subjectId ?? '',
    providerAccountId: filter.providerAccountId ?? '',
    provider: '',
    outcome: filter.outcome ?? 0,
    pageSize: 20,
    pageToken: '',
  });
  return notifications;
}

/** A subject's notifications, oldest first, once `count` of them are processed (no longer RECEIVED). */
export function processedNotifications(client: Driver, subjectId: string, count: number): Promise<ListedNotification[]> {
  return eventually(
    async () => {
      const done = (await listNotifications(client, { subjectId })).filter((n) => n.outcome !== WebhookOutcome.WEBHOOK_OUTCOME_RECEIVED);
      return done.length >= count && done.reverse();
    },
    15_000,
    `${count} processed notifications`,
  );
}

/**
 * Waits for a notification of the account to be stored (RECEIVED), then processes it through the webhooks service
 * (for a stack without notification workers) and answers it as processed.
 */
export async function reprocessReceived(client: Driver, providerAccountId: string): Promise<ListedNotification & { subjectId: string }> {
  const [stored] = await eventually(
    async () => {
      const received = await listNotifications(client, { providerAccountId, outcome: WebhookOutcome.WEBHOOK_OUTCOME_RECEIVED });
      return received.length > 0 && (received as (ListedNotification & { id: string })[]);
    },
    15_000,
    'the sandbox notification',
  );
  return (await client.call('webhooks', 'reprocessWebhookNotification', { id: stored!.id })).notification;
}
