import { timestampedSignature } from '../lib/hmacSignature.js';

/**
 * How the sandbox signs its notifications: when the merchant gave a
 * `notificationSecret` with the charge or withdrawal, the toolkit's timestamped
 * HMAC (lib/hmacSignature) with it, sent as `x-sandbox-signature: t=<timestamp>,v1=<hex>`.
 * Without one, notifications go unsigned. The event's id is in the signed body.
 */
export const SIGNATURE_HEADER = 'x-sandbox-signature';

export function signSandboxPayload(secret: string, timestamp: number, body: string): string {
  return timestampedSignature(secret, body, timestamp);
}

/** charge.updated reports a charge's current status, whatever it is. */
export type SandboxEventType = 'charge.paid' | 'charge.refunded' | 'charge.updated' | 'withdrawal.paid' | 'withdrawal.failed';

export interface SandboxEvent {
  id: string;
  type: SandboxEventType;
  createdAt: string;
  /** A PIX charge's events carry the payment that paid it, once paid; a failed withdrawal's, why it failed. */
  data: { id: string; status: string; amount: number; pix?: { payment: SandboxPixPayment }; failureReason?: string };
}

/** The sandbox PSP's REST resources (amounts in cents). */
export type SandboxChargeMethod = 'pix' | 'card' | 'boleto';
export type SandboxChargeStatus = 'pending' | 'paid' | 'declined' | 'refunded' | 'canceled';

export interface SandboxCharge {
  id: string;
  amount: number;
  method: SandboxChargeMethod;
  status: SandboxChargeStatus;
  installments: number;
  description?: string;
  declineReason?: string;
  /** The same decline in the sandbox's words, beside the code (testCards.ts DECLINE_MESSAGES). */
  declineMessage?: string;
  /** A card charge's card as card APIs answer it: the brand and the last four digits, never the number. */
  card?: { brand?: string; last4: string };
  /**
   * The BR Code, and where its QR image is (drawn when asked, as providers that answer an image URL do). Charges
   * kept from before the URL carry the image itself, `qrCodeDataUrl`.
   */
  pix?: { copyPaste: string; qrCodeUrl?: string; qrCodeDataUrl?: string; expiresAt: string; payment?: SandboxPixPayment };
  boleto?: { digitableLine: string; barcode: string; url: string; dueDate: string };
  createdAt: string;
  paidAt?: string;
  refundedAmount: number;
}

/**
 * A charge the sandbox no longer keeps whole (SANDBOX_WHOLE_RECORDS): past that many newer charges, the oldest keeps
 * only what its lookups, refunds and the merchant's balance need, and is still found by its Idempotency-Key. One still
 * pending then is canceled (it can no longer be paid), and said so at the next lookup, as a PSP that expires charges
 * without notifying them does.
 */
export type SandboxForgottenCharge = Pick<SandboxCharge, 'id' | 'amount' | 'method' | 'status' | 'refundedAmount'> & { forgotten: true };

/** The same for a payout once settled: its id, amount and outcome. */
export type SandboxForgottenWithdrawal = Pick<SandboxWithdrawal, 'id' | 'amount' | 'status' | 'failureReason'> & { forgotten: true };

/** The PIX payment that paid a charge: its end-to-end id and payer (the document as digits). */
export interface SandboxPixPayment {
  endToEndId: string;
  payer: { name: string; document: string; bankIspb: string; bankName: string };
}

export type SandboxWithdrawalStatus = 'processing' | 'paid' | 'failed';

export interface SandboxWithdrawal {
  id: string;
  amount: number;
  status: SandboxWithdrawalStatus;
  pixKey: string;
  pixKeyType: string;
  description: string;
  createdAt: string;
  paidAt?: string;
  /** A failed withdrawal: why the receiving institution refused it. */
  failureReason?: string;
}

export interface SandboxRecipient {
  id: string;
  token: string;
  name: string;
  document: string;
  email: string;
  status: 'active' | 'pending' | 'rejected';
  balance: number;
  /** How the recipient is paid: by PIX to its account's key, or by bank transfer (the default). */
  paymentMethod?: 'pix' | 'bank_transfer';
  createdAt: string;
}

export interface SandboxSentNotification {
  url: string;
  body: string;
  headers: Record<string, string>;
  responseStatus: number;
}

/** A PIX key the sandbox always refuses to pay, to exercise failed withdrawals. */
export const SANDBOX_FAILING_PIX_KEY = 'fail@sandbox.test';
/** Why the sandbox's failed withdrawals failed (their `failureReason`). */
export const SANDBOX_FAILURE_REASON = 'the receiving institution refused the PIX key';

/** A PIX key the sandbox refuses at once (422, nothing made), to exercise payouts refused when asked for. */
export const SANDBOX_REFUSED_PIX_KEY = 'refuse@sandbox.test';
/** The message of that refusal. */
export const SANDBOX_REFUSAL_MESSAGE = 'payouts to this PIX key are blocked';
