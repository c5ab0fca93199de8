import { z } from 'zod';
import { reaisToCents } from '../../../lib/money.js';
import { absentable, wireAmount, wireFact, wireId, wireStatus, wireText } from '../../kit/answers.js';

/**
 * Iugu's shapes (API v1), the fields the family sends or reads: provider
 * bytes become our types here (DESIGN §3). Answers are parsed by these
 * schemas in `exchange`; a mismatch is PROVIDER_BAD_RESPONSE. Fields a mapper
 * does not read are left out (zod drops them). Sources: dev.iugu.com (Criar
 * Fatura, Cobrança Direta and its response properties, Criar Token and its
 * response properties, Reembolsar Fatura, the invoice statuses, the triggers,
 * Pedido de Saque, the sub-account pages) and the official SDKs (iugu-node,
 * iugu-php: paths, Basic auth, `errors` as a text or field → messages).
 * Amounts are integer cents (`*_cents`) except the withdraw request's
 * `amount`, in reais; dates are `AAAA-MM-DD`.
 */

// ---------------------------------------------------------------- leniency of this dialect

/** Iugu's money: integer cents, as a number or its digits as text; anything else is a bad answer. */
export const wireCents = wireAmount.transform((value, context) => {
  const cents = Number(value);
  if (Number.isSafeInteger(cents)) return cents;
  context.addIssue({ code: 'custom', message: 'not an amount in cents' });
  return z.NEVER;
});

/** A text the family reads but does not require (dates, codes, URLs), trimmed: absent when left out, null or blank. */
const optionalText = z.preprocess(
  (value) => (value === null || (typeof value === 'string' && !value.trim()) ? undefined : value),
  z.string().trim().optional(),
);

/**
 * A balance as Iugu formats it ("R$ 1.234,56"), or reais as a number or a
 * decimal text: integer cents. Undefined for an absent one; RangeError for
 * anything else (not a balance).
 */
export function iuguBalanceCents(value: unknown): number | undefined {
  if (typeof value === 'number') return reaisToCents(value);
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const text = value.replace(/R\$\s*/, '').trim();
  const normalized = text.includes(',') ? text.replace(/\./g, '').replace(',', '.') : text;
  return reaisToCents(normalized);
}

const wireBalance = z.union([z.number().finite(), wireText]).transform((value, context) => {
  try {
    const cents = iuguBalanceCents(value);
    if (cents !== undefined) return cents;
  } catch {
    // Not a balance: the issue below.
  }
  context.addIssue({ code: 'custom', message: 'not a balance' });
  return z.NEVER;
});

// ---------------------------------------------------------------- requests

export const IUGU_PAYABLE_WITH = ['pix', 'bank_slip', 'credit_card'] as const;
export type IuguPayableWith = (typeof IUGU_PAYABLE_WITH)[number];

/** An invoice item: `price_cents` per unit. */
export const IUGU_ITEM = z.object({ description: z.string(), quantity: z.number().int(), price_cents: z.number().int() });
export type IuguItem = z.input<typeof IUGU_ITEM>;

/** The payer: `name` and `cpf_cnpj` are required for a boleto (Cobrar com PIX por API). */
export const IUGU_PAYER = z.object({
  cpf_cnpj: z.string(),
  name: z.string(),
  email: z.string().optional(),
  phone_prefix: z.string().optional(),
  phone: z.string().optional(),
  address: z
    .object({
      zip_code: z.string(),
      street: z.string(),
      number: z.string(),
      district: z.string(),
      city: z.string(),
      state: z.string(),
      country: z.literal('Brasil'),
    })
    .optional(),
});
export type IuguPayer = z.input<typeof IUGU_PAYER>;

/** POST /invoices (spec doc 2 §7: email, payer, payable_with, due_date, return_url, items; Iugu: notification_url). */
export const IUGU_INVOICE_REQUEST = z.object({
  email: z.string(),
  due_date: z.string(),
  items: z.array(IUGU_ITEM),
  payable_with: z.enum(IUGU_PAYABLE_WITH),
  payer: IUGU_PAYER.optional(),
  return_url: z.string().optional(),
  notification_url: z.string(),
});
export type IuguInvoiceRequest = z.input<typeof IUGU_INVOICE_REQUEST>;

/** POST /charge (spec doc 2 §7: token, months, invoice_id). */
export const IUGU_CHARGE_REQUEST = z.object({ token: z.string(), months: z.number().int(), invoice_id: z.string() });
export type IuguChargeRequest = z.input<typeof IUGU_CHARGE_REQUEST>;

/** POST /payment_token, as Iugu.js sends it: the account, not the API token, identifies the seller. */
export const IUGU_PAYMENT_TOKEN_REQUEST = z.object({
  account_id: z.string(),
  method: z.literal('credit_card'),
  data: z.object({
    number: z.string(),
    verification_value: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    month: z.string(),
    year: z.string(),
  }),
});
export type IuguPaymentTokenRequest = z.input<typeof IUGU_PAYMENT_TOKEN_REQUEST>;

