import { SPEC_GROUPS } from '../adapter.js';
import { CashtimeAdapter, type CashtimeMember } from '../families/cashtime/index.js';
import { member } from '../kit/registration.js';

/**
 * CASHTIME (spec doc 2, group 2), a member of the Cashtime platform family:
 * PIX charges by POST /transactions read by GET /details/orders/{id}, PIX
 * payouts by POST /request/withdraw, no payout lookup (doc 2 §7 gives GET
 * /request/withdraw/{id} to REFLOWPAY only); infraction is CHARGEBACK (§4, the
 * table's reading; docs/decisions.md). From the provider research (G-A): host
 * api.cashtime.com.br/v1, the secret key in `x-authorization-key`, cents.
 */
export const CASHTIME: CashtimeMember = {
  identity: { id: 'CASHTIME', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.cashtime.com.br/v1' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], webhooks: true },
  auth: { type: 'apiKey', header: 'x-authorization-key' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'third-party' },
  sources:
    "paths, infraction CHARGEBACK: spec (doc 2 §4/§7); host `api.cashtime.com.br/v1`, `x-authorization-key` with the secret key, cents, `POST /transactions {isInfoProducts, externalCode, paymentMethod, installments, amount, customer{name, email, phone, document{number, type}}, items[{title, unitPrice, quantity, tangible}], postbackUrl, ip}` answered `{id, status, pix{payload}}`, `POST /request/withdraw {amount, pixKey, pixKeyType CPF\\|CNPJ\\|EMAIL\\|PHONE (+55)\\|EVP, baasPostbackUrl, externalCode}` answered `{id}`: research (G-A, Cashtime's and ReflowPay's public integrations); the `GET /details/orders/{id}` answer and the postbacks: gateway (not seen anywhere)",
  statuses: { transaction: { overrides: { infraction: 'CHARGEBACK' } } },
};

export default member(CashtimeAdapter, CASHTIME);
