import { textOf } from '../../../lib/values.js';

/** A trigger the family acts on: which invoice, and its status as Iugu sent it. */
export interface IuguTrigger {
  event: string;
  invoiceId: string;
  status: string;
}

/** A withdraw request trigger: which request, and its status (pending, processing, accepted, rejected). */
export interface IuguWithdrawTrigger {
  withdrawRequestId: string;
  status: string;
}

/**
 * Iugu's triggers are form-encoded (`Content-Type:
 * application/x-www-form-urlencoded`; dev.iugu.com/docs/gatilhos, provider
 * research): `event=invoice.status_changed&data[id]=…&data[status]=paid&…`.
 * One of `events`, with its id field and `data[status]`, is read; a trigger of
 * another event, or without an id or a status, is ignored; a body that is not a
 * form (JSON, garbage) has no `event` field and is ignored too.
 */
function readTrigger(body: Buffer | string, events: readonly string[], idField: string): { event: string; id: string; status: string } | undefined {
  const form = new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'));
  const event = textOf(form.get('event'));
  const id = textOf(form.get(idField));
  const status = textOf(form.get('data[status]'));
  if (!event || !events.includes(event) || !id || !status) return undefined;
  return { event, id, status };
}

/** An invoice trigger: the spec reads the `event` field, `data[id]` and `data[status]` (doc 2 §4). */
export function readIuguTrigger(body: Buffer | string, events: readonly string[]): IuguTrigger | undefined {
  const trigger = readTrigger(body, events, 'data[id]');
  return trigger && { event: trigger.event, invoiceId: trigger.id, status: trigger.status };
}

/** `event=withdraw_request.status_changed&data[withdraw_request_id]=…&data[status]=accepted` (dev.iugu.com/docs/saque). */
export function readIuguWithdrawTrigger(body: Buffer | string, events: readonly string[]): IuguWithdrawTrigger | undefined {
  const trigger = readTrigger(body, events, 'data[withdraw_request_id]');
  return trigger && { withdrawRequestId: trigger.id, status: trigger.status };
}
