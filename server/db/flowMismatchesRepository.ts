import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FlowMismatch, FlowMismatchOutcome, FlowMismatchSettlement, FlowMismatchState } from '../domain/types.js';
import { redactText } from '../lib/http/redact.js';
import { isUuid } from '../lib/ids.js';
import { FlowMismatchEntity, type FlowMismatchRow } from './entities.js';

const settlementOf = (row: FlowMismatchRow): FlowMismatchSettlement | undefined =>
  row.settledAt
    ? {
        outcome: row.settlementOutcome as FlowMismatchOutcome,
        note: row.settlementNote ?? '',
        by: { id: row.settledById ?? '', name: row.settledByName ?? '' },
        at: row.settledAt,
      }
    : undefined;

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
  settlement: settlementOf(row),
});

const STATE_WHERE: Record<FlowMismatchState, object> = { OPEN: { settledAt: null }, SETTLED: { settledAt: { $ne: null } }, ANY: {} };

/** Provider answers refused for not matching the gateway's record; appended, never edited but for an operator's settlement. */
export class FlowMismatchesRepository {
  async record(em: EntityManager, mismatch: Omit<FlowMismatch, 'id' | 'createdAt' | 'settlement'>): Promise<FlowMismatch> {
    // Appended for good: what it quotes of the provider's answer goes in without the card data it may echo.
    const row = em.create(FlowMismatchEntity, { id: randomUUID(), ...mismatch, reason: redactText(mismatch.reason), createdAt: new Date() });
    await em.persist(row).flush();
    return toMismatch(row);
  }

  /** Newest first, at most `limit`. */
  async list(em: EntityManager, filter: { providerAccountId?: string; subjectId?: string; state?: FlowMismatchState }, limit = 500): Promise<FlowMismatch[]> {
    if ((filter.providerAccountId && !isUuid(filter.providerAccountId)) || (filter.subjectId && !isUuid(filter.subjectId))) return [];
    const rows = await em.find(
      FlowMismatchEntity,
      {
        ...(filter.providerAccountId ? { providerAccountId: filter.providerAccountId } : {}),
        ...(filter.subjectId ? { subjectId: filter.subjectId } : {}),
        ...STATE_WHERE[filter.state ?? 'OPEN'],
      },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit },
    );
    return rows.map(toMismatch);
  }

  /** From the primary: what a settlement just wrote, or why it could not. */
  async find(em: EntityManager, id: string): Promise<FlowMismatch | undefined> {
    const row = await em.findOne(FlowMismatchEntity, { id }, { connectionType: 'write' });
    return row ? toMismatch(row) : undefined;
  }

  /** False when it is settled already (or gone): one conditional update, so two operators racing settle it once. */
  async settle(em: EntityManager, id: string, settlement: FlowMismatchSettlement): Promise<boolean> {
    const updated = await em.nativeUpdate(
      FlowMismatchEntity,
      { id, settledAt: null },
      {
        settledAt: settlement.at,
        settledById: settlement.by.id,
        settledByName: settlement.by.name,
        settlementOutcome: settlement.outcome,
        settlementNote: settlement.note,
      },
    );
    return updated > 0;
  }
}
