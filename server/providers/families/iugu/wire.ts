/**
 * Iugu's shapes (API v1), the fields we send or read. Sources (provider
 * research, groups 1–2): dev.iugu.com (invoices, direct charge and its answer,
 * statuses, triggers) and the iugu/iugu-php SDK. Amounts are integer cents
 * (`*_cents`); dates are `YYYY-MM-DD`.
 */

export type IuguPayableWith = 'pix' | 'bank_slip' | 'credit_card';

export interface IuguItem {
  description: string;
  quantity: number;
  price_cents: number;
}

export interface IuguPayer {
  cpf_cnpj: string;
  name: string;
  email?: string;
  phone_prefix?: string;
  phone?: string;
  address?: { zip_code: string; street: string; number: string; district: string; city: string; state: string; country: 'Brasil' };
}

/** Body of POST /invoices (spec doc 2 §7: email, payer, payable_with, due_date, return_url, items). */
export interface IuguInvoiceRequest {
  email: string;
  due_date: string;
  items: IuguItem[];
  payable_with: IuguPayableWith;
  payer?: IuguPayer;
  return_url?: string;
  notification_url: string;
}

/** The invoice: the answer of POST /invoices, GET /invoices/{id} and the refund. */
export interface IuguInvoice {
  id?: string;
  status?: string;
  total_cents?: number | string;
  due_date?: string;
  secure_url?: string;
  /** What it may be paid with: one name, a comma list, or a list. */
  payable_with?: string | string[];
  /** How it was paid: 'iugu_pix', 'iugu_bank_slip', 'iugu_credit_card'. */
  payment_method?: string | null;
  /** `qrcode` is an image URL; `qrcode_text` the copy-and-paste code. */
  pix?: { qrcode?: string; qrcode_text?: string } | null;
  bank_slip?: { digitable_line?: string; barcode_data?: string; bank_slip_url?: string; bank_slip_pdf_url?: string } | null;
  /** An error answer: a text, or field → messages. */
  errors?: unknown;
}

/** Body of POST /charge (spec doc 2 §7: token, months, invoice_id). */
export interface IuguChargeRequest {
  token: string;
  months: number;
  invoice_id: string;
}

/** Answer of POST /charge: `success` says whether the card was charged; LR is the acquirer's code. */
export interface IuguChargeAnswer {
  success?: boolean;
  message?: string;
  invoice_id?: string;
  LR?: string;
  errors?: unknown;
}

/** Body of POST /payment_token (Iugu.js's call): the account, not the API token, identifies the seller. */
export interface IuguPaymentTokenRequest {
  account_id: string;
  method: 'credit_card';
  data: { number: string; verification_value: string; first_name: string; last_name: string; month: string; year: string };
}

export interface IuguPaymentToken {
  id?: string;
  errors?: unknown;
}
