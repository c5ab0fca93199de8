import type { ProviderAdapter } from '../adapter.js';
import type { RegistryKeys } from '../registry.js';
import type { AdapterRuntime, ProviderDeclaration } from './declaration.js';

/** What the catalogue hands every provider module when it builds the registry. */
export interface CatalogSettings {
  /** Where SANDBOX accounts without a base_url reach the fake PSP. */
  sandboxUrl: string;
  /** How long the SANDBOX adapter waits for the fake PSP (default 10 s). */
  sandboxTimeoutMs?: number;
  /** Run-time knobs for every adapter (tests). */
  runtime?: AdapterRuntime;
}

/**
 * A provider module's default export: how to build its adapter, and the id and aliases it is found by, known before
 * it is built (the catalogue builds an adapter the first time a call names it: registry.ts).
 */
export interface ProviderFactory {
  (settings: CatalogSettings): ProviderAdapter;
  readonly keys: RegistryKeys;
}

/** A factory of `build`, found by `keys`. */
export const providerFactory = (keys: RegistryKeys, build: (settings: CatalogSettings) => ProviderAdapter): ProviderFactory => Object.assign(build, { keys });

/**
 * Registering a family member is this one line, at the end of its own module
 * in server/providers/members/: `export default member(FamilyAdapter, DECLARATION);`.
 * The catalogue finds every module of that folder; no shared list is edited.
 */
export function member<D extends ProviderDeclaration>(
  Adapter: new (declaration: D, runtime: AdapterRuntime) => ProviderAdapter,
  declaration: D,
): ProviderFactory {
  return providerFactory(declaration.identity, (settings) => new Adapter(declaration, settings.runtime ?? {}));
}
