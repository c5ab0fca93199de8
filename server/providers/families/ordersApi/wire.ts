/** The orders API's shapes as Pagar.me API v5 defines them (the fields we read or send). */

export type OrdersApiPaymentMethod = 'pix' | 'boleto' | 'credit_card';

export interface OrdersApiLastTransaction {
  id?: string;
  transaction_type?: string;
  status?: string;
  success?: boolean;
  /** PIX: copy-and-paste text and QR image URL. */
  qr_code?: string;
  qr_code_url?: string;
  expires_at?: string;
  /** Boleto: digitable line, barcode, documents. */
  line?: string;
  barcode?: string;
  pdf?: string;
  url?: string;
  due_at?: string;
  acquirer_message?: string;
  gateway_response?: { code?: string; errors?: Array<{ message?: string }> };
}

export interface OrdersApiCharge {
  id: string;
  status: string;
  amount?: number;
  paid_amount?: number;
  paid_at?: string | null;
  payment_method?: string;
  order?: { id?: string };
  last_transaction?: OrdersApiLastTransaction;
}

export interface OrdersApiOrder {
  id: string;
  code?: string;
  status: string;
  amount?: number;
  charges?: OrdersApiCharge[];
}

export interface OrdersApiWithdrawal {
  id: string;
  amount: number;
  status: string;
  created_at?: string;
  updated_at?: string;
}

/** A recipient as POST /recipients and GET /recipients/{id} answer it (the SDK's GetRecipientResponse, the fields we read). */
export interface OrdersApiRecipient {
  id: string;
  name?: string;
  email?: string;
  document?: string;
  type?: string;
  status?: string;
  code?: string;
  created_at?: string;
}

/** GET /recipients/{id}/balance (the SDK's GetBalanceResponse): amounts in cents. */
export interface OrdersApiBalance {
  currency?: string;
  available_amount?: number;
  waiting_funds_amount?: number;
  transferred_amount?: number;
}
