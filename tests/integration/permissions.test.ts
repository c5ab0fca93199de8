import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type * as grpc from '@grpc/grpc-js';
import type { DescService } from '@bufbuild/protobuf';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ProviderAccountService } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import { SandboxService } from '../../gen/es/gateway/v1/sandbox_service_pb.js';
import { WebhookService } from '../../gen/es/gateway/v1/webhook_service_pb.js';
import { AccessService } from '../../gen/es/gateway/v1/access_service_pb.js';
import { PaymentGatewayServiceService } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { ProviderAccountServiceService } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { SandboxServiceService } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { WebhookServiceService } from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import { AccessServiceService } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { UploadServiceService } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import { UploadService } from '../../gen/es/gateway/v1/upload_service_pb.js';
import { RoutingService } from '../../gen/es/gateway/v1/routing_service_pb.js';
import { RoutingServiceService } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { DisputeService } from '../../gen/es/gateway/v1/dispute_service_pb.js';
import { DisputeServiceService } from '../../gen/ts-proto/gateway/v1/dispute_service.js';
import { ROLE_PERMISSIONS, ROLES, type Role } from '../../server/gateway/access.js';
import { CreateOperatorRequest, CreateServiceTokenRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { RPC_RULES } from '../../server/transport/permissions.js';
import { connectDriver, failureOf, type Driver, type ServiceName } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Issue "Operators and access", point 1: every RPC declares the permission it
 * needs in one table, and a caller without it gets PERMISSION_DENIED naming
 * it. This walks the table for every RPC, every role and both transports.
 */
const SERVICES: [ServiceName, DescService, grpc.ServiceDefinition][] = [
  ['gateway', PaymentGatewayService, PaymentGatewayServiceService],
  ['accounts', ProviderAccountService, ProviderAccountServiceService],
  ['sandbox', SandboxService, SandboxServiceService],
  ['webhooks', WebhookService, WebhookServiceService],
  ['access', AccessService, AccessServiceService],
  ['upload', UploadService, UploadServiceService],
  ['routes', RoutingService, RoutingServiceService],
  ['disputes', DisputeService, DisputeServiceService],
];
const RPCS = SERVICES.flatMap(([service, desc, definition]) =>
  desc.methods.map((method) => ({
    service,
    name: method.localName,
    path: `/${desc.typeName}/${method.name}`,
    streaming: method.methodKind === 'server_streaming',
    // The message with every field at its default: the permission is checked before the request is.
    empty: () => (definition as Record<string, grpc.MethodDefinition<unknown, unknown>>)[method.localName]!.requestDeserialize(Buffer.alloc(0)),
  })),
);

it('declares a rule for every RPC of the contract, and none for an RPC that does not exist', () => {
  expect(Object.keys(RPC_RULES).sort()).toEqual(RPCS.map((rpc) => rpc.path).sort());
});

let stack: TestStack;
let connect: Driver;
const tokens = {} as Record<Role, string>;
/** Connect drivers of operators signed in with each role (cookie and CSRF token, as the back-office calls). */
const operators = {} as Record<Role, Driver>;

beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  for (const role of ROLES) {
    const { secret } = await stack.client.call(
      'access',
      'createServiceToken',
      CreateServiceTokenRequest.fromPartial({ name: `${role} walk`, scopes: [...ROLE_PERMISSIONS[role]], providerAccountIds: [] }),
    );
    tokens[role] = secret;
    const email = `${role}-walk@example.com`;
    await stack.client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ email, role, password: 'walk-the-permission-table' }));
    const signedIn = await fetch(`${stack.gateway.httpUrl}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'walk-the-permission-table' }),
    });
    const { csrfToken } = (await signedIn.json()) as { csrfToken: string };
    operators[role] = connectDriver(stack.gateway.httpUrl!, null, { cookie: signedIn.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken });
  }
});
afterAll(async () => {
  Object.values(operators).forEach((driver) => driver.close());
  connect?.close();
  await stack?.close();
});

/** The call's outcome: 'OK', or the status code it failed with. */
async function outcome(driver: Driver, rpc: (typeof RPCS)[number], token: string | null): Promise<{ code: string; message: string }> {
  if (rpc.streaming) {
    const stream = driver.watch(rpc.empty(), token);
    try {
      await stream.next(1_000);
      return { code: 'OK', message: '' };
    } catch (error) {
      if ((error as Error).message === 'no stream item within the time limit') return { code: 'OK', message: '' };
      return failureOf(Promise.reject(error));
    } finally {
      stream.close();
    }
  }
  try {
    await driver.call(rpc.service, rpc.name, rpc.empty(), token);
    return { code: 'OK', message: '' };
  } catch (error) {
    return failureOf(Promise.reject(error));
  }
}

describe.each([
  ['service tokens over gRPC', (_role: Role) => stack.client, (role: Role) => tokens[role]],
  ['service tokens over Connect', (_role: Role) => connect, (role: Role) => tokens[role]],
  ['operators signed in, over Connect', (role: Role) => operators[role], () => null],
])('%s', (_callers, driver, token) => {
  describe.each(ROLES)('the %s role', (role) => {
    it.each(RPCS.map((rpc) => [rpc.path.slice(1), rpc] as const))('%s', async (_path, rpc) => {
      const { permission } = RPC_RULES[rpc.path]!;
      const result = await outcome(driver(role), rpc, token(role));
      if (permission === 'authenticated' || ROLE_PERMISSIONS[role].includes(permission)) {
        expect(result.code).not.toBe('PERMISSION_DENIED');
      } else {
        expect(result).toEqual({ code: 'PERMISSION_DENIED', message: `permission denied: this call needs ${permission}` });
      }
    });
  });
});

describe('provider settings', () => {
  it('an operator cannot repoint an account: UpdateProviderAccount needs accounts:admin, on both transports', async () => {
    const {
      providerAccount: { id },
    } = await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'repoint', publicKey: 'pk', secretKey: 'sk' });
    for (const client of [stack.client, connect]) {
      expect(await failureOf(client.call('accounts', 'updateProviderAccount', { id, baseUrl: 'https://attacker.example' }, tokens.operator))).toEqual({
        code: 'PERMISSION_DENIED',
        message: 'permission denied: this call needs accounts:admin',
      });
    }
    const { providerAccount } = await stack.client.call('accounts', 'getProviderAccount', { id }, tokens.operator);
    expect(providerAccount.baseUrl).toBeUndefined();
  });
});
