import { z } from 'zod';
import type { TransactionInput, WithdrawInput } from '../../../../domain/types.js';
import { cardDigits, fourDigitYear, type CardInput } from '../../../../lib/card.js';
import { digitsOnly } from '../../../../lib/documents.js';
import { invalidArgument } from '../../../../lib/errors.js';
import { isGatewayCardToken } from '../../../../lib/gatewayCardToken.js';
import { nationalPhoneDigits } from '../../../../lib/phone.js';
import { normalizePixKey } from '../../../../lib/pixKey.js';
import type { AdapterContext } from '../../../adapter.js';
import { TransactionsApiAdapter } from '../adapter.js';
import { API_PAYMENT_METHODS, toApiItems, type RequestTerms } from '../mappers.js';

/**
 * The "/transactions/v2/purchase" platform (provider research F10: IHub,
 * AxisBanking, Pagnovo), as AXISBANK (doc 2 §7) and HunterPay (doc 3 §7) speak
 * it: the purchase body and the cash-out body, written once. A member
 * registers PurchaseAdapter (or extends it to add the purchase's items, as
 * HunterPay does through `transactionBody`); every operation is the family's.
 *
 * The specification names the purchase's `creditCard` without its fields;
 * AxisBanking's documentation ("Create Transaction", POST /v2/purchase) gives
 * them: `creditCard {number, holder, expMonth (MM), expYear (YYYY), cvv,
 * installments (1 to 12)}`. A card opened from the gateway's card token is sent
 * so; a caller's card id keeps the gateway's `{token, installments}`. The same
 * page's body is flat (`name, email, cpf, phone` at the top, the responsible
 * fields required, `fingerPrint` one text): a member that offers it does so as
 * its api_version `public` (AXISBANK), the specification's `customer` staying
 * the default.
 */

// ---- wire: the platform's bodies where its documentation shows them

/** A card by its own fields (AxisBanking's "Create Transaction": `creditCard`). */
export const purchaseCardFields = z.object({
  number: z.string().regex(/^\d{12,19}$/),
  holder: z.string().min(1),
  expMonth: z.string().regex(/^\d{2}$/),
  expYear: z.string().regex(/^\d{4}$/),
  cvv: z.string().regex(/^\d{3,4}$/),
  installments: z.number().int().min(1).max(12),
});
export type PurchaseCardFields = z.infer<typeof purchaseCardFields>;

/** The purchase's `creditCard`: a card's own fields, or a caller's card id as the gateway's `{token, installments}`. */
export const purchaseCreditCard = z.union([purchaseCardFields, z.object({ token: z.string().min(1), installments: z.number().int().positive() })]);

const documentDigits = z.string().regex(/^(\d{11}|\d{14})$/);

/** Body of POST /transactions/v2/purchase as AxisBanking's "Create Transaction" documents it (api_version `public`). */
export const publicPurchaseRequest = z.object({
  name: z.string().min(1).max(255),
  email: z.string().min(1),
  cpf: documentDigits,
  phone: z.string().regex(/^\d{8,12}$/),
  amount: z.number().int().positive(),
  description: z.string().min(1),
  responsibleDocument: documentDigits,
  responsibleExternalId: z.string().min(1),
  paymentMethod: z.enum(['PIX', 'CREDIT_CARD']),
  currency: z.string().optional(),
  externalId: z.string().optional(),
  referrerUrl: z.string().optional(),
  checkoutUrl: z.string().optional(),
  postbackUrl: z.string().optional(),
  fingerPrint: z.string().optional(),
  creditCard: purchaseCardFields.optional(),
});
export type PublicPurchaseRequest = z.infer<typeof publicPurchaseRequest>;

// ---- request mappers

/** What a purchase body needs besides the input. */
export interface PurchaseTerms {
  /** The gateway's sidecar address for this account. */
  notificationUrl: string;
  /** Our integer cents → the member's unit. */
  amount: RequestTerms['amount'];
  /** Send the caller's items (HunterPay's "customer, items, amount, postbackUrl, description"); AXISBANK's fields have none. */
  items?: boolean;
}

