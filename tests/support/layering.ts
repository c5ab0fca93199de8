import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';

/**
 * DESIGN §2: arrows only point down the layer table. Each layer lists the
 * folders (of the repository) it may import from, and the packages it must not.
 * app.ts and main.ts assemble everything and are exempt. The back-office (web/)
 * and the gateway share only shared/, pure modules that import nothing of ours.
 * eslint.config.js enforces the same zones as a lint rule (no-restricted-imports);
 * tests/unit/lintRules.test.ts shows the two agree. Used by tests/unit/layering.test.ts.
 */
type Layer = 'shared' | 'web' | 'lib' | 'domain' | 'providers' | 'db' | 'gateway' | 'transports' | 'fakePsp' | 'config' | 'observability';

const LAYER_OF: [prefix: string, layer: Layer][] = [
  ['shared/', 'shared'],
  ['web/src/', 'web'],
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
  web: { mayImport: ['web/src/', 'gen/es/', 'shared/'], forbiddenPackages: [ORM] },
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

export function sourcesUnder(root: string, folder: string): Map<string, string> {
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
