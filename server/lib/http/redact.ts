import { passesLuhn } from '../luhn.js';

export const REDACTED = '[redacted]';

/**
 * Key fragments that always mark a secret (compared without case, '-' or '_'); 'withdrawkey': the F1 platforms'
 * x-withdraw-key (PodPay2); 'webhookcode': Pluggou's X-Webhook-Code, the account's code its webhooks carry as they are.
 */
const SECRET_FRAGMENTS = [
  'secret',
  'password',
  'passphrase',
  'token',
  'apikey',
  'authorization',
  'privatekey',
  'cookie',
  'cvv',
  'cvc',
  // Asaas's name for the security code (`creditCard.ccv`).
  'ccv',
  'withdrawkey',
  'webhookcode',
];
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
/** A card-number-shaped run: 13–19 digits, optionally grouped by single spaces or dashes, not part of a longer number. */
const PAN_IN_TEXT = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;
/**
 * A UUID (the gateway's own ids, many providers' ids). Its digits can line up into a Luhn-valid run across the dashes
 * ('fc127613-0833-457c-…' holds 1276130833457), yet it is never a card number, so it is left whole.
 */
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Luhn-valid card-number-shaped runs replaced, outside UUIDs. */
const redactCardNumbers = (text: string): string => {
  const hide = (part: string): string => part.replace(PAN_IN_TEXT, (run) => (passesLuhn(run.replace(/[ -]/g, '')) ? REDACTED : run));
  let shown = '';
  let from = 0;
  for (const uuid of text.matchAll(UUID_IN_TEXT)) {
    shown += hide(text.slice(from, uuid.index)) + uuid[0];
    from = uuid.index + uuid[0].length;
  }
  return shown + hide(text.slice(from));
};
/**
 * A card security code given as a key and value inside text: `"cvv":"123"`,
 * `cvv=123`, `card[security_code]=123`, `cvc: 123`, `"ccv":"123"`. The key may carry a prefix
 * (card_cvv, cardCvv); the value runs to the next quote, separator or space.
 * A value already redacted is left alone, so that text redacted twice (by the
 * provider reader, then on its way out) reads the same.
 */
const CARD_CODE_IN_TEXT =
  /((?:cvv|cvc|ccv|security[_-]?code|c[oó]digo[_-]?(?:de[_-]?)?seguran[cç]a)\w*\]?["']?\s*[:=]\s*)(["']?)(?!\[redacted\])([^"'&,;\s}\]<>()]+)/giu;
/**
 * The words that name a card security code in free text, in any case and with or without accents (also decomposed,
 * a letter followed by its combining mark): cvv, cvc, cvv2, cvc2, 'código de segurança', 'security code', and the
 * same as a key (card.cvv, card_cvv, cardCvc, securityCode).
 */
const CARD_CODE_WORD = String.raw`(?:cv[vc]2??[a-z_]*|security[\s_-]*code|c[oóòôõö]\p{M}*digo[\s_-]*(?:de[\s_-]*)?seguran(?:[cç]|c\p{M})a)`;
/** What may stand between such a word and its digits: spaces, ':', '=', '#', quotes, brackets. */
const CARD_CODE_GAP = String.raw`[\s:=#"'\x60()[\]]*`;
/** The end of a 3–4 digit run that is a number of its own, not the start of a longer one or of an amount, a time or a date ("123,45", "2030/12"). */
const CODE_END = String.raw`(?!\d|[.,/:-]\d)`;
/** The start of such a run: not the end of a longer number, nor the last group of one written with separators ("1.234", "12/2030", "4111 1111"). */
const CODE_START = String.raw`(?<!\d|\d[ .,/:-])`;
/**
 * A security code next to its word: after it ("CVV 9731 inválido", "security code: 123", "cvv2 123") or before it
 * ("123 (CVV)"). A 4-digit run right after 'cvv' ("cvv2123") is taken whole: 'cvv' then the code.
 */
const CARD_CODE_NEXT_TO_WORD = new RegExp(
  String.raw`(${CARD_CODE_WORD}${CARD_CODE_GAP})\d{3,4}${CODE_END}|${CODE_START}\d{3,4}${CODE_END}(?=${CARD_CODE_GAP}${CARD_CODE_WORD})`,
  'giu',
);
const MAX_DEPTH = 20;