/** POST /invoices/{id}/refund: empty for the whole invoice; `partial_value_refund_cents` for part of a card invoice. */
export const IUGU_REFUND_REQUEST = z.object({ partial_value_refund_cents: z.number().int().optional() });
export type IuguRefundRequest = z.input<typeof IUGU_REFUND_REQUEST>;

/** POST /accounts/{id}/request_withdraw: `amount` in reais (iugu-php's example '10.00'). */
export const IUGU_WITHDRAW_REQUEST = z.object({ amount: z.number() });
export type IuguWithdrawRequest = z.input<typeof IUGU_WITHDRAW_REQUEST>;

/** POST /marketplace/create_account: the sub-account's name. */
export const IUGU_CREATE_ACCOUNT_REQUEST = z.object({ name: z.string().min(1) });
export type IuguCreateAccountRequest = z.input<typeof IUGU_CREATE_ACCOUNT_REQUEST>;

/** Iugu's names of the two bank account kinds. */
export const IUGU_ACCOUNT_TYPE = z.enum(['Corrente', 'Poupança']);

/**
 * POST /accounts/{id}/request_verification: `data` as Iugu's example shows it
 * (a company with its CNPJ and name, a person with a CPF; `address` and
 * `street` both, as its 2024 example and 2025 changelog ask), `files` the
 * documents as data URIs.
 */
export const IUGU_VERIFICATION_REQUEST = z.object({
  data: z.object({
    price_range: z.string().min(1),
    physical_products: z.boolean(),
    business_type: z.string().min(1),
    person_type: z.enum(['Pessoa Física', 'Pessoa Jurídica']),
    automatic_transfer: z.boolean(),
    cnpj: z
      .string()
      .regex(/^\d{14}$/)
      .optional(),
    company_name: z.string().optional(),
    cpf: z
      .string()
      .regex(/^\d{11}$/)
      .optional(),
    name: z.string().min(1),
    address: z.string(),
    street: z.string(),
    number: z.string(),
    district: z.string(),
    cep: z.string().regex(/^\d{8}$/),
    city: z.string(),
    state: z.string(),
    bank: z.string().min(1),
    bank_ag: z.string().min(1),
    account_type: IUGU_ACCOUNT_TYPE,
    bank_cc: z.string().min(1),
  }),
  files: z.record(z.string(), z.string().regex(/^data:[^;,]+;name=[^;,]*;base64,/)),
});
export type IuguVerificationRequest = z.input<typeof IUGU_VERIFICATION_REQUEST>;

// ---------------------------------------------------------------- answers

/**
 * Iugu's errors (iugu-php keeps them as they come): a text ('Not Found'), a
 * list of texts, or field → messages ({"email": ["não é válido"]}). An empty
 * one ({}), which Iugu sends beside a resource, is no error.
 */
const IUGU_ERRORS = z.union([
  wireText,
  z.array(z.string()).refine((list) => list.some((entry) => entry.trim()), 'no error text'),
  z.record(z.string(), z.union([z.array(z.string()), z.string()])).refine((fields) => Object.keys(fields).length > 0, 'no error field'),
]);

/** An answer that is Iugu refusing (in a 2xx or a failure's body): its `errors`. */
export const IUGU_REFUSAL = z.object({ errors: IUGU_ERRORS });
export type IuguRefusal = z.output<typeof IUGU_REFUSAL>;

/** The resource an exchange asked for, or Iugu's refusal of it (its `errors`, which the caller sees). */
export type IuguAnswer<T> = { refused: false; resource: T } | { refused: true; errors: IuguRefusal['errors'] };

/**
 * `schema`'s resource, or Iugu's refusal: an answer with `errors` is a refusal
 * (checked first), unless `resourceFirst` (the card charge, whose decline is
 * an outcome even beside an error text). An answer that is neither (HTML,
 * null, `{}`, a field of another type) is a bad answer naming the resource's field.
 */
export function refusable<T extends z.ZodType>(schema: T, options: { resourceFirst?: boolean } = {}) {
  return z.unknown().transform((value, context): IuguAnswer<z.output<T>> => {
    const refusal = () => IUGU_REFUSAL.safeParse(value);
    const early = options.resourceFirst ? undefined : refusal();
    if (early?.success) return { refused: true, errors: early.data.errors };
    const resource = schema.safeParse(value);
    if (resource.success) return { refused: false, resource: resource.data };
    const late = options.resourceFirst ? refusal() : undefined;
    if (late?.success) return { refused: true, errors: late.data.errors };
    for (const issue of resource.error.issues) context.addIssue({ ...issue });
    return z.NEVER;
  });
}

