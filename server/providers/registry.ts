import type { ProviderAdapter } from './adapter.js';

/** Upper-case provider id (or alias) → adapter. */
export class ProviderRegistry {
  private readonly byKey = new Map<string, ProviderAdapter>();
  private readonly adapters: ProviderAdapter[] = [];

  register(adapter: ProviderAdapter): this {
    const keys = [adapter.identity.id, ...adapter.identity.aliases].map((key) => key.toUpperCase());
    for (const key of keys) {
      if (this.byKey.has(key)) throw new Error(`provider ${key} is registered twice`);
    }
    for (const key of keys) this.byKey.set(key, adapter);
    this.adapters.push(adapter);
    return this;
  }

  find(provider: string): ProviderAdapter | undefined {
    return this.byKey.get(provider.trim().toUpperCase());
  }

  list(): readonly ProviderAdapter[] {
    return this.adapters;
  }
}
