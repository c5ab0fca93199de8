/**
 * The platform's shapes. Requests follow the provider research (G-A:
 * Cashtime's and ReflowPay's public integrations): camelCase, amounts in
 * cents, `customer.document: { number, type }`, the postback URL in
 * `postbackUrl` (charges) and `baasPostbackUrl` (payouts). The answers of GET
 * /details/orders/{id} and GET /request/withdraw/{id}, and the postbacks, were
 * not seen anywhere: they are read as the create answers' object (the gateway's
 * decision, docs/decisions.md).
 */

export type CashtimeId = string | number;
export type CashtimeAmount = number | string;

export interface CashtimeItem {
  title: string;
  description?: string;
  /** Cents. */
  unitPrice: number;
  quantity: number;
  tangible: boolean;
}

export interface CashtimeCustomer {
  name: string;
  email: string;
  phone: string;
  document: { number: string; type: 'cpf' | 'cnpj' };
}

/** Body of POST /transactions. */
export interface CashtimeTransactionRequest {
  /** Digital goods only (no shipping address needed): true when no item is tangible. */
  isInfoProducts: boolean;
  externalCode?: string;
  paymentMethod: 'pix';
  installments: number;
  /** Cents. */
  amount: number;
  customer?: CashtimeCustomer;
  items: CashtimeItem[];
  postbackUrl: string;
  ip?: string;
}

/** The order: the answer of POST /transactions and GET /details/orders/{id}, and a charge's postback. */
export interface CashtimeOrder {
  id?: CashtimeId;
  orderId?: CashtimeId;
  status?: string;
  amount?: CashtimeAmount;
  /** `payload` is the copy-and-paste BR Code; `encodedImage` its QR image (not used: the gateway renders its own). */
  pix?: { payload?: string; encodedImage?: string; expirationDate?: string } | null;
  /** Some answers come inside an envelope. */
  data?: CashtimeOrder;
}

/** Body of POST /request/withdraw. */
export interface CashtimeWithdrawalRequest {
  /** Cents. */
  amount: number;
  pixKey: string;
  pixKeyType: string;
  baasPostbackUrl: string;
  externalCode?: string;
}

/** The answer of POST /request/withdraw and GET /request/withdraw/{id}, and a payout's postback. */
export interface CashtimeWithdrawal {
  id?: CashtimeId;
  withdrawId?: CashtimeId;
  status?: string;
  amount?: CashtimeAmount;
  data?: CashtimeWithdrawal;
}
