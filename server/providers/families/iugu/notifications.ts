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
