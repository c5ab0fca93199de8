import type { ProviderAdapter } from './adapter.js';

/** The keys an adapter is found by, known before it is built: its upper-case id and its aliases. */
export interface RegistryKeys {
  id: string;
  aliases?: readonly string[];
}

interface Entry {
  readonly keys: RegistryKeys;
  /** The adapter this registry keeps once it is found. */
  readonly build: () => ProviderAdapter;
  /** An adapter to read what it declares, built for the read and not kept (a mapped registry's: the one it maps). */
  readonly peek: () => ProviderAdapter;
  adapter?: ProviderAdapter;
}

/**
 * Upper-case provider id (or alias) → adapter. An adapter registered by its keys and a builder is built the first
 * time it is found, then kept: a gateway builds the few its accounts use, not all 89 (each holds its declaration's
 * schemas and mappers, about 10 MB of heap for the whole catalogue: docs/decisions.md).
 */
export class ProviderRegistry {
  private readonly byKey = new Map<string, Entry>();
  private readonly entries: Entry[] = [];

  /** An adapter already built. */
  register(adapter: ProviderAdapter): this {
    return this.add({ keys: adapter.identity, build: () => adapter, peek: () => adapter, adapter });
  }

  /** An adapter built the first time it is found by one of `keys`; it must carry the same id and aliases. */
  registerLazily(keys: RegistryKeys, build: () => ProviderAdapter): this {
    return this.add({ keys, build, peek: build });
  }

  find(provider: string): ProviderAdapter | undefined {
    const entry = this.byKey.get(provider.trim().toUpperCase());
    return entry && this.built(entry);
  }

  /** Every adapter, built now where it was not (and kept). */
  list(): readonly ProviderAdapter[] {
    return this.entries.map((entry) => this.built(entry));
  }

  /**
   * `read` of what every adapter declares (its identity, capabilities, evidence), in the order they were registered.
   * One not built yet is built for the read and not kept, so a listing of the catalogue does not keep all 89 in memory.
   */
  survey<T>(read: (adapter: ProviderAdapter) => T): T[] {
    return this.entries.map((entry) => read(entry.adapter ?? checked(entry, entry.peek())));
  }

  /** A registry of the same keys whose adapters are `transform` of these, each built when first found there. */
  mapped(transform: (adapter: ProviderAdapter) => ProviderAdapter): ProviderRegistry {
    const result = new ProviderRegistry();
    for (const entry of this.entries) result.add({ keys: entry.keys, build: () => transform(this.built(entry)), peek: () => entry.adapter ?? entry.peek() });
    return result;
  }

  private add(entry: Entry): this {
    const keys = upperCased(entry.keys);
    for (const key of keys) {
      if (this.byKey.has(key)) throw new Error(`provider ${key} is registered twice`);
    }
    for (const key of keys) this.byKey.set(key, entry);
    this.entries.push(entry);
    return this;
  }

  private built(entry: Entry): ProviderAdapter {
    return (entry.adapter ??= checked(entry, entry.build()));
  }
}

/** The id, then the aliases, upper-cased: how the registry finds an adapter. */
const upperCased = ({ id, aliases = [] }: RegistryKeys): string[] => [id, ...aliases].map((key) => key.toUpperCase());

/** A built adapter whose identity differs from the keys it was registered by would be found under another's name. */
function checked(entry: Entry, adapter: ProviderAdapter): ProviderAdapter {
  const registered = upperCased(entry.keys);
  const built = upperCased(adapter.identity);
  if (built.join() !== registered.join())
    throw new Error(`provider ${registered[0]} was registered as ${registered.join(', ')} but built as ${built.join(', ')}`);
  return adapter;
}
