import { SPEC_GROUPS } from '../adapter.js';
import type { TransactionsApiMember } from '../families/transactionsApi/index.js';
import { USER_API_PLATFORM, UserApiAdapter } from '../families/transactionsApi/platforms/userApi.js';
import { member } from '../kit/registration.js';

/**
 * The pages of ByNet's documentation (docs.techbynet.com) its stand-in
 * (tests/standins/bynet.ts) was written from: the cash-out, the transaction's
 * creation and its schema, the transaction's read, the postback format.
 */
export const BYNET_ADDRESSES = [
  'https://docs.techbynet.com/create-19470515e0',
  'https://docs.techbynet.com/create-19470492e0',
  'https://docs.techbynet.com/post-apiusertransactions-8246362d0',
  'https://docs.techbynet.com/find-by-id-19470493e0',
  'https://docs.techbynet.com/%EF%B8%8F-webhook-formato-de-postback-1291689m0',
] as const;

/**
 * BYNET (spec doc 3, group 4: "ByNet"), a member of the transactions API
 * family on the "AtivoB2B" /user/* platform it shares with FastSoft (provider
 * research F7, https://docs.techbynet.com; `families/transactionsApi/platforms/userApi.ts`):
 * its paths, PIX 2 days and boleto 7 days, statuses with unknown PENDING (a
 * cancelled payout is CANCELED), 'Erro no saque: …' and 'Erro no estorno: …'
 * (doc 3 §4, §7, §8, §9); the API key header of §7 as the research shows it,
 * `x-api-key` with `User-Agent: AtivoB2B/1.0`; 'Payment method X not
 * implemented for ByNet' for a card (§8). Beyond the shared platform, its
 * payouts are read back by GET /user/cashout/{id} (its documentation lists
 * "Cashout → Find by ID"; the spec names no payout read): without it nothing
 * could confirm the unsigned postback a cash-out's `postbackUrl` receives.
 */
export const BYNET: TransactionsApiMember = {
  ...USER_API_PLATFORM,
  capabilities: { ...USER_API_PLATFORM.capabilities, withdrawalLookup: true },
  paths: { ...USER_API_PLATFORM.paths, getWithdraw: '/user/cashout/{id}' },
  identity: { id: 'BYNET', specGroup: SPEC_GROUPS.DOC3_GROUP4, defaultBaseUrl: 'https://api.techbynet.com/api' },
  auth: { type: 'apiKey', header: 'x-api-key' },
  headers: { 'user-agent': { fixed: 'AtivoB2B/1.0' } },
  credentials: { required: ['secretKey'] },
  failures: { unsupportedPaymentMethod: { notImplementedFor: 'ByNet' } },
  sources:
    "paths, API-key header, expiries, statuses, 'Erro no saque: …', 'Erro no estorno: …', 'Payment method X not implemented for ByNet': spec (doc 3 §4/§7/§8/§9); `x-api-key`, `User-Agent: AtivoB2B/1.0`, `/api/user/*` under the host, the cashout body `{amount (cents), pixKey, pixType, beneficiaryName, beneficiaryDocument, description, postbackUrl}` and its answer `{data{id, amount, status}, status, message}`: research (F7, docs.techbynet.com); charge bodies: the family's dialect; host: placeholder after its documentation's domain",
};

export default member(UserApiAdapter, BYNET);
