import { GatewayError } from '../../lib/errors.js';
import type { HttpAccount, KeyRef } from '../../lib/http/index.js';
import { CATALOGUE, type CatalogueKey } from '../../lib/providerMessages.js';

/**
 * How a provider packs its credentials into an account's two keys. Each key
 * lists the names of its '|'-separated parts; a name ending in '?' is an
 * optional part (it may be left out, with its '|'). A key not listed is used
 * whole, under its own name. Examples:
 *   { publicKey: ['clientId', 'chave?'], secretKey: ['clientSecret', 'certificatePassphrase?'] }   (BACEN API Pix)
 *   { secretKey: ['apiKey', 'secret', 'accountId'], missing: 'OWEMPAY_CREDENTIALS_MISSING', format: 'OWEMPAY_CREDENTIALS_FORMAT' }
 */
export interface CredentialLayout {
  readonly publicKey?: readonly string[];
  readonly secretKey?: readonly string[];
  /** Which keys must be present (default: the keys whose layout has a required part). */
  readonly required?: ReadonlyArray<'publicKey' | 'secretKey'>;
  /** The catalogue's text for a key that is empty, where the spec gives one. */
  readonly missing?: CatalogueKey;
  /** The catalogue's text for a key of the wrong shape, where the spec gives one. */
  readonly format?: CatalogueKey;
}

type PartName<S extends string> = S extends `${infer Name}?` ? Name : S;
type Parts<L> = L extends readonly string[] ? { [K in L[number] as PartName<K>]: K extends `${string}?` ? string | undefined : string } : Record<never, never>;

/** The parsed value: the two keys as stored, and every named part. */
export type Credentials<C extends CredentialLayout = CredentialLayout> = { publicKey: string; secretKey: string } & Parts<C['publicKey']> &
  Parts<C['secretKey']>;

const isOptional = (name: string): boolean => name.endsWith('?');
const bare = (name: string): string => (isOptional(name) ? name.slice(0, -1) : name);

/** The account's key at fault is the error's field ('public_key', 'secret_key', as the contract spells them). */
const FIELD = { publicKey: 'public_key', secretKey: 'secret_key' } as const;

function configurationError(
  reason: 'CREDENTIALS_MISSING' | 'CREDENTIALS_FORMAT',
  key: CatalogueKey | undefined,
  fallback: string,
  field: keyof typeof FIELD,
): GatewayError {
  return new GatewayError('FAILED_PRECONDITION', key ? CATALOGUE[key].message : fallback, { reason, field: FIELD[field] });
}

function splitKey(field: keyof typeof FIELD, value: string, names: readonly string[], layout: CredentialLayout): Record<string, string | undefined> {
  const parts = value.split('|').map((part) => part.trim());
  const shape = names.map(bare).join('|');
  if (parts.length > names.length) throw configurationError('CREDENTIALS_FORMAT', layout.format, `Formato de credenciais inválido. Use: ${shape}`, field);
  const parsed: Record<string, string | undefined> = {};
  names.forEach((name, index) => {
    const part = parts[index] || undefined;
    if (!part && !isOptional(name)) throw configurationError('CREDENTIALS_FORMAT', layout.format, `Formato de credenciais inválido. Use: ${shape}`, field);
    parsed[bare(name)] = part;
  });
  return parsed;
}

/** The keys a layout makes required: those named in `required`, else those with a required part. */
const requiredKeys = (layout: CredentialLayout): ReadonlyArray<'publicKey' | 'secretKey'> =>
  layout.required ?? (['publicKey', 'secretKey'] as const).filter((field) => layout[field]?.some((name) => !isOptional(name)));

/** One of an account's two keys as a provider declares it: whether it is needed, and the named parts packed in it. */
export interface CredentialKey {
  readonly field: 'publicKey' | 'secretKey';
  readonly required: boolean;
  /** In order, '|'-separated in the key; empty: the key is one value. */
  readonly parts: ReadonlyArray<{ readonly name: string; readonly optional: boolean }>;
}

/** Both keys as the layout declares them, for a form that asks for each part by the provider's name. */
export const credentialKeysOf = (layout: CredentialLayout): CredentialKey[] =>
  (['publicKey', 'secretKey'] as const).map((field) => ({
    field,
    required: requiredKeys(layout).includes(field),
    parts: (layout[field] ?? []).map((name) => ({ name: bare(name), optional: isOptional(name) })),
  }));

/**
 * The account's keys as the provider's typed credentials, checked once: an
 * empty required key or a key of the wrong shape is the account's
 * configuration at fault (FAILED_PRECONDITION), found before anything is sent.
 */
export function parseCredentials<C extends CredentialLayout>(layout: C, account: Pick<HttpAccount, 'publicKey' | 'secretKey'>): Credentials<C> {
  const publicKey = (account.publicKey ?? '').trim();
  const secretKey = (account.secretKey ?? '').trim();
  for (const field of requiredKeys(layout)) {
    const value = field === 'publicKey' ? publicKey : secretKey;
    if (!value) throw configurationError('CREDENTIALS_MISSING', layout.missing, `${field} is required`, field);
  }
  const parsed: Record<string, string | undefined> = { publicKey, secretKey };
  for (const field of ['publicKey', 'secretKey'] as const) {
    const names = layout[field];
    const value = field === 'publicKey' ? publicKey : secretKey;
    if (names && value) Object.assign(parsed, splitKey(field, value, names, layout));
  }
  return parsed as Credentials<C>;
}

/** One part of the parsed credentials, as the HTTP toolkit's key reference (for an AuthStyle). */
export const credentialPart =
  <C extends CredentialLayout>(layout: C, name: keyof Credentials<C> & string): KeyRef =>
  (account) =>
    String((parseCredentials(layout, account) as Record<string, string | undefined>)[name] ?? '');
