import { digitsOnly } from '../lib/documents.js';

/**
 * How a customer's document and e-mail are kept for the back-office's search,
 * and how a search text is read to match them: the same functions on both
 * sides, so a charge is found by what the caller sent, however it was typed.
 */

/** A CPF or CNPJ as its digits ("123.456.789-09" and "12345678909" are one document). */
export const documentKey = (document: string | undefined): string | undefined => (document ? digitsOnly(document) || undefined : undefined);

/** E-mails compare without regard to case. */
export const emailKey = (email: string | undefined): string | undefined => email?.trim().toLowerCase() || undefined;

/** A search text is taken as a document only when it is digits and a document's punctuation: "A-123" is an order id, not the document 123. */
export const searchedDocument = (text: string): string | undefined => (/^[\d.\-/\s]+$/.test(text) ? documentKey(text) : undefined);

/** A search text is taken as an e-mail only when it has an @. */
export const searchedEmail = (text: string): string | undefined => (text.includes('@') ? emailKey(text) : undefined);
