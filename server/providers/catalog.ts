import type { ProviderAdapter } from './adapter.js';
import { ProviderRegistry } from './registry.js';
import { SandboxAdapter } from './sandbox/adapter.js';
import { VolutiAdapter } from './voluti.js';
import { PagarmeBaasAdapter } from './pagarmebaas.js';
import { PaguesafeAdapter } from './paguesafe.js';

export interface CatalogConfig {
  /** Where SANDBOX accounts without a base_url reach the fake PSP. */
  sandboxUrl: string;
  /** How long the SANDBOX adapter waits for the fake PSP (default 10 s). */
  sandboxTimeoutMs?: number;
}

/** Every provider adapter the gateway knows. What each supports comes from the adapters' own declarations. */
function adapters(config: CatalogConfig): ProviderAdapter[] {
  return [
    new SandboxAdapter(config.sandboxUrl, { timeoutMs: config.sandboxTimeoutMs }),
    new PaguesafeAdapter(),
    new PagarmeBaasAdapter(),
    new VolutiAdapter(),
    // (one line per adapter, above this comment)
  ];
}

export function createRegistry(config: CatalogConfig): ProviderRegistry {
  const registry = new ProviderRegistry();
  for (const adapter of adapters(config)) registry.register(adapter);
  return registry;
}
