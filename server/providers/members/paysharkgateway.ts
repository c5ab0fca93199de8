import { z } from 'zod';
import type { ReceiverInput, ReceiverResult } from '../../domain/types.js';
import { digitsOnly, inferDocumentType } from '../../lib/documents.js';
import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { lookupStatus } from '../../lib/statusTable.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, enveloped, moneyIn, orRefusal, type AmountReader, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { F1Adapter, F1_PLATFORM } from '../families/transactionsApi/platforms/f1.js';
import { absentable, wireId, wireStatus } from '../kit/answers.js';
import { COMMON_RECEIVER_STATUSES } from '../kit/commonStatuses.js';
import { credentialPart, type CredentialLayout } from '../kit/credentials.js';
import { fillPath } from '../kit/declaration.js';
import { member } from '../kit/registration.js';

/**
 * PAYSHARKGATEWAY (spec doc 3, group 3), a member of the transactions API
 * family on the F1 "Pagar.me-v4 clone" platform (provider research): §7's
 * paths as the spec writes them (POST /v1/transactions, GET
 * /v1/transactions/{id}, POST /v1/transactions/{id}/refund, POST /v1/transfers,
 * GET /v1/transfers/{id}, POST /v1/receivers, GET /v1/receivers/{id}), so the
 * host carries no /v1; PIX 24 h and boleto 3 days (§9); doc 3's common pattern
 * with unknown PENDING (§4); lower-case PIX key types, RANDOM and a missing
 * type sent as evp (§5: "PaySharkGateway uses lowercase and defaults to
 * evp"); payouts carry the platform's `x-withdraw-key`; 'Erro ao processar reembolso: …' and 'Erro ao
 * processar saque: …' for its refund and payout failures, the common prefixes
 * (its other five texts) for the rest (§8). Receivers read their status
 * through the receiver rule of §4.
 */
/**
 * The account's keys: the secret key is the Basic user and packs, for payouts,
 * the platform's withdraw key after it ('<secret key>|<withdraw key>', as
 * PODPAY2's): every public client of the platform that pays out sends one in
 * `x-withdraw-key`. Only the secret key is required; a payout without the
 * withdraw key is refused before anything is sent.
 */
const CREDENTIALS = { secretKey: ['secret', 'withdrawKey?'], required: ['secretKey'] } as const satisfies CredentialLayout;

export const PAYSHARKGATEWAY: TransactionsApiMember = {
  identity: { id: 'PAYSHARKGATEWAY', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.paysharkgateway.com.br' },
  capabilities: {
    paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'],
    withdrawMethods: ['PIX'],
    withdrawalLookup: true,
    refunds: true,
    receivers: true,
    webhooks: true,
  },
  auth: { type: 'basic', username: credentialPart(CREDENTIALS, 'secret'), password: 'empty' },
  credentials: CREDENTIALS,
  ...F1_PLATFORM,
  // §5: "PaySharkGateway uses lowercase and defaults to evp": a PIX payout without a key type is a random key (evp).
  payouts: { withoutPixKeyType: 'RANDOM' },
  expiry: { pixSeconds: SECONDS_PER_DAY, boletoSeconds: 3 * SECONDS_PER_DAY },
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES, unknown: 'PENDING' } },
  failurePrefixes: { refoundTransaction: 'PROCESS_REFUND', withdraw: 'PROCESS_WITHDRAW' },
  paths: {
    create: '/v1/transactions',
    get: '/v1/transactions/{id}',
    refund: { method: 'POST', path: '/v1/transactions/{id}/refund' },
    withdraw: '/v1/transfers',
    getWithdraw: '/v1/transfers/{id}',
  },
  sources:
    "paths (with their /v1), PIX 24 h, boleto 3 days, unknown PENDING, lower-case key types and evp, texts, receiver status rule: spec (doc 3 §4/§5/§7/§8/§9); host `api.paysharkgateway.com.br` (the clients' `…/v1` without its /v1, which the spec's paths carry), Basic `secretKey:` (empty password), statuses pending/paid/refunded/refused: PaySharkGateway's public clients (their code-index ids are in the stand-in's sources; app.paysharkgateway.com.br/docs, which one cites, could not be read); cents, the charge body (`customer{name, email, phone, document}`, `items`, `card{hash}`, `pix{expiresInDays}`), the transaction object, a declined card `refused` with its `refusedReason`, postbacks `{id, type, objectId, url, data}` (unsigned): the F1 platform's documentation (its other instances' pages, the addresses in tests/standins/f1Platform.ts); `boleto{expirationDate}`, refunds, transfers `{method: fiat, …}` with `x-withdraw-key`, their read and statuses: the F1 platform as its other instances' clients show it; all checked by the stand-in tests/standins/paysharkgateway.ts; the withdraw key packed after the secret: the gateway's decision; receiver bodies: the gateway's decision (no public material, not in the stand-in)",
};

