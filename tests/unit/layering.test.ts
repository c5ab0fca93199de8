import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { expect, it } from '@jest/globals';

/**
 * DESIGN §2: arrows only point down the layer table. Each layer lists the
 * folders (of the repository) it may import from, and the packages it must not.
 * app.ts and main.ts assemble everything and are exempt.
 */
type Layer = 'lib' | 'domain' | 'providers' | 'db' | 'gateway' | 'transports' | 'fakePsp' | 'config' | 'observability';

const LAYER_OF: [prefix: string, layer: Layer][] = [
  ['server/lib/', 'lib'],
  ['server/domain/', 'domain'],
  ['server/providers/', 'providers'],
  ['server/db/', 'db'],
  ['server/gateway/', 'gateway'],
  ['server/transport/', 'transports'],
  ['server/webhooks/', 'transports'],
  ['server/sandbox/', 'fakePsp'],
  ['server/config.ts', 'config'],
  ['server/observability/', 'observability'],
];

interface Rule {
  mayImport: string[];
  forbiddenPackages: RegExp[];
}

const HTTP_AND_RPC = /^(@grpc\/|@connectrpc\/|@bufbuild\/|node:http$|node:http2$)/;
const ORM = /^@mikro-orm\//;

const RULES: Record<Layer, Rule> = {
  lib: { mayImport: ['server/lib/'], forbiddenPackages: [ORM] },
  domain: { mayImport: ['server/domain/', 'server/lib/'], forbiddenPackages: [ORM, HTTP_AND_RPC] },
  // The sandbox adapter speaks the fake PSP's wire format, which lives with the PSP.
  providers: { mayImport: ['server/providers/', 'server/domain/', 'server/lib/', 'server/sandbox/api.ts'], forbiddenPackages: [ORM] },
  db: { mayImport: ['server/db/', 'server/domain/', 'server/lib/'], forbiddenPackages: [HTTP_AND_RPC] },
  // The use cases reach providers through the contract and the registry only, never an adapter's internals.
  gateway: {
    mayImport: ['server/gateway/', 'server/db/', 'server/domain/', 'server/lib/', 'server/providers/adapter.ts', 'server/providers/registry.ts'],
    forbiddenPackages: [ORM, HTTP_AND_RPC],
  },
  transports: { mayImport: ['server/transport/', 'server/webhooks/', 'server/gateway/', 'server/domain/', 'server/lib/', 'gen/'], forbiddenPackages: [ORM] },
  // The fake PSP stands for an outside company: it shares only the toolkit.
  fakePsp: { mayImport: ['server/sandbox/', 'server/lib/'], forbiddenPackages: [ORM] },
  config: { mayImport: ['server/domain/', 'server/lib/'], forbiddenPackages: [] },
  // The metrics are told what happens through the observers each layer declares; they import none of those layers.
  observability: { mayImport: ['server/observability/', 'server/lib/', 'server/domain/'], forbiddenPackages: [ORM, /^(@grpc\/|@connectrpc\/|@bufbuild\/)/] },
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

function specifiers(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

const layerOf = (file: string): Layer | undefined => LAYER_OF.find(([prefix]) => file === prefix || file.startsWith(prefix))?.[1];

/** file: a repository-relative path with forward slashes → its source. Returns one line per upward arrow. */
export function layeringViolations(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of files) {
    const layer = layerOf(file);
    if (!layer) continue;
    const rule = RULES[layer];
    for (const specifier of specifiers(source)) {
      if (specifier.startsWith('.')) {
        const target = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
        if (!rule.mayImport.some((allowed) => target === allowed || target.startsWith(allowed))) found.push(`${file} (${layer}) imports ${target}`);
      } else if (rule.forbiddenPackages.some((pattern) => pattern.test(specifier))) {
        found.push(`${file} (${layer}) imports the package ${specifier}`);
      }
    }
  }
  return found.sort();
}

function sourcesUnder(root: string, folder: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) files.set(relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(join(root, folder));
  return files;
}

it('no import in server/ points up the layer table', () => {
  const root = process.cwd();
  const files = sourcesUnder(root, 'server');
  expect(files.size).toBeGreaterThan(50);
  expect(layeringViolations(files)).toEqual([]);
});

it('reports upward arrows, including type-only and re-exports', () => {
  const files = new Map([
    ['server/lib/money.ts', "import type { PaymentMethod } from '../domain/types.js';"],
    [
      'server/providers/acme.ts',
      "import { TransactionsRepository } from '../db/transactionsRepository.js';\nimport { EntityManager } from '@mikro-orm/postgresql';",
    ],
    [
      'server/gateway/payments.ts',
      "import { Transaction } from '../../gen/ts-proto/gateway/v1/types.js';\nexport { x } from '../transport/enums.js';\nimport { SandboxAdapter } from '../providers/sandbox/adapter.js';",
    ],
    ['server/db/repo.ts', "const body = await import('../gateway/outbound.js');"],
    ['server/sandbox/psp.ts', "import {\n  SIGNATURE_HEADER,\n} from '../providers/sandbox/api.js';"],
    ['server/config.ts', "import { DEFAULT } from './gateway/outbound.js';"],
    ['server/transport/grpc/server.ts', "import { openDatabase } from '../../db/orm.js';"],
    ['server/gateway/fine.ts', "import { ProviderRegistry } from '../providers/registry.js';\nimport type { Logger } from '../lib/logger.js';"],
  ]);
  expect(layeringViolations(files)).toEqual([
    'server/config.ts (config) imports server/gateway/outbound.ts',
    'server/db/repo.ts (db) imports server/gateway/outbound.ts',
    'server/gateway/payments.ts (gateway) imports gen/ts-proto/gateway/v1/types.ts',
    'server/gateway/payments.ts (gateway) imports server/providers/sandbox/adapter.ts',
    'server/gateway/payments.ts (gateway) imports server/transport/enums.ts',
    'server/lib/money.ts (lib) imports server/domain/types.ts',
    'server/providers/acme.ts (providers) imports server/db/transactionsRepository.ts',
    'server/providers/acme.ts (providers) imports the package @mikro-orm/postgresql',
    'server/sandbox/psp.ts (fakePsp) imports server/providers/sandbox/api.ts',
    'server/transport/grpc/server.ts (transports) imports server/db/orm.ts',
  ]);
});
