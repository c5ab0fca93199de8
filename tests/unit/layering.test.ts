import { expect, it } from '@jest/globals';
import { layeringViolations, sourcesUnder } from '../support/layering.js';

/** DESIGN §2 on the resolved paths of every import (the table is in tests/support/layering.ts). */
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