/** A card opened from the gateway's card token as the platform takes it: digits, a two-digit month, a four-digit year. */
export const toPurchaseCardFields = (card: CardInput, installments: number): PurchaseCardFields => ({
  number: cardDigits(card.cardNumber),
  holder: card.holderName.trim(),
  expMonth: card.expMonth.trim().padStart(2, '0'),
  expYear: fourDigitYear(card.expYear),
  cvv: card.cvv.trim(),
  installments,
});

/** The card's own fields where the input has them (the gateway's card token), else the caller's card id. */
function purchaseCard(input: TransactionInput): z.infer<typeof purchaseCreditCard> {
  const installments = input.installments || 1;
  return input.card ? toPurchaseCardFields(input.card, installments) : { token: input.cardId ?? '', installments };
}

/** Body of POST /transactions/v2/purchase (doc 2 §7's fields; doc 3 §7 adds items for HunterPay). */
export function toPurchase(input: TransactionInput, terms: PurchaseTerms) {
  const customer = input.customer;
  return {
    amount: terms.amount(input.amount),
    paymentMethod: API_PAYMENT_METHODS.toProvider(input.paymentMethod).toUpperCase(),
    description: input.description || 'Pedido',
    ...(customer
      ? { customer: { name: customer.name, email: customer.email, document: digitsOnly(customer.document), phone: nationalPhoneDigits(customer.phone) } }
      : {}),
    ...(terms.items ? { items: toApiItems(input, terms.amount) } : {}),
    postbackUrl: terms.notificationUrl,
    ...(input.referrerUrl ? { referrerUrl: input.referrerUrl } : {}),
    ...(input.checkoutUrl ? { checkoutUrl: input.checkoutUrl } : {}),
    ...(input.userDocument ? { responsibleDocument: digitsOnly(input.userDocument) } : {}),
    ...(input.userId ? { responsibleExternalId: input.userId } : {}),
    ...(input.orderId ? { externalId: input.orderId } : {}),
    currency: input.currency || 'BRL',
    ...(input.paymentMethod === 'CREDIT_CARD' ? { creditCard: purchaseCard(input) } : {}),
    ...(input.fingerPrints.length ? { fingerPrint: input.fingerPrints.map(({ provider, value }) => ({ provider, value })) } : {}),
  };
}

/** What the documented body requires beyond the charge itself, refused naming the contract's field before anything is sent. */
function required(field: string, value: string | undefined): string {
  if (value) return value;
  throw invalidArgument(field, `${field} is required for AXISBANK charges in api_version public (AxisBanking's documented purchase requires it)`, 'REQUIRED');
}

/** What the documented body says of the buyer and who is responsible, each required: checked naming the contract's field. */
export function publicPurchaseParties(input: Partial<Pick<TransactionInput, 'customer' | 'userDocument' | 'userId'>>) {
  const customer = input.customer;
  return {
    name: required('transaction.customer.name', customer?.name.trim()),
    email: required('transaction.customer.email', customer?.email.trim()),
    cpf: required('transaction.customer.document', digitsOnly(customer?.document ?? '')),
    phone: required('transaction.customer.phone', nationalPhoneDigits(customer?.phone ?? '')),
    responsibleDocument: required('transaction.user_document', digitsOnly(input.userDocument ?? '')),
    responsibleExternalId: required('transaction.user_id', input.userId?.trim()),
  };
}

/** The documented `creditCard` has no token: a card charge needs the gateway's card token (its card is opened for the call). */
export function assertPublicPurchaseCard(input: Pick<TransactionInput, 'paymentMethod' | 'cardId' | 'card'>): void {
  if (input.paymentMethod === 'CREDIT_CARD' && !input.card && !isGatewayCardToken(input.cardId))
    throw invalidArgument(
      'transaction.card_id',
      "AXISBANK's documented purchase (api_version public) takes a card by its own fields only: charge it with a card token made by CreateCardToken",
      'INVALID_VALUE',
    );
}

