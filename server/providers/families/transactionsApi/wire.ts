import { z } from 'zod';
import { providerMessage } from '../../../lib/http/index.js';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../../kit/answers.js';

/**
 * The dialect's shapes, as schemas (DESIGN §3: provider bytes become our types
 * here). The spec shows paths and the fields mapped into our results, not the
 * payloads; these are the shapes the white-label gateways of this family share
 * (camelCase, `paymentMethod: 'pix' | 'boleto' | 'credit_card'`,
 * `customer.document: { number, type }`, `pix`/`boleto` sub-objects, the
 * postback URL in `postbackUrl`), recorded in docs/decisions.md; the F1
 * platform's documentation (Pagar.me-v4 clones) shows the same.
 *
 * Requests are what the mappers build (their types come from here); answers are
 * parsed once by `exchange`, and what they do not match is the kit's one
 * bad-answer failure (PROVIDER_BAD_RESPONSE, outcome unknown: a charge or
 * payout may exist). Answers carry money in the member's unit, so their schemas
 * are built per member (`transactionsApiAnswers`) and hand the mappers cents.
 */

// ---------------------------------------------------------------- requests

export const apiPaymentMethod = z.enum(['pix', 'boleto', 'credit_card']);
export type ApiPaymentMethod = z.infer<typeof apiPaymentMethod>;

export const apiItem = z.object({
  externalRef: z.string().optional(),
  title: z.string(),
  unitPrice: z.number(),
  quantity: z.number().int(),
  tangible: z.boolean(),
});
export type ApiItem = z.infer<typeof apiItem>;

export const apiCustomer = z.object({
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  document: z.object({ number: z.string(), type: z.string() }),
  address: z
    .object({
      street: z.string(),
      streetNumber: z.string(),
      neighborhood: z.string(),
      city: z.string(),
      state: z.string(),
      zipCode: z.string(),
      country: z.literal('BR'),
    })
    .optional(),
});
export type ApiCustomer = z.infer<typeof apiCustomer>;

export const apiSplit = z.object({
  recipientId: z.string(),
  type: z.enum(['fixed', 'percentage']),
  amount: z.number(),
  chargeProcessingFee: z.boolean().optional(),
  chargeRemainder: z.boolean().optional(),
  liable: z.boolean().optional(),
});
export type ApiSplit = z.infer<typeof apiSplit>;

/**
 * The card's own fields, in the family's words (spec doc 1 §7's card body: number, holderName, expirationMonth,
 * expirationYear, cvv): the body of POST /card-token, and a charge's `card` at a member that tokenises nothing
 * (the card opened from the gateway's card token).
 */
export const apiCardTokenRequest = z.object({
  number: z.string(),
  holderName: z.string(),
  holderDocument: z.string().optional(),
  expirationMonth: z.number().int(),
  expirationYear: z.number().int(),
  cvv: z.string().optional(),
});
export type ApiCardTokenRequest = z.infer<typeof apiCardTokenRequest>;

/** Body of POST /transactions. */
export const apiTransactionRequest = z.object({
  amount: z.number(),
  paymentMethod: apiPaymentMethod,
  installments: z.number().int().positive().optional(),
  /** The card by the caller's card id, or (from the gateway's card token) by its own fields. */
  card: z.union([z.object({ id: z.string().optional() }), apiCardTokenRequest]).optional(),
  pix: z.object({ expiresInDays: z.number().int() }).optional(),
  boleto: z.object({ expiresInDays: z.number().int() }).optional(),
  customer: apiCustomer.optional(),
  items: z.array(apiItem).min(1),
  splits: z.array(apiSplit).optional(),
  postbackUrl: z.string(),
  externalRef: z.string().optional(),
  description: z.string().optional(),
  ip: z.string().optional(),
  currency: z.string(),
});
export type ApiTransactionRequest = z.infer<typeof apiTransactionRequest>;

/** Body of a refund (POST /transactions/{id}/refund, or DELETE /transactions/{id}): the amount in the member's unit. */
export const apiRefundRequest = z.object({ amount: z.number() });
export type ApiRefundRequest = z.infer<typeof apiRefundRequest>;

/** Body of a payout (POST /transfers, NEWLEVEL's /cashout). */
export const apiWithdrawalRequest = z.object({
  amount: z.number(),
  pixKey: z.string(),
  pixKeyType: z.string(),
  description: z.string().optional(),
  externalRef: z.string().optional(),
  postbackUrl: z.string(),
});
export type ApiWithdrawalRequest = z.infer<typeof apiWithdrawalRequest>;

/** Body of the "functions/v1" platforms' payout (F2: POST /withdrawals/cashout; MEDIUS, FAIRPAY, BRPIX Digital). */
export const apiCashoutRequest = z.object({
  pixkeytype: z.string(),
  pixkey: z.string(),
  /** Cents, whatever the charges use (F2 research). */
  requestedamount: z.number().int(),
  description: z.string().optional(),
  isPix: z.literal(true),
  postbackUrl: z.string(),
});
export type ApiCashoutRequest = z.infer<typeof apiCashoutRequest>;

