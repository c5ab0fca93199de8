/**
 * What the HTTP toolkit needs to know about a provider account. The adapters'
 * AdapterContext satisfies it as is; the toolkit cannot import the providers' layer.
 */
export interface HttpAccount {
  accountId: string;
  publicKey: string;
  secretKey: string;
  /** The account's base_url, or the provider's default address (resolved by the gateway). */
  baseUrl: string;
  certCashInUrl?: string;
  certCashOutUrl?: string;
  /**
   * Where a certificate URL is read from: a presigned GET for a certificate kept private in the gateway's own store
   * (its plain address answers 403), the URL itself for any other. Unset: the URL itself.
   */
  certificateReadUrl?: (url: string) => Promise<string>;
}

/** Which stored key a credential is, or how to derive it (e.g. one part of a packed key). */
export type KeyRef = 'publicKey' | 'secretKey' | ((account: HttpAccount) => string);

export const resolveKey = (ref: KeyRef, account: HttpAccount): string => (typeof ref === 'function' ? ref(account) : account[ref]) ?? '';
