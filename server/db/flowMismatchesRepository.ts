import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FlowMismatch } from '../domain/types.js';
import { redactText } from '../lib/http/redact.js';
import { isUuid } from '../lib/ids.js';
import { FlowMismatchEntity, type FlowMismatchRow } from './entities.js';

const toMismatch = (row: FlowMismatchRow): FlowMismatch => ({
  id: row.id,
  provider: row.provider,
  providerAccountId: row.providerAccountId,
  subjectKind: row.subjectKind as FlowMismatch['subjectKind'],
  subjectId: row.subjectId,
  source: row.source as FlowMismatch['source'],
  claimedStatus: row.claimedStatus,
  expectedAmount: row.expectedAmount,
  reportedAmount: row.reportedAmount,
  expectedProviderId: row.expectedProviderId,
  reportedProviderId: row.reportedProviderId,
  reason: row.reason,
  createdAt: row.createdAt,
});

/** Provider answers refused for not matching the gateway's record; appended, never edited. */
export class FlowMismatchesRepository {
  async record(em: EntityManager, mismatch: Omit<FlowMismatch, 'id' | 'createdAt'>): Promise<FlowMismatch> {
    // Appended for good: what it quotes of the provider's answer goes in without the card data it may echo.
    const row = em.create(FlowMismatchEntity, { id: randomUUID(), ...mismatch, reason: redactText(mismatch.reason), createdAt: new Date() });
    await em.persist(row).flush();
    return toMismatch(row);
  }

  /** Newest first, at most `limit`. */
  async list(em: EntityManager, filter: { providerAccountId?: string; subjectId?: string }, limit = 500): Promise<FlowMismatch[]> {
    if ((filter.providerAccountId && !isUuid(filter.providerAccountId)) || (filter.subjectId && !isUuid(filter.subjectId))) return [];
    const rows = await em.find(
      FlowMismatchEntity,
      { ...(filter.providerAccountId ? { providerAccountId: filter.providerAccountId } : {}), ...(filter.subjectId ? { subjectId: filter.subjectId } : {}) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit },
    );
    return rows.map(toMismatch);
  }
}
