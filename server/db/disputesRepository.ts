import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import {
  AUTOMATIC_CHARGEBACK_REASON,
  chargebackDisputeKind,
  defaultDisputeDeadline,
  GATEWAY_ACTOR,
  OPEN_DISPUTE_STATUSES,
  type Dispute,
  type DisputeEvidence,
  type DisputeFilter,
  type DisputeKind,
  type DisputeOutcome,
  type DisputeStatus,
  type ProviderChargeback,
} from '../domain/disputes.js';
import type { Page, PageCursor } from '../domain/lists.js';
import { isUuid } from '../lib/ids.js';
import { DisputeEntity, DisputeEvidenceEntity, type DisputeEvidenceRow, type DisputeRow } from './entities.js';
import { encodePageToken } from './pageTokens.js';
import { auditedByValues, type AuditedBy } from './auditedBy.js';
import { prepared, runPrepared, type PreparedTx } from './preparedSql.js';

const WRITE = { connectionType: 'write' } as const;
const OPEN_STATUSES_SQL = OPEN_DISPUTE_STATUSES.map((status) => `'${status}'`).join(', ');

/** The defence recorded and the evidence sent marked, in one statement: both or neither. */
const SUBMIT_DEFENSE = prepared(
  'submit_dispute_defense',
  `with submitted as (
     update disputes set status = 'EVIDENCE_SUBMITTED', sent_to_provider = ?, submitted_at = ?, updated_at = ?,
       provider_dispute_id = case when provider_dispute_id = '' then ? else provider_dispute_id end
     where id = ? and status in (${OPEN_STATUSES_SQL}) returning id),
   marked as (
     update dispute_evidence e set sent_at = ?, sending_claim = null, sending_until = null from submitted
     where e.dispute_id = submitted.id and e.id = any(?::uuid[]) and e.sent_at is null returning e.id)
   select id from submitted`,
);

/**
 * Claims an open dispute's evidence that has not reached the provider and that no live claim holds (none, or one
 * whose lease ended: its process died mid-send). Concurrent claims serialise on the evidence rows' locks and each
 * re-checks the lease, so a piece of evidence is claimed by one call at a time. The database's clock times the lease,
 * the same for every gateway process.
 */
const CLAIM_UNSENT_EVIDENCE = prepared(
  'claim_dispute_evidence',
  `update dispute_evidence e set sending_claim = ?, sending_until = now() + ?::double precision * interval '1 millisecond'
     from disputes d
    where d.id = ? and d.status in (${OPEN_STATUSES_SQL}) and e.dispute_id = d.id
      and e.sent_at is null and (e.sending_until is null or e.sending_until <= now())
    returning e.id`,
);

/** Lets go of a claim whose send failed, so the evidence can be sent at once by the next call. */
const RELEASE_EVIDENCE_CLAIM = prepared(
  'release_dispute_evidence',
  `update dispute_evidence set sending_claim = null, sending_until = null where sending_claim = ? and sent_at is null returning id`,
);

/**
 * An operator's correction (UpdateDispute), in one statement: the open dispute locked, the fields given set
 * (`provider_dispute_id` only where it was empty), and, within the call's audit row, what each changed field was
 * before and is after, with the operator's note. No row: the dispute is not open, or already has a provider id.
 */
const CORRECT_DISPUTE = `with old as (
     select id, reason, deadline, amount, provider_dispute_id from disputes
      where id = ? and status in (${OPEN_STATUSES_SQL}) and (?::text is null or provider_dispute_id = '') for update),
   changed as (
     update disputes d set reason = coalesce(?::text, d.reason), deadline = coalesce(?::timestamptz, d.deadline),
       amount = coalesce(?::bigint, d.amount), provider_dispute_id = coalesce(?::text, d.provider_dispute_id), updated_at = ?
     from old where d.id = old.id
     returning d.id, d.reason, d.deadline, d.amount, d.provider_dispute_id),
   detail as (
     select jsonb_strip_nulls(jsonb_build_object(
         'note', ?::text,
         'reason', case when ?::text is not null then jsonb_build_object('before', old.reason, 'after', changed.reason) end,
         'deadline', case when ?::timestamptz is not null then jsonb_build_object('before', old.deadline, 'after', changed.deadline) end,
         'amount', case when ?::bigint is not null then jsonb_build_object('before', old.amount, 'after', changed.amount) end,
         'provider_dispute_id', case when ?::text is not null
           then jsonb_build_object('before', old.provider_dispute_id, 'after', changed.provider_dispute_id) end))::text as text
       from old join changed on changed.id = old.id),
   audited as (
     insert into audit_events (id, at, actor_kind, actor_id, actor_name, action, resource, source, outcome, detail)
     select w.id, ?, w.actor_kind, w.actor_id, w.actor_name, w.action, changed.id::text, w.source, 'OK', detail.text
       from changed, detail,
            (select ?::uuid as id, ?::text as actor_kind, ?::text as actor_id, ?::text as actor_name, ?::text as action, ?::text as source) w
      where w.id is not null
     returning id)
   select (select count(*) from changed) as changed, (select count(*) from audited) as audited`;

