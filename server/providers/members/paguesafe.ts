import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * PAGUESAFE (spec doc 2, group 2), a member of the transactions API family:
 * the family's paths (doc 2 §7), boleto valid 3 days and PIX 1 day (§9),
 * 'Internal server error' on a refund failure (§8). No public API material was
 * found for it (provider research, groups 1–2): the host is the provider's
 * conventional API address, a placeholder until confirmed (accounts set
 * base_url), and auth is HTTP Basic with the secret key as user and 'x' as
 * password, the convention of the Pagar.me-style APIs this family copies.
 */
export const PAGUESAFE: TransactionsApiMember = {
  identity: { id: 'PAGUESAFE', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.paguesafe.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources:
    "paths, validity, refund text: spec (doc 2 §7–§9); bodies: gateway (the family's white-label dialect), no public API material found; host: placeholder",
  expiry: { pixSeconds: SECONDS_PER_DAY, boletoSeconds: 3 * SECONDS_PER_DAY },
  failures: { refoundTransaction: 'INTERNAL_SERVER_ERROR' },
};

export default member(TransactionsApiAdapter, PAGUESAFE);
