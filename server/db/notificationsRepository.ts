import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookNotification, WebhookOutcome, WebhookResult } from '../domain/types.js';
import { WebhookNotificationEntity, type WebhookNotificationRow } from './entities.js';

const toNotification = (row: WebhookNotificationRow): WebhookNotification => ({
  id: row.id,
  provider: row.provider,
  providerAccountId: row.providerAccountId,
  receivedAt: row.receivedAt,
  outcome: row.outcome as WebhookOutcome,
  outcomeReason: row.outcomeReason ?? undefined,
  result:
    row.resultType && row.resultSubjectId && row.resultStatus
      ? ({ type: row.resultType, transactionId: row.resultSubjectId, status: row.resultStatus } as WebhookResult)
      : undefined,
});

/** Provider notifications exactly as received, and what came of each. */
export class NotificationsRepository {
  async store(em: EntityManager, input: { provider: string; providerAccountId: string; body: Buffer; headers: Record<string, string> }): Promise<WebhookNotification> {
    const row = em.create(WebhookNotificationEntity, {
      id: randomUUID(),
      provider: input.provider,
      providerAccountId: input.providerAccountId,
      body: input.body,
      headers: input.headers,
      receivedAt: new Date(),
      outcome: 'RECEIVED',
      outcomeReason: null,
      resultType: null,
      resultSubjectId: null,
      resultStatus: null,
      processedAt: null,
    });
    await em.persist(row).flush();
    return toNotification(row);
  }

  async recordOutcome(em: EntityManager, id: string, outcome: WebhookOutcome, reason: string | undefined, result: WebhookResult | undefined): Promise<WebhookNotification> {
    const row = await em.findOneOrFail(WebhookNotificationEntity, { id });
    row.outcome = outcome;
    row.outcomeReason = reason ?? null;
    row.resultType = result?.type ?? null;
    row.resultSubjectId = result?.transactionId ?? null;
    row.resultStatus = result?.status ?? null;
    row.processedAt = new Date();
    await em.flush();
    return toNotification(row);
  }
}
