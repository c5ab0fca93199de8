/** Disputes: a card chargeback or a PIX infraction (MED) against a charge, kept as a record with its evidence and outcome. */

export const DISPUTE_KINDS = ['CHARGEBACK', 'PIX_INFRACTION'] as const;
export type DisputeKind = (typeof DISPUTE_KINDS)[number];

export const DISPUTE_STATUSES = ['OPEN', 'EVIDENCE_SUBMITTED', 'WON', 'LOST', 'ACCEPTED'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** How a dispute ends (CloseDispute): won or lost before the card scheme or the payer's bank, or accepted without a defence. */
export const DISPUTE_OUTCOMES = ['WON', 'LOST', 'ACCEPTED'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

export const OPEN_DISPUTE_STATUSES: readonly DisputeStatus[] = ['OPEN', 'EVIDENCE_SUBMITTED'];
export const isOpenDispute = (status: DisputeStatus): boolean => OPEN_DISPUTE_STATUSES.includes(status);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The deadline a dispute gets when none is given (docs/decisions.md, "Disputes"): 7 days for both kinds. For MED, the
 * Banco Central's rule is that the receiving participant closes an infraction report within 7 days of receiving it;
 * for chargebacks, the schemes' and acquirers' windows vary and none is known here, so the same week is the safe side.
 */
export const DEFAULT_DISPUTE_DAYS: Record<DisputeKind, number> = { CHARGEBACK: 7, PIX_INFRACTION: 7 };

export const defaultDisputeDeadline = (kind: DisputeKind, openedAt: Date): Date => new Date(openedAt.getTime() + DEFAULT_DISPUTE_DAYS[kind] * DAY_MS);

/** The kind of dispute a charge's move to CHARGEBACK is: for a PIX payment, the payer's bank contesting it under MED. */
export const chargebackDisputeKind = (paymentMethod: string): DisputeKind => (paymentMethod === 'PIX' ? 'PIX_INFRACTION' : 'CHARGEBACK');

/** The reason recorded on a dispute the gateway opens itself when a charge moves to CHARGEBACK. */
export const AUTOMATIC_CHARGEBACK_REASON = 'chargeback reported by the provider';

/**
 * A provider's own record of a chargeback, as its notification (and the read behind it) gives it: its id (where the
 * defence goes), and where stated the amount at stake (cents) and the deadline for the defence.
 */
export interface ProviderChargeback {
  providerDisputeId: string;
  amount?: number;
  deadline?: Date;
}

/** The actor recorded on a dispute the gateway opened itself. */
export const GATEWAY_ACTOR = { id: 'gateway', name: 'gateway' } as const;

export interface DisputeEvidence {
  id: string;
  /** The uploaded object's URL, as the upload flow answers it (UploadService.CreateUploadLink); the bytes stay in the object store. */
  documentUrl: string;
  fileName: string;
  description: string;
  addedBy: { id: string; name: string };
  addedAt: Date;
  /** When it reached the provider through its API (a defence sent); unset while it has not. */
  sentAt?: Date;
}

export interface Dispute {
  id: string;
  transactionId: string;
  providerAccountId: string;
  provider: string;
  kind: DisputeKind;
  reasonCode: string;
  reason: string;
  /** Cents, at most the charge's amount. */
  amount: number;
  deadline: Date;
  status: DisputeStatus;
  outcomeNote: string;
  providerDisputeId: string;
  /** Whether the defence reached the provider through its API (false: recorded here only). */
  sentToProvider: boolean;
  openedBy: { id: string; name: string };
  openedAt: Date;
  updatedAt: Date;
  submittedAt?: Date;
  closedAt?: Date;
  evidence: DisputeEvidence[];
}

export interface DisputeFilter {
  status?: DisputeStatus;
  kind?: DisputeKind;
  providerAccountId?: string;
  transactionId?: string;
}

/**
 * The kinds whose defence a provider's API can take: the documented defence APIs (Mercado Pago's chargebacks,
 * Asaas's and PagBank's disputes) are card chargebacks'; a PIX infraction (MED) is answered between the PSPs in the
 * Banco Central's DICT, and no provider here documents an API for it, so its defence is recorded only.
 */
export const DEFENSE_KINDS_SENT: readonly DisputeKind[] = ['CHARGEBACK'];

/** One evidence document as the provider is sent it: its bytes, read from the gateway's store, and a link to them. */
export interface DefenseDocument {
  fileName: string;
  /** A short-lived link to read the document (providers that take links rather than files). */
  url: string;
  /** As the store keeps it (the upload's content type). */
  contentType: string;
  content: Uint8Array<ArrayBuffer>;
}

/** What a provider that takes defences through its API is sent (ProviderAdapter.submitDisputeDefense). */
export interface DisputeDefense {
  kind: DisputeKind;
  /** The provider's id of the charge, and of the dispute where the provider gave one. */
  providerTransactionId: string;
  providerDisputeId: string;
  reason: string;
  documents: DefenseDocument[];
}

/** What the provider answered a defence with: its id of the dispute (found from the charge where the record had none). */
export interface DisputeDefenseReceipt {
  providerDisputeId: string;
}
