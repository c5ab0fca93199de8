import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { failureOf } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/** `npm run token -- …` (scripts/token.ts): service tokens from the command line, through the gateway's API. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

async function token(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/token.ts', ...args], {
      env: { ...process.env, GATEWAY_URL: stack.gateway.httpUrl!, GATEWAY_TOKEN: TEST_TOKEN, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run token', () => {
  it('creates a token whose secret is printed once and works, lists it, and revokes it', async () => {
    const created = await token(['create', '--name', 'reporting', '--scope', 'payments:read']);
    expect(created.code).toBe(0);
    const secret = /^(gwt_[\w-]{43})$/m.exec(created.stdout)?.[1];
    expect(secret).toBeDefined();
    const id = created.stdout.split(/\s+/)[0]!;

    expect((await failureOf(stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: 'none' }), secret!))).code).toBe(
      'NOT_FOUND',
    );
    const listed = await token(['list']);
    expect(listed.stdout).toContain(`${id}  reporting  [payments:read]`);
    expect(listed.stdout).not.toContain(secret);

    expect((await token(['revoke', id])).stdout).toContain('revoked');
    expect((await failureOf(stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: 'none' }), secret!))).code).toBe(
      'UNAUTHENTICATED',
    );
    expect((await token(['list'])).stdout).not.toContain(id);
    expect((await token(['list', '--all'])).stdout).toContain(id);
  }, 60_000);

  it('says what is wrong: usage, an unknown scope, a wrong admin token', async () => {
    expect(await token(['create', '--name', 'x'])).toMatchObject({ code: 2, stderr: expect.stringContaining('usage:') });
    expect(await token(['create', '--name', 'x', '--scope', 'money:print'])).toMatchObject({
      code: 1,
      stderr: 'InvalidArgument: unknown scope "money:print"\n',
    });
    expect(await token(['list'], { GATEWAY_TOKEN: 'wrong' })).toMatchObject({ code: 1, stderr: expect.stringContaining('Unauthenticated') });
  }, 60_000);
});
