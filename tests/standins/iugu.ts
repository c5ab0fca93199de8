import { randomBytes } from 'node:crypto';
import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';
import { createDynamicPix, hasError } from 'pix-utils';
import { barcodeToDigitableLine, buildBarcode } from '../../server/lib/boleto.js';
import { passesLuhn } from '../../server/lib/luhn.js';
import { centsToReais, reaisToCents } from '../../server/lib/money.js';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * Iugu's API v1 (https://api.iugu.com/v1) as its own documentation
 * (dev.iugu.com) and its official SDKs describe it, for the acceptance tests
 * of IUGU and IUGUBAAS (tests/standins/iugu.test.ts): IUGUBAAS is Iugu's own
 * API, so both run against this one. Paths are served under /v1.
 *
 * What is Iugu's, with its source:
 * - authentication by the account's API token: HTTP Basic with the token as
 *   user and no password (recommended), Bearer, or an `api_token` parameter;
 *   a wrong token is HTTP 401 "Unauthorized" (Autenticação; iugu-php's
 *   APIRequest sends `Basic base64(token + ':')`; Cobrar com PIX por API);
 *   POST /payment_token takes no API token: the account id identifies the
 *   seller (Criar Token: "não utiliza a autenticação via api_token");
 * - errors as `{errors}`: a text ('Not Found') or field → messages, the
 *   answer of a 404 being an error (iugu-php's APIRequest);
 * - POST /invoices {email, due_date 'AAAA-MM-DD', items[{description,
 *   quantity, price_cents}], payable_with pix | bank_slip | credit_card | all
 *   (one, a comma list, or a list), payer{cpf_cnpj, name, …}, return_url,
 *   notification_url}: email, due_date and items required (Criar Fatura);
 *   bank_slip makes `payer.name` and `payer.cpf_cnpj` required (Cobrar com PIX
 *   por API); the invoice answers `id`, `status`, `total_cents`,
 *   `secure_url`, `pix{qrcode, qrcode_text}`, `bank_slip{digitable_line,
 *   barcode_data, bank_slip_url, bank_slip_pdf_url}`; the statuses pending,
 *   paid, canceled, in_analysis, draft, partially_paid, refunded, expired,
 *   in_protest, chargeback, externally_paid (Faturas, Status); the
 *   notification_url is called for every notification of the invoice, as the
 *   triggers are (Criar Fatura);
 * - Idempotency-Key on Criar Fatura and Cobrança Direta, valid 24 hours: one
 *   request with a key is processed (Chave de Idempotência);
 * - POST /payment_token {account_id, method: credit_card, data{number,
 *   verification_value, first_name, last_name, month, year}} → `{id, method,
 *   extra_info{bin, year, month, brand, holder_name, display_number}}`; a
 *   token is single use, even when its charge fails (Criar Token and its
 *   response properties; Cobrança simples no cartão); the test cards
 *   4111 1111 1111 1111, 4242 4242 4242 4242, 5555 5555 5555 4444 succeed,
 *   4012 8888 8888 1881 fails (Cartões de Teste);
 * - POST /charge {token, invoice_id, months} →
 *   `{success, message, LR, invoice_id, url, pdf, identification}`
 *   (Cobrança Direta — propriedades do response); a declined card's `LR` is
 *   the acquirer's ABECS return code, 05 for a refusal without a stated
 *   cause (Tabela de LRs);
 * - POST /invoices/{id}/refund answers the invoice, `refunded` after a whole
 *   refund; a card invoice may be refunded in part
 *   (`partial_value_refund_cents`), a PIX invoice only in full, a boleto not
 *   at all (Reembolsar Faturas por API; Reembolso [PIX]);
 * - triggers: form-encoded (`application/x-www-form-urlencoded`) `event`,
 *   `data[id]`, `data[status]`, `data[account_id]`, … for invoices
 *   (invoice.created, invoice.status_changed, invoice.refund) and `event`,
 *   `data[withdraw_request_id]`, `data[account_id]`, `data[status]` for
 *   withdraw requests (withdraw_request.created, withdraw_request.status_changed;
 *   pending, processing, accepted, rejected; a rejected one's `data[feedback]`,
 *   "Motivo da rejeição do saque") (Gatilhos; Gatilhos de Fatura;
 *   Saque); POST /web_hooks {event, url, authorization} registers one, the
 *   `authorization` a key "para usar como Basic Authentication" on delivery
 *   (Criar Gatilho);
 * - sub-accounts: POST /marketplace/create_account {name} with the
 *   marketplace's token → `{account_id, name, live_api_token,
 *   test_api_token, user_token}` (Criar Subconta — propriedades do response);
 *   POST /accounts/{account_id}/request_verification {data, files} with the
 *   sub-account's user_token (Tokens de Autenticação; Enviar Verificação de
 *   Subconta; iugu-php's example of `data`); GET /accounts/{id} with the
 *   account's own token, any account's (Informações da Conta); PUT /payments/pix {enable} with its live token, 401
 *   "Unauthorized" while it is not verified (Cobrar com PIX por API); POST
 *   /accounts/configuration (Configurar Conta);
 * - POST /accounts/{account_id}/request_withdraw {amount} in reais, paid to
 *   the bank domicile registered on the account (Pedido de Saque; iugu-php's
 *   example '10.00').
 *
 * The stand-in's own readings, where those sources are silent: ids are 32
 * upper-case hex characters; the exact texts of its refusals and their HTTP
 * codes (422 for a refused invoice, charge, refund or withdraw request; 404
 * `{errors: 'Not Found'}`; 401 `{errors: 'Unauthorized'}`); `months` from 1 to
 * 12; a trigger is sent once (Iugu sends again one not answered 200); a key repeated on
 * the same route gets the first answer again; a PIX or boleto is paid by
 * `pay`, which sends invoice.status_changed (paid); a card refund or a PIX
 * refund is done at once (invoice.refund sent), the invoice `refunded` once
 * nothing is left, `refunded_cents` counting what was given back; a declined
 * card is answered 200 with `success: false` and leaves the invoice pending;
 * the invoice's notification_url is called without an Authorization header,
 * a registered trigger with `Authorization: Basic <its authorization>`;
 * withdraw requests answer `{id, account_id, amount, status}`, need the
 * account's balance (`fund`), are `pending` until `settleWithdrawal`; a
 * sub-account can receive once `verify` accepts it; its balance is written
 * "R$ 1.234,56".
 */
export const IUGU_SOURCES = [
  'https://dev.iugu.com/reference/autentica%C3%A7%C3%A3o',
  'https://dev.iugu.com/docs/tokens-de-autenticacao',
  'https://dev.iugu.com/reference/criar-fatura',
  'https://dev.iugu.com/docs/cdu-faturas',
  'https://dev.iugu.com/docs/faturas',
  'https://dev.iugu.com/docs/chave-de-idempot%C3%AAncia-1',
  'https://dev.iugu.com/reference/criar-token',
  'https://dev.iugu.com/reference/criar-token-propriedades-do-response',
  'https://dev.iugu.com/reference/cobran%C3%A7a-simples-cartao-de-credito-pci',
  'https://dev.iugu.com/reference/cobran%C3%A7a-direta-propriedades-do-response',
  'https://dev.iugu.com/reference/tabela-de-lrs',
  'https://dev.iugu.com/docs/guide-cartoes-de-teste',
  'https://dev.iugu.com/docs/realizar-o-reembolso-de-faturas-estorno-por-api',
  'https://dev.iugu.com/reference/reembolso',
  'https://dev.iugu.com/docs/gatilhos',
  'https://dev.iugu.com/docs/gatilhos-fatura',
  'https://dev.iugu.com/docs/saque',
  'https://dev.iugu.com/reference/criar-gatilho',
  'https://dev.iugu.com/reference/pedido-de-saque',
  'https://dev.iugu.com/reference/criar-subconta-propriedades-do-response',
  'https://dev.iugu.com/reference/criar-e-verificar-subconta',
  'https://dev.iugu.com/reference/informacoes-da-conta',
  'https://github.com/iugu/iugu-php/blob/4ed4ab8/lib/Iugu/APIRequest.php',
  'https://github.com/iugu/iugu-php/blob/4ed4ab8/lib/exemplos.php',
  'https://github.com/iugu/iugu-node/blob/b99a96e/lib/resources/Invoices.js',
  'https://github.com/iugu/iugu-node/blob/b99a96e/lib/resources/Accounts.js',
] as const;

/** Where the API lives under the stand-in's address, as under https://api.iugu.com. */
export const IUGU_BASE_PATH = '/v1';

type Json = Record<string, unknown>;
type Method = 'pix' | 'bank_slip' | 'credit_card';

export interface IuguInvoiceRecord {
  id: string;
  accountId: string;
  status: string;
  email: string;
  dueDate: string;
  items: Array<{ description: string; quantity: number; price_cents: number }>;
  totalCents: number;
  payableWith: Method[];
  /** As sent (the answer repeats it). */
  payableWithSent: unknown;
  payer: Json | null;
  notificationUrl: string | null;
  returnUrl: string | null;
  paymentMethod: `iugu_${Method}` | null;
  paidCents: number;
  refundedCents: number;
  pixCode: string | null;
  barcode: string | null;
  createdAt: string;
  months: number | null;
}

export interface IuguAccountRecord {
  id: string;
  name: string;
  liveToken: string;
  userToken: string;
  balanceCents: number;
  verification: { status: 'pending' | 'accepted' | 'rejected'; data: Json } | null;
  pixEnabled: boolean;
  configuration: Json;
}

export interface IuguWithdrawRecord {
  id: string;
  accountId: string;
  amountCents: number;
  status: 'pending' | 'processing' | 'accepted' | 'rejected';
}

interface WebHook {
  id: string;
  accountId: string;
  event: string;
  url: string;
  authorization: string | null;
}

interface CardToken {
  accountId: string;
  last4: string;
  brand: string;
  declines: boolean;
  used: boolean;
}

export interface IuguStandIn extends StandIn {
  /** The base URL an account points at (…/v1). */
  readonly baseUrl: string;
  readonly invoices: ReadonlyMap<string, IuguInvoiceRecord>;
  readonly accounts: ReadonlyMap<string, IuguAccountRecord>;
  readonly withdrawals: ReadonlyMap<string, IuguWithdrawRecord>;
  /** Every trigger delivered: its event, where, and the HTTP status answered. */
  readonly delivered: Array<{ event: string; url: string; status: number; authorization?: string }>;
  /** The payer pays a PIX or boleto invoice: paid, the account credited, invoice.status_changed sent. */
  pay(invoiceId: string): Promise<number[]>;
  /** Iugu verifies a sub-account (it can receive) or refuses it. */
  verify(accountId: string, outcome: 'accepted' | 'rejected'): void;
  /** Money on an account's balance (cents). */
  fund(accountId: string, cents: number): void;
  /** The bank transfer of a withdraw request is accepted (paid) or rejected (the money given back): withdraw_request.status_changed sent. */
  settleWithdrawal(withdrawId: string, outcome: 'accepted' | 'rejected'): Promise<number[]>;
}

const STATUS_TEXT: Record<number, string> = { 401: 'Unauthorized', 404: 'Not Found' };
const refusal = (status: number, errors: string | Record<string, string[]>): StandInReply => ({ status, body: { errors } });
const fieldErrors = (errors: Record<string, string[]>): StandInReply => refusal(422, errors);
const notFound = (): StandInReply => refusal(404, STATUS_TEXT[404]!);
const unauthorized = (): StandInReply => refusal(401, STATUS_TEXT[401]!);

const record = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const digits = (value: unknown): string => (typeof value === 'string' ? value.replace(/\D/g, '') : '');
const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
const hexId = () => randomBytes(16).toString('hex').toUpperCase();

function brazilToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'VISA';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'MASTER';
  if (/^3[47]/.test(number)) return 'AMEX';
  if (/^3(0|6|8)/.test(number)) return 'DINERS';
  return 'ELO';
}

/** Cartões de Teste: the failing test cards. */
const DECLINING_CARDS = new Set(['4012888888881881', '371449635398431', '38520000023237']);

/** The three ways to present the API token (Autenticação): Basic with the token as user, Bearer, or `api_token`. */
function presentedToken(request: StandInRequest): string | undefined {
  const header = request.headers.authorization ?? '';
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    return decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) return bearer[1];
  return text(request.query.api_token) ?? text(record(request.body).api_token);
}

function payableWithOf(value: unknown): Method[] | undefined {
  const names = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  const methods = new Set<Method>();
  for (const raw of names) {
    const name = typeof raw === 'string' ? raw.trim() : '';
    if (name === 'all') ['pix', 'bank_slip', 'credit_card'].forEach((method) => methods.add(method as Method));
    else if (name === 'pix' || name === 'bank_slip' || name === 'credit_card') methods.add(name);
    else return undefined;
  }
  return methods.size ? [...methods] : undefined;
}

/** The `data[feedback]` of a rejected withdraw request: CH11, the example of Iugu's Saque page (dev.iugu.com/docs/saque). */
export const IUGU_WITHDRAW_FEEDBACK = 'CH11';

export async function startIuguStandIn(options: { accountId: string; apiToken: string; balanceCents?: number; now?: () => Date }): Promise<IuguStandIn> {
  const now = options.now ?? (() => new Date());
  const accounts = new Map<string, IuguAccountRecord>();
  const invoices = new Map<string, IuguInvoiceRecord>();
  const withdrawals = new Map<string, IuguWithdrawRecord>();
  const tokens = new Map<string, CardToken>();
  const hooks: WebHook[] = [];
  const delivered: IuguStandIn['delivered'] = [];
  /** Idempotency-Key → the first answer, per account and route, for 24 hours. */
  const idempotent = new Map<string, { at: number; reply: StandInReply }>();

  accounts.set(options.accountId, {
    id: options.accountId,
    name: 'Conta mestre',
    liveToken: options.apiToken,
    userToken: `user_${options.apiToken}`,
    balanceCents: options.balanceCents ?? 0,
    verification: { status: 'accepted', data: {} },
    pixEnabled: true,
    configuration: {},
  });

  const byLiveToken = (token: string | undefined) => [...accounts.values()].find((account) => account.liveToken === token);
  const byUserToken = (token: string | undefined) => [...accounts.values()].find((account) => account.userToken === token);

  /** The calling account, or Iugu's 401. */
  function authenticated(request: StandInRequest, handle: (account: IuguAccountRecord) => StandInReply | Promise<StandInReply>) {
    const account = byLiveToken(presentedToken(request));
    return account ? handle(account) : unauthorized();
  }

  /** A request with an Idempotency-Key already answered on this route within 24 h gets that answer again, nothing done twice. */
  async function once(account: IuguAccountRecord, route: string, request: StandInRequest, handle: () => StandInReply | Promise<StandInReply>) {
    const key = request.headers['idempotency-key'];
    if (!key) return handle();
    const slot = `${account.id}\n${route}\n${key}`;
    const known = idempotent.get(slot);
    if (known && now().getTime() - known.at < 86_400_000) return known.reply;
    const reply = await handle();
    idempotent.set(slot, { at: now().getTime(), reply });
    return reply;
  }

  function invoiceView(invoice: IuguInvoiceRecord): Json {
    const secureId = `${invoice.id.toLowerCase().slice(0, 8)}-${invoice.id.toLowerCase().slice(8, 12)}`;
    const secureUrl = `https://faturas.iugu.com/${secureId}`;
    const line = invoice.barcode ? barcodeToDigitableLine(invoice.barcode) : null;
    return {
      id: invoice.id,
      account_id: invoice.accountId,
      status: invoice.status,
      due_date: invoice.dueDate,
      currency: 'BRL',
      email: invoice.email,
      items: invoice.items.map((item, index) => ({ id: `${invoice.id.slice(0, 24)}${String(index).padStart(8, '0')}`, ...item })),
      items_total_cents: invoice.totalCents,
      total_cents: invoice.totalCents,
      total: `R$ ${centsToReais(invoice.totalCents).toFixed(2).replace('.', ',')}`,
      paid_cents: invoice.paidCents || null,
      total_paid_cents: invoice.paidCents,
      refunded_cents: invoice.refundedCents || null,
      payable_with: invoice.payableWithSent,
      payment_method: invoice.paymentMethod,
      notification_url: invoice.notificationUrl,
      return_url: invoice.returnUrl,
      secure_id: secureId,
      secure_url: secureUrl,
      payer_name: text(invoice.payer?.name) ?? null,
      payer_cpf_cnpj: text(invoice.payer?.cpf_cnpj) ?? null,
      created_at: invoice.createdAt,
      updated_at: now().toISOString(),
      pix: invoice.pixCode
        ? { qrcode: `https://qr.iugu.com/public/v1/qr_codes/image/${invoice.id}`, qrcode_text: invoice.pixCode, status: 'qr_code_created' }
        : null,
      bank_slip:
        invoice.barcode && line
          ? {
              digitable_line: line,
              barcode_data: invoice.barcode,
              barcode: `https://faturas.iugu.com/barcode/${invoice.id}`,
              bank_slip_url: `${secureUrl}.bank_slip`,
              bank_slip_pdf_url: `${secureUrl}.pdf`,
            }
          : null,
      errors: {},
    };
  }

  /** A form-encoded trigger, to `url`, with Basic Authentication where the trigger has an authorization. */
  async function deliver(url: string, fields: Record<string, string>, authorization: string | null): Promise<number> {
    const event = fields.event ?? '';
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (authorization) headers.authorization = `Basic ${authorization}`;
    // A receiver that cannot be reached answers nothing (status 0): Iugu sends the trigger again later; the call that caused it is not failed.
    const status = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(fields).toString() })
      .then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      })
      .catch(() => 0);
    delivered.push({ event, url, status, ...(headers.authorization ? { authorization: headers.authorization } : {}) });
    return status;
  }

  /** A trigger to the invoice's notification_url (if any) and to every trigger of the account registered for the event. */
  async function notify(accountId: string, fields: Record<string, string>, notificationUrl: string | null = null): Promise<number[]> {
    const event = fields.event!;
    const targets = hooks.filter((hook) => hook.accountId === accountId && (hook.event === event || hook.event === 'all'));
    const statuses: number[] = [];
    if (notificationUrl) statuses.push(await deliver(notificationUrl, fields, null));
    for (const hook of targets) statuses.push(await deliver(hook.url, fields, hook.authorization));
    return statuses;
  }

  const invoiceTrigger = (event: string, invoice: IuguInvoiceRecord): Record<string, string> => ({
    event,
    'data[id]': invoice.id,
    'data[status]': invoice.status,
    'data[account_id]': invoice.accountId,
    'data[source]': 'api',
    ...(invoice.paymentMethod ? { 'data[payment_method]': invoice.paymentMethod } : {}),
  });

  function createInvoice(account: IuguAccountRecord, request: StandInRequest): StandInReply {
    const body = record(request.body);
    const errors: Record<string, string[]> = {};
    const email = text(body.email);
    if (!email) errors.email = ['não pode ficar em branco'];
    else if (!isEmail(email)) errors.email = ['não é válido'];
    const dueDate = text(body.due_date);
    if (!dueDate) errors.due_date = ['não pode ficar em branco'];
    else if (!/^\d{4}-\d{2}-\d{2}$/.test(dueDate)) errors.due_date = ['não é uma data válida'];
    else if (dueDate < brazilToday(now())) errors.due_date = ['não pode ser anterior a hoje'];
    const rawItems = Array.isArray(body.items) ? body.items : [];
    if (!rawItems.length) errors.items = ['não pode ficar em branco'];
    const items = rawItems.map((raw, index) => {
      const item = record(raw);
      const description = text(item.description);
      const quantity = Number(item.quantity);
      const price = Number(item.price_cents);
      if (!description) errors[`items.${index}.description`] = ['não pode ficar em branco'];
      if (!Number.isSafeInteger(quantity) || quantity < 1) errors[`items.${index}.quantity`] = ['deve ser maior que 0'];
      if (!Number.isSafeInteger(price) || price < 1) errors[`items.${index}.price_cents`] = ['deve ser um número inteiro de centavos maior que 0'];
      return { description: description ?? '', quantity, price_cents: price };
    });
    const payableWith = body.payable_with === undefined ? (['pix', 'bank_slip', 'credit_card'] as Method[]) : payableWithOf(body.payable_with);
    if (!payableWith) errors.payable_with = ['não é válido'];
    const payer = body.payer === undefined ? null : record(body.payer);
    if (payableWith?.includes('bank_slip')) {
      if (!text(payer?.name)) errors['payer.name'] = ['não pode ficar em branco'];
      const document = digits(payer?.cpf_cnpj);
      if (!document) errors['payer.cpf_cnpj'] = ['não pode ficar em branco'];
      else if (!(document.length === 11 ? isValidCpf(document) : document.length === 14 && isValidCnpj(document))) errors['payer.cpf_cnpj'] = ['não é válido'];
    }
    if (Object.keys(errors).length) return fieldErrors(errors);
    const id = hexId();
    const totalCents = items.reduce((sum, item) => sum + item.quantity * item.price_cents, 0);
    let pixCode: string | null = null;
    if (payableWith!.includes('pix')) {
      const brCode = createDynamicPix({ merchantName: 'IUGU STANDIN', merchantCity: 'SAO PAULO', url: `qr.iugu.com/public/payload/v2/${id}` });
      if (hasError(brCode)) throw new Error('could not build a BR Code');
      pixCode = brCode.toBRCode();
    }
    const barcode = payableWith!.includes('bank_slip')
      ? buildBarcode({
          bankCode: '237',
          amountCents: totalCents,
          dueDate: new Date(`${dueDate}T12:00:00-03:00`),
          freeField: `${digits(id).padEnd(25, '0').slice(0, 25)}`,
        })
      : null;
    const invoice: IuguInvoiceRecord = {
      id,
      accountId: account.id,
      status: 'pending',
      email: email!,
      dueDate: dueDate!,
      items,
      totalCents,
      payableWith: payableWith!,
      payableWithSent: body.payable_with ?? 'all',
      payer,
      notificationUrl: text(body.notification_url) ?? null,
      returnUrl: text(body.return_url) ?? null,
      paymentMethod: null,
      paidCents: 0,
      refundedCents: 0,
      pixCode,
      barcode,
      createdAt: now().toISOString(),
      months: null,
    };
    invoices.set(id, invoice);
    void notify(account.id, invoiceTrigger('invoice.created', invoice), invoice.notificationUrl);
    return { body: invoiceView(invoice) };
  }

  function paymentToken(request: StandInRequest): StandInReply {
    const body = record(request.body);
    const account = accounts.get(text(body.account_id) ?? '');
    if (!account) return fieldErrors({ account_id: ['não é válido'] });
    if (body.method !== 'credit_card') return fieldErrors({ method: ['não é válido'] });
    const data = record(body.data);
    const errors: Record<string, string[]> = {};
    for (const field of ['number', 'verification_value', 'first_name', 'last_name', 'month', 'year'])
      if (!text(data[field])) errors[field] = ['não pode ficar em branco'];
    const number = digits(data.number);
    if (!errors.number && (number.length < 13 || !passesLuhn(number))) errors.number = ['não é válido'];
    const cvv = digits(data.verification_value);
    if (!errors.verification_value && !/^\d{3,4}$/.test(cvv)) errors.verification_value = ['não é válido'];
    const month = Number(data.month);
    const year = Number(data.year);
    if (!errors.month && !(month >= 1 && month <= 12)) errors.month = ['não é válido'];
    if (!errors.year && !/^\d{4}$/.test(String(data.year))) errors.year = ['não é válido'];
    if (!errors.month && !errors.year && new Date(Date.UTC(year, month, 1)).getTime() <= now().getTime()) errors.expiration = ['cartão expirado'];
    if (Object.keys(errors).length) return fieldErrors(errors);
    const id = [8, 4, 4, 4, 12].map((size) => randomBytes(size / 2).toString('hex')).join('-');
    const brand = cardBrand(number);
    tokens.set(id, { accountId: account.id, last4: number.slice(-4), brand, declines: DECLINING_CARDS.has(number), used: false });
    return {
      body: {
        id,
        method: 'credit_card',
        test: false,
        extra_info: {
          bin: number.slice(0, 6),
          year,
          month,
          brand,
          holder_name: `${text(data.first_name)} ${text(data.last_name)}`,
          display_number: `XXXX-XXXX-XXXX-${number.slice(-4)}`,
        },
      },
    };
  }

  async function charge(account: IuguAccountRecord, request: StandInRequest): Promise<StandInReply> {
    const body = record(request.body);
    const tokenId = text(body.token);
    if (!tokenId) return fieldErrors({ token: ['não pode ficar em branco'] });
    const token = tokens.get(tokenId);
    if (!token || token.accountId !== account.id) return fieldErrors({ token: ['não é válido'] });
    if (token.used) return fieldErrors({ token: ['já foi utilizado'] });
    const invoice = invoices.get(text(body.invoice_id) ?? '');
    if (!invoice || invoice.accountId !== account.id) return fieldErrors({ invoice_id: ['não é válido'] });
    if (!invoice.payableWith.includes('credit_card')) return fieldErrors({ invoice_id: ['fatura não pode ser paga com cartão de crédito'] });
    if (invoice.status !== 'pending') return refusal(422, 'Fatura não pode ser paga');
    const months = body.months === undefined ? 1 : Number(body.months);
    if (!Number.isSafeInteger(months) || months < 1 || months > 12) return fieldErrors({ months: ['deve estar entre 2 e 12'] });
    // Single use, even when the charge fails (Criar Token).
    token.used = true;
    const view = invoiceView(invoice);
    const common = {
      invoice_id: invoice.id,
      url: view.secure_url,
      pdf: `${String(view.secure_url)}.pdf`,
      identification: null,
      brand: token.brand,
      last4: token.last4,
    };
    if (token.declines) return { body: { success: false, message: 'Transação negada', LR: '05', errors: {}, ...common } };
    invoice.status = 'paid';
    invoice.paymentMethod = 'iugu_credit_card';
    invoice.paidCents = invoice.totalCents;
    invoice.months = months;
    account.balanceCents += invoice.totalCents;
    await notify(account.id, invoiceTrigger('invoice.status_changed', invoice), invoice.notificationUrl);
    return { body: { success: true, message: 'Autorizado', LR: '00', errors: {}, reversible: 'Yes', ...common } };
  }

  async function refund(account: IuguAccountRecord, request: StandInRequest): Promise<StandInReply> {
    const invoice = invoices.get(request.params.id!);
    if (!invoice || invoice.accountId !== account.id) return notFound();
    if (invoice.status !== 'paid') return refusal(422, 'Fatura não pode ser reembolsada');
    if (invoice.paymentMethod === 'iugu_bank_slip') return refusal(422, 'Faturas pagas com boleto bancário não podem ser reembolsadas');
    const left = invoice.paidCents - invoice.refundedCents;
    const partial = record(request.body).partial_value_refund_cents;
    let cents = left;
    if (partial !== undefined && partial !== null && partial !== '') {
      if (invoice.paymentMethod === 'iugu_pix') return refusal(422, 'Faturas pagas com Pix só podem ser reembolsadas integralmente');
      cents = Number(partial);
      if (!Number.isSafeInteger(cents) || cents < 1) return fieldErrors({ partial_value_refund_cents: ['não é válido'] });
      if (cents > left) return fieldErrors({ partial_value_refund_cents: ['maior que o valor disponível para reembolso'] });
    }
    invoice.refundedCents += cents;
    account.balanceCents -= cents;
    if (invoice.refundedCents === invoice.paidCents) invoice.status = 'refunded';
    await notify(account.id, invoiceTrigger('invoice.refund', invoice), invoice.notificationUrl);
    return { body: invoiceView(invoice) };
  }

  function webHook(account: IuguAccountRecord, request: StandInRequest): StandInReply {
    const body = record(request.body);
    const event = text(body.event);
    const url = text(body.url);
    if (!event || !url)
      return fieldErrors({ ...(event ? {} : { event: ['não pode ficar em branco'] }), ...(url ? {} : { url: ['não pode ficar em branco'] }) });
    const hook: WebHook = { id: hexId(), accountId: account.id, event, url, authorization: text(body.authorization) ?? null };
    hooks.push(hook);
    return { body: { id: hook.id, url: hook.url, authorization: hook.authorization, event: hook.event, active: true } };
  }

  function createAccount(request: StandInRequest): StandInReply {
    const body = record(request.body);
    const name = text(body.name);
    if (!name) return fieldErrors({ name: ['não pode ficar em branco'] });
    const account: IuguAccountRecord = {
      id: hexId(),
      name,
      liveToken: randomBytes(32).toString('hex').toUpperCase(),
      userToken: randomBytes(32).toString('hex').toUpperCase(),
      balanceCents: 0,
      verification: null,
      pixEnabled: false,
      configuration: {},
    };
    accounts.set(account.id, account);
    return {
      body: {
        account_id: account.id,
        name,
        live_api_token: account.liveToken,
        test_api_token: randomBytes(32).toString('hex').toUpperCase(),
        user_token: account.userToken,
      },
    };
  }

  function requestVerification(request: StandInRequest): StandInReply {
    const account = accounts.get(request.params.id!);
    const caller = byUserToken(presentedToken(request));
    if (!caller) return unauthorized();
    if (!account || caller.id !== account.id) return notFound();
    if (account.verification) return refusal(422, 'Conta já possui uma verificação');
    const body = record(request.body);
    const data = record(body.data);
    const errors: Record<string, string[]> = {};
    const company = data.person_type === 'Pessoa Jurídica';
    if (data.person_type !== 'Pessoa Física' && !company) errors.person_type = ['não é válido'];
    const required = [
      'price_range',
      'business_type',
      'name',
      'address',
      'cep',
      'city',
      'state',
      'bank',
      'bank_ag',
      'account_type',
      'bank_cc',
      ...(company ? ['cnpj', 'company_name'] : ['cpf']),
    ];
    for (const field of required) if (!text(data[field])) errors[field] = ['não pode ficar em branco'];
    if (!errors.account_type && data.account_type !== 'Corrente' && data.account_type !== 'Poupança') errors.account_type = ['não é válido'];
    const document = digits(company ? data.cnpj : data.cpf);
    if (document && !(company ? isValidCnpj(document) : isValidCpf(document))) errors[company ? 'cnpj' : 'cpf'] = ['não é válido'];
    if (Object.keys(errors).length) return fieldErrors(errors);
    account.verification = { status: 'pending', data };
    return { body: { id: hexId(), data, account_id: account.id, created_at: now().toISOString() } };
  }

  function balanceText(cents: number): string {
    const [reais, centavos] = centsToReais(cents).toFixed(2).split('.');
    return `R$ ${reais!.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${centavos}`;
  }

  function accountView(account: IuguAccountRecord): Json {
    const data = account.verification?.data ?? {};
    return {
      id: account.id,
      name: account.name,
      email: text(data.email) ?? null,
      cpf: text(data.cpf) ?? null,
      cnpj: text(data.cnpj) ?? null,
      'can_receive?': account.verification?.status === 'accepted',
      'is_verified?': account.verification?.status === 'accepted',
      last_verification_request_status: account.verification?.status ?? null,
      balance: balanceText(account.balanceCents),
      balance_available_for_withdraw: balanceText(account.balanceCents),
      configuration: account.configuration,
    };
  }

  function requestWithdraw(account: IuguAccountRecord, request: StandInRequest): StandInReply {
    if (request.params.id !== account.id) return unauthorized();
    const raw = record(request.body).amount;
    let cents: number;
    try {
      cents = reaisToCents(typeof raw === 'number' || typeof raw === 'string' ? raw : Number.NaN);
    } catch {
      return fieldErrors({ amount: ['não é válido'] });
    }
    if (!(cents > 0)) return fieldErrors({ amount: ['deve ser maior que 0'] });
    if (cents > account.balanceCents) return refusal(422, 'Saldo insuficiente para o saque');
    account.balanceCents -= cents;
    const withdrawal: IuguWithdrawRecord = { id: hexId(), accountId: account.id, amountCents: cents, status: 'pending' };
    withdrawals.set(withdrawal.id, withdrawal);
    void notify(account.id, withdrawTrigger('withdraw_request.created', withdrawal));
    return { body: { id: withdrawal.id, account_id: account.id, amount: centsToReais(cents).toFixed(2), status: withdrawal.status } };
  }

  const withdrawTrigger = (event: string, withdrawal: IuguWithdrawRecord): Record<string, string> => ({
    event,
    'data[withdraw_request_id]': withdrawal.id,
    'data[account_id]': withdrawal.accountId,
    'data[status]': withdrawal.status,
    'data[amount]': centsToReais(withdrawal.amountCents).toFixed(2),
    // Saque: a rejected request's "Motivo da rejeição do saque", the page's example code.
    ...(withdrawal.status === 'rejected' ? { 'data[feedback]': IUGU_WITHDRAW_FEEDBACK } : {}),
  });

  const standIn: StandIn = await startStandIn({
    name: 'Iugu',
    sources: IUGU_SOURCES,
    routes: [
      {
        method: 'POST',
        path: '/v1/invoices',
        handle: (request) => authenticated(request, (account) => once(account, 'invoices', request, () => createInvoice(account, request))),
      },
      {
        method: 'GET',
        path: '/v1/invoices/{id}',
        handle: (request) =>
          authenticated(request, (account) => {
            const invoice = invoices.get(request.params.id!);
            return invoice && invoice.accountId === account.id ? { body: invoiceView(invoice) } : notFound();
          }),
      },
      { method: 'POST', path: '/v1/invoices/{id}/refund', handle: (request) => authenticated(request, (account) => refund(account, request)) },
      { method: 'POST', path: '/v1/payment_token', handle: paymentToken },
      {
        method: 'POST',
        path: '/v1/charge',
        handle: (request) => authenticated(request, (account) => once(account, 'charge', request, () => charge(account, request))),
      },
      { method: 'POST', path: '/v1/web_hooks', handle: (request) => authenticated(request, (account) => webHook(account, request)) },
      { method: 'POST', path: '/v1/marketplace/create_account', handle: (request) => authenticated(request, () => createAccount(request)) },
      { method: 'POST', path: '/v1/accounts/{id}/request_verification', handle: requestVerification },
      {
        method: 'POST',
        path: '/v1/accounts/{id}/request_withdraw',
        handle: (request) => authenticated(request, (account) => requestWithdraw(account, request)),
      },
      {
        method: 'PUT',
        path: '/v1/payments/pix',
        handle: (request) =>
          authenticated(request, (account) => {
            if (account.verification?.status !== 'accepted') return unauthorized();
            if (record(request.body).enable === true && account.pixEnabled) return refusal(400, { base: ['Conta já possui Pix ativo'] });
            account.pixEnabled = record(request.body).enable === true;
            return { body: { success: true, enable: account.pixEnabled } };
          }),
      },
      {
        method: 'POST',
        path: '/v1/accounts/configuration',
        handle: (request) =>
          authenticated(request, (account) => {
            account.configuration = { ...account.configuration, ...record(request.body) };
            return { body: { ...accountView(account), configuration: account.configuration } };
          }),
      },
      {
        method: 'GET',
        path: '/v1/accounts/{id}',
        handle: (request) => authenticated(request, (account) => (request.params.id === account.id ? { body: accountView(account) } : notFound())),
      },
    ],
  });

  return Object.assign(standIn, {
    baseUrl: `${standIn.url}${IUGU_BASE_PATH}`,
    invoices,
    accounts,
    withdrawals,
    delivered,
    async pay(invoiceId: string): Promise<number[]> {
      const invoice = invoices.get(invoiceId);
      if (!invoice || invoice.status !== 'pending') throw new Error(`invoice ${invoiceId} cannot be paid`);
      const method = invoice.payableWith.includes('pix') ? 'pix' : invoice.payableWith.includes('bank_slip') ? 'bank_slip' : undefined;
      if (!method) throw new Error(`invoice ${invoiceId} is paid by card (POST /charge)`);
      invoice.status = 'paid';
      invoice.paymentMethod = `iugu_${method}`;
      invoice.paidCents = invoice.totalCents;
      accounts.get(invoice.accountId)!.balanceCents += invoice.totalCents;
      return notify(invoice.accountId, invoiceTrigger('invoice.status_changed', invoice), invoice.notificationUrl);
    },
    verify(accountId: string, outcome: 'accepted' | 'rejected') {
      const account = accounts.get(accountId);
      if (!account?.verification) throw new Error(`account ${accountId} asked for no verification`);
      account.verification.status = outcome;
    },
    fund(accountId: string, cents: number) {
      accounts.get(accountId)!.balanceCents += cents;
    },
    async settleWithdrawal(withdrawId: string, outcome: 'accepted' | 'rejected'): Promise<number[]> {
      const withdrawal = withdrawals.get(withdrawId);
      if (!withdrawal || withdrawal.status === 'accepted' || withdrawal.status === 'rejected') throw new Error(`withdraw request ${withdrawId} is settled`);
      withdrawal.status = outcome;
      if (outcome === 'rejected') accounts.get(withdrawal.accountId)!.balanceCents += withdrawal.amountCents;
      return notify(withdrawal.accountId, withdrawTrigger('withdraw_request.status_changed', withdrawal));
    },
  });
}
