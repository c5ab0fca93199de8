import { safeEqualText } from '../../../lib/constantTime.js';
import { IUGU_INVOICE_TRIGGER, IUGU_WITHDRAW_TRIGGER } from './wire.js';

/** A trigger the family acts on: which invoice, and its status as Iugu sent it. */
export interface IuguTrigger {
  event: string;
  invoiceId: string;
  status: string;
}

/** A withdraw request trigger: which request, its status (pending, processing, accepted, rejected), and why a rejected one was. */
export interface IuguWithdrawTrigger {
  withdrawRequestId: string;
  status: string;
  feedback?: string;
}

/**
 * Iugu's triggers are form-encoded (`Content-Type:
 * application/x-www-form-urlencoded`, dev.iugu.com/docs/gatilhos):
 * `event=invoice.status_changed&data[id]=…&data[status]=paid&…`. A body that
 * is not a form (JSON, garbage) has no `event` field, so it does not parse.
 */
const formFields = (body: Buffer | string): Record<string, string> =>
  Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8')));

/**
 * An invoice trigger of one of `events`: the spec reads the `event` field,
 * `data[id]` and `data[status]` (doc 2 §4). A trigger of another event, or
 * without an id or a status, is ignored (undefined).
 */
export function readIuguTrigger(body: Buffer | string, events: readonly string[]): IuguTrigger | undefined {
  const trigger = IUGU_INVOICE_TRIGGER.safeParse(formFields(body));
  if (!trigger.success || !events.includes(trigger.data.event)) return undefined;
  return { event: trigger.data.event, invoiceId: trigger.data['data[id]'], status: trigger.data['data[status]'] };
}

/** `event=withdraw_request.status_changed&data[withdraw_request_id]=…&data[status]=accepted` (dev.iugu.com/docs/saque). */
export function readIuguWithdrawTrigger(body: Buffer | string, events: readonly string[]): IuguWithdrawTrigger | undefined {
  const trigger = IUGU_WITHDRAW_TRIGGER.safeParse(formFields(body));
  if (!trigger.success || !events.includes(trigger.data.event)) return undefined;
  const feedback = trigger.data['data[feedback]'];
  return { withdrawRequestId: trigger.data['data[withdraw_request_id]'], status: trigger.data['data[status]'], ...(feedback ? { feedback } : {}) };
}

/**
 * Whether a trigger's Authorization header carries `key`, the `authorization`
 * registered for it "para usar como Basic Authentication" (Criar Gatilho):
 * `Basic <key>`, `Basic <base64 of key>`, or the key alone. Every form is
 * compared in constant time.
 */
export function iuguTriggerAuthorized(header: string, key: string): boolean {
  const value = header.trim();
  const basic = /^basic\s+(.+)$/i.exec(value)?.[1]?.trim();
  const candidates = [value, basic ?? '', basic ? Buffer.from(basic, 'base64').toString('utf8') : ''];
  return candidates.map((candidate) => safeEqualText(candidate, key)).some(Boolean);
}
