import { randomBytes } from 'node:crypto';
import type { SandboxPixPayment } from './api.js';

/** The sandbox's bank as PIX names it: an ISPB no real participant has, and its name. */
export const SANDBOX_ISPB = '99999999';
export const SANDBOX_BANK_NAME = 'Banco Sandbox';

/** Whoever pays a charge asked without a customer. */
const SOMEONE = { name: 'Pagador Sandbox', document: '52998224725' };

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * An end-to-end id as the Banco Central forms it (Manual de Padrões para Iniciação do Pix): "E", the payer's bank's
 * ISPB, the date and time in UTC as yyyyMMddHHmm, and 11 alphanumerics; 32 characters.
 */
export function sandboxEndToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/\D/g, '').slice(0, 12);
  const tail = Array.from(randomBytes(11), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');
  return `E${SANDBOX_ISPB}${stamp}${tail}`;
}

/** A PIX charge paid: the payment's end-to-end id, and its payer (the charge's customer, as PSPs see a customer pay their own charge). */
export function sandboxPixPayment(at: Date, customer: { name?: string; document?: string } | undefined): SandboxPixPayment {
  const name = customer?.name?.trim();
  const document = customer?.document?.replace(/\D/g, '');
  return {
    endToEndId: sandboxEndToEndId(at),
    payer: { ...(name && document ? { name, document } : SOMEONE), bankIspb: SANDBOX_ISPB, bankName: SANDBOX_BANK_NAME },
  };
}