/** The fields an operator may correct on an open dispute; each unset one stays as it is. */
export interface DisputeCorrection {
  reason?: string;
  deadline?: Date;
  amount?: number;
  providerDisputeId?: string;
}

export type NewDispute = Omit<Dispute, 'id' | 'status' | 'outcomeNote' | 'sentToProvider' | 'updatedAt' | 'submittedAt' | 'closedAt' | 'evidence'>;

const toEvidence = (row: DisputeEvidenceRow): DisputeEvidence => ({
  id: row.id,
  documentUrl: row.documentUrl,
  fileName: row.fileName,
  description: row.description,
  addedBy: { id: row.addedById, name: row.addedByName },
  addedAt: row.addedAt,
  sentAt: row.sentAt ?? undefined,
});

const toDispute = (row: DisputeRow, evidence: DisputeEvidenceRow[]): Dispute => ({
  id: row.id,
  transactionId: row.transactionId,
  providerAccountId: row.providerAccountId,
  provider: row.provider,
  kind: row.kind as DisputeKind,
  reasonCode: row.reasonCode,
  reason: row.reason,
  amount: row.amount,
  deadline: row.deadline,
  status: row.status as DisputeStatus,
  outcomeNote: row.outcomeNote,
  providerDisputeId: row.providerDisputeId,
  sentToProvider: row.sentToProvider,
  openedBy: { id: row.openedById, name: row.openedByName },
  openedAt: row.openedAt,
  updatedAt: row.updatedAt,
  submittedAt: row.submittedAt ?? undefined,
  closedAt: row.closedAt ?? undefined,
  evidence: evidence.map(toEvidence),
});

/**
 * Opened in the status move's own database transaction: one open chargeback dispute per charge, whatever moved it
 * (a notification, a read, reconciliation); a second move finds the partial unique index taken and adds nothing.
 */
const OPEN_FOR_CHARGEBACK = prepared(
  'dispute_open_for_chargeback',
  `insert into disputes (id, transaction_id, provider_account_id, provider, kind, reason_code, reason, amount, deadline, status,
     outcome_note, provider_dispute_id, sent_to_provider, opened_by_id, opened_by_name, opened_at, updated_at)
   values (?, ?, ?, ?, ?, '', ?, ?, ?, 'OPEN', '', ?, false, ?, ?, ?, ?)
   on conflict do nothing`,
);

type ChargedBackCharge = { id: string; providerAccountId: string; provider: string; paymentMethod: string; amountAtStake: number };

/**
 * The dispute a charge's move to CHARGEBACK opens, inside that move's transaction (transactionsRepository): a PIX
 * payment's is an infraction (MED), any other's a chargeback. `stated`: what the provider's own chargeback says (its id,
 * amount and deadline), else the part not refunded at stake and the default deadline.
 */
export async function openChargebackDispute(tx: PreparedTx, charge: ChargedBackCharge, at: Date, stated: Partial<ProviderChargeback> = {}): Promise<void> {
  const kind = chargebackDisputeKind(charge.paymentMethod);
  await tx.run(OPEN_FOR_CHARGEBACK, [
    randomUUID(),
    charge.id,
    charge.providerAccountId,
    charge.provider,
    kind,
    AUTOMATIC_CHARGEBACK_REASON,
    stated.amount ?? charge.amountAtStake,
    stated.deadline ?? defaultDisputeDeadline(kind, at),
    stated.providerDisputeId ?? '',
    GATEWAY_ACTOR.id,
    GATEWAY_ACTOR.name,
    at,
    at,
  ]);
}

/** The charge, only while it is CHARGEBACK (read in the move's transaction, which holds its row). */
const CHARGED_BACK_CHARGE = prepared(
  'dispute_charged_back_charge',
  `select id, provider_account_id, provider, payment_method, amount - refunded_amount as at_stake
     from transactions where id = ? and status = 'CHARGEBACK'`,
);

/**
 * The provider's chargeback on the charge's open dispute that has no provider id yet, or has this one: the id set, the
 * amount and deadline replaced where stated (the provider's word over the gateway's defaults). No row: none such.
 */
