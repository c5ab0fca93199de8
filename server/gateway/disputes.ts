import { randomUUID } from 'node:crypto';
import type { DisputeCorrection, DisputesRepository } from '../db/disputesRepository.js';
import { readPageToken } from '../db/pageTokens.js';
import {
  defaultDisputeDeadline,
  DEFENSE_KINDS_SENT,
  DISPUTE_KINDS,
  DISPUTE_OUTCOMES,
  DISPUTE_STATUSES,
  isOpenDispute,
  type DefenseDocument,
  type Dispute,
  type DisputeEvidence,
  type DisputeKind,
  type DisputeOutcome,
  type DisputeStatus,
} from '../domain/disputes.js';
import type { Page } from '../domain/lists.js';
import type { Actor, PaymentMethod, Transaction } from '../domain/types.js';
import { GatewayError, invalidArgument, notFound } from '../lib/errors.js';
import { redactText } from '../lib/http/redact.js';
import { isUuid } from '../lib/ids.js';
import type { AdapterContext, Capabilities, ProviderAdapter } from '../providers/adapter.js';
import { openCallAudit } from './callAudit.js';
import { resolveAccount, type GatewayDeps } from './context.js';
import { limitedText, requireText } from './validation.js';

const REASON_MAX = 1000;
const CODE_MAX = 64;
const NOTE_MAX = 1000;
const LIST_DEFAULT = 100;
const LIST_MAX = 500;
/**
 * How long a SubmitDisputeDefense holds the evidence it sends: far longer than its provider calls (a lookup and an
 * upload, each within the provider timeout, 25 s by default) and the store reads, so a live send never loses its claim;
 * short enough that evidence claimed by a process that died is sent by a later call the same hour.
 */
const DEFENSE_SEND_LEASE_MS = 5 * 60 * 1000;

/** Which charges each kind is about: a chargeback is a card's, an infraction (MED) a PIX payment's. */
const KIND_METHODS: Record<DisputeKind, readonly PaymentMethod[]> = { CHARGEBACK: ['CREDIT_CARD'], PIX_INFRACTION: ['PIX'] };
/** A charge that was paid (and may since have been refunded or charged back): nothing else can be disputed. */
const DISPUTABLE = new Set<Transaction['status']>(['APPROVED', 'REFUNDED', 'CHARGEBACK']);

export interface OpenDisputeInput {
  transactionId: string;
  kind?: DisputeKind;
  reasonCode: string;
  reason: string;
  /** Cents; 0: what is left of the charge once refunds are counted. */
  amount: number;
  deadline?: Date;
  providerDisputeId: string;
}

/** UpdateDispute: each field given is corrected; `note` says why (the audit trail keeps it). */
export interface DisputeUpdateInput {
  reason?: string;
  deadline?: Date;
  amount?: number;
  providerDisputeId?: string;
  note: string;
}

export interface DisputeView extends Omit<Dispute, 'evidence'> {
  /** `readUrl`: a short-lived link to read the document (uploads may be private); only on a single dispute's read. */
  evidence: (DisputeEvidence & { readUrl?: string })[];
  /** Whether the provider's API takes a defence (ProviderAdapter.submitDisputeDefense). */
  providerTakesDefense: boolean;
}

/** Whether the provider's API takes this dispute's defence: it declares it, and the kind is one such APIs take. */
const takesDefense = (capabilities: Capabilities, kind: DisputeKind): boolean => capabilities.disputeDefense === true && DEFENSE_KINDS_SENT.includes(kind);

const failedPrecondition = (reason: string, message: string): GatewayError => new GatewayError('FAILED_PRECONDITION', message, { reason });

