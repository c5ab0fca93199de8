/**
 * The platform's shapes. Requests follow the provider research (G-A:
 * Cashtime's and ReflowPay's public integrations): camelCase, amounts in
 * cents, `customer.document: { number, type }`, the postback URL in
 * `postbackUrl` (charges) and `baasPostbackUrl` (payouts). The answers of GET
 * /details/orders/{id} and GET /request/withdraw/{id}, and the postbacks, were
 * not seen anywhere: they are read as the create answers' object (the gateway's
 * decision, docs/decisions.md). Answers are zod schemas (issue 27 §1): an answer
 * they refuse is a bad answer (UNAVAILABLE), never a status.
 */

import { z } from 'zod';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../../kit/answers.js';

/** An item of a charge; `unitPrice` in integer cents. */
export const cashtimeItem = z.object({
  title: z.string().min(1),
  description: z.string().optional(),
  unitPrice: z.number().int(),
  quantity: z.number().int().positive(),
  tangible: z.boolean(),
});
export type CashtimeItem = z.infer<typeof cashtimeItem>;

/** The payer: the document as `{ number, type }` in lower case (ReflowPay's own integration). */
export const cashtimeCustomer = z.object({
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  document: z.object({ number: z.string(), type: z.enum(['cpf', 'cnpj']) }),
});
export type CashtimeCustomer = z.infer<typeof cashtimeCustomer>;

/** Body of POST /transactions: a PIX charge, `amount` in integer cents. */
export const cashtimeTransactionRequest = z.object({
  /** Digital goods only (no shipping address needed): true when no item is tangible. */
  isInfoProducts: z.boolean(),
  externalCode: z.string().optional(),
  paymentMethod: z.literal('pix'),
  installments: z.number().int().positive(),
  amount: z.number().int(),
  customer: cashtimeCustomer.optional(),
  items: z.array(cashtimeItem).min(1),
  postbackUrl: z.string().min(1),
  ip: z.string().optional(),
});
export type CashtimeTransactionRequest = z.infer<typeof cashtimeTransactionRequest>;

