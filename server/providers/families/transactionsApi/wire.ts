/**
 * The dialect's shapes. The spec shows paths and the fields mapped into our
 * results, not the payloads; these are the shapes the white-label gateways of
 * this family share (camelCase, `paymentMethod: 'pix' | 'boleto' |
 * 'credit_card'`, `customer.document: { number, type }`, `pix`/`boleto`
 * sub-objects, the postback URL in `postbackUrl`), recorded in docs/decisions.md.
 */

export type ApiId = string | number;
export type ApiAmount = number | string;
export type ApiPaymentMethod = 'pix' | 'boleto' | 'credit_card';

export interface ApiItem {
  externalRef?: string;
  title: string;
  unitPrice: number;
  quantity: number;
  tangible: boolean;
}

export interface ApiCustomer {
  name: string;
  email: string;
  phone: string;
  document: { number: string; type: string };
  address?: { street: string; streetNumber: string; neighborhood: string; city: string; state: string; zipCode: string; country: 'BR' };
}

export interface ApiSplit {
  recipientId: string;
  type: 'fixed' | 'percentage';
  amount: number;
  chargeProcessingFee?: boolean;
  chargeRemainder?: boolean;
  liable?: boolean;
}

/** Body of POST /transactions. */
export interface ApiTransactionRequest {
  amount: number;
  paymentMethod: ApiPaymentMethod;
  installments?: number;
  card?: { id?: string };
  pix?: { expiresInDays: number };
  boleto?: { expiresInDays: number };
  customer?: ApiCustomer;
  items: ApiItem[];
  splits?: ApiSplit[];
  postbackUrl: string;
  externalRef?: string;
  description?: string;
  ip?: string;
  currency: string;
}

/** The transaction object: the answer of create, read and refund, and the postback's data. */
export interface ApiTransaction {
  id?: ApiId;
  status?: string;
  amount?: ApiAmount;
  paymentMethod?: string;
  /** PIX: `qrcode` is the copy-and-paste BR Code. */
  pix?: { qrcode?: string; expirationDate?: string } | null;
  boleto?: { url?: string; digitableLine?: string; barcode?: string; expirationDate?: string; dueDate?: string } | null;
  refunds?: Array<{ id?: ApiId }>;
  /** Some members answer inside an envelope. */
  data?: ApiTransaction;
}

/** Body of a payout (POST /transfers, NEWLEVEL's /cashout). */
export interface ApiWithdrawalRequest {
  amount: number;
  pixKey: string;
  pixKeyType: string;
  description?: string;
  externalRef?: string;
  postbackUrl: string;
}

/** Body of the "functions/v1" platforms' payout (F2: POST /withdrawals/cashout; MEDIUS, FAIRPAY, BRPIX Digital). */
export interface ApiCashoutRequest {
  pixkeytype: string;
  pixkey: string;
  /** Cents, whatever the charges use (F2 research). */
  requestedamount: number;
  description?: string;
  isPix: true;
  postbackUrl: string;
}

export interface ApiWithdrawal {
  id?: ApiId;
  status?: string;
  amount?: ApiAmount;
  data?: ApiWithdrawal;
}

/** Body of POST /card-token. */
export interface ApiCardTokenRequest {
  number: string;
  holderName: string;
  holderDocument?: string;
  expirationMonth: number;
  expirationYear: number;
  cvv: string;
}

/** Body of POST /cards (doc 3 §7's second call): the token of POST /cards/tokenize; answered with the saved card's `id`. */
export interface ApiCardSaveRequest {
  token: string;
}