/** The object's own name, as the upload flow made it the key's last part. */
function fileNameOf(url: string): string {
  const last = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * Disputes against charges (issue 33 §3): opened by an operator here, or by the gateway when a charge moves to
 * CHARGEBACK (transactionsRepository); evidence is documents already uploaded to the gateway's store; the defence goes
 * to the provider where its adapter takes one, and is otherwise recorded only.
 */
export class DisputesService {
  constructor(
    private readonly deps: GatewayDeps,
    private readonly repository: DisputesRepository,
  ) {}

  async open(input: OpenDisputeInput, by: Actor): Promise<DisputeView> {
    const transactionId = requireText('transaction_id', input.transactionId);
    if (!input.kind || !DISPUTE_KINDS.includes(input.kind))
      throw invalidArgument('kind', `kind is required: one of ${DISPUTE_KINDS.join(', ')}`, 'UNKNOWN_VALUE');
    const reason = limitedText('reason', requireText('reason', input.reason), REASON_MAX);
    const reasonCode = limitedText('reason_code', input.reasonCode, CODE_MAX);
    const providerDisputeId = limitedText('provider_dispute_id', input.providerDisputeId, 128);
    const charge = isUuid(transactionId) ? await this.deps.transactions.findTransaction(this.deps.db.em(), transactionId, 'primary') : null;
    if (!charge) throw notFound(`transaction ${transactionId} not found`);
    if (!KIND_METHODS[input.kind].includes(charge.paymentMethod))
      throw invalidArgument(
        'kind',
        `a ${input.kind} dispute is about a ${KIND_METHODS[input.kind].join(' or ')} charge; this one is ${charge.paymentMethod}`,
        'INVALID_VALUE',
      );
    if (!DISPUTABLE.has(charge.status))
      throw failedPrecondition('CHARGE_NOT_PAID', `transaction ${charge.id} is ${charge.status}: only a paid charge can be disputed`);
    const amount = input.amount || charge.amount - charge.refundedAmount;
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > charge.amount)
      throw invalidArgument('amount', `amount must be a positive integer number of cents, at most the charge's ${charge.amount}`, 'AMOUNT_ABOVE_CHARGE');
    const openedAt = new Date();
    if (input.deadline && !(input.deadline.getTime() > charge.createdAt.getTime()))
      throw invalidArgument('deadline', 'deadline must be after the charge was created', 'DEADLINE_BEFORE_CHARGE');
    const dispute = await this.repository.open(this.deps.db.em(), {
      transactionId: charge.id,
      providerAccountId: charge.providerAccountId,
      provider: charge.provider,
      kind: input.kind,
      reasonCode,
      reason,
      amount,
      deadline: input.deadline ?? defaultDisputeDeadline(input.kind, openedAt),
      providerDisputeId,
      openedBy: { id: by.id, name: by.name },
      openedAt,
    });
    if (!dispute)
      throw new GatewayError('ALREADY_EXISTS', `transaction ${charge.id} already has an open ${input.kind} dispute`, { reason: 'DISPUTE_ALREADY_OPEN' });
    return this.view(dispute);
  }

  async get(id: string): Promise<DisputeView> {
    return this.view(await this.find(id), { readableEvidence: true });
  }

  async list(filter: {
    status?: DisputeStatus;
    kind?: DisputeKind;
    providerAccountId?: string;
    transactionId?: string;
    pageSize: number;
    pageToken?: string;
  }): Promise<Page<DisputeView>> {
    if (!Number.isSafeInteger(filter.pageSize) || filter.pageSize < 0 || filter.pageSize > LIST_MAX)
      throw invalidArgument('page_size', `page_size must be from 0 to ${LIST_MAX}`, 'OUT_OF_RANGE', { min: '0', max: String(LIST_MAX) });
    if (filter.status && !DISPUTE_STATUSES.includes(filter.status))
      throw invalidArgument('status', `status must be one of ${DISPUTE_STATUSES.join(', ')}`, 'UNKNOWN_VALUE');
    if (filter.providerAccountId && !isUuid(filter.providerAccountId))
      throw invalidArgument('provider_account_id', 'provider_account_id must be an account id (a UUID)', 'INVALID_ID');
    if (filter.transactionId && !isUuid(filter.transactionId))
      throw invalidArgument('transaction_id', 'transaction_id must be a charge id (a UUID)', 'INVALID_ID');
    const { items, nextPageToken } = await this.repository.list(
      this.deps.db.em(),
      { status: filter.status, kind: filter.kind, providerAccountId: filter.providerAccountId, transactionId: filter.transactionId },
      filter.pageSize || LIST_DEFAULT,
      readPageToken(filter.pageToken),
    );
    return { items: await Promise.all(items.map((dispute) => this.view(dispute))), nextPageToken };
  }

  async addEvidence(id: string, input: { documentUrl: string; description: string }, by: Actor): Promise<DisputeView> {
    const documentUrl = requireText('document_url', input.documentUrl);
    // Only what the back-office uploaded to the gateway's store as evidence (private, under its own prefix): evidence is
    // never a link to somewhere else, nor a document anyone can read at its address.
    const uploads = this.deps.ownUploads;
    if (!uploads?.isEvidenceObject(documentUrl))
      throw invalidArgument(
        'document_url',
        'document_url must be a document uploaded to the gateway as dispute evidence (UploadService.CreateUploadLink, purpose UPLOAD_PURPOSE_DISPUTE_EVIDENCE)',
        'INVALID_VALUE',
      );
    const description = limitedText('description', input.description, REASON_MAX);
    const dispute = await this.find(id);
    const fileName = fileNameOf(documentUrl);
    await uploads.assertPrivate(documentUrl, fileName);
    const added = await this.repository.addEvidence(this.deps.db.em(), dispute.id, {
      id: randomUUID(),
      documentUrl,
      fileName,
      description,
      addedBy: { id: by.id, name: by.name },
      addedAt: new Date(),
    });
    if (!added) throw this.closed(dispute);
    return this.get(dispute.id);
  }

  /**
   * Sends the defence where the provider's API takes one, with only the evidence that has not reached it yet (each
   * document once); records it in any case.
   */
  async submitDefense(id: string): Promise<DisputeView> {
    const dispute = await this.find(id);
    if (!isOpenDispute(dispute.status)) throw this.closed(dispute);
    if (!dispute.evidence.length) throw failedPrecondition('NO_EVIDENCE', `dispute ${dispute.id} has no evidence: add at least one document first`);
    const { adapter, ctx } = await resolveAccount(this.deps, dispute.providerAccountId, { includeDeleted: true });
    if (takesDefense(adapter.capabilities, dispute.kind)) return this.sendDefense(dispute, adapter, ctx);
    if (!(await this.repository.submitDefense(this.deps.db.em(), dispute.id, { sentToProvider: false, evidenceIds: [] }, new Date())))
      throw this.closed(dispute);
    return this.get(dispute.id);
  }

  /**
   * The evidence not yet sent, claimed first (a lease on its rows) so that a second SubmitDisputeDefense at the same
   * time sends none of it (DEFENSE_IN_PROGRESS); the claim ends when the send is recorded, when it fails (the provider's
   * refusal or outage is thrown, the dispute stays as it was), or with its lease if the process dies mid-send.
   */
  private async sendDefense(dispute: Dispute, adapter: ProviderAdapter, ctx: AdapterContext): Promise<DisputeView> {
    const em = this.deps.db.em();
    const claim = randomUUID();
    const claimed = await this.repository.claimUnsentEvidence(em, dispute.id, claim, DEFENSE_SEND_LEASE_MS);
    if (!claimed.length) throw await this.nothingToSend(dispute.id);
    try {
      // Read again once claimed: a call that ended meanwhile may have found the provider's id of the dispute.
      const current = await this.find(dispute.id);
      const sending = current.evidence.filter((item) => claimed.includes(item.id));
      const receipt = await adapter.submitDisputeDefense(ctx, {
        kind: current.kind,
        providerTransactionId: (await this.deps.transactions.findTransaction(em, current.transactionId, 'primary'))?.transactionId ?? '',
        providerDisputeId: current.providerDisputeId,
        reason: current.reason,
        documents: await Promise.all(sending.map((item) => this.document(item))),
      });
      const sent = { sentToProvider: true, providerDisputeId: receipt.providerDisputeId, evidenceIds: claimed };
      if (!(await this.repository.submitDefense(em, current.id, sent, new Date()))) throw this.closed(current);
    } catch (error) {
      await this.repository.releaseEvidenceClaim(em, claim);
      throw error;
    }
    return this.get(dispute.id);
  }

  /** Why a claim took nothing: the dispute closed, another call sending what is left, or nothing left to send. */
  private async nothingToSend(id: string): Promise<GatewayError> {
    const dispute = await this.find(id);
    if (!isOpenDispute(dispute.status)) return this.closed(dispute);
    if (dispute.evidence.some((item) => !item.sentAt))
      return failedPrecondition(
        'DEFENSE_IN_PROGRESS',
        `dispute ${dispute.id}: another call is sending its evidence to ${dispute.provider} right now; nothing was sent twice: read the dispute again in a moment`,
      );
    return failedPrecondition('NO_NEW_EVIDENCE', `dispute ${dispute.id}: every document already reached ${dispute.provider}; add a new document to send it`);
  }

  /** An evidence document's bytes, read from the gateway's store, for a provider that takes files; and a short-lived link to it. */
  private async document(item: DisputeEvidence): Promise<DefenseDocument> {
    const uploads = this.deps.ownUploads;
    if (!uploads)
      throw new GatewayError('UNAVAILABLE', 'object storage is not configured: the evidence cannot be read to be sent', { reason: 'STORAGE_UNAVAILABLE' });
    const { contentType, content } = await uploads.readDocument(item.documentUrl, item.fileName);
    return { fileName: item.fileName, url: await uploads.readableUrl(item.documentUrl), contentType, content };
  }

  /**
   * An operator's correction of what the provider told them (a dispute the gateway opened has a fixed reason and the
   * default deadline). A deadline already past is taken, since the record must say what the provider says, and
   * answered as `deadlinePassed` for the page to warn; it must still be after the charge was created (OpenDispute's rule).
   */
  async update(id: string, input: DisputeUpdateInput): Promise<{ dispute: DisputeView; deadlinePassed: boolean }> {
    const correction: DisputeCorrection = {
      reason: input.reason === undefined ? undefined : limitedText('reason', requireText('reason', input.reason), REASON_MAX),
      deadline: input.deadline,
      amount: input.amount,
      providerDisputeId:
        input.providerDisputeId === undefined
          ? undefined
          : limitedText('provider_dispute_id', requireText('provider_dispute_id', input.providerDisputeId), 128),
    };
    if (Object.values(correction).every((value) => value === undefined))
      throw new GatewayError('INVALID_ARGUMENT', 'nothing to change: set at least one of reason, deadline, amount, provider_dispute_id', {
        reason: 'NOTHING_TO_CHANGE',
      });
    const note = limitedText('note', requireText('note', input.note), NOTE_MAX);
    const dispute = await this.find(id);
    if (!isOpenDispute(dispute.status)) throw this.closed(dispute);
    if (correction.providerDisputeId !== undefined && dispute.providerDisputeId) throw this.providerIdSet(dispute);
    if (correction.deadline || correction.amount !== undefined) {
      const charge = await this.deps.transactions.findTransaction(this.deps.db.em(), dispute.transactionId, 'primary');
      if (!charge) throw notFound(`transaction ${dispute.transactionId} not found`);
      if (correction.deadline && !(correction.deadline.getTime() > charge.createdAt.getTime()))
        throw invalidArgument('deadline', 'deadline must be after the charge was created', 'DEADLINE_BEFORE_CHARGE');
      const left = charge.amount - charge.refundedAmount;
      if (correction.amount !== undefined && (!Number.isSafeInteger(correction.amount) || correction.amount < 1 || correction.amount > left))
        throw invalidArgument(
          'amount',
          `amount must be a positive integer number of cents, at most what is left of the charge once refunds are counted (${left})`,
          'AMOUNT_ABOVE_CHARGE',
        );
    }
    const audit = openCallAudit();
    const { changed, audited } = await this.repository.correct(this.deps.db.em(), dispute.id, correction, redactText(note), new Date(), audit?.who);
    if (audit && audited) audit.written = true;
    if (!changed) {
      // Closed, or given its provider id, since it was read: the same answers as above.
      const now = await this.find(dispute.id);
      throw isOpenDispute(now.status) ? this.providerIdSet(now) : this.closed(now);
    }
    const deadlinePassed = correction.deadline !== undefined && correction.deadline.getTime() <= Date.now();
    return { dispute: await this.get(dispute.id), deadlinePassed };
  }

  async close(id: string, outcome: DisputeOutcome | undefined, note: string): Promise<DisputeView> {
    if (!outcome || !DISPUTE_OUTCOMES.includes(outcome))
      throw invalidArgument('outcome', `outcome is required: one of ${DISPUTE_OUTCOMES.join(', ')}`, 'UNKNOWN_VALUE');
    const outcomeNote = limitedText('note', note, NOTE_MAX);
    const dispute = await this.find(id);
    if (!(await this.repository.close(this.deps.db.em(), dispute.id, outcome, outcomeNote, new Date()))) throw this.closed(dispute);
    return this.get(dispute.id);
  }

  private async find(id: string): Promise<Dispute> {
    const disputeId = requireText('id', id);
    const dispute = await this.repository.find(this.deps.db.em(), disputeId);
    if (!dispute) throw notFound(`dispute ${disputeId} not found`);
    return dispute;
  }

  private closed(dispute: Dispute): GatewayError {
    return failedPrecondition('DISPUTE_CLOSED', `dispute ${dispute.id} is closed: it takes no more evidence or changes`);
  }

  private providerIdSet(dispute: Dispute): GatewayError {
    return failedPrecondition(
      'PROVIDER_DISPUTE_ID_SET',
      `dispute ${dispute.id} already has the provider's id ${dispute.providerDisputeId}: it is not replaced`,
    );
  }

  private async view(dispute: Dispute, { readableEvidence = false } = {}): Promise<DisputeView> {
    const adapter = this.deps.registry.find(dispute.provider);
    const evidence = readableEvidence
      ? await Promise.all(dispute.evidence.map(async (item) => ({ ...item, readUrl: await this.deps.ownUploads?.readableUrl(item.documentUrl) })))
      : dispute.evidence;
    return { ...dispute, evidence, providerTakesDefense: adapter !== undefined && takesDefense(adapter.capabilities, dispute.kind) };
  }
}