/** The PIX key types the platform names (research G-A): RANDOM is EVP. */
export const cashtimePixKeyType = z.enum(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP']);
export type CashtimePixKeyType = z.infer<typeof cashtimePixKeyType>;

/** Body of POST /request/withdraw: `amount` in integer cents. */
export const cashtimeWithdrawalRequest = z.object({
  amount: z.number().int(),
  pixKey: z.string().min(1),
  pixKeyType: cashtimePixKeyType,
  baasPostbackUrl: z.string().min(1),
  externalCode: z.string().optional(),
});
export type CashtimeWithdrawalRequest = z.infer<typeof cashtimeWithdrawalRequest>;

// ---------------------------------------------------------------- answers

const absent = z.undefined().optional();

/** An envelope `{ data: {…} }` has no status of its own; a body that is one is read as its `data`. */
const cashtimeEnvelope = z.object({ status: absent, data: z.record(z.string(), z.unknown()) });

/** The object, whether the platform answers it bare or inside `{ data: … }`. */
function enveloped<T extends z.ZodType>(object: T) {
  return z.preprocess((body) => {
    const envelope = cashtimeEnvelope.safeParse(body);
    return envelope.success ? envelope.data.data : body;
  }, object);
}

/**
 * The resource's id: `id`, else `alternative` (`orderId`, `withdrawId`); an
 * object with neither is refused, naming `id`.
 */
function identifiedBy(alternative: 'orderId' | 'withdrawId') {
  return <T extends { id?: string; orderId?: string; withdrawId?: string }>(value: T, ctx: z.RefinementCtx): T & { id: string } => {
    const id = value.id ?? value[alternative];
    if (id !== undefined) return { ...value, id };
    ctx.addIssue({ code: 'custom', path: ['id'], message: 'id ausente' });
    return z.NEVER;
  };
}

/** `pix.payload` is the copy-and-paste BR Code (its QR image is not read: the gateway renders its own). */
const cashtimePix = z.object({ payload: absentable(wireText), expirationDate: absentable(wireText) });

const orderFields = {
  id: absentable(wireId),
  orderId: absentable(wireId),
  status: absentable(wireStatus),
  amount: absentable(wireAmount),
  pix: absentable(cashtimePix),
};
const orderId = identifiedBy('orderId');

/** The answer of POST /transactions: an order with its id and its copy-and-paste code (an order nobody could pay is no charge); its status may be left out (PENDING). */
export const cashtimeCreatedOrder = enveloped(z.object({ ...orderFields, pix: cashtimePix.extend({ payload: wireText }) }).transform(orderId));
export type CashtimeCreatedOrder = z.output<typeof cashtimeCreatedOrder>;

/** The answer of GET /details/orders/{id}: an order with its id and its status. */
export const cashtimeOrder = enveloped(z.object({ ...orderFields, status: wireStatus }).transform(orderId));
export type CashtimeOrder = z.output<typeof cashtimeOrder>;

const withdrawalFields = { id: absentable(wireId), withdrawId: absentable(wireId), status: absentable(wireStatus), amount: absentable(wireAmount) };
const withdrawId = identifiedBy('withdrawId');

/** The answer of POST /request/withdraw: the payout's id; its status may be left out (accepted: PENDING). */
export const cashtimeCreatedWithdrawal = enveloped(z.object(withdrawalFields).transform(withdrawId));

/** The answer of GET /request/withdraw/{id}: the payout's id and its status. */
export const cashtimeWithdrawal = enveloped(z.object({ ...withdrawalFields, status: wireStatus }).transform(withdrawId));
export type CashtimeWithdrawal = z.output<typeof cashtimeCreatedWithdrawal>;

/**
 * A 2xx body that says the platform refused: no id of any kind, and the
 * provider's message (`message`, `error` or `mensagem`). Only such a body is a
 * refusal, so an answer about a resource, however broken, is never read as one.
 */
const cashtimeRefusal = z
  .object({ id: absent, orderId: absent, withdrawId: absent, message: absentable(wireText), error: absentable(wireText), mensagem: absentable(wireText) })
  .transform((body, ctx) => {
    const message = body.message ?? body.error ?? body.mensagem;
    if (message !== undefined) return { refused: message };
    ctx.addIssue({ code: 'custom', message: 'sem mensagem' });
    return z.NEVER;
  });

/** A 2xx answer: the provider's refusal (`{ refused }`, its message kept), else the resource by `schema` (its issues, when it is neither). */
export function orRefusal<T>(schema: z.ZodType<T>) {
  return z.unknown().transform((body, ctx): { refused: string } | { resource: T } => {
    const refusal = cashtimeRefusal.safeParse(body);
    if (refusal.success) return refusal.data;
    const resource = schema.safeParse(body);
    if (resource.success) return { resource: resource.data };
    // The resource's first issue, so the bad-answer text names the field at fault.
    const [issue] = resource.error.issues;
    ctx.addIssue(
      issue?.code === 'invalid_type'
        ? { code: 'invalid_type', expected: issue.expected, input: undefined, path: issue.path, message: issue.message }
        : { code: 'custom', path: issue?.path ?? [], message: issue?.message ?? 'resposta inválida' },
    );
    return z.NEVER;
  });
}

const notificationObject = z.object({
  id: absentable(wireId),
  orderId: absentable(wireId),
  withdrawId: absentable(wireId),
  status: wireStatus,
  pixKey: absentable(wireText),
});

/** A postback (bare or inside `data`): the event naming its kind (`type`, else `event`), if any, and the object's ids, status and (payouts only) PIX key. */
export const cashtimeNotification = z
  .object({ type: absentable(z.string()), event: absentable(z.string()) })
  .and(enveloped(notificationObject))
  .transform(({ type, event, ...object }) => ({ ...object, event: type ?? event }));
export type CashtimeNotificationBody = z.output<typeof cashtimeNotification>;
