import { TransactionsApiAdapter, type TransactionsApiMember, type TransactionsApiOptions } from './families/transactionsApi.js';

/**
 * PAGUESAFE (spec doc 2, group 2): a member of the transactions API family.
 * What the spec says about it: POST /transactions, GET /transactions/{id},
 * POST /transactions/{id}/refund (doc 2 §7, the family's default paths);
 * boleto valid 3 days, PIX 1 day (§9); 'Internal server error' on a refund
 * failure (§8). Everything else is the family's.
 */
export const PAGUESAFE: TransactionsApiMember = {
  id: 'PAGUESAFE',
  specGroup: 'document 2 (group 2)',
  // The spec omits every host. This is the provider's conventional API address,
  // a placeholder until confirmed; accounts set base_url (tests point it at a fake).
  defaultBaseUrl: 'https://api.paguesafe.com.br/v1',
  paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'],
  // The spec's common pattern for these white-label gateways builds auth from the
  // secret key alone: HTTP Basic with the secret key as user name and 'x' as the
  // (unused) password, the convention of the Pagar.me-style APIs this family copies.
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  amounts: 'cents',
  expiry: { pixDays: 1, boletoDays: 3 },
  refundFailure: 'INTERNAL_SERVER_ERROR',
};

export class PaguesafeAdapter extends TransactionsApiAdapter {
  constructor(options: TransactionsApiOptions = {}) {
    super(PAGUESAFE, options);
  }
}
