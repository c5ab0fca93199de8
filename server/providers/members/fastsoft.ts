import { SPEC_GROUPS } from '../adapter.js';
import type { TransactionsApiMember } from '../families/transactionsApi/index.js';
import { USER_API_PLATFORM, UserApiAdapter } from '../families/transactionsApi/platforms/userApi.js';
import { member } from '../kit/registration.js';

/**
 * FASTSOFT (spec doc 3, group 4), a member of the transactions API family on
 * the "AtivoB2B" /user/* platform it shares with ByNet (provider research F7;
 * `families/transactionsApi/platforms/userApi.ts`): its paths, PIX 2 days and boleto 7
 * days, statuses with unknown PENDING, 'Erro no saque: …' and 'Erro no
 * estorno: …' (doc 3 §4, §7, §8, §9); HTTP Basic (§7) with the secret key and
 * 'x', as the family (no public material beyond a card script at
 * js.fastsoftbrasil.com); 'Payment method X not implemented for FastSoft' for
 * a card (§8). Unlike ByNet's, its cancelled payout is REJECTED (§4 names
 * CANCELED for ByNet only).
 */
export const FASTSOFT: TransactionsApiMember = {
  ...USER_API_PLATFORM,
  identity: { id: 'FASTSOFT', specGroup: SPEC_GROUPS.DOC3_GROUP4, defaultBaseUrl: 'https://api.fastsoftbrasil.com' },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  statuses: {
    ...USER_API_PLATFORM.statuses,
    withdrawal: { overrides: { ...USER_API_PLATFORM.statuses.withdrawal?.overrides, cancelled: 'REJECTED', canceled: 'REJECTED' } },
  },
  failures: { unsupportedPaymentMethod: { notImplementedFor: 'FastSoft' } },
  evidence: { level: 'third-party' },
  sources:
    "paths, Basic, expiries, statuses, 'Erro no saque: …', 'Erro no estorno: …', 'Payment method X not implemented for FastSoft': spec (doc 3 §4/§7/§8/§9); payout body `{amount (cents), pixKey, pixType, beneficiaryName, beneficiaryDocument, description, postbackUrl}`: research (F7, ByNet's documentation, the platform FastSoft shares per the spec); charge bodies and Basic secret key with 'x': the family's dialect (no public material); host: placeholder after its card script's domain",
};

export default member(UserApiAdapter, FASTSOFT);
