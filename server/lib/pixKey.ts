import { digitsOnly } from './documents.js';
import { COUNTRY_CODE } from './phone.js';
import type { PixKeyType } from '../../shared/pixKeyRules.js';

// The inference lives in a pure module that the back-office's payout form imports too.
export { inferPixKeyType, type PixKeyType } from '../../shared/pixKeyRules.js';

/**
 * PIX key normalisation (spec doc 1 §5, doc 3 §5). An adapter declares its
 * provider's style once and passes it to both normalizePixKey and
 * pixKeyTypeName, so the key and its type name never disagree.
 */
export interface PixKeyStyle {
  /**
   * How a PHONE key is prefixed; omitted means digits only (Royalpay and most).
   * - '+55': Podpay and Onz, always '+55' before the digits.
   * - 'lexxen': digits, '+55' added unless they already start with 55.
   */
  phonePrefix?: '+55' | 'lexxen';
  /**
   * How RANDOM is named; omitted means 'RANDOM'.
   * - 'EVP': Bravive, Lexxen, Rapdyn (other names unchanged).
   * - 'evp': PaySharkGateway, whose names are all lower case.
   */
  randomAs?: 'EVP' | 'evp';
}

const E164_PREFIX = `+${COUNTRY_CODE}`;

function prefixPhone(digits: string, prefix: PixKeyStyle['phonePrefix']): string {
  if (prefix === '+55') return `${E164_PREFIX}${digits}`;
  if (prefix === 'lexxen') {
    // The spec's rule is "unless already starting with 55"; the '+' is still
    // added so the key is E.164 either way (the '+' was stripped with the mask).
    return digits.startsWith(COUNTRY_CODE) ? `+${digits}` : `${E164_PREFIX}${digits}`;
  }
  return digits;
}

/** CPF, CNPJ and PHONE lose their mask; EMAIL and RANDOM are sent exactly as given. */
export function normalizePixKey(key: string, type: PixKeyType, style: PixKeyStyle = {}): string {
  switch (type) {
    case 'CPF':
    case 'CNPJ':
      return digitsOnly(key);
    case 'PHONE':
      return prefixPhone(digitsOnly(key), style.phonePrefix);
    case 'EMAIL':
    case 'RANDOM':
      return key;
  }
}

/** The type name the provider expects for our PixKeyType. */
export function pixKeyTypeName(type: PixKeyType, style: Pick<PixKeyStyle, 'randomAs'> = {}): string {
  if (style.randomAs === 'evp') return type === 'RANDOM' ? 'evp' : type.toLowerCase();
  if (style.randomAs === 'EVP' && type === 'RANDOM') return 'EVP';
  return type;
}

/** Key and type name together, the pair most withdraw bodies carry. */
export function providerPixKey(key: string, type: PixKeyType, style: PixKeyStyle = {}): { key: string; type: string } {
  return { key: normalizePixKey(key, type, style), type: pixKeyTypeName(type, style) };
}
