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
  evidence: { level: 'documented', addresses: BYNET_ADDRESSES },
  sources:
    "paths of the charge, its read and refund, expiries (PIX 2 days, boleto 7), statuses, 'Erro no saque: …', 'Erro no estorno: …', 'Payment method X not implemented for ByNet': spec (doc 3 §4/§7/§8/§9); `x-api-key` with `User-Agent: AtivoB2B/1.0` on every call, the `/api/user/*` paths relative to the host, POST /api/user/cashout with its seven required fields `{amount (cents), pixKey, pixType CPF|CNPJ|EMAIL|PHONE|RANDOM, beneficiaryName, beneficiaryDocument, description, postbackUrl}` and its answer `{data{id, amount, fee, status PENDING, endToEndId, receiptUrl, …}, status, message, error}`, POST /api/user/transactions with `amount`, `paymentMethod` and `customer{name, email, document{number, type}, phone, address}`, GET /api/user/transactions/{id}, JSON postbacks (no signature shown) on a charge's or refund's status change naming the object as `objectId`: ByNet's documentation (docs.techbynet.com: cash-out, transaction creation and schema, transaction read, postback format), verified by its stand-in; GET /api/user/cashout/{id}: the documentation's menu (Cashout → Find by ID), the path after its siblings (its page not readable); the rest of the charge body and answer (`pix`/`boleto` with `expiresInDays`, the method words, items), the refund body `{amount}`, the answers inside `data`, the postback beneath `objectId` (`type`, `data`): the family's dialect, the pages being cut there; host: placeholder after its documentation's domain",
};

export default member(UserApiAdapter, BYNET);
