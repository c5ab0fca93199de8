import { parseJson } from '../../../lib/json.js';
import { apiPostback } from './wire.js';

export interface ParsedNotification {
  kind: 'transaction' | 'withdrawal';
  /** The provider's id of the transaction or payout. */
  id: string;
  /** The provider's status text as sent (for a member whose events carry the status, the event when the body has none). */
  status: string;
  /** The `type`/`event` the postback names, when it names one. */
  event?: string;
}

const TRANSACTION_EVENT = /^transactions?([._:-].*)?$/i;
const WITHDRAWAL_EVENT = /^(transfers?|withdraw(al)?s?|cashouts?)([._:-].*)?$/i;

/**
 * The postback these providers send is their transaction (or payout) object.
 * Accepted shapes:
 *   { type: 'transaction', objectId, data: { id, status, … } }   (the envelope)
 *   { data: { id, status, … } }
 *   { id, status, … }                                              (the bare object)
 *   { event: 'withdrawal.created', withdrawal: { id, status, … } }  (F2 payouts)
 * The id is data.id, else objectId, else the top-level id (only when there is
 * no data: an envelope's own id is the postback's, not the transaction's); the
 * status is data.status, else the top-level status. `type`/`event`
 * transaction(s)[.…] or absent is a transaction; transfer(s), withdraw(al)(s)
 * or cashout(s)[.…] a payout; anything else is irrelevant. A body without an
 * id or a status cannot be used (unless `statusFromEvent`: members whose event
 * names the status). Both give undefined.
 */
export function parseNotification(body: Buffer | string, options: { statusFromEvent?: boolean } = {}): ParsedNotification | undefined {
  const parsed = apiPostback.safeParse(parseJson(body));
  if (!parsed.success) return undefined;
  const envelope = parsed.data;
  const event = envelope.type ?? envelope.event;
  const kind = event === undefined ? 'transaction' : TRANSACTION_EVENT.test(event) ? 'transaction' : WITHDRAWAL_EVENT.test(event) ? 'withdrawal' : undefined;
  if (!kind) return undefined;
  // F2 platforms send payouts as {event: 'withdrawal.created', withdrawal: {id, status, …}}.
  const data = envelope.data ?? envelope.withdrawal;
  const id = data?.id ?? envelope.objectId ?? (data ? undefined : envelope.id);
  const named = event?.trim() || undefined;
  // Only where the member's events name the status may the event stand in for a missing status.
  const status = data?.status ?? envelope.status ?? (options.statusFromEvent ? named : undefined);
  if (!id || !status) return undefined;
  return { kind, id, status, ...(named ? { event: named } : {}) };
}
