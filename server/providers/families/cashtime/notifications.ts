import { parseJsonObject } from '../../../lib/json.js';
import { cashtimeNotification } from './wire.js';

export interface CashtimeNotification {
  kind: 'transaction' | 'withdrawal';
  /** The provider's order or payout id. */
  id: string;
  /** The provider's status text as sent. */
  status: string;
}

/** `type`/`event` values naming a payout; anything else named is not a notification the gateway reads. */
const WITHDRAWAL_EVENT = /^(withdraws?|withdrawals?|cashouts?|cash[._-]out|transfers?)([._:-].*)?$/i;
const TRANSACTION_EVENT = /^(transactions?|orders?|pix|payments?)([._:-].*)?$/i;

/**
 * The platform's postbacks were not seen (research G-A: "none seen"); the
 * gateway reads them as the object the platform answers (the gateway's
 * decision, docs/decisions.md), bare or inside `data`:
 *   { id | orderId, status, … }                       a charge (postbackUrl)
 *   { id | withdrawId, status, pixKey, … }            a payout (baasPostbackUrl)
 * A payout is told apart by a `type`/`event` naming one (withdraw, cashout,
 * transfer…) or by the PIX key only a payout carries; a `type`/`event` naming
 * anything but a transaction, order or payment is ignored. The id is `id`, as
 * in the create answers, else `orderId` (`withdrawId`). A body without an id
 * or a status cannot be used. Both give undefined.
 */
export function parseCashtimeNotification(body: Buffer | string): CashtimeNotification | undefined {
  const parsed = cashtimeNotification.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const { event, ...object } = parsed.data;
  if (event !== undefined && !(WITHDRAWAL_EVENT.test(event) || TRANSACTION_EVENT.test(event))) return undefined;
  const kind = (event !== undefined && WITHDRAWAL_EVENT.test(event)) || object.pixKey ? 'withdrawal' : 'transaction';
  const id = object.id ?? (kind === 'withdrawal' ? object.withdrawId : object.orderId);
  return id ? { kind, id, status: object.status } : undefined;
}
