import { centsToReais } from '../../server/lib/money.js';
import { startStandIn, type StandIn } from './standIn.js';

/**
 * NOXPAY's stand-in, for the account's reads only, written from NoxPay's own
 * API document (github.com/NoxPay/apidocs, apiv2.org, "API V2"):
 * - every call carries the merchant's key in the `api-key` header;
 * - GET /test-auth answers the key's data `{ID, MerchantID, Name, Hash, CreatedAt}`
 *   ("Checking APIKEY");
 * - GET /account answers the merchant's `name` and `balance`, the balance in
 *   reais as a JSON number (`{"name":"NoxPay","balance":389.6}`, "Getting account
 *   data"; the document's amounts sent in POST /payment are reais too).
 * The document shows no answer to a wrong key: the stand-in refuses it with
 * the status alone (401, empty body) and invents no message. Charges, payouts
 * and webhooks are not in this stand-in (the adapter's suite covers them with
 * canned answers).
 */
export const NOXPAY_SOURCES = [
  'https://github.com/NoxPay/apidocs (apiv2.org: API V2, Checking APIKEY, Getting account data)',
  'https://github.com/NoxPay/apidocs (apiv2-postman.json: the api-key header on GET /test-auth and GET /account)',
] as const;

export interface NoxpayStandIn extends StandIn {
  /** The merchant's balance, in cents. */
  balance: number;
}

export async function startNoxpayStandIn(options: { apiKey: string; name?: string; balanceCents?: number }): Promise<NoxpayStandIn> {
  const name = options.name ?? 'Loja Exemplo';
  const state = { balance: options.balanceCents ?? 38_960 };
  const standIn = await startStandIn({
    name: 'NOXPAY',
    sources: NOXPAY_SOURCES,
    authenticate: (request) => (request.headers['api-key'] === options.apiKey ? undefined : { status: 401, body: '' }),
    routes: [
      {
        method: 'GET',
        path: '/test-auth',
        handle: () => ({ body: { ID: 1, MerchantID: 1, Name: name, Hash: '-', CreatedAt: '2022-08-23T16:48:37Z' } }),
      },
      { method: 'GET', path: '/account', handle: () => ({ body: { name, balance: centsToReais(state.balance) } }) },
    ],
  });
  return {
    ...standIn,
    get balance() {
      return state.balance;
    },
    set balance(cents: number) {
      state.balance = cents;
    },
  };
}
