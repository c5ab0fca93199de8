// Lint for the gateway (server/, shared/, tests/, bench/, scripts/) and the back-office (web/src). Formatting is Prettier's job
// (eslint-config-prettier turns off the style rules). Besides the usual rules it encodes the design: DESIGN §2's layers as
// import zones, the promise rules a payment path cannot do without, and a size warning for server files.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/**
 * DESIGN §2, who may import whom: each layer sits in a folder (or a file) and may import, of our code, only its own folder
 * and the repository paths listed here (a path ending in .js is one module). tests/support/layering.ts holds the same
 * table, checked on resolved paths by tests/unit/layering.test.ts; tests/unit/lintRules.test.ts shows the two agree.
 */
const LAYERS = [
  // The back-office talks to the gateway through the contract only, and shares pure modules with it in shared/.
  { files: 'web/src', mayImport: ['gen/es', 'shared'] },
  // Bundled by both sides: nothing of ours beyond itself, nothing of Node's.
  { files: 'shared', mayImport: [], packages: ['node', 'orm', 'rpc'] },
  // The toolkit knows nothing of ours.
  { files: 'server/lib', mayImport: ['shared'], packages: ['orm'] },
  { files: 'server/domain', mayImport: ['server/lib', 'shared'], packages: ['orm', 'rpc'] },
  // An adapter is translation plus HTTP: never the ORM, a transport, the use cases or the sidecar. The sandbox adapter speaks
  // the fake PSP's wire format, which lives with the PSP.
  { files: 'server/providers', mayImport: ['server/domain', 'server/lib', 'server/sandbox/api.js', 'shared'], packages: ['orm'] },
  { files: 'server/db', mayImport: ['server/domain', 'server/lib', 'shared'], packages: ['rpc'] },
  // The use cases reach providers through the contract and the registry only, and never see a generated type.
  {
    files: 'server/gateway',
    mayImport: ['server/db', 'server/domain', 'server/lib', 'server/providers/adapter.js', 'server/providers/registry.js', 'shared'],
    packages: ['orm', 'rpc'],
  },
  { files: 'server/transport', mayImport: ['server/webhooks', 'server/gateway', 'server/domain', 'server/lib', 'gen', 'shared'], packages: ['orm'] },
  { files: 'server/webhooks', mayImport: ['server/transport', 'server/gateway', 'server/domain', 'server/lib', 'gen', 'shared'], packages: ['orm'] },
  // The fake PSP stands for an outside company: it shares only the toolkit.
  { files: 'server/sandbox', mayImport: ['server/lib'], packages: ['orm'] },
  { files: 'server/config.ts', mayImport: ['server/domain', 'server/lib', 'shared'] },
  // The metrics are told what happens through the observers each layer declares; they import none of those layers.
  { files: 'server/observability', mayImport: ['server/lib', 'server/domain', 'shared'], packages: ['orm', 'grpc'] },
];

const PACKAGES = {
  node: { regex: '^node:', message: 'shared/ is bundled for the browser too: no Node modules (DESIGN §2).' },
  orm: { regex: '^@mikro-orm/', message: 'Only server/db/ (and app.ts) know the ORM (DESIGN §2).' },
  rpc: { regex: '^(@grpc/|@connectrpc/|@bufbuild/|node:http$|node:http2$)', message: 'Only the transports know HTTP frameworks and RPC (DESIGN §2).' },
  grpc: { regex: '^(@grpc/|@connectrpc/|@bufbuild/)', message: 'The metrics know no RPC framework (DESIGN §2).' },
};
/**
 * Everywhere: a bundle's root when the package exports each function on its own. brazilian-utils' root loads its
 * whole bundle (cities, banks, holidays): about 20 MB resident in each thread that imports it, where its files of one
 * function each cost next to nothing.
 */
const BUNDLE_ROOTS = {
  regex: '^@brazilian-utils/brazilian-utils$',
  message: "Import the function's own file (@brazilian-utils/brazilian-utils/is-valid-cpf): the package's root is its whole bundle, ~20 MB resident.",
};

/** How deep below a layer's folder its files go (server/providers/families/transactionsApi/platforms/ is 3). */
const DEEPEST = 4;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const climb = (levels) => (levels === 0 ? '\\./' : '\\.\\./'.repeat(levels));
const segmentsOf = (path) => path.split('/');
const isPrefix = (prefix, segments) => prefix.length <= segments.length && prefix.every((segment, index) => segments[index] === segment);

/**
 * no-restricted-imports sees the specifier as written, so each depth of a layer gets its own patterns: from a file `depth`
 * folders below the root, climbing k folders lands in a known ancestor, from which only the allowed paths below it may
 * follow. Climbing less than that stays inside the layer's own folder, which is always allowed.
 */
