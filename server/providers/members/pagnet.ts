import { SPEC_GROUPS } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { F1Adapter } from '../families/transactionsApi/platforms/f1.js';
import { member } from '../kit/registration.js';

/**
 * PAGNET (spec doc 3, group 3), a member of the transactions API family: POST
 * /transactions (PIX, credit_card, boleto) and GET /transactions/{id}, no refund
 * (doc 3 §7: the research's POST /transactions/{id}/refund is not the spec's);
 * PIX valid 1 day, boleto 3 days (§9); doc 3's common status pattern (§4). From
 * the provider research (F1, a typed public integration): host
 * api.pagnetbrasil.com/v1, HTTP Basic publicKey:secretKey, amounts in cents,
 * postbacks {id, type, objectId, url, data}. Its charge body is the
 * platform's (F1Adapter): a card by `card.hash` (the hash Pagnet's card script
 * makes), a boleto by `boleto.expirationDate`; checked by its stand-in.
 */
export const PAGNET: TransactionsApiMember = {
  identity: { id: 'PAGNET', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.pagnetbrasil.com/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], webhooks: true },
  auth: { type: 'basic', username: 'publicKey', password: 'secretKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
  sources:
    "paths, no refund, validity, statuses: spec (doc 3 §4/§7/§9); host `api.pagnetbrasil.com/v1`, Basic publicKey:secretKey, F1 body (cents), statuses waiting_payment…chargeback, postback `{id, type, objectId, url, data}`: research (F1, typed public integration); the charge body (`card{hash}`, `pix{expiresInDays}`), a declined card `refused`, the postback envelope: the F1 platform's documentation (its other instances' pages, the addresses in tests/standins/f1Platform.ts); all checked by the stand-in tests/standins/pagnet.ts",
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } },
};

export default member(F1Adapter, PAGNET);
