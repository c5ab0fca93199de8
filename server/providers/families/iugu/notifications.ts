import { textOf } from '../../../lib/values.js';

/** A trigger the family acts on: which invoice, and its status as Iugu sent it. */
export interface IuguTrigger {
  event: string;
  invoiceId: string;
  status: string;
}

/**
 * Iugu's triggers are form-encoded (`Content-Type:
 * application/x-www-form-urlencoded`; dev.iugu.com/docs/gatilhos, provider
 * research): `event=invoice.status_changed&data[id]=…&data[status]=paid&…`.
 * The spec reads the `event` field, `data[id]` and `data[status]` (doc 2 §4).
 * A trigger of another event, or without an id or a status, is ignored; a body
 * that is not a form (JSON, garbage) has no `event` field and is ignored too.
 */
export function readIuguTrigger(body: Buffer | string, events: readonly string[]): IuguTrigger | undefined {
  const form = new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'));
  const event = textOf(form.get('event'));
  const invoiceId = textOf(form.get('data[id]'));
  const status = textOf(form.get('data[status]'));
  if (!event || !events.includes(event) || !invoiceId || !status) return undefined;
  return { event, invoiceId, status };
}

/** A withdraw request trigger: which request, and its status (pending, processing, accepted, rejected). */
export interface IuguWithdrawTrigger {
  withdrawRequestId: string;
  status: string;
}

/** `event=withdraw_request.status_changed&data[withdraw_request_id]=…&data[status]=accepted` (dev.iugu.com/docs/saque); other events, or one without an id or a status, are not one. */
export function readIuguWithdrawTrigger(body: Buffer | string, events: readonly string[]): IuguWithdrawTrigger | undefined {
  const form = new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'));
  const event = textOf(form.get('event'));
  const withdrawRequestId = textOf(form.get('data[withdraw_request_id]'));
  const status = textOf(form.get('data[status]'));
  if (!event || !events.includes(event) || !withdrawRequestId || !status) return undefined;
  return { withdrawRequestId, status };
}