function zonePatterns(layer, depth) {
  const isFile = layer.files.endsWith('.ts');
  const own = segmentsOf(layer.files).slice(0, isFile ? -1 : undefined);
  const allowed = (isFile ? layer.mayImport : [layer.files, ...layer.mayImport]).map(segmentsOf);
  const message = `${layer.files} may import, of our code, only ${[...(isFile ? [] : [layer.files]), ...layer.mayImport].join(', ')} (DESIGN §2).`;
  const patterns = [];
  for (let levels = isFile ? 0 : depth - own.length + 1; levels <= depth; levels += 1) {
    const ancestor = own.slice(0, depth - levels);
    if (allowed.some((path) => isPrefix(path, ancestor))) continue;
    const below = allowed
      .filter((path) => path.length > ancestor.length && isPrefix(ancestor, path))
      .map((path) => `${escape(path.slice(ancestor.length).join('/'))}(/|$)`);
    patterns.push({ regex: `^${climb(levels)}(?!${[...below, '\\.\\./'].join('|')})`, message });
  }
  return [...patterns, ...(layer.packages ?? []).map((name) => PACKAGES[name]), BUNDLE_ROOTS];
}

/** Files exactly `depth` folders below the root in `layer`. */
const filesAt = (layer, depth) =>
  layer.files.endsWith('.ts') ? [layer.files] : [`${layer.files}/${'*/'.repeat(depth - segmentsOf(layer.files).length)}*.{ts,tsx}`];

/**
 * Inside server/providers/: an adapter's folder (or a family's, `depth` folders below the root) may reach the families and
 * the kit but not another adapter's folder (DESIGN §2: providers never import each other except through a family); the kit,
 * which families and adapters build on, imports no provider folder at all. Members (one registration per provider) may
 * import any adapter.
 */
const otherProvider = (depth) => ({
  regex: `^${climb(depth - 2)}(?!(families|kit)/)[^./][^/]*/`,
  message: 'A provider adapter imports another provider only through a family or the kit (DESIGN §2).',
});
const KIT_IMPORTS = { regex: '^\\.\\./[^./][^/]*/', message: 'The provider kit imports no family and no adapter: they build on it (DESIGN §2).' };

const restrict = (files, patterns, ignores) => ({ files, ...(ignores ? { ignores } : {}), rules: { 'no-restricted-imports': ['error', { patterns }] } });

function importZones() {
  const zones = [];
  for (const layer of LAYERS) {
    const first = segmentsOf(layer.files).length - (layer.files.endsWith('.ts') ? 1 : 0);
    for (let depth = first; depth <= (layer.files.endsWith('.ts') ? first : first + DEEPEST); depth += 1) {
      const patterns = zonePatterns(layer, depth);
      zones.push(restrict(filesAt(layer, depth), patterns));
      if (layer.files !== 'server/providers' || depth < 3) continue;
      // A file matched by several objects takes the rule's options from the last, so these repeat the layer's patterns.
      if (depth === 3) {
        zones.push(restrict(['server/providers/*/*.ts'], [...patterns, otherProvider(depth)], ['server/providers/{families,kit,members}/*.ts']));
        zones.push(restrict(['server/providers/kit/*.ts'], [...patterns, KIT_IMPORTS]));
      } else {
        zones.push(restrict([`server/providers/families/${'*/'.repeat(depth - 4)}*/*.ts`], [...patterns, otherProvider(depth)]));
      }
    }
  }
  return zones;
}

export default tseslint.config(
  {
    // tests/fixtures/lint/ breaks these rules on purpose; tests/unit/lintRules.test.ts lints it as a project of its own.
    ignores: ['gen/**', 'node_modules/**', 'web/node_modules/**', 'web/dist/**', '.node24/**', 'coverage/**', 'data/**', 'dist/**', 'tests/fixtures/lint/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Unused names are bugs; a leading underscore marks a parameter kept for an interface's shape.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Provider bodies are untyped JSON at the edge; `any` is allowed there but visible in review.
      '@typescript-eslint/no-explicit-any': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
      // A promise nobody awaits is a charge whose failure nobody sees: await it, return it, or `void` it with a reason.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A status added to a union must be handled wherever the union is switched on.
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', module: 'writable', require: 'readonly', __dirname: 'readonly' } },
  },
  ...importZones(),
  {
    // A file past 600 lines of code usually holds more than one job (DESIGN §9); a warning, so it is seen in review.
    files: ['server/**/*.ts'],
    rules: { 'max-lines': ['warn', { max: 600, skipBlankLines: true, skipComments: true }] },
  },
);