/** Body of POST /cards (doc 3 §7's second call): the token of POST /cards/tokenize; answered with the saved card's `id`. */
export const apiCardSaveRequest = z.object({ token: z.string() });
export type ApiCardSaveRequest = z.infer<typeof apiCardSaveRequest>;

// ---------------------------------------------------------------- answers: the leniency of the dialect, said once

/** A date as ISO text or epoch milliseconds; one that does not read as a date is absent (an expiry then counts from now, as for none). */
export const wireDate = z.union([z.string(), z.number()]).transform((value) => {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
});

/** The dialect's envelope: the object bare, or under `data` when the top level has no id of its own (some members answer `{ data: … }`). */
const dataEnvelope = z.object({ id: z.undefined().optional(), data: z.looseObject({}) });
export function enveloped<T extends z.ZodType>(object: T) {
  return z.preprocess((body) => {
    // Most answers are bare: only a body with a `data` key is tried as an envelope (a failed parse builds an error).
    if (typeof body !== 'object' || body === null || !('data' in body)) return body;
    const wrapped = dataEnvelope.safeParse(body);
    return wrapped.success ? wrapped.data.data : body;
  }, object);
}

/**
 * The dialect's refusal in a 2xx body: `success: false` with the provider's
 * message (`message`, `error`, …), read as the provider's own words without
 * card data (providerMessage). Only this shape is a refusal: any other answer
 * that is not the resource is unreadable, its outcome unknown (a refusal frees
 * the caller's idempotency key; an unreadable success must not).
 */
export const apiRefusal = z.looseObject({ success: z.literal(false) }).transform((body, ctx) => {
  const message = providerMessage(body);
  if (message) return message;
  ctx.addIssue({ code: 'custom', path: ['message'], message: 'a refusal without a message', input: body });
  return z.NEVER;
});

/** What an operation answered: its resource, or the dialect's refusal (the operation fails with the provider's message). */
export type Answered<T> = { refused: false; value: T } | { refused: true; message: string };

/**
 * A payout answer bare, under `data`, or under `withdrawal` when the top level
 * has no id of its own: the F2 platform answers a cashout with its event
 * `{ event: 'withdrawal.created', withdrawal: { id, status, requested_amount (reais), … } }`
 * (platforms/f2.ts). Its money is not `amount`, so the amount asked for stands.
 */
const withdrawalEnvelope = z.object({ id: z.undefined().optional(), withdrawal: z.looseObject({}) });
export function payoutEnveloped<T extends z.ZodType>(object: T) {
  return z.preprocess((body) => {
    if (typeof body !== 'object' || body === null || !('withdrawal' in body)) return body;
    const wrapped = withdrawalEnvelope.safeParse(body);
    return wrapped.success ? wrapped.data.withdrawal : body;
  }, enveloped(object));
}

/**
 * `resource`, or else the dialect's refusal; neither is the resource's own
 * mismatch (the first field at fault), never the refusal's, so a bad answer
 * names what the resource lacks.
 */
export function orRefusal<T extends z.ZodType>(resource: T) {
  return z.unknown().transform((body, ctx): Answered<z.output<T>> => {
    const answer = resource.safeParse(body);
    if (answer.success) return { refused: false, value: answer.data };
    const refusal = apiRefusal.safeParse(body);
    if (refusal.success) return { refused: true, message: refusal.data };
    for (const issue of answer.error.issues) ctx.addIssue({ ...issue } as z.core.$ZodRawIssue);
    return z.NEVER;
  });
}

/** The member's unit → cents (DeclaredAdapter.fromProviderAmount); a value it refuses is a bad answer naming the field. */
export type AmountReader = (value: number | string) => number;

