import type { AccountBalance, TransactionInput, TransactionResult } from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { SECONDS_PER_DAY, wholeDays } from '../../lib/expiry.js';
import { z } from 'zod';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { declaredStatusTable } from '../../lib/statusTable.js';
import { DOC3_COMMON_STATUSES } from '../kit/commonStatuses.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import type { AdapterRuntime, ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../kit/answers.js';

/**
 * SYNCPAY (spec doc 3, group 3): PIX only ('Syncpay only supports PIX payment
 * method', §5/§8), an API key required (§5), PIX valid 2 days (§9); its own
 * paths, "for example /gateway/api/" (§7). Its official documentation
 * (https://web.syncpay.pro/documentacao; the stored copy shows only its
 * balance and transaction-status sections) gives host api.syncpay.pro, `Authorization:
 * Basic <base64 API key>` (the key alone, no user:password), allow-listed IPs
 * only, `GET /s1/getTransaction/api/getTransactionStatus.php?id_transaction={id}`
 * for a cash-in or cash-out, and the refusals 401 'API Key não fornecida', 403
 * 'API Key incorreta.' and 404 'Transação não encontrada.'. The charge, `POST
 * /v1/gateway/api/ {amount (reais), customer {name, email, cpf, phone}, pix
 * {expiresInDays}, postbackUrl, ip}` answered `{paymentCode, idTransaction}`,
 * comes from integrations (provider research, groups 3–4): no cash-in section
 * of the documentation could be read, and the status answer's fields are cut
 * off in the stored copy. Its refund path and postback shape are not shown
 * anywhere: neither is offered.
 */
