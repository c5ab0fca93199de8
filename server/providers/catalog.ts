import type { ProviderAdapter } from './adapter.js';
import { ProviderRegistry } from './registry.js';
import { SandboxAdapter } from './sandbox/adapter.js';

export interface CatalogConfig {
  /** Where SANDBOX accounts without a base_url reach the fake PSP. */
  sandboxUrl: string;
}

/** Every provider adapter the gateway knows. What each supports comes from the adapters' own declarations. */
function adapters(config: CatalogConfig): ProviderAdapter[] {
  return [
    new SandboxAdapter(config.sandboxUrl),
    // (one line per adapter, above this comment)
  ];
}

export function createRegistry(config: CatalogConfig): ProviderRegistry {
  const registry = new ProviderRegistry();
  for (const adapter of adapters(config)) registry.register(adapter);
  return registry;
}
