/**
 * Service tokens from the command line, through the running gateway's API:
 *
 *   npm run token -- create --name checkout --scope payments:write [--scope …] [--account <provider account id> …]
 *   npm run token -- list [--all]
 *   npm run token -- revoke <token id>
 *
 * It calls GATEWAY_URL (default http://127.0.0.1:$HTTP_PORT, 8080) with
 * GATEWAY_TOKEN, else the first of API_TOKENS, else the token `npm start`
 * generated in DATA_DIR.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { AccessService, type ServiceToken } from '../gen/es/gateway/v1/access_service_pb.js';
import { timestampDate } from '@bufbuild/protobuf/wkt';

const USAGE = `usage:
  npm run token -- create --name <name> --scope <permission> [--scope …] [--account <provider account id> …]
  npm run token -- list [--all]
  npm run token -- revoke <token id>`;

function adminToken(): string | undefined {
  if (process.env.GATEWAY_TOKEN) return process.env.GATEWAY_TOKEN;
  const configured = (process.env.API_TOKENS ?? '').split(',').find((token) => token.trim());
  if (configured) return configured.trim();
  const generated = join(resolve(process.env.DATA_DIR || './data'), 'api-token');
  return existsSync(generated) ? readFileSync(generated, 'utf8').trim() : undefined;
}

const when = (value: ServiceToken['createdAt']) => (value ? timestampDate(value).toISOString() : '-');

function describe(token: ServiceToken): string {
  const accounts = token.providerAccountIds.length ? `  accounts: ${token.providerAccountIds.join(', ')}` : '';
  const state = token.revokedAt ? `revoked ${when(token.revokedAt)}` : `last used ${when(token.lastUsedAt)}`;
  return `${token.id}  ${token.name}  [${token.scopes.join(' ')}]  created ${when(token.createdAt)} by ${token.createdBy}  ${state}${accounts}`;
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { name: { type: 'string' }, scope: { type: 'string', multiple: true }, account: { type: 'string', multiple: true }, all: { type: 'boolean' } },
  });
  const [command, id] = positionals;
  const token = adminToken();
  if (!token) {
    console.error('no credentials: set GATEWAY_TOKEN (or API_TOKENS) to an admin token');
    return 2;
  }
  const baseUrl = process.env.GATEWAY_URL || `http://127.0.0.1:${process.env.HTTP_PORT || 8080}`;
  const transport = createConnectTransport({
    baseUrl,
    httpVersion: '1.1',
    interceptors: [
      (next) => (request) => {
        request.header.set('authorization', `Bearer ${token}`);
        return next(request);
      },
    ],
  });
  const access = createClient(AccessService, transport);
  switch (command) {
    case 'create': {
      if (!values.name || !values.scope?.length) break;
      const created = await access.createServiceToken({ name: values.name, scopes: values.scope, providerAccountIds: values.account ?? [] });
      console.log(describe(created.token!));
      console.log(`\nsecret (shown this once; the gateway keeps only its hash):\n${created.secret}`);
      return 0;
    }
    case 'list': {
      const { tokens } = await access.listServiceTokens({ includeRevoked: values.all ?? false });
      console.log(tokens.length ? tokens.map(describe).join('\n') : 'no service tokens');
      return 0;
    }
    case 'revoke': {
      if (!id) break;
      const { token: revoked } = await access.revokeServiceToken({ id });
      console.log(describe(revoked!));
      return 0;
    }
  }
  console.error(USAGE);
  return 2;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const failure = ConnectError.from(error);
    console.error(`${Code[failure.code]}: ${failure.rawMessage}`);
    process.exit(1);
  },
);
