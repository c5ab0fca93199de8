import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProviderFactory, CatalogSettings } from './kit/registration.js';
import { ProviderRegistry } from './registry.js';

export type { CatalogSettings as CatalogConfig } from './kit/registration.js';

const MEMBERS = new URL('./members/', import.meta.url);

/** Every module of server/providers/members/ (one per provider, each registering itself by its default export). */
export function providerModuleNames(): string[] {
  return readdirSync(fileURLToPath(MEMBERS))
    .filter((name) => /\.(ts|js)$/.test(name) && !/\.d\.ts$/.test(name))
    .sort();
}

/** Every provider adapter the gateway knows, from the members folder. What each supports comes from its own declaration. */
export async function createRegistry(settings: CatalogSettings): Promise<ProviderRegistry> {
  const registry = new ProviderRegistry();
  for (const name of providerModuleNames()) {
    const module = (await import(new URL(name, MEMBERS).href)) as { default?: ProviderFactory };
    if (typeof module.default !== 'function') throw new Error(`server/providers/members/${name} has no default export building its adapter`);
    registry.register(module.default(settings));
  }
  return registry;
}
