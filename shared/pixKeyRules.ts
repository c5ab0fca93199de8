import { getPixKeyInfo } from '@brazilian-utils/brazilian-utils/get-pix-key-info';

/**
 * What a PIX key is and whether it is well formed: one pure module, shared by
 * the gateway (server/lib/pixKey.ts re-exports the inference) and the
 * back-office's payout form. It lives in shared/, the one folder both sides may
 * import, and must stay free of Node and of the rest of our code so that the
 * browser bundle can take it.
 */

export type PixKeyType = 'CPF' | 'CNPJ' | 'PHONE' | 'EMAIL' | 'RANDOM';

/** Digits plus the punctuation of the usual CPF, CNPJ and phone masks. */
const NUMERIC_KEY = /^[\d\s.\-/()+]+$/;

/** How the DICT writes a phone key (E.164, Brazil). */
const BRAZIL_E164_PREFIX = '+55';

/**
 * Veltrax's inference (doc 3 §5), in the spec's order: contains @ → EMAIL;
 * 11 digits → CPF (so an 11-digit mobile reads as CPF, as the spec orders it);
 * 14 → CNPJ; 10–11 → PHONE; else RANDOM.
 * Digits are counted only when the key is written as a number, so a UUID whose
 * hex happens to hold 11 digits is still RANDOM. A '+55' key of 12–13 digits is
 * a phone in E.164, the form the DICT registers phones in.
 */
export function inferPixKeyType(key: string): PixKeyType {
  const text = key.trim();
  if (text.includes('@')) return 'EMAIL';
  if (!NUMERIC_KEY.test(text)) return 'RANDOM';
  const digits = text.replace(/\D/g, '');
  if (digits.length === 11) return 'CPF';
  if (digits.length === 14) return 'CNPJ';
  // The spec's 10–11 range; 11 never gets here, CPF took it above.
  if (digits.length === 10 || digits.length === 11) return 'PHONE';
  if (text.startsWith(BRAZIL_E164_PREFIX) && (digits.length === 12 || digits.length === 13)) return 'PHONE';
  return 'RANDOM';
}

/** brazilian-utils' name for each of our types; a RANDOM key is the DICT's EVP. */
const DICT_KIND = { CPF: 'cpf', CNPJ: 'cnpj', PHONE: 'phone', EMAIL: 'email', RANDOM: 'evp' } as const satisfies Record<PixKeyType, string>;

/**
 * Whether `key` is a well-formed key of `type` (by default the type inferred
 * above) in the DICT's formats, as @brazilian-utils/brazilian-utils reads them:
 * a CPF or CNPJ with valid check digits, an e-mail address, a Brazilian mobile
 * number (with its DDD; '+55' optional), or a random key (EVP: a UUID).
 * A key the library reads as another type is not valid as this one, so a bare
 * 11-digit mobile number, inferred CPF, is refused unless its digits happen to
 * be a valid CPF: written with '+55' it is a phone.
 */
export function isValidPixKey(key: string, type: PixKeyType = inferPixKeyType(key)): boolean {
  return getPixKeyInfo(key.trim())?.type === DICT_KIND[type];
}
