/**
 * The PrimePag platform's shapes (provider research, "G-B" and "PRIMEPAG and
 * ZENDRY": public integrations of both brands), snake_case, amounts in
 * integer cents (`value_cents`). The spec shows paths only. Answers and
 * notifications are zod schemas (issue 27 §1): one they refuse is a bad answer
 * (UNAVAILABLE) or an ignored delivery, never a status.
 */

import { z } from 'zod';
import { absentable, wireAmount, wireFact, wireId, wireStatus, wireText } from '../../kit/answers.js';

/** Body of POST /v1/pix/qrcodes: `value_cents` in integer cents, the validity in seconds. */
export const qrCodeRequest = z.object({
  value_cents: z.number().int().positive(),
  /** The payer's name and document (digits), when the charge has a customer. */
  generator_name: z.string().min(1).optional(),
  generator_document: z.string().regex(/^\d+$/).optional(),
  expiration_time: z.number().int().positive(),
  /** The caller's order id. */
  external_reference: z.string().min(1).optional(),
});
export type QrCodeRequest = z.infer<typeof qrCodeRequest>;

/** The platform's PIX key types (a random key is a `token`). */
export const pixKeyTypeName = z.enum(['cpf', 'cnpj', 'email', 'phone', 'token']);
export type PixKeyTypeName = z.infer<typeof pixKeyTypeName>;

/** Body of POST /v1/pix/payments: a payout of integer cents to a PIX key looked up in the DICT, authorised at once. */
export const paymentRequest = z.object({
  value_cents: z.number().int().positive(),
  initiation_type: z.literal('dict'),
  idempotent_id: z.string().min(1),
  pix_key_type: pixKeyTypeName,
  pix_key: z.string().min(1),
  authorized: z.literal(true),
});
export type PaymentRequest = z.infer<typeof paymentRequest>;

// ---------------------------------------------------------------- answers

/** The object of an answer, wrapped in `key` (`qrcode`, `payment`) or bare. */
function wrappedIn<T extends z.ZodType>(key: 'qrcode' | 'payment', object: T) {
  const wrapper = z.object({ [key]: z.record(z.string(), z.unknown()) });
  return z.preprocess((body) => {
    const wrapped = wrapper.safeParse(body);
    return wrapped.success ? wrapped.data[key] : body;
  }, object);
}

const qrCodeFields = {
  reference_code: absentable(wireText),
  /** The copy-and-paste BR Code (the platform's image_base64 is not read: the gateway draws its own). */
  content: absentable(wireText),
  status: absentable(wireStatus),
  value_cents: absentable(wireAmount),
  expires_at: absentable(wireText),
};

/** The answer of POST /v1/pix/qrcodes (`{qrcode: {…}}`): a QR code with its reference_code and BR Code (a charge nobody can pay is no charge). */
export const primePagCreatedQrCode = wrappedIn('qrcode', z.object({ ...qrCodeFields, reference_code: wireText, content: wireText }));
export type PrimePagCreatedQrCode = z.output<typeof primePagCreatedQrCode>;

/** The answer of GET /v1/pix/qrcodes/{id}, wrapped or bare (integrations read both): a QR code with its status. */
export const primePagQrCode = wrappedIn('qrcode', z.object({ ...qrCodeFields, status: wireStatus }));
export type PrimePagQrCode = z.output<typeof primePagQrCode>;

/**
 * The answer of POST /v1/pix/payments (`{payment: {…}}`): the payout, named by
 * its reference_code (as the pix_payment notification names it), else by the
 * platform's `id`; one of them is required. `cancellation_reason` why a
 * canceled payment was canceled (the platform's payment object, "Consultar
 * Pagamento"): a fact, never a reason to refuse the answer.
 */
export const primePagPayment = wrappedIn(
  'payment',
  z
    .object({
      reference_code: absentable(wireText),
      id: absentable(wireId),
      status: absentable(wireStatus),
      value_cents: absentable(wireAmount),
      cancellation_reason: wireFact,
    })
    .transform(({ reference_code, id, ...payment }, ctx) => {
      const paymentId = reference_code ?? id;
      if (paymentId !== undefined) return { ...payment, id: paymentId };
      ctx.addIssue({ code: 'custom', path: ['reference_code'], message: 'reference_code ausente' });
      return z.NEVER;
    }),
);
export type PrimePagPayment = z.output<typeof primePagPayment>;

export const NOTIFICATION_TYPES = ['pix_qrcode', 'pix_payment'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * A delivery `{notification_type, message{reference_code, value_cents, status,
 * end_to_end, …}, md5}` of a type the gateway reads, with the reference_code
 * and status it needs. A pix_payment's `cancellation_reason` (beside its
 * `cancellation_date`, the platform's "Payments Notifications" page) is kept
 * as a fact: whatever it holds never refuses the delivery. The `md5` field is
 * not read (see notifications.ts).
 */
export const primePagNotification = z.object({
  notification_type: z.enum(NOTIFICATION_TYPES),
  message: z.object({ reference_code: wireText, status: wireStatus, cancellation_reason: wireFact }),
});