/**
 * Body of POST /transactions/v2/purchase in AxisBanking's documented dialect: the buyer flat at the top, the
 * responsible fields required (the caller's user document and id), the first fingerprint's value, and a card only by
 * its own fields.
 */
export function toPublicPurchase(input: TransactionInput, terms: PurchaseTerms): PublicPurchaseRequest {
  if (input.paymentMethod === 'CREDIT_CARD' && !input.card) assertPublicPurchaseCard({ ...input, cardId: undefined });
  const { responsibleDocument, responsibleExternalId, ...buyer } = publicPurchaseParties(input);
  const fingerPrint = input.fingerPrints[0]?.value;
  return {
    ...buyer,
    amount: terms.amount(input.amount),
    description: input.description || 'Pedido',
    responsibleDocument,
    responsibleExternalId,
    paymentMethod: input.paymentMethod === 'CREDIT_CARD' ? 'CREDIT_CARD' : 'PIX',
    currency: input.currency || 'BRL',
    ...(input.orderId ? { externalId: input.orderId } : {}),
    ...(input.referrerUrl ? { referrerUrl: input.referrerUrl } : {}),
    ...(input.checkoutUrl ? { checkoutUrl: input.checkoutUrl } : {}),
    postbackUrl: terms.notificationUrl,
    ...(fingerPrint ? { fingerPrint } : {}),
    ...(input.card ? { creditCard: toPurchaseCardFields(input.card, input.installments || 1) } : {}),
  };
}

/** Body of POST /withdraws/cash-out (doc 2 §7's fields; the bank fields from the receiving account when given). */
export function toCashOut(input: WithdrawInput, amount: RequestTerms['amount']) {
  const bank = input.bankAccount;
  return {
    amount: amount(input.amount),
    pixType: input.pixType,
    pixKey: input.pixType ? normalizePixKey(input.pixKey ?? '', input.pixType) : (input.pixKey ?? '').trim(),
    ...(input.name || bank?.accountHolder ? { name: input.name || bank?.accountHolder } : {}),
    ...(input.document || bank?.accountDocument ? { document: digitsOnly(input.document || bank?.accountDocument || '') } : {}),
    ...(bank ? { institution: bank.bankCode, bankAgency: bank.branchNumber, bankAccount: bank.accountNumber } : {}),
  };
}

/** The platform's two hooks: its purchase and cash-out bodies. */
export class PurchaseAdapter extends TransactionsApiAdapter {
  /** The purchase's `creditCard` takes a card's own fields (AxisBanking's documentation), in either dialect. */
  override takesCardData(_ctx: AdapterContext): boolean {
    return true;
  }

  /** Its documented `creditCard` requires a CVV, which a saved card does not have. */
  override takesSavedCards(_ctx: AdapterContext): boolean {
    return false;
  }

  /** In api_version public, what the documented body requires is checked too, before a gateway card token is used. */
  override assertCardReference(
    input: Pick<TransactionInput, 'paymentMethod' | 'cardId'> & Partial<Pick<TransactionInput, 'customer' | 'userDocument' | 'userId' | 'card'>>,
    ctx?: AdapterContext,
  ): void {
    super.assertCardReference(input);
    if (!ctx || this.apiVersion(ctx) !== 'public') return;
    assertPublicPurchaseCard(input);
    publicPurchaseParties(input);
  }

  protected override transactionBody(input: TransactionInput, ctx: AdapterContext): object {
    const terms = { notificationUrl: ctx.notificationUrl, amount: (cents: number) => this.toProviderAmount(cents) };
    return this.apiVersion(ctx) === 'public' ? toPublicPurchase(input, terms) : toPurchase(input, terms);
  }

  protected override withdrawalBody(input: WithdrawInput): object {
    return toCashOut(input, (cents) => this.toProviderAmount(cents));
  }
}
