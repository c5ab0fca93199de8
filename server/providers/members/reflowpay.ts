import { SPEC_GROUPS } from '../adapter.js';
import { CashtimeAdapter, type CashtimeMember } from '../families/cashtime/index.js';
import { member } from '../kit/registration.js';

/**
 * REFLOWPAY (spec doc 2, group 2), a member of the Cashtime platform family
 * (ReflowPay v1 is the Cashtime API: provider research, G-A): CASHTIME's
 * exchanges, plus payouts read back by GET /request/withdraw/{id} (doc 2 §7);
 * infraction is APPROVED (§4, its own row; docs/decisions.md). Host
 * api.reflowpay.com/v1, the secret key in `x-authorization-key`, cents.
 */
export const REFLOWPAY: CashtimeMember = {
  identity: { id: 'REFLOWPAY', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.reflowpay.com/v1' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, webhooks: true },
  auth: { type: 'apiKey', header: 'x-authorization-key' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'third-party' },
  sources:
    "as CASHTIME (ReflowPay v1 is the Cashtime API: research G-A; host `api.reflowpay.com/v1`); `GET /request/withdraw/{id}` and infraction APPROVED: spec (doc 2 §4/§7); that lookup's answer: gateway",
  statuses: { transaction: { overrides: { infraction: 'APPROVED' } } },
};

export default member(CashtimeAdapter, REFLOWPAY);