export const SYNCPAY: ProviderDeclaration = {
  identity: { id: 'SYNCPAY', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.syncpay.pro' },
  capabilities: { paymentMethods: ['PIX'], balances: true },
  auth: { type: 'apiKey', header: 'authorization', prefix: 'Basic ', value: (account) => Buffer.from(account.secretKey ?? '').toString('base64') },
  credentials: { required: ['secretKey'] },
  money: 'reais',
  expiry: { pixSeconds: 2 * SECONDS_PER_DAY },
  failures: { unsupportedPaymentMethod: 'SYNCPAY_PIX_ONLY' },
  sources:
    "PIX only, required key, 2-day PIX: spec (doc 3 §5/§8/§9); host, Basic <base64 key>, GET getTransactionStatus.php?id_transaction and its 404 'Transação não encontrada.': Syncpay's documentation (https://web.syncpay.pro/documentacao, balance and status sections); the balance by GET /s1/getsaldo/api/ answered {data {usuario, nome, saldo_liquido, transacoes}, status, message, error}, `saldo_liquido` read as the available balance in reais (the section's example: 0, beside its totals in reais such as \"1146.00\"): the same documentation's balance section; POST /v1/gateway/api/ body and {paymentCode, idTransaction}: integrations (research; no cash-in section of the documentation readable); the read's answer fields: the gateway's reading (cut off in the documentation's stored copy)",
};

export const SYNCPAY_PATHS = { create: '/v1/gateway/api/', status: '/s1/getTransaction/api/getTransactionStatus.php', balance: '/s1/getsaldo/api/' } as const;

/** Body of POST /v1/gateway/api/ (integrations): `amount` in reais, the PIX validity in whole days. */
export const syncpayChargeRequest = z.object({
  amount: z.number().positive(),
  customer: z.object({ name: z.string(), email: z.string(), cpf: z.string().regex(/^\d*$/), phone: z.string() }).optional(),
  pix: z.object({ expiresInDays: z.number().int().positive() }),
  postbackUrl: z.string().min(1),
  ip: z.string().optional(),
});
export type SyncpayChargeRequest = z.infer<typeof syncpayChargeRequest>;

export const toSyncpayCharge = (input: TransactionInput, terms: { amount: number; pixSeconds: number; notificationUrl: string }): SyncpayChargeRequest => ({
  amount: terms.amount,
  ...(input.customer
    ? {
        customer: {
          name: input.customer.name,
          email: input.customer.email,
          cpf: digitsOnly(input.customer.document),
          phone: nationalPhoneDigits(input.customer.phone),
        },
      }
    : {}),
  pix: { expiresInDays: wholeDays(terms.pixSeconds) },
  postbackUrl: terms.notificationUrl,
  ...(input.customerIp ? { ip: input.customerIp } : {}),
});

/** Document 3's common pattern; unknown REJECTED (Syncpay is not in §4's PENDING list). */
export const SYNCPAY_STATUSES = declaredStatusTable(DOC3_COMMON_STATUSES, { overrides: { waiting_payment: 'PENDING' } });

// ---------------------------------------------------------------- wire

/** The answer of POST /v1/gateway/api/: the charge's id and its copy-and-paste code, both required (a charge without them cannot be paid). */
export const syncpayCharge = z.object({ idTransaction: wireId, paymentCode: wireText });

const amounts = { amount: absentable(wireAmount), valor: absentable(wireAmount) };

/** A status record with its status under `status` (or Portuguese `situacao`), the amount under `amount` (or `valor`). */
const syncpayStatusRecord = z
  .union([
    z.object({ status: wireStatus, ...amounts }),
    z.object({ situacao: wireStatus, ...amounts }).transform(({ situacao, ...rest }) => ({ status: situacao, ...rest })),
  ])
  .transform((record) => ({ status: record.status, amount: record.amount ?? record.valor }));

/** The answer of getTransactionStatus.php, bare or inside `{ data: … }` (the envelope's record is the one read when there is one). */
export const syncpayStatusAnswer = z.union([z.object({ data: syncpayStatusRecord }).transform((answer) => answer.data), syncpayStatusRecord]);
export type SyncpayStatus = z.output<typeof syncpayStatusAnswer>;

/**
 * The answer of GET /s1/getsaldo/api/ (the documentation's balance section): `data.saldo_liquido`, the net balance, in
 * reais like every amount of this API; one figure, so no pending part. The totals beside it (`transacoes`) are not read.
 */
export const syncpayBalance = z.object({ data: z.object({ saldo_liquido: wireAmount }) });

export class SyncpayAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = SYNCPAY, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: SYNCPAY_STATUSES });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toSyncpayCharge(input, {
      amount: this.toProviderAmount(input.amount),
      pixSeconds: this.pixExpirySeconds,
      notificationUrl: ctx.notificationUrl,
    });
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post(SYNCPAY_PATHS.create, body), syncpayCharge);
    // A charge just created has not been paid: PENDING until a read says otherwise.
    return pixCodeOnly({
      paymentMethod: 'PIX',
      transactionId: answer.idTransaction,
      status: 'PENDING',
      amount: input.amount,
      pixCode: answer.paymentCode,
      expiresAt,
    });
  }

  override async getAccountBalance(ctx: AdapterContext): Promise<AccountBalance> {
    const prefix = this.prefixFor('getAccountBalance');
    const answer = await this.exchange('getAccountBalance', prefix, () => this.http(ctx).get(SYNCPAY_PATHS.balance), syncpayBalance);
    return { available: this.mapped('getAccountBalance', prefix, () => this.amountOr(answer.data.saldo_liquido, undefined, 'saldo')), currency: 'BRL' };
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange(
      'getTransaction',
      prefix,
      () => this.http(ctx).get(SYNCPAY_PATHS.status, { params: { id_transaction: transactionId } }),
      syncpayStatusAnswer,
    );
    return this.mapped('getTransaction', prefix, (): TransactionResult => ({
      paymentMethod: 'PIX',
      transactionId,
      status: this.transactionStatus(answer.status),
      // An amount the schema let through that is still no amount in reais (1e21) is an unusable answer, never INTERNAL.
      amount: this.amountOr(answer.amount, 0, 'valor legível'),
    }));
  }
}
