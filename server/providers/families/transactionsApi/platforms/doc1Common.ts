import type { TransactionsApiMember } from '../member.js';

/**
 * The providers of document 2's first group for which the provider research
 * found no public API at all (ABMEX, ABMEXPAY, PAGO, ULTRAGATE, SPACEFY,
 * WALLETZ, SIMPAY, MEXPAG, AMEII, PAYUP, AKTAPAY, VIATECH, OWENPAY, ZENET):
 * issue 14 maps them to the closest family of document 1 §7, whose common
 * path shapes are this family's: POST /transactions, GET /transactions/{id},
 * POST /transactions/{id}/refund {amount}, and POST /withdrawals for payouts
 * (no payout read is shown). Everything else is the family's dialect (the F1
 * body and postback, cents, Basic with the secret key and 'x'), document 1's
 * common status table (the family's, unknown REJECTED) and §9's defaults (PIX
 * 1 day, boleto 3 days). A member spreads this and adds who it is.
 */
export const DOC1_COMMON_GATEWAY: Required<Pick<TransactionsApiMember, 'capabilities' | 'auth' | 'credentials' | 'money' | 'paths' | 'evidence'>> = {
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  paths: { withdraw: '/withdrawals' },
  evidence: { level: 'specification-only' },
};

/** What every such member's catalogue line says of its shapes. */
export const DOC1_COMMON_SOURCES =
  "no public API found (provider research): paths of document 1 §7's common shapes (POST /transactions, GET /transactions/{id}, POST /transactions/{id}/refund, POST /withdrawals); statuses: document 1 §4's common table; validity: document 1 §9's defaults; bodies, postbacks, Basic secret key and 'x', cents: the transactions API family's dialect; host: placeholder";

/** Document 1 §9: "a value of 8000 for one wallet provider", read as 8000 seconds (WALLETZ, the group's one wallet). */
export const WALLET_PIX_SECONDS = 8000;
