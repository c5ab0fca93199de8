import type { TransactionInput, TransactionResult, WebhookResult } from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { identifiedObject, isRecord } from '../../lib/json.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { textOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { DOC3_COMMON_STATUSES } from '../kit/commonStatuses.js';
import { credentialPart, type CredentialLayout } from '../kit/credentials.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, chargePostback, unusableAnswer } from '../kit/declaredAdapter.js';

/**
 * PLUGGOU (spec doc 3, group 3; not PLUGGO): a bespoke dialect. What the spec
 * says: POST /payments/transactions?organizationId and GET
 * /payments/transactions/{id} (§7), nothing else; new PIX payments start
 * PENDING, doc 3's common pattern, unknown REJECTED (§4); no expiry of its own,
 * so PIX 1 day (§9). From its official documentation (provider research,
 * docs.pluggoucash.com): the headers `X-Public-Key` and `X-Secret-Key`, the body
 * `{payment_method: 'pix', amount (cents), buyer {buyer_name, buyer_document,
 * buyer_phone, buyer_email}}`, an answer with the EMV. The spec's path wins over
 * the documentation's `POST /transactions`. The organization id of the query,
 * the answer's and the postback's field names are the gateway's decision
 * (docs/decisions.md).
 *
 * Read top to bottom: declaration → request mapper → response and notification readers → operations.
 */

// ---------------------------------------------------------------- declaration

/** The public key packs Pluggou's public key and the organization id of §7's query: 'publicKey|organizationId'. */
export const PLUGGOU_CREDENTIALS = { publicKey: ['publicKey', 'organizationId'], required: ['publicKey', 'secretKey'] } as const satisfies CredentialLayout;

export type PluggouDeclaration = ProviderDeclaration & { credentials: typeof PLUGGOU_CREDENTIALS };

export const PLUGGOU: PluggouDeclaration = {
  identity: { id: 'PLUGGOU', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.pluggoucash.com' },
  capabilities: { paymentMethods: ['PIX'], webhooks: true },
  auth: { type: 'apiKey', header: 'X-Secret-Key', value: 'secretKey' },
  headers: { 'X-Public-Key': credentialPart(PLUGGOU_CREDENTIALS, 'publicKey') },
  credentials: PLUGGOU_CREDENTIALS,
  money: 'cents',
  sources:
    "paths, PIX PENDING at creation, statuses, default PIX validity: spec (doc 3 §4/§7/§9); `X-Public-Key` / `X-Secret-Key`, the `payment_method`/`amount`/`buyer` body, cents: research (official documentation docs.pluggoucash.com); the organization id packed in the public key, the answer's and postback's fields, PIX only, host: the gateway's decision (placeholder host)",
};

export const PLUGGOU_PATHS = { create: '/payments/transactions', get: '/payments/transactions/{id}' } as const;

// ---------------------------------------------------------------- request mapper

export interface PluggouCharge {
  payment_method: 'pix';
  amount: number;
  buyer?: { buyer_name: string; buyer_document: string; buyer_phone: string; buyer_email: string };
  external_id?: string;
  description?: string;
  postback_url: string;
}

export const toPluggouCharge = (input: TransactionInput, terms: { amount: number; notificationUrl: string }): PluggouCharge => ({
  payment_method: 'pix',
  amount: terms.amount,
  ...(input.customer
    ? {
        buyer: {
          buyer_name: input.customer.name,
          buyer_document: digitsOnly(input.customer.document),
          buyer_phone: nationalPhoneDigits(input.customer.phone),
          buyer_email: input.customer.email,
        },
      }
    : {}),
  ...(input.orderId ? { external_id: input.orderId } : {}),
  ...(input.description ? { description: input.description } : {}),
  postback_url: terms.notificationUrl,
});

// ---------------------------------------------------------------- readers

/** A charge, bare or under `data`. */
interface PluggouObject {
  amount?: unknown;
  emv?: unknown;
  pix?: { emv?: unknown; qr_code?: unknown; copy_paste?: unknown };
}

export const pluggouCharge = (answer: unknown) => identifiedObject<PluggouObject>(answer, ['data']);

/** The PIX code: `emv` (the documentation's word), else under `pix`. */
const pixCodeOf = (charge: PluggouObject): string | undefined =>
  textOf(charge.emv) ?? (isRecord(charge.pix) ? (textOf(charge.pix.emv) ?? textOf(charge.pix.copy_paste) ?? textOf(charge.pix.qr_code)) : undefined);

// ---------------------------------------------------------------- operations

export class PluggouAdapter extends DeclaredAdapter<PluggouDeclaration> {
  constructor(declaration: PluggouDeclaration = PLUGGOU, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: DOC3_COMMON_STATUSES });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const { organizationId } = this.credentials(ctx);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toPluggouCharge(input, { amount: this.toProviderAmount(input.amount), notificationUrl: ctx.notificationUrl });
    const answer = await this.exchange('createTransaction', prefix, () =>
      this.http(ctx).post<unknown>(PLUGGOU_PATHS.create, body, { params: { organizationId } }),
    );
    const result = this.mapped('createTransaction', prefix, (): TransactionResult => {
      const charge = pluggouCharge(answer) ?? unusableAnswer('id e status da transação');
      const pixCode = pixCodeOf(charge) ?? unusableAnswer('código PIX da transação');
      // §4: a new PIX payment starts PENDING, whatever the answer says.
      return {
        paymentMethod: 'PIX',
        transactionId: charge.id,
        status: 'PENDING',
        amount: this.amountOr(charge.amount, input.amount, 'valor da transação'),
        pixCode,
        expiresAt,
      };
    });
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange('getTransaction', prefix, () => this.http(ctx).get<unknown>(fillPath(PLUGGOU_PATHS.get, { id: transactionId })));
    return this.mapped('getTransaction', prefix, (): TransactionResult => {
      const charge = pluggouCharge(answer) ?? unusableAnswer('id e status da transação');
      const pixCode = pixCodeOf(charge);
      return {
        paymentMethod: 'PIX',
        transactionId: charge.id,
        status: this.transactionStatus(charge.status),
        amount: this.amountOr(charge.amount, undefined, 'valor da transação'),
        ...(pixCode ? { pixCode } : {}),
      };
    });
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(chargePostback(notification.body));
  }

  /** The event's own id where the body has one, else the charge's id and status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.chargePostbackKey(ctx, notification);
  }
}
