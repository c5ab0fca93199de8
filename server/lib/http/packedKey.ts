import { GatewayError } from '../errors.js';

export interface PackedKeyOptions {
  separator?: string;
  /** Message when the key is empty; the specification's 'Credenciais não configuradas' by default. */
  missingMessage?: string;
  /** Message when the part count is wrong; 'Formato de credenciais inválido. Use: a|b|c' by default. */
  formatMessage?: string;
}

/**
 * Splits a key that packs several values with '|' (e.g. 'apiKey|secret|accountId')
 * into named parts. A wrong count or an empty part is a configuration error of
 * the account, so FAILED_PRECONDITION with a message that shows the expected shape.
 */
export function splitPackedKey<const Names extends readonly string[]>(
  value: string | undefined,
  names: Names,
  { separator = '|', missingMessage = 'Credenciais não configuradas', formatMessage }: PackedKeyOptions = {},
): Record<Names[number], string> {
  if (!value || !value.trim()) throw new GatewayError('FAILED_PRECONDITION', missingMessage, { reason: 'CREDENTIALS_MISSING' });
  const parts = value.split(separator).map((part) => part.trim());
  if (parts.length !== names.length || parts.some((part) => !part)) {
    throw new GatewayError('FAILED_PRECONDITION', formatMessage ?? `Formato de credenciais inválido. Use: ${names.join(separator)}`, {
      reason: 'CREDENTIALS_FORMAT',
    });
  }
  return Object.fromEntries(names.map((name, index) => [name, parts[index]])) as Record<Names[number], string>;
}
