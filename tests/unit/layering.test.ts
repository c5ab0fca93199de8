import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { expect, it } from '@jest/globals';

/**
 * DESIGN §2: arrows only point down the layer table. Each layer lists the
 * folders (of the repository) it may import from, and the packages it must not.
 * app.ts and main.ts assemble everything and are exempt. The back-office (web/)
 * and the gateway share only shared/, pure modules that import nothing of ours.
 * eslint.config.js enforces the same zones as a lint rule (no-restricted-imports);
 * tests/unit/lintRules.test.ts shows it does.
 */
type Layer = 'shared' | 'web' | 'lib' | 'domain' | 'providers' | 'db' | 'gateway' | 'transports' | 'fakePsp' | 'config' | 'observability';

const LAYER_OF: [prefix: string, layer: Layer][] = [
  ['shared/', 'shared'],
  ['web/', 'web'],
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
  // Bundled by both the gateway and the back-office: free of Node, of the ORM and of RPC frameworks.
  shared: { mayImport: ['shared/'], forbiddenPackages: [ORM, HTTP_AND_RPC, /^node:/] },
  // The back-office talks to the gateway through the contract (gen/es) only.
  web: { mayImport: ['web/', 'gen/es/', 'shared/'], forbiddenPackages: [ORM] },
  lib: { mayImport: ['server/lib/', 'shared/'], forbiddenPackages: [ORM] },
  domain: { mayImport: ['server/domain/', 'server/lib/', 'shared/'], forbiddenPackages: [ORM, HTTP_AND_RPC] },
  // The sandbox adapter speaks the fake PSP's wire format, which lives with the PSP.
  providers: { mayImport: ['server/providers/', 'server/domain/', 'server/lib/', 'server/sandbox/api.ts', 'shared/'], forbiddenPackages: [ORM] },
  db: { mayImport: ['server/db/', 'server/domain/', 'server/lib/', 'shared/'], forbiddenPackages: [HTTP_AND_RPC] },
  // The use cases reach providers through the contract and the registry only, never an adapter's internals.
  gateway: {
    mayImport: ['server/gateway/', 'server/db/', 'server/domain/', 'server/lib/', 'server/providers/adapter.ts', 'server/providers/registry.ts', 'shared/'],
    forbiddenPackages: [ORM, HTTP_AND_RPC],
  },
  transports: {
    mayImport: ['server/transport/', 'server/webhooks/', 'server/gateway/', 'server/domain/', 'server/lib/', 'gen/', 'shared/'],
    forbiddenPackages: [ORM],
  },
  // The fake PSP stands for an outside company: it shares only the toolkit.
  fakePsp: { mayImport: ['server/sandbox/', 'server/lib/'], forbiddenPackages: [ORM] },
  config: { mayImport: ['server/domain/', 'server/lib/', 'shared/'], forbiddenPackages: [] },
  // The metrics are told what happens through the observers each layer declares; they import none of those layers.
  observability: {
    mayImport: ['server/observability/', 'server/lib/', 'server/domain/', 'shared/'],
    forbiddenPackages: [ORM, /^(@grpc\/|@connectrpc\/|@bufbuild\/)/],
  },
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
        const target = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.(js|tsx?)$/, '.ts');
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
      else if (/\.tsx?$/.test(entry.name)) files.set(relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8'));
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

it('the back-office and the gateway share only shared/, which imports nothing of theirs', () => {
  const root = process.cwd();
  const files = new Map([...sourcesUnder(root, 'web/src'), ...sourcesUnder(root, 'shared')]);
  expect([...files.keys()].filter((file) => file.startsWith('shared/')).length).toBeGreaterThan(0);
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
    ['web/src/App.tsx', "import { isRole } from '../../server/gateway/access.js';\nimport { isRole as shared } from '../../shared/permissions.js';"],
    ['web/src/pages/Fine.tsx', "import { GatewayService } from '../../../gen/es/gateway/v1/gateway_pb.js';\nimport { t } from '../i18n.js';"],
    ['shared/pixKeyRules.ts', "import { digitsOnly } from '../server/lib/documents.js';\nimport { readFileSync } from 'node:fs';"],
    ['server/lib/pixKey.ts', "export { inferPixKeyType } from '../../shared/pixKeyRules.js';"],
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
    'shared/pixKeyRules.ts (shared) imports server/lib/documents.ts',
    'shared/pixKeyRules.ts (shared) imports the package node:fs',
    'web/src/App.tsx (web) imports server/gateway/access.ts',
  ]);
});
