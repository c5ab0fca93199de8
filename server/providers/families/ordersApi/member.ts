import type { AdapterContext } from '../../adapter.js';
import type { ProviderDeclaration } from '../../kit/declaration.js';
import type { TransactionStatus, WithdrawInput } from '../../../domain/types.js';
import type { BankList } from '../../../lib/banks.js';
import type { AuthStyle } from '../../../lib/http/index.js';

/**
 * What a member of the orders API family declares: the kit's declaration and
 * this dialect's variations.
 *
 * | variation                                               | declared as                                          |
 * |---------------------------------------------------------|------------------------------------------------------|
 * | boleto due days (PAGARMEBAAS 5 days, doc 2 §9)          | `expiry: { boletoSeconds: 5 * SECONDS_PER_DAY }`     |
 * | status exceptions                                       | `statuses.transaction: { overrides, unknown }`       |
 * | a never-paid charge's replacements                      | `neverPaid: { canceled: 'CANCELED' }` (the default)  |
 * | which recipient a withdrawal is taken from              | `withdrawalRecipient(ctx, input)`                    |
 * | the banks its recipients may be paid to (PAGARME)       | `receiverBanks: COMPE_BANKS`                         |
 * | recipient status exceptions (PAGARME's refused)         | `statuses.receiver: { overrides }`                   |
 * | a card receivable's term, reported as expiresAt         | `expiry: { cardReceivableSeconds }`                  |
 * | a paid charge's fee read from its payables (PAGARME)    | `payableFees: true`                                  |
 */
export interface OrdersApiMember extends ProviderDeclaration {
  /** Replaces ORDERS_API_NEVER_PAID. */
  neverPaid?: Readonly<Record<string, TransactionStatus>>;
  /** Which recipient a withdrawal is taken from; undefined means none is known (the call is refused). */
  withdrawalRecipient?: (ctx: AdapterContext, input: WithdrawInput) => string | undefined;
  /** The banks a recipient's account may be at, by compensation code; a recipient at any other is refused before anything is sent. Undeclared, any bank. */
  receiverBanks?: BankList;
  /** A read of a paid charge also asks its payables (GET /payables?charge_id=…) for the fee taken of it. */
  payableFees?: boolean;
}

/** Authorization: Basic base64(secretKey + ':'): the secret key is the user, the password empty (Pagar.me's convention). */
export const SECRET_KEY_BASIC: AuthStyle = { type: 'basic', username: 'secretKey', password: 'empty' };
