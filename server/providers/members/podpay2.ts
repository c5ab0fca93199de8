import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { SPEC_GROUPS } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { F1Adapter, F1_PLATFORM } from '../families/transactionsApi/platforms/f1.js';
import { credentialPart, type CredentialLayout } from '../kit/credentials.js';
import { member } from '../kit/registration.js';

/**
 * The account's keys: the public key is the Basic user; the secret key packs
 * the Basic password and, for payouts, the withdraw key ('secret|withdrawKey').
 * Both keys are required ('PodPay requer tanto publicKey quanto secretKey para
 * autenticação Basic.', doc 3 §5).
 */
const CREDENTIALS = {
  secretKey: ['secret', 'withdrawKey?'],
  required: ['publicKey', 'secretKey'],
  missing: 'PODPAY2_BASIC_AUTH_KEYS_REQUIRED',
} as const satisfies CredentialLayout;

/**
 * PODPAY2 (spec doc 3, group 4), a member of the transactions API family on
 * the "Pagar.me-v4 clone" platform (provider research F1, api.podpay.co): the
 * family's paths, POST /transactions, GET /transactions/{id}, POST
 * /transactions/{id}/refund, POST /transfers with a withdraw-key header (§7),
 * GET /transfers/{id} (the platform's payout read);
 * Basic publicKey:secret (§5, research); card charges need card data (§5);
 * PIX 1 day, boleto 3 days (§9); its transaction and transfer tables (§4),
 * unknown PENDING; the fourth group's 'Erro no saque: …' and 'Erro no
 * estorno: …' (§8). The transfer body adds the research's `method: 'fiat'`
 * and names a random key `evp`.
 */
export const PODPAY2: TransactionsApiMember = {
  identity: { id: 'PODPAY2', specGroup: SPEC_GROUPS.DOC3_GROUP4, defaultBaseUrl: 'https://api.podpay.co/v1' },
  /**
   * Payouts are read by GET /transfers/{id} (the platform's, which its public clients use; §7 lists
   * only the POST): its postbacks are unsigned, so a payout's notification is confirmed by that read.
   */
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], withdrawMethods: ['PIX'], withdrawalLookup: true, refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'publicKey', password: credentialPart(CREDENTIALS, 'secret') },
  credentials: CREDENTIALS,
  ...F1_PLATFORM,
  expiry: { pixSeconds: SECONDS_PER_DAY, boletoSeconds: 3 * SECONDS_PER_DAY },
  statuses: {
    transaction: {
      overrides: { ...DOC3_COMMON_OVERRIDES, in_protest: 'PENDING', cancelled: 'REJECTED', canceled: 'REJECTED' },
      unknown: 'PENDING',
    },
    withdrawal: {
      table: { pending: 'PENDING', processing: 'PENDING', completed: 'APPROVED', cancelled: 'REJECTED', canceled: 'REJECTED', refused: 'REJECTED' },
      unknown: 'PENDING',
    },
  },
  failures: { missingCard: 'PODPAY2_CARD_DATA_REQUIRED' },
  failurePrefixes: { withdraw: 'WITHDRAW_FOURTH_GROUP', refoundTransaction: 'REFUND_FOURTH_GROUP' },
  sources:
    "paths, withdraw-key header, both keys for Basic, card data, expiries, statuses, texts: spec (doc 3 §4/§5/§7/§8/§9); cents, the charge body (`customer{name, email, phone, document}`, `items`, `card{hash}`, `pix{expiresInDays}`), the transaction object, a declined card `refused` with its `refusedReason`, the postback envelope (unsigned): the F1 platform's documentation (its other instances' pages, the addresses in tests/standins/f1Platform.ts); host `api.podpay.co/v1`, Basic `publicKey:secret`, `boleto{expirationDate}`, refunds `{amount}` answered by the transaction, `x-withdraw-key` on POST and GET /transfers, transfer `{method: fiat, amount, pixKey, pixKeyType (lower case, evp)}` and its statuses, postbacks `{type: transaction|withdraw, data}` (unsigned): PodPay's public clients and the F1 platform's (their code-index ids are in the stand-in's sources; docs.podpay.co, which they cite, could not be read), checked by the stand-in tests/standins/podpay2.ts; the withdraw key packed after the secret: the gateway's decision",
};

/** The F1 platform's adapter: its charge and transfer bodies, the withdraw key; every operation is the family's. */
export class PodPay2Adapter extends F1Adapter {}

export default member(PodPay2Adapter, PODPAY2);