const RECEIVER_PATHS = { create: '/v1/receivers', get: '/v1/receivers/{id}' } as const;

// ---- wire: receivers (no public material: the gateway's reading, lenient where it cannot know)

/** A receiver as PaySharkGateway is taken to answer it, bare or under `data`; its money in cents, read by `toCents`. */
function receiverShape(toCents: AmountReader) {
  const money = moneyIn(toCents);
  return z.object({
    id: wireId,
    status: absentable(wireStatus),
    name: absentable(z.string()),
    email: absentable(z.string()),
    /** The document as digits, or F1's `{number, type}`. */
    document: absentable(z.union([z.string(), z.object({ number: absentable(z.string()) }).transform((document) => document.number)])),
    /** A number, or `{available}`. */
    balance: absentable(z.union([money, z.object({ available: absentable(money) }).transform((balance) => balance.available)])),
  });
}
export type PaySharkReceiver = z.output<ReturnType<typeof receiverShape>>;

/** The receiver answers of an adapter whose money `toCents` reads: the receiver, or the family's refusal. */
export const paySharkReceiverAnswer = (toCents: AmountReader) => orRefusal(enveloped(receiverShape(toCents)));

/** Body of POST /v1/receivers: the F1 document shape `{number, type}` (lower case), the caller's bank account and address as given. */
export function toPaySharkReceiver(input: ReceiverInput) {
  const document = digitsOnly(input.document);
  return {
    name: input.name,
    email: input.email,
    document: { number: document, type: (input.documentType ?? inferDocumentType(document)).toLowerCase() },
    ...(input.description ? { description: input.description } : {}),
    ...(input.userId ? { externalRef: input.userId } : {}),
    ...(input.bankAccount ? { bankAccount: input.bankAccount } : {}),
    ...(input.address ? { address: input.address } : {}),
  };
}

/**
 * The provider's receiver → ours. Fields the answer leaves out are the
 * caller's (creation); a missing balance is 0; the status by §4's receiver
 * rule (active, approved ACTIVE; rejected, cancelled REJECTED; otherwise PENDING).
 */
export function fromPaySharkReceiver(receiver: PaySharkReceiver, input?: ReceiverInput): ReceiverResult {
  const document = digitsOnly(receiver.document ?? input?.document ?? '');
  return {
    receiverId: receiver.id,
    receiverProvider: PAYSHARKGATEWAY.identity.id,
    name: receiver.name ?? input?.name ?? '',
    document,
    documentType: inferDocumentType(document),
    email: receiver.email ?? input?.email ?? '',
    status: lookupStatus(COMMON_RECEIVER_STATUSES, receiver.status),
    balance: receiver.balance ?? 0,
  };
}

/**
 * Two additions to the family: the payout's key type in PaySharkGateway's
 * lower-case names (the withdrawalBody hook), and its receivers (POST and GET
 * /v1/receivers), operations the family does not have. Everything else is the family's.
 */
export class PaySharkGatewayAdapter extends F1Adapter {
  /** The platform's transfer body, the key type lower case; RANDOM, and no type at all, is evp (§5). */
  protected override untypedKeyType(): string {
    return 'evp';
  }

  private readonly receiverAnswer = paySharkReceiverAnswer((value) => this.fromProviderAmount(value));

  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    const prefix = this.prefixFor('createReceiver');
    const receiver = await this.answered(
      'createReceiver',
      prefix,
      () => this.http(ctx).post<unknown>(RECEIVER_PATHS.create, toPaySharkReceiver(input)),
      this.receiverAnswer,
    );
    return fromPaySharkReceiver(receiver, input);
  }

  override async getReceiver(ctx: AdapterContext, receiverId: string): Promise<ReceiverResult> {
    const prefix = this.prefixFor('getReceiver');
    const receiver = await this.answered(
      'getReceiver',
      prefix,
      () => this.http(ctx).get<unknown>(fillPath(RECEIVER_PATHS.get, { id: receiverId })),
      this.receiverAnswer,
    );
    return fromPaySharkReceiver(receiver);
  }
}

export default member(PaySharkGatewayAdapter, PAYSHARKGATEWAY);
