import * as ds from '../../gen/ts-proto/gateway/v1/dispute_service.js';
import type { DisputeKind, DisputeOutcome, DisputeStatus } from '../domain/disputes.js';
import type { DisputeView } from '../gateway/disputes.js';
import type { CallContext } from './callGuard.js';
import { enumFilter, toEnum } from './enums.js';
import type { UseCases } from './rpcHandlers.js';

/** DisputeService: disputes in the contract's shape ↔ the domain's (disputes.ts). */

const kindOf = (value: ds.DisputeKind, field: string) => enumFilter<DisputeKind>(ds.DisputeKind, 'DISPUTE_KIND', value, field);
const statusOf = (value: ds.DisputeStatus, field: string) => enumFilter<DisputeStatus>(ds.DisputeStatus, 'DISPUTE_STATUS', value, field);

export function toProtoDispute(dispute: DisputeView): ds.Dispute {
  return {
    id: dispute.id,
    transactionId: dispute.transactionId,
    providerAccountId: dispute.providerAccountId,
    provider: dispute.provider,
    kind: toEnum(ds.DisputeKind, 'DISPUTE_KIND', dispute.kind) as ds.DisputeKind,
    reasonCode: dispute.reasonCode,
    reason: dispute.reason,
    amount: dispute.amount,
    deadline: dispute.deadline,
    status: toEnum(ds.DisputeStatus, 'DISPUTE_STATUS', dispute.status) as ds.DisputeStatus,
    outcomeNote: dispute.outcomeNote,
    providerDisputeId: dispute.providerDisputeId,
    sentToProvider: dispute.sentToProvider,
    providerTakesDefense: dispute.providerTakesDefense,
    openedBy: dispute.openedBy.name,
    openedAt: dispute.openedAt,
    updatedAt: dispute.updatedAt,
    submittedAt: dispute.submittedAt,
    closedAt: dispute.closedAt,
    evidence: dispute.evidence.map((item) => ({
      id: item.id,
      documentUrl: item.documentUrl,
      fileName: item.fileName,
      description: item.description,
      addedBy: item.addedBy.name,
      addedAt: item.addedAt,
      readUrl: item.readUrl ?? '',
      sentAt: item.sentAt,
    })),
  };
}

export function disputeHandlers(u: UseCases) {
  return {
    listDisputes: async (r: ds.ListDisputesRequest): Promise<ds.ListDisputesResponse> => {
      const { items, nextPageToken } = await u.disputes.list({
        status: statusOf(r.status, 'status'),
        kind: kindOf(r.kind, 'kind'),
        providerAccountId: r.providerAccountId || undefined,
        transactionId: r.transactionId || undefined,
        pageSize: r.pageSize,
        pageToken: r.pageToken || undefined,
      });
      return { disputes: items.map(toProtoDispute), nextPageToken: nextPageToken ?? '' };
    },
    getDispute: async (r: ds.GetDisputeRequest): Promise<ds.GetDisputeResponse> => ({ dispute: toProtoDispute(await u.disputes.get(r.id)) }),
    openDispute: async (r: ds.OpenDisputeRequest, _signal: AbortSignal, { principal }: CallContext): Promise<ds.OpenDisputeResponse> => ({
      dispute: toProtoDispute(
        await u.disputes.open(
          {
            transactionId: r.transactionId,
            kind: kindOf(r.kind, 'kind'),
            reasonCode: r.reasonCode,
            reason: r.reason,
            amount: r.amount,
            deadline: r.deadline,
            providerDisputeId: r.providerDisputeId,
          },
          principal,
        ),
      ),
    }),
    addDisputeEvidence: async (r: ds.AddDisputeEvidenceRequest, _signal: AbortSignal, { principal }: CallContext): Promise<ds.AddDisputeEvidenceResponse> => ({
      dispute: toProtoDispute(await u.disputes.addEvidence(r.disputeId, { documentUrl: r.documentUrl, description: r.description }, principal)),
    }),
    submitDisputeDefense: async (r: ds.SubmitDisputeDefenseRequest): Promise<ds.SubmitDisputeDefenseResponse> => ({
      dispute: toProtoDispute(await u.disputes.submitDefense(r.disputeId)),
    }),
    closeDispute: async (r: ds.CloseDisputeRequest): Promise<ds.CloseDisputeResponse> => ({
      dispute: toProtoDispute(await u.disputes.close(r.disputeId, statusOf(r.outcome, 'outcome') as DisputeOutcome | undefined, r.note)),
    }),
    updateDispute: async (r: ds.UpdateDisputeRequest): Promise<ds.UpdateDisputeResponse> => {
      const { dispute, deadlinePassed } = await u.disputes.update(r.disputeId, {
        reason: r.reason,
        deadline: r.deadline,
        amount: r.amount,
        providerDisputeId: r.providerDisputeId,
        note: r.note,
      });
      return { dispute: toProtoDispute(dispute), deadlinePassed };
    },
  };
}