const STATE_PROVIDER_CHARGEBACK = prepared(
  'dispute_state_provider_chargeback',
  `update disputes set provider_dispute_id = ?, amount = coalesce(?::bigint, amount), deadline = coalesce(?::timestamptz, deadline), updated_at = ?
    where transaction_id = ? and kind = ? and status in (${OPEN_STATUSES_SQL}) and provider_dispute_id in ('', ?)
    returning id`,
);

/** Whether the charge has had a dispute for this provider id (open or closed). */
const KNOWN_PROVIDER_DISPUTE = prepared(
  'dispute_known_provider_id',
  `select id from disputes where transaction_id = ? and kind = ? and provider_dispute_id = ? limit 1`,
);

/**
 * A provider's chargeback notification kept on the charge's dispute, in the status move's transaction, while the charge is
 * CHARGEBACK (an unconfirmed notification that left it otherwise keeps nothing): the open dispute is given the
 * chargeback's id, amount and deadline; with none open for it (the charge was charged back before, its dispute closed,
 * and this is a new chargeback), one is opened with them. A chargeback whose dispute was closed opens nothing again; an
 * amount beyond what is at stake is not taken (the dispute keeps its own).
 */
export async function recordProviderChargeback(tx: PreparedTx, chargeId: string, chargeback: ProviderChargeback, at: Date): Promise<void> {
  const [row] = await tx.run<{ id: string; provider_account_id: string; provider: string; payment_method: string; at_stake: string }>(CHARGED_BACK_CHARGE, [
    chargeId,
  ]);
  if (!row) return;
  const charge: ChargedBackCharge = {
    id: row.id,
    providerAccountId: row.provider_account_id,
    provider: row.provider,
    paymentMethod: row.payment_method,
    amountAtStake: Number(row.at_stake),
  };
  const kind = chargebackDisputeKind(charge.paymentMethod);
  const amount = chargeback.amount !== undefined && chargeback.amount >= 1 && chargeback.amount <= charge.amountAtStake ? chargeback.amount : undefined;
  const { providerDisputeId, deadline } = chargeback;
  const stated = await tx.run(STATE_PROVIDER_CHARGEBACK, [providerDisputeId, amount ?? null, deadline ?? null, at, charge.id, kind, providerDisputeId]);
  if (stated.length || (await tx.run(KNOWN_PROVIDER_DISPUTE, [charge.id, kind, providerDisputeId])).length) return;
  await openChargebackDispute(tx, charge, at, { providerDisputeId, amount, deadline });
}

/**
 * Disputes, read from the primary: an operator reads one right after changing it, and they are few. Each change is
 * one conditional statement on the dispute's status, so a closed dispute takes nothing more even under a race.
 */
export class DisputesRepository {
  /** Undefined when the charge already has an open dispute of that kind. */
  async open(em: EntityManager, input: NewDispute): Promise<Dispute | undefined> {
    const row: DisputeRow = {
      id: randomUUID(),
      transactionId: input.transactionId,
      providerAccountId: input.providerAccountId,
      provider: input.provider,
      kind: input.kind,
      reasonCode: input.reasonCode,
      reason: input.reason,
      amount: input.amount,
      deadline: input.deadline,
      status: 'OPEN',
      outcomeNote: '',
      providerDisputeId: input.providerDisputeId,
      sentToProvider: false,
      openedById: input.openedBy.id,
      openedByName: input.openedBy.name,
      openedAt: input.openedAt,
      updatedAt: input.openedAt,
      submittedAt: null,
      closedAt: null,
    };
    try {
      await em.insert(DisputeEntity, row);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return undefined;
      throw error;
    }
    return toDispute(row, []);
  }

  async find(em: EntityManager, id: string): Promise<Dispute | undefined> {
    if (!isUuid(id)) return undefined;
    const fork = em.fork();
    const row = await fork.findOne(DisputeEntity, { id }, WRITE);
    if (!row) return undefined;
    const evidence = await fork.find(DisputeEvidenceEntity, { disputeId: id }, { ...WRITE, orderBy: { addedAt: 'asc', id: 'asc' } });
    return toDispute(row, evidence);
  }

