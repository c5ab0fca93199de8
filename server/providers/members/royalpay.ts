import { providerPixKey } from '../../lib/pixKey.js';
import type { WithdrawInput } from '../../domain/types.js';
import { SPEC_GROUPS } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * ROYALPAY (spec doc 3, group 3), a member of the transactions API family:
 * POST /transactions, GET /transactions/{id}, PIX payouts by POST /cashout
 * {amount, pix_key, pix_type} (doc 3 §7), the key stripped to its digits for
 * every type but EMAIL and RANDOM (§5); new PIX charges and billets start
 * PENDING (§4); doc 3's common status pattern (§4); no refund (none in §7).
 * The provider research found no reliable source; one self-described SDK for a
 * "Royal Pay" at api.royalpay.com.br/v1 uses Bearer secret keys: taken as host
 * and auth, the rest the family's dialect (cents).
 */
export const ROYALPAY: TransactionsApiMember = {
  identity: { id: 'ROYALPAY', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.royalpay.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], withdrawMethods: ['PIX'], webhooks: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'third-party' },
  sources:
    "paths, cashout fields, PIX key digits, PIX and billets PENDING at creation, statuses: spec (doc 3 §4/§5/§7); host `api.royalpay.com.br/v1`, Bearer secret key: research (one unreliable SDK); charge body, postbacks, cents, pix_type names (ours): the family's dialect / the gateway's decision",
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } },
  paths: { withdraw: '/cashout' },
  pendingAtCreation: ['PIX', 'BILLET'],
};

/** Body of POST /cashout (doc 3 §7, §5): the amount, the key (digits except EMAIL and RANDOM, no +55) and its type by our names. */
export function toRoyalpayCashout(input: WithdrawInput & { pixKey: string; pixType: NonNullable<WithdrawInput['pixType']> }, amount: number) {
  const { key, type } = providerPixKey(input.pixKey, input.pixType);
  return { amount, pix_key: key, pix_type: type };
}

/** One hook: the payout body; every operation is the family's. */
export class RoyalpayAdapter extends TransactionsApiAdapter {
  protected override withdrawalBody(input: WithdrawInput): object {
    return toRoyalpayCashout(this.pixPayout(input), this.toProviderAmount(input.amount));
  }
}

export default member(RoyalpayAdapter, ROYALPAY);