/** The invoice: what POST /invoices, GET /invoices/{id} and the refund answer. */
export const IUGU_INVOICE = z.object({
  id: wireId,
  status: wireStatus,
  total_cents: absentable(wireCents),
  /** What was paid; with `refunded_cents`, what is left to refund. */
  paid_cents: absentable(wireCents),
  refunded_cents: absentable(wireCents),
  due_date: optionalText,
  secure_url: optionalText,
  /** What it may be paid with: one name, a comma list, or a list. */
  payable_with: absentable(z.union([z.string(), z.array(z.string())])),
  /** How it was paid: 'iugu_pix', 'iugu_bank_slip', 'iugu_credit_card'. */
  payment_method: optionalText,
  /** `qrcode` is an image URL; `qrcode_text` the copy-and-paste code. */
  pix: absentable(z.object({ qrcode: optionalText, qrcode_text: optionalText })),
  bank_slip: absentable(z.object({ digitable_line: optionalText, barcode_data: optionalText, bank_slip_url: optionalText, bank_slip_pdf_url: optionalText })),
});
export type IuguInvoice = z.output<typeof IUGU_INVOICE>;
/** An invoice as Iugu writes it (canned answers). */
export type IuguInvoiceAnswer = z.input<typeof IUGU_INVOICE>;

/**
 * The answer of POST /charge (Cobrança Direta — propriedades do response):
 * `success` says whether the card was charged; `message` and `LR` (the
 * acquirer's code) say why not.
 */
export const IUGU_CHARGE = z.object({ success: z.boolean(), message: optionalText, invoice_id: absentable(wireId), LR: optionalText });
export type IuguCharge = z.output<typeof IUGU_CHARGE>;
export type IuguChargeAnswer = z.input<typeof IUGU_CHARGE>;

/** The answer of POST /payment_token (Criar Token — propriedades do response): `id` is the token. */
export const IUGU_PAYMENT_TOKEN = z.object({ id: wireText });

/** The answer of a withdraw request: its id (as `id`, or as the triggers name it) and, where given, its status. */
export const IUGU_WITHDRAW = z
  .object({ id: absentable(wireId), withdraw_request_id: absentable(wireId), status: absentable(wireStatus) })
  .transform((answer, context) => {
    const id = answer.id ?? answer.withdraw_request_id;
    if (id) return { id, status: answer.status };
    context.addIssue({ code: 'custom', message: 'no withdraw request id', path: ['id'] });
    return z.NEVER;
  });

/** POST /marketplace/create_account (Criar Subconta — propriedades do response): the tokens the gateway needs. */
export const IUGU_CREATED_ACCOUNT = z.object({ account_id: wireId, live_api_token: wireText, user_token: wireText });
export type IuguCreatedAccount = z.output<typeof IUGU_CREATED_ACCOUNT>;

/** POST /accounts/{id}/request_verification: the verification request (only that it is one is read). */
export const IUGU_VERIFICATION = z.object({ id: absentable(wireId) });

/**
 * GET /accounts/{id} (Informações da Conta): who it is, whether it can
 * receive, and its balance (`balanceCents`: what is available to withdraw
 * where the answer says it, else the balance; an answer with neither is a bad one).
 */
export const IUGU_ACCOUNT = z
  .object({
    id: wireId,
    name: optionalText,
    email: optionalText,
    cpf: optionalText,
    cnpj: optionalText,
    'can_receive?': absentable(z.boolean()),
    can_receive: absentable(z.boolean()),
    last_verification_request_status: optionalText,
    balance_available_for_withdraw: absentable(wireBalance),
    balance: absentable(wireBalance),
  })
  .transform((account, context) => {
    const balanceCents = account.balance_available_for_withdraw ?? account.balance;
    if (balanceCents !== undefined) return { ...account, balanceCents };
    context.addIssue({ code: 'custom', message: 'no balance', path: ['balance'] });
    return z.NEVER;
  });
export type IuguAccount = z.output<typeof IUGU_ACCOUNT>;

// ---------------------------------------------------------------- notifications

/**
 * A trigger about an invoice, as its form fields (dev.iugu.com, Gatilhos de
 * Fatura): `event`, `data[id]`, `data[status]` (spec doc 2 §4).
 */
export const IUGU_INVOICE_TRIGGER = z.object({ event: wireText, 'data[id]': wireText, 'data[status]': wireStatus });

/**
 * A trigger about a withdraw request (dev.iugu.com, Saque): `data[withdraw_request_id]`, `data[status]`, and on a
 * rejection `data[feedback]`, "Motivo da rejeição do saque" (a fact: never a reason to ignore the trigger).
 */
export const IUGU_WITHDRAW_TRIGGER = z.object({
  event: wireText,
  'data[withdraw_request_id]': wireText,
  'data[status]': wireStatus,
  'data[feedback]': wireFact,
});
