import { SPEC_GROUPS } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { F1Adapter } from '../families/transactionsApi/platforms/f1.js';
import { member } from '../kit/registration.js';

/**
 * ORBITA (spec doc 3, groups 3 and 4), a member of the transactions API family:
 * POST /transactions (PIX, credit_card, boleto), GET /transactions/{id}, refunds
 * by POST /transactions/{id}/refund, Basic auth (doc 3 §7); 'Internal server
 * error' on a refund failure (§8); PIX valid 1 day, boleto 3 days (§9); a new
 * boleto is PENDING (§4, "Billet creation returns PENDING (also Orbita)");
 * doc 3's common status pattern (§4). From the provider research (F1, inferred;
 * one public integration): host api.dashboard.orbitapay.com.br/v1, Basic
 * base64(secretKey:apiKey), the API key being the account's public key. Its
 * charge body is the platform's (F1Adapter): a card by `card.hash`, a boleto
 * by `boleto.expirationDate`; checked by its stand-in (tests/standins/orbita.ts).
 */
export const ORBITA: TransactionsApiMember = {
  identity: { id: 'ORBITA', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.dashboard.orbitapay.com.br/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: 'publicKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
  sources:
    "paths, Basic auth, refund text, validity, boleto PENDING at creation, statuses: spec (doc 3 §4/§7/§8/§9); host `api.dashboard.orbitapay.com.br/v1`, Basic secretKey:apiKey (publicKey): research (F1 inferred, one public integration); cents, the charge body (`card{hash}`, `pix{expiresInDays}`), a declined card `refused`, the postback envelope: the F1 platform's documentation (its other instances' pages, the addresses in tests/standins/f1Platform.ts); the read, the refund's body and answer, `boleto{expirationDate}`: the platform's public clients; all checked by the stand-in tests/standins/orbita.ts",
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } },
  failures: { refoundTransaction: 'INTERNAL_SERVER_ERROR' },
  pendingAtCreation: ['BILLET'],
};

export default member(F1Adapter, ORBITA);