/** A key compared without case, accents or punctuation ('código_segurança' is 'codigoseguranca'). */
const normalise = (key: string): string =>
  key
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/**
 * A copy of a value that is safe to log: secrets, credentials in headers
 * (Authorization, API-key headers, cookies), OAuth tokens and card data
 * (number, CVV) are replaced by '[redacted]' wherever they appear — in nested
 * objects and arrays, in form-encoded strings and URL queries, in JSON text,
 * and inside any free text: 'Bearer …'/'Basic …', JSON embedded in a sentence,
 * `cvv=…`/`"cvc":"…"` pairs, and card-number-shaped digit runs that pass the
 * Luhn check (so order numbers stay readable). `sensitiveKeys` adds keys
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
      const shown = isSensitive(key, child) ? REDACTED : redactFreeText(child);
      touched ||= shown !== child;
      copy.append(key, shown);
    });
    return touched || original === undefined ? copy.toString() : original;
  };

  /** Free text: an embedded JSON object walked like any other, then credentials, card codes and Luhn-valid card numbers. */
  const redactFreeText = (text: string): string => {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start >= 0 && end > start && (start > 0 || end < text.length - 1)) {
      try {
        const embedded = JSON.stringify(walk(JSON.parse(text.slice(start, end + 1)), 0));
        return redactFreeText(text.slice(0, start)) + embedded + redactFreeText(text.slice(end + 1));
      } catch {
        // Braces that are not JSON: scanned as text below.
      }
    }
    return (
      redactCardNumbers(
        text.replace(CREDENTIALS_IN_TEXT, `$1 ${REDACTED}`).replace(CARD_CODE_IN_TEXT, (_match, key: string, quote: string) => `${key}${quote}${REDACTED}`),
      )
        // After card numbers: a code taken first would cut a grouped card number's last group off, leaving a run too short to recognise.
        .replace(CARD_CODE_NEXT_TO_WORD, (_match, before: string | undefined) => (before === undefined ? REDACTED : `${before}${REDACTED}`))
    );
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
    if (url) return `${url[1]}?${redactParams(new URLSearchParams(url[2]), url[2])}${redactFreeText(text.slice(url[0].length))}`;
    if (FORM.test(text)) return redactParams(new URLSearchParams(text), text);
    return redactFreeText(text);
  };

  function walk(node: unknown, depth: number): unknown {
    if (typeof node === 'string') return redactText(node);
    if (node === null || typeof node !== 'object') return node;
    if (Buffer.isBuffer(node) || node instanceof ArrayBuffer || ArrayBuffer.isView(node)) return `[binary ${(node as ArrayBuffer).byteLength} bytes]`;
    if (node instanceof URLSearchParams) return redactParams(node);
    if (node instanceof Date) return node.toISOString();
    if (depth >= MAX_DEPTH) return '[too deep]';
    // message and stack are not enumerable: shown the way pino's error serializer shows them, then redacted like the rest.
    if (node instanceof Error && typeof (node as { toJSON?: unknown }).toJSON !== 'function') {
      return walk({ ...node, type: node.name, message: node.message, stack: node.stack }, depth + 1);
    }
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

/** Text safe to show a caller or write to a log: a provider's echoed request loses its card data and credentials. */
export function redactText(text: string): string {
  return redactForLog(text) as string;
}

/** Header-name fragments (compared without case, '-' or '_') of credentials a sender may attach to a request. */
const CREDENTIAL_HEADER_FRAGMENTS = [
  'authorization',
  'cookie',
  'apikey',
  'apitoken',
  'accesstoken',
  'authtoken',
  'secret',
  'password',
  'withdrawkey',
  'webhookcode',
];

/**
 * The headers without credentials (Authorization, cookies, API-key and token
 * headers): what may be stored of a request. Signature headers stay, since
 * they prove nothing without the secret and are needed to verify again.
 */
export function withoutCredentialHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADER_FRAGMENTS.some((fragment) => normalise(name).includes(fragment))));
}

/** Query-parameter name fragments of credentials some senders put in a URL (`?token=…`), on top of the header ones. */
const CREDENTIAL_PARAM_FRAGMENTS = [...CREDENTIAL_HEADER_FRAGMENTS, 'token', 'key', 'auth', 'pass', 'sig'];

/**
 * A URL's query parameters (the first value of each name) without the credential-like ones: what may be stored of a
 * notification's address. Nothing the gateway verifies comes from the query, so dropping a signature there loses nothing.
 */
export function withoutCredentialParams(query: URLSearchParams): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of query) {
    if (name in kept || CREDENTIAL_PARAM_FRAGMENTS.some((fragment) => normalise(name).includes(fragment))) continue;
    kept[name] = value;
  }
  return kept;
}
