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

/**
 * Every member module's factory, in the order of their names. The modules load at once rather than one after another
 * (a start loads them while its database starts: server/app.ts); a module without a factory fails the load.
 */
export async function providerFactories(): Promise<ProviderFactory[]> {
  const names = providerModuleNames();
  const modules = (await Promise.all(names.map((name) => import(new URL(name, MEMBERS).href)))) as { default?: ProviderFactory }[];
  return modules.map((module, index) => {
    if (typeof module.default !== 'function') throw new Error(`server/providers/members/${names[index]} has no default export building its adapter`);
    return module.default;
  });
}

/** Every provider adapter the gateway knows, from the members folder. What each supports comes from its own declaration. */
export async function createRegistry(settings: CatalogSettings, factories?: readonly ProviderFactory[]): Promise<ProviderRegistry> {
  const registry = new ProviderRegistry();
  for (const factory of factories ?? (await providerFactories())) registry.register(factory(settings));
  return registry;
}
