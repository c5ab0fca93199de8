export const REDACTED = '[redacted]';

/** Key fragments that always mark a secret (compared without case, '-' or '_'). */
const SECRET_FRAGMENTS = ['secret', 'password', 'passphrase', 'token', 'apikey', 'authorization', 'privatekey', 'cookie', 'cvv', 'cvc'];
/** Whole keys that mark card data. */
const CARD_KEYS = new Set(['pan', 'cardnumber', 'creditcardnumber', 'numerocartao', 'securitycode', 'codigoseguranca']);
/** Keys that hold a card number only when the value looks like one (a street number does not). */
const MAYBE_CARD_KEYS = new Set(['number', 'numero']);
const CARD_NUMBER = /^\d{12,19}$/;
/** Keys that contain a secret fragment but hold none. */
const HARMLESS_KEYS = new Set(['tokentype']);

const FORM = /^[\w.[\]-]+=[^\s&]*(?:&[\w.[\]-]+=[^\s&]*)*$/;
const URL_WITH_QUERY = /^(https?:\/\/[^\s?#]*)\?([^\s#]*)/i;
const CREDENTIALS_IN_TEXT = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const MAX_DEPTH = 20;

const normalise = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * A copy of a value that is safe to log: secrets, credentials in headers
 * (Authorization, API-key headers, cookies), OAuth tokens and card data
 * (number, CVV) are replaced by '[redacted]' wherever they appear — in nested
 * objects and arrays, in form-encoded strings and URL queries, in JSON text,
 * and as 'Bearer …'/'Basic …' inside any text. `sensitiveKeys` adds keys
 * (e.g. a provider's own API-key header name).
 */
export function redactForLog(value: unknown, sensitiveKeys: readonly string[] = []): unknown {
  const extra = new Set(sensitiveKeys.map(normalise));
  const isSensitive = (key: string, child: unknown): boolean => {
    const name = normalise(key);
    if (HARMLESS_KEYS.has(name)) return false;
    if (extra.has(name) || CARD_KEYS.has(name) || SECRET_FRAGMENTS.some((fragment) => name.includes(fragment))) return true;
    return MAYBE_CARD_KEYS.has(name) && (typeof child === 'string' || typeof child === 'number') && CARD_NUMBER.test(String(child).replace(/[\s.-]/g, ''));
  };
  const ancestors = new WeakSet<object>();

  /** The parameters with sensitive values replaced; the original text when none is sensitive. */
  const redactParams = (params: URLSearchParams, original?: string): string => {
    let touched = false;
    const copy = new URLSearchParams();
    params.forEach((child, key) => {
      const hide = isSensitive(key, child);
      touched ||= hide;
      copy.append(key, hide ? REDACTED : child);
    });
    return touched || original === undefined ? copy.toString() : original;
  };

  const redactText = (text: string): string => {
    const trimmed = text.trim();
    if ((trimmed.startsWith('{') && trimmed.endsWith('}')) || (trimmed.startsWith('[') && trimmed.endsWith(']'))) {
      try {
        return JSON.stringify(walk(JSON.parse(trimmed), 0));
      } catch {
        // Not JSON after all: treated as plain text below.
      }
    }
    const url = URL_WITH_QUERY.exec(text);
    if (url) return `${url[1]}?${redactParams(new URLSearchParams(url[2]), url[2])}${text.slice(url[0].length)}`;
    if (FORM.test(text)) return redactParams(new URLSearchParams(text), text);
    return text.replace(CREDENTIALS_IN_TEXT, `$1 ${REDACTED}`);
  };

  function walk(node: unknown, depth: number): unknown {
    if (typeof node === 'string') return redactText(node);
    if (node === null || typeof node !== 'object') return node;
    if (Buffer.isBuffer(node) || node instanceof ArrayBuffer || ArrayBuffer.isView(node)) return `[binary ${(node as ArrayBuffer).byteLength} bytes]`;
    if (node instanceof URLSearchParams) return redactParams(node);
    if (node instanceof Date) return node.toISOString();
    if (depth >= MAX_DEPTH) return '[too deep]';
    const plain = typeof (node as { toJSON?: unknown }).toJSON === 'function' ? (node as { toJSON(): unknown }).toJSON() : node;
    if (plain !== node) return walk(plain, depth + 1);
    if (ancestors.has(node)) return '[circular]';
    ancestors.add(node);
    let copy: unknown;
    if (Array.isArray(node)) copy = node.map((item) => walk(item, depth + 1));
    else copy = Object.fromEntries(Object.entries(node).map(([key, child]) => [key, isSensitive(key, child) ? REDACTED : walk(child, depth + 1)]));
    ancestors.delete(node);
    return copy;
  }

  return walk(value, 0);
}
