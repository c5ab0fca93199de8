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
  const modules = (await Promise.all(names.map((name) => import(new URL(name, MEMBERS).href)))) as { default?: unknown }[];
  return modules.map((module, index) => {
    if (!isFactory(module.default))
      throw new Error(`server/providers/members/${names[index]} has no default export building its adapter (kit/registration.ts)`);
    return module.default;
  });
}

const isFactory = (value: unknown): value is ProviderFactory => typeof value === 'function' && typeof (value as Partial<ProviderFactory>).keys?.id === 'string';

/**
 * Every provider adapter the gateway knows, from the members folder, each built the first time it is found. What each
 * supports comes from its own declaration.
 */
export async function createRegistry(settings: CatalogSettings, factories?: readonly ProviderFactory[]): Promise<ProviderRegistry> {
  const registry = new ProviderRegistry();
  for (const factory of factories ?? (await providerFactories())) registry.registerLazily(factory.keys, () => factory(settings));
  return registry;
}
