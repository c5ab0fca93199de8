import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * NEWLEVEL (spec doc 2, group 2), a member of the transactions API family: PIX
 * valid 2 days (§9), PIX withdrawals by POST /cashout (§7), a payout answered
 * REFUSED is an error (§5) with the text 'Error on withdraw' (§8). No public
 * material (provider research): the family's Basic secret-key auth and payout
 * body, a placeholder host accounts override.
 */
export const NEWLEVEL: TransactionsApiMember = {
  identity: { id: 'NEWLEVEL', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.newlevel.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources:
    "2-day PIX, /cashout, REFUSED as 'Error on withdraw': spec (doc 2 §5/§7/§8/§9); payout body and auth: the family's dialect (no public material); host: placeholder",
  expiry: { pixSeconds: 2 * SECONDS_PER_DAY },
  paths: { withdraw: '/cashout' },
  withdrawalRefusalIsError: true,
  failures: { withdraw: 'ERROR_ON_WITHDRAW' },
};

export default member(TransactionsApiAdapter, NEWLEVEL);
