import { randomUUID } from 'node:crypto';
import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';
import { createStaticPix, hasError } from 'pix-utils';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * Pluggou as its documentation describes it, for the gateway's acceptance test
 * (tests/standins/pluggou.test.ts). Everything lives under /api, as at
 * https://api.pluggoutech.com/api.
 *
 * From Pluggou's documentation (docs.pluggoucash.com):
 * - the transactions guide: every request carries `X-Public-Key` and
 *   `X-Secret-Key`, present, valid and active, else HTTP 401 `{error:
 *   "Credenciais inválidas", message: "Chave não encontrada ou inativa"}`;
 *   the credential must have the `cashin` or `all` permission, else 403
 *   `{success: false, message: "Esta credencial não tem permissão para
 *   realizar esta operação.", data: null}`; the account must be `approved`
 *   (else 403 "Sua conta precisa estar aprovada para usar esta
 *   funcionalidade.") and not blocked (403); then the fields: `payment_method`,
 *   `amount`, `buyer.buyer_name`, `buyer.buyer_document` (CPF or CNPJ, its
 *   check digits verified) and `buyer.buyer_phone` are required, else 422 with
 *   the errors per field; the checks run in that order, the first failure
 *   answers;
 * - the webhooks page: a webhook goes to every active webhook registered on
 *   the account, with `Content-Type: application/json`, `X-Webhook-Event-ID`
 *   (a UUID per event), `X-Webhook-Code` (the account's code) and
 *   `User-Agent: Pluggou-Webhook/1.0`; the receiver has 4 seconds to answer.
 *
 * From integrations that follow those pages (the pages' remaining sections are
 * not in the stored copy): `POST /transactions` answering 201 `{success: true,
 * message: "Pagamento criado com sucesso!", data: {id (UUID), amount,
 * platform_tax, liquid_amount, pix: {emv}}}` in cents; `GET
 * /transactions/{id}` answering `{success: true, data: {…, status}}`; the
 * statuses pending, paid, failed, canceled, refunded, chargeback; the webhook
 * body `{event_type: "transaction" | "withdrawal", data: {id, payment_method,
 * e2e_id, amount, platform_tax, liquid_amount, status, paid_at, created_at}}`;
 * the 422 body `{success: false, message, data: {errors: {field: [text]}}}`.
 *
 * The stand-in's own readings, where both are silent: the texts of the 422
 * errors, of a blocked account and of an unknown transaction (404); the fee
 * (1,49 % + R$ 0,50); a maximum of R$ 3.000,00 a charge is not modelled.
 */
export const PLUGGOU_SOURCES = [
  'https://docs.pluggoucash.com/api-reference/transactions/guide',
  'https://docs.pluggoucash.com/api-reference/webhooks',
] as const;

export type PluggouPermission = 'cashin' | 'cashout' | 'all';

export interface PluggouCredential {
  publicKey: string;
  secretKey: string;
  permission: PluggouPermission;
  active?: boolean;
}

export interface PluggouTransaction {
  id: string;
  payment_method: 'pix';
  /** Cents. */
  amount: number;
  platform_tax: number;
  liquid_amount: number;
  status: 'pending' | 'paid' | 'failed' | 'canceled' | 'refunded' | 'chargeback';
  description: string | null;
  buyer: { buyer_name: string; buyer_document: string; buyer_phone: string; buyer_email: string | null };
  e2e_id: string | null;
  paid_at: string | null;
  created_at: string;
  pix: { emv: string };
}

export interface PluggouStandIn extends StandIn {
  /** The base URL an account points at (…/api). */
  readonly baseUrl: string;
  readonly transactions: ReadonlyMap<string, PluggouTransaction>;
  /** The merchant registers a webhook on the panel; Pluggou sends every event to each active one. */
  registerWebhook(url: string): void;
  /** The account's status at Pluggou (approved, pending, blocked …). */
  setAccount(status: { approved: boolean; blocked: boolean }): void;
  /** The payer pays the PIX: `paid`, and the webhook sent; the HTTP statuses the receivers answered. */
  pay(id: string): Promise<number[]>;
  /** The charge moves to `status` at Pluggou (a refund or a chargeback made on its side), and the webhook is sent. */
  settle(id: string, status: PluggouTransaction['status']): Promise<number[]>;
  /** A webhook sent as Pluggou sends it, with another code (a forgery). */
  forge(id: string, status: PluggouTransaction['status'], code: string): Promise<number[]>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const digits = (value: unknown): string => (typeof value === 'string' ? value.replace(/\D/g, '') : '');

const forbidden = (message: string): StandInReply => ({ status: 403, body: { success: false, message, data: null } });

/** A BR Code for the amount, its CRC valid, as the payer's bank reads it. */
function brCode(cents: number, txid: string): string {
  const pix = createStaticPix({
    merchantName: 'PLUGGOU TECNOLOGIA',
    merchantCity: 'PORTO ALEGRE',
    pixKey: 'b4f3c0de-7a1e-4c52-9d0f-2a6c1e5b7a90',
    infoAdicional: txid.slice(0, 25),
    transactionAmount: cents / 100,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

/** The required fields in the guide's order, with the stand-in's texts; an empty object when all are valid. */
function fieldErrors(body: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const buyer = isRecord(body.buyer) ? body.buyer : {};
  if (body.payment_method !== 'pix') errors.payment_method = ['O campo payment_method é obrigatório e deve ser pix.'];
  if (!Number.isInteger(body.amount) || (body.amount as number) <= 0) errors.amount = ['O campo amount é obrigatório e deve ser um inteiro em centavos.'];
  if (!text(buyer.buyer_name)) errors['buyer.buyer_name'] = ['O campo buyer.buyer_name é obrigatório.'];
  const document = digits(buyer.buyer_document);
  if (!document) errors['buyer.buyer_document'] = ['O campo buyer.buyer_document é obrigatório.'];
  else if (!(document.length === 11 ? isValidCpf(document) : document.length === 14 && isValidCnpj(document)))
    errors['buyer.buyer_document'] = ['O documento informado não é um CPF ou CNPJ válido.'];
  const phone = digits(buyer.buyer_phone);
  if (!phone) errors['buyer.buyer_phone'] = ['O campo buyer.buyer_phone é obrigatório.'];
  else if (phone.length < 10 || phone.length > 11) errors['buyer.buyer_phone'] = ['O telefone deve ter 10 ou 11 dígitos.'];
  return errors;
}

export async function startPluggouStandIn(options: { credentials: readonly PluggouCredential[]; webhookCode: string }): Promise<PluggouStandIn> {
  const transactions = new Map<string, PluggouTransaction>();
  const webhooks: string[] = [];
  const account = { approved: true, blocked: false };

  const credentialOf = (request: StandInRequest) =>
    options.credentials.find(
      (credential) =>
        credential.active !== false && credential.publicKey === request.headers['x-public-key'] && credential.secretKey === request.headers['x-secret-key'],
    );

  /** The guide's chain before the fields: credentials (401), permission, account approved, not blocked (403). */
  function admitted(request: StandInRequest, needs: 'cashin' | 'read'): StandInReply | undefined {
    const credential = credentialOf(request);
    if (!credential) return { status: 401, body: { error: 'Credenciais inválidas', message: 'Chave não encontrada ou inativa' } };
    if (needs === 'cashin' && credential.permission === 'cashout') return forbidden('Esta credencial não tem permissão para realizar esta operação.');
    if (!account.approved) return forbidden('Sua conta precisa estar aprovada para usar esta funcionalidade.');
    if (account.blocked) return forbidden('Sua conta está bloqueada.');
    return undefined;
  }

  const view = (transaction: PluggouTransaction) => {
    const { buyer: _buyer, description: _description, ...rest } = transaction;
    return rest;
  };

  async function deliver(transaction: PluggouTransaction, code: string): Promise<number[]> {
    const body = JSON.stringify({
      event_type: 'transaction',
      data: {
        id: transaction.id,
        payment_method: transaction.payment_method,
        e2e_id: transaction.e2e_id,
        amount: transaction.amount,
        platform_tax: transaction.platform_tax,
        liquid_amount: transaction.liquid_amount,
        status: transaction.status,
        paid_at: transaction.paid_at,
        created_at: transaction.created_at,
      },
    });
    const eventId = randomUUID();
    return Promise.all(
      webhooks.map(async (url) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-webhook-event-id': eventId, 'x-webhook-code': code, 'user-agent': 'Pluggou-Webhook/1.0' },
          body,
          signal: AbortSignal.timeout(4_000),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
  }

  const known = (id: string): PluggouTransaction => {
    const transaction = transactions.get(id);
    if (!transaction) throw new Error(`no Pluggou transaction ${id}`);
    return transaction;
  };

  const standIn = await startStandIn({
    name: 'Pluggou',
    sources: PLUGGOU_SOURCES,
    routes: [
      {
        method: 'POST',
        path: '/api/transactions',
        handle: (request) => {
          const refusal = admitted(request, 'cashin');
          if (refusal) return refusal;
          const body = isRecord(request.body) ? request.body : {};
          const errors = fieldErrors(body);
          if (Object.keys(errors).length) return { status: 422, body: { success: false, message: 'Erro de validação', data: { errors } } };
          const buyer = body.buyer as Record<string, unknown>;
          const amount = body.amount as number;
          const platformTax = Math.round(amount * 0.0149) + 50;
          const id = randomUUID();
          const transaction: PluggouTransaction = {
            id,
            payment_method: 'pix',
            amount,
            platform_tax: platformTax,
            liquid_amount: amount - platformTax,
            status: 'pending',
            description: text(body.description) ?? null,
            buyer: {
              buyer_name: text(buyer.buyer_name)!,
              buyer_document: digits(buyer.buyer_document),
              buyer_phone: digits(buyer.buyer_phone),
              buyer_email: text(buyer.buyer_email) ?? null,
            },
            e2e_id: null,
            paid_at: null,
            created_at: new Date().toISOString(),
            pix: { emv: brCode(amount, id.replace(/-/g, '')) },
          };
          transactions.set(id, transaction);
          return {
            status: 201,
            body: {
              success: true,
              message: 'Pagamento criado com sucesso!',
              data: { id, amount, platform_tax: transaction.platform_tax, liquid_amount: transaction.liquid_amount, pix: transaction.pix },
            },
          };
        },
      },
      {
        method: 'GET',
        path: '/api/transactions/{id}',
        handle: (request) => {
          const refusal = admitted(request, 'read');
          if (refusal) return refusal;
          const transaction = transactions.get(request.params.id!);
          if (!transaction) return { status: 404, body: { success: false, message: 'Transação não encontrada.', data: null } };
          return { body: { success: true, data: view(transaction) } };
        },
      },
    ],
  });

  return Object.assign(standIn, {
    baseUrl: `${standIn.url}/api`,
    transactions,
    registerWebhook: (url: string) => {
      webhooks.push(url);
    },
    setAccount: (status: { approved: boolean; blocked: boolean }) => {
      Object.assign(account, status);
    },
    async pay(id: string) {
      const transaction = known(id);
      if (transaction.status !== 'pending') throw new Error(`Pluggou transaction ${id} is ${transaction.status}`);
      transaction.status = 'paid';
      transaction.paid_at = new Date().toISOString();
      transaction.e2e_id = `E18236120${Date.now()}${Math.floor(Math.random() * 1e6)}`.slice(0, 32);
      return deliver(transaction, options.webhookCode);
    },
    async settle(id: string, status: PluggouTransaction['status']) {
      const transaction = known(id);
      transaction.status = status;
      return deliver(transaction, options.webhookCode);
    },
    async forge(id: string, status: PluggouTransaction['status'], code: string) {
      return deliver({ ...known(id), status }, code);
    },
  });
}