  /**
   * One page, deadline first (the most urgent on top), without their evidence. The order is (deadline, id) and the
   * cursor a row value comparison on it, so a page neither repeats nor skips a dispute of the one before, whatever
   * deadlines are shared; the (deadline, id) index serves it.
   */
  async list(em: EntityManager, filter: DisputeFilter, size: number, after: PageCursor | undefined): Promise<Page<Dispute>> {
    const where = {
      ...(filter.status && { status: filter.status }),
      ...(filter.kind && { kind: filter.kind }),
      ...(filter.providerAccountId && { providerAccountId: filter.providerAccountId }),
      ...(filter.transactionId && { transactionId: filter.transactionId }),
    };
    const qb = em.fork().createQueryBuilder(DisputeEntity, 'd', 'write').where(where);
    if (after) qb.andWhere('(d.deadline, d.id) > (?, ?)', [after.at, after.id]);
    const rows = await qb
      .orderBy([{ deadline: 'asc' }, { id: 'asc' }])
      .limit(size + 1)
      .getResultList();
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return {
      items: page.map((row) => toDispute(row, [])),
      nextPageToken: rows.length > size && last ? encodePageToken(last.deadline, last.id) : undefined,
    };
  }

  /** False when the dispute is not open (closed, or gone). */
  async addEvidence(em: EntityManager, disputeId: string, evidence: DisputeEvidence): Promise<boolean> {
    const rows = await em.getConnection('write').execute<Array<{ id: string }>>(
      `with open as (select id from disputes where id = ? and status in (${OPEN_STATUSES_SQL}) for update),
            touched as (update disputes d set updated_at = ? from open where d.id = open.id returning d.id)
       insert into dispute_evidence (id, dispute_id, document_url, file_name, description, added_by_id, added_by_name, added_at)
       select ?, id, ?, ?, ?, ?, ?, ? from touched returning id`,
      [
        disputeId,
        evidence.addedAt,
        evidence.id,
        evidence.documentUrl,
        evidence.fileName,
        evidence.description,
        evidence.addedBy.id,
        evidence.addedBy.name,
        evidence.addedAt,
      ],
      'all',
    );
    return rows.length > 0;
  }

  /**
   * False when the dispute is not open. `providerDisputeId`: the provider's id of it, kept where the record had none;
   * `evidenceIds`: the evidence the provider was sent, marked sent in the same statement.
   */
  async submitDefense(
    em: EntityManager,
    id: string,
    sent: { sentToProvider: boolean; providerDisputeId?: string; evidenceIds: readonly string[] },
    at: Date,
  ): Promise<boolean> {
    const rows = await runPrepared<{ id: string }>(em, 'write', SUBMIT_DEFENSE, [
      sent.sentToProvider,
      at,
      at,
      sent.providerDisputeId ?? '',
      id,
      at,
      [...sent.evidenceIds],
    ]);
    return rows.length > 0;
  }

  /**
   * The ids of the evidence claimed for `claim` for `leaseMs` (see CLAIM_UNSENT_EVIDENCE); none when the dispute is not
   * open, everything already reached the provider, or another call's claim holds what has not.
   */
  async claimUnsentEvidence(em: EntityManager, disputeId: string, claim: string, leaseMs: number): Promise<string[]> {
    const rows = await runPrepared<{ id: string }>(em, 'write', CLAIM_UNSENT_EVIDENCE, [claim, leaseMs, disputeId]);
    return rows.map((row) => row.id);
  }

  async releaseEvidenceClaim(em: EntityManager, claim: string): Promise<void> {
    await runPrepared(em, 'write', RELEASE_EVIDENCE_CLAIM, [claim]);
  }

  /**
   * `changed` false when the dispute is not open or `providerDisputeId` was given and it already has one. With the
   * call's audit row (`audit`), that row is written in the same statement; `audited` says whether it was.
   */
  async correct(
    em: EntityManager,
    id: string,
    correction: DisputeCorrection,
    note: string,
    at: Date,
    audit?: AuditedBy,
  ): Promise<{ changed: boolean; audited: boolean }> {
    const { reason = null, deadline = null, amount = null, providerDisputeId = null } = correction;
    const [row] = await em
      .getConnection('write')
      .execute<Array<{ changed: string; audited: string }>>(
        CORRECT_DISPUTE,
        [
          id,
          providerDisputeId,
          reason,
          deadline,
          amount,
          providerDisputeId,
          at,
          note,
          reason,
          deadline,
          amount,
          providerDisputeId,
          at,
          ...auditedByValues(audit),
        ],
        'all',
      );
    return { changed: Number(row?.changed) > 0, audited: Number(row?.audited) > 0 };
  }

  /** False when the dispute is not open. */
  async close(em: EntityManager, id: string, outcome: DisputeOutcome, note: string, at: Date): Promise<boolean> {
    const updated = await em.nativeUpdate(
      DisputeEntity,
      { id, status: { $in: [...OPEN_DISPUTE_STATUSES] } },
      { status: outcome, outcomeNote: note, closedAt: at, updatedAt: at },
    );
    return updated > 0;
  }
}
