/**
 * The PrimePag platform's shapes (provider research, "G-B" and "PRIMEPAG and
 * ZENDRY": public integrations of both brands), snake_case, amounts in
 * integer cents (`value_cents`). The spec shows paths only.
 */

/** Body of POST /v1/pix/qrcodes. */
export interface QrCodeRequest {
  value_cents: number;
  /** The payer's name and document (digits), when the charge has a customer. */
  generator_name?: string;
  generator_document?: string;
  /** Validity in seconds. */
  expiration_time: number;
  /** The caller's order id. */
  external_reference?: string;
}

/** A QR code: the answer of POST /v1/pix/qrcodes (inside `qrcode`) and of GET /v1/pix/qrcodes/{id}. */
export interface QrCode {
  reference_code?: string;
  external_reference?: string;
  /** The copy-and-paste BR Code. */
  content?: string;
  image_base64?: string | null;
  status?: string;
  value_cents?: number | string;
  payment_date?: string;
  expires_at?: string;
}

/** POST answers `{qrcode: {…}}`; integrations read GET both wrapped and bare. */
export interface QrCodeAnswer extends QrCode {
  qrcode?: QrCode;
}

export type PixKeyTypeName = 'cpf' | 'cnpj' | 'email' | 'phone' | 'token';

/** Body of POST /v1/pix/payments: a payout to a PIX key looked up in the DICT, authorised at once. */
export interface PaymentRequest {
  value_cents: number;
  initiation_type: 'dict';
  idempotent_id: string;
  pix_key_type: PixKeyTypeName;
  pix_key: string;
  authorized: true;
}

/** A payout: the answer of POST /v1/pix/payments (inside `payment`) and the pix_payment notification's message. */
export interface Payment {
  reference_code?: string;
  id?: string | number;
  status?: string;
  value_cents?: number | string;
  end_to_end?: string;
  cancellation_reason?: string;
}

export interface PaymentAnswer extends Payment {
  payment?: Payment;
}

export type NotificationType = 'pix_qrcode' | 'pix_payment';

/**
 * A delivery: `{notification_type, message{reference_code, value_cents,
 * status, end_to_end, …}, md5}`. The `md5` field is not read (see notifications.ts).
 */
export interface PrimePagNotification {
  notification_type?: NotificationType | string;
  message?: { reference_code?: string; value_cents?: number | string; status?: string; end_to_end?: string; payment_date?: string };
  md5?: string;
}
