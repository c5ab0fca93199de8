import { join } from 'node:path';
import { beforeAll, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { layeringViolations } from '../support/layering.js';

/**
 * eslint.config.js encodes the design (DESIGN §2's layers as import zones, the promise rules). Its fixtures
 * (tests/fixtures/lint/) sit at the paths the zones name, inside a folder of their own: linted with that folder as the
 * working directory, the config's paths apply to them as they do to the repository. `npm run lint` shows the real tree
 * is clean; this shows the rules would see it if it were not.
 */
const root = process.cwd();
const fixtures = join(root, 'tests/fixtures/lint');

let found: Map<string, string[]>;

beforeAll(async () => {
  const eslint = new ESLint({ cwd: fixtures, overrideConfigFile: join(root, 'eslint.config.js') });
  const results = await eslint.lintFiles(['.']);
  found = new Map(
    results.map((result) => [
      result.filePath.slice(fixtures.length + 1),
      result.messages.map((message) => `${message.line}: ${message.ruleId ?? message.message}`),
    ]),
  );
});

it('refuses an import from the back-office into the gateway', () => {
  expect(found.get('web/src/payoutPage.ts')).toEqual(['3: no-restricted-imports']);
});

it('refuses a provider adapter touching the database, or another adapter outside a family', () => {
  expect(found.get('server/providers/acme/adapter.ts')).toEqual(['2: no-restricted-imports']);
  expect(found.get('server/providers/bravo/adapter.ts')).toEqual(['2: no-restricted-imports']);
  expect(found.get('server/providers/kit/declaration.ts')).toEqual(['2: no-restricted-imports']);
});

it('lets a member import the adapter it registers', () => {
  expect(found.get('server/providers/members/acme.ts')).toEqual([]);
});

it('refuses the toolkit importing anything of ours', () => {
  expect(found.get('server/lib/money.ts')).toEqual(['2: no-restricted-imports']);
});

it('finds the promise a use case forgot to await, and the status a switch forgot', () => {
  expect(found.get('server/gateway/payouts.ts')).toEqual(['6: @typescript-eslint/no-floating-promises', '11: @typescript-eslint/switch-exhaustiveness-check']);
});

it("refuses brazilian-utils' whole bundle, and takes one function's own file", () => {
  expect(found.get('shared/documents.ts')).toEqual(['1: no-restricted-imports']);
});

it('passes what the layers allow', () => {
  for (const file of ['server/db/ledger.ts', 'server/domain/types.ts', 'shared/roles.ts']) expect(found.get(file)).toEqual([]);
});

/** [file, specifier, allowed]: the same imports, judged by the lint on the specifier and by the layering check on the path. */
const IMPORTS: [file: string, specifier: string, allowed: boolean][] = [
  ['web/src/App.tsx', '../../server/gateway/access.js', false],
  ['web/src/App.tsx', '../../shared/permissions.js', true],
  ['web/src/App.tsx', '../../gen/es/gateway/v1/gateway_pb.js', true],
  ['web/src/pages/Payouts.tsx', '../../../server/lib/pixKey.js', false],
  ['web/src/pages/Payouts.tsx', '../../../gen/ts-proto/gateway/v1/types.js', false],
  ['web/src/pages/Payouts.tsx', '../ui.js', true],
  ['shared/pixKeyRules.ts', '../server/lib/documents.js', false],
  ['shared/pixKeyRules.ts', 'node:fs', false],
  ['shared/pixKeyRules.ts', './permissions.js', true],
  ['server/lib/money.ts', '../domain/types.js', false],
  ['server/lib/money.ts', '../../gen/es/gateway/v1/types_pb.js', false],
  ['server/lib/money.ts', '../../shared/pixKeyRules.js', true],
  ['server/lib/money.ts', './documents.js', true],
  ['server/domain/types.ts', '../lib/money.js', true],
  ['server/domain/types.ts', '../db/orm.js', false],
  ['server/domain/types.ts', '@connectrpc/connect', false],
  ['server/providers/asaas/adapter.ts', '../../db/orm.js', false],
  ['server/providers/asaas/adapter.ts', '../../gateway/payments.js', false],
  ['server/providers/asaas/adapter.ts', '../../transport/enums.js', false],
  ['server/providers/asaas/adapter.ts', '../../webhooks/sidecar.js', false],
  ['server/providers/asaas/adapter.ts', '../../sandbox/psp.js', false],
  ['server/providers/asaas/adapter.ts', '@mikro-orm/core', false],
  ['server/providers/asaas/adapter.ts', '../families/bacenPix/statuses.js', true],
  ['server/providers/asaas/adapter.ts', '../kit/registration.js', true],
  ['server/providers/asaas/adapter.ts', '../../lib/money.js', true],
  ['server/providers/asaas/adapter.ts', '../../../shared/pixKeyRules.js', true],
  ['server/providers/sandbox/adapter.ts', '../../sandbox/api.js', true],
  ['server/providers/members/asaas.ts', '../asaas/adapter.js', true],
  ['server/providers/members/asaas.ts', '../../db/orm.js', false],
  ['server/providers/families/transactionsApi/platforms/purchase.ts', '../../../../db/orm.js', false],
  ['server/providers/families/transactionsApi/platforms/purchase.ts', '../../../adapter.js', true],
  ['server/gateway/payments.ts', '../providers/registry.js', true],
  ['server/gateway/payments.ts', '../providers/sandbox/adapter.js', false],
  ['server/gateway/payments.ts', '../../gen/ts-proto/gateway/v1/types.js', false],
  ['server/gateway/payments.ts', '../transport/enums.js', false],
  ['server/gateway/payments.ts', '../db/transactionsRepository.js', true],
  ['server/db/repository.ts', '../gateway/outbound.js', false],
  ['server/db/migrations/Migration1.ts', '../../providers/registry.js', false],
  ['server/db/migrations/Migration1.ts', '../../lib/money.js', true],
  ['server/transport/grpc/server.ts', '../../db/orm.js', false],
  ['server/transport/grpc/server.ts', '../../../gen/ts-proto/gateway/v1/types.js', true],
  ['server/transport/grpc/server.ts', '../../webhooks/sidecar.js', true],
  ['server/webhooks/sidecar.ts', '../providers/registry.js', false],
  ['server/sandbox/psp.ts', '../providers/sandbox/api.js', false],
  ['server/sandbox/psp.ts', '../lib/money.js', true],
  ['server/config.ts', './gateway/outbound.js', false],
  ['server/config.ts', './lib/money.js', true],
  ['server/observability/metrics.ts', '../gateway/payments.js', false],
  ['server/observability/metrics.ts', '@grpc/grpc-js', false],
];

it('agrees with the layering check on which imports cross the layers', async () => {
  // Import zones need no types: without the type-aware rules, a source needs no file on disk.
  const eslint = new ESLint({ cwd: root, overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], ...tseslint.configs.disableTypeChecked }] });
  const verdicts = await Promise.all(
    IMPORTS.map(async ([file, specifier]) => {
      const source = `import { x } from '${specifier}';\nexport const y = x;\n`;
      const [result] = await eslint.lintText(source, { filePath: join(root, file) });
      const lint = result!.messages.map((message) => message.ruleId ?? message.message);
      const layering = layeringViolations(new Map([[file, source]]));
      return `${file} ${specifier}: lint ${lint.length ? lint.join(', ') : 'passes'}, layering ${layering.length ? 'refuses' : 'passes'}`;
    }),
  );
  expect(verdicts).toEqual(
    IMPORTS.map(
      ([file, specifier, allowed]) => `${file} ${specifier}: lint ${allowed ? 'passes' : 'no-restricted-imports'}, layering ${allowed ? 'passes' : 'refuses'}`,
    ),
  );
});