/** Money as the member writes it (wireAmount), read as cents by `toCents`: a value it refuses is a bad answer naming the field. */
export function moneyIn(toCents: AmountReader): z.ZodType<number> {
  return wireAmount.transform((value, ctx) => {
    try {
      return toCents(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not an amount in the provider unit', input: value });
      return z.NEVER;
    }
  });
}

/**
 * Money an answer may state, read as `moneyIn` does; absent, or not a whole
 * number of cents at or above zero, it reads as absent: never guessed, and
 * never a bad answer (the rest of the answer stands without it).
 */
export function optionalMoneyIn(toCents: AmountReader): z.ZodType<number | undefined> {
  const money = moneyIn(toCents);
  return z
    .unknown()
    .transform((value) => {
      const read = money.safeParse(value);
      return read.success && Number.isSafeInteger(read.data) && read.data >= 0 ? read.data : undefined;
    })
    .optional();
}

/**
 * The answers' shapes, their money read by `money` (the member's unit → cents;
 * `optionalMoney` where a field unreadable is a field absent): what each
 * operation's mapper takes once parsed.
 */
function answerShapes(money: z.ZodType<number>, optionalMoney: z.ZodType<number | undefined>) {
  /** The transaction object: the answer of create and read. */
  const transaction = z.object({
    id: wireId,
    status: wireStatus,
    /** In the member's unit, read as cents; absent, the amount asked for. */
    amount: absentable(money),
    /** How much of the charge was refunded so far (the F1 and F2 platforms' transaction object), in the member's unit. */
    refundedAmount: optionalMoney,
    /** Text: a name this dialect does not use falls back to what was asked for. */
    paymentMethod: absentable(z.string()),
    /** PIX: `qrcode` is the copy-and-paste BR Code. */
    pix: absentable(z.object({ qrcode: absentable(z.string()), expirationDate: absentable(wireDate) })),
    boleto: absentable(
      z.object({
        url: absentable(z.string()),
        digitableLine: absentable(z.string()),
        barcode: absentable(z.string()),
        expirationDate: absentable(wireDate),
        dueDate: absentable(wireDate),
      }),
    ),
    /** A declined card's reason in the F1 platform's words (Hydra Hub's card page): the platform's text, no code. */
    refusedReason: absentable(wireText),
  });
  return {
    transaction,
    /** A member whose new charges start PENDING (`pendingAtCreation`) needs only the id of a created one. */
    createdTransaction: transaction.extend({ status: absentable(wireStatus) }),
    /**
     * A refund answer (the transaction, or a refund object): it says something
     * about the refund (a status, an id or its refunds), else it is unreadable,
     * never "refunded".
     */
    refund: z
      .object({
        id: absentable(wireId),
        status: absentable(wireStatus),
        refunds: absentable(z.array(z.object({ id: absentable(wireId) }))),
      })
      .superRefine((answer, ctx) => {
        if (answer.id === undefined && answer.status === undefined && !answer.refunds?.length)
          ctx.addIssue({ code: 'custom', path: ['status'], message: 'no status, id or refunds', input: answer });
      }),
    withdrawal: z.object({ id: wireId, status: wireStatus, amount: absentable(money) }),
    /** POST /card-token answers the token as `id` or `token`. */
    cardToken: z.object({ id: absentable(wireId), token: absentable(wireId) }).transform((answer, ctx) => {
      const token = answer.id ?? answer.token;
      if (token) return token;
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'no id or token', input: answer });
      return z.NEVER;
    }),
    /** POST /cards: the saved card's id. */
    savedCard: z.object({ id: wireId }).transform((answer) => answer.id),
  };
}

type AnswerShapes = ReturnType<typeof answerShapes>;
/** Parsed answers, as the mappers take them (money in cents). */
export type ApiTransaction = z.output<AnswerShapes['transaction']>;
export type ApiCreatedTransaction = z.output<AnswerShapes['createdTransaction']>;
export type ApiRefund = z.output<AnswerShapes['refund']>;
export type ApiWithdrawal = z.output<AnswerShapes['withdrawal']>;

/**
 * The family's answers for a member whose money `toCents` reads, each bare or
 * under `data`; those of the operations that create or read take the dialect's
 * refusal too. Built once per adapter (its unit is the member's).
 */
export function transactionsApiAnswers(toCents: AmountReader) {
  const shapes = answerShapes(moneyIn(toCents), optionalMoneyIn(toCents));
  return {
    transaction: orRefusal(enveloped(shapes.transaction)),
    createdTransaction: orRefusal(enveloped(shapes.createdTransaction)),
    /** No refusal shape: a refund is refused by its status (REFUND_REFUSED) or by an HTTP error. */
    refund: enveloped(shapes.refund),
    withdrawal: orRefusal(payoutEnveloped(shapes.withdrawal)),
    cardToken: orRefusal(enveloped(shapes.cardToken)),
    savedCard: orRefusal(enveloped(shapes.savedCard)),
  };
}

export type TransactionsApiAnswers = ReturnType<typeof transactionsApiAnswers>;

// ---------------------------------------------------------------- the postback

/** The object a postback carries: its id and status, both lenient as in answers. */
const postbackObject = z.object({ id: absentable(wireId), status: absentable(wireStatus) });

/**
 * The postback these providers send: their transaction (or payout) object,
 * bare, under `data` in the F1 envelope `{ id, type, objectId, url, data }`, or
 * under `withdrawal` (F2 payouts `{ event: 'withdrawal.created', withdrawal }`).
 * What does not match is ignored (an unparseable notification is never a status).
 */
export const apiPostback = z.object({
  /** F1: 'transaction' | 'withdraw'. */
  type: absentable(z.string()),
  /** Members that name an event ('transaction.paid', 'withdrawal.created'). */
  event: absentable(z.string()),
  objectId: absentable(wireId),
  id: absentable(wireId),
  status: absentable(wireStatus),
  data: absentable(postbackObject),
  withdrawal: absentable(postbackObject),
});
export type ApiPostback = z.output<typeof apiPostback>;
