import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ConnectionVerdict, TestProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { failureOf } from '../support/clients.js';
import { closedPort } from '../support/closedPort.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { capturedLogger } from '../support/logCapture.js';

/** "Testar conexão": one read at the provider, by an id that cannot exist, with the account's stored credentials. */
let stack: TestStack;
let fake: FakeProvider;
// Everything the gateway logs, to show a tested secret is never among it.
const log = capturedLogger('debug');

beforeAll(async () => {
  stack = await startTestStack({ logger: log.logger });
  fake = await startFakeProvider();
});

afterAll(async () => {
  await fake?.close();
  await stack?.close();
});

beforeEach(() => fake.reset());

const SECRET = 'sk_connection_test';
const BASIC = `Basic ${Buffer.from(`${SECRET}:x`).toString('base64')}`;

async function paguesafeAccount(baseUrl: string): Promise<string> {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'PAGUESAFE',
    name: `connection test ${Math.random()}`,
    publicKey: 'pk_connection_test',
    secretKey: SECRET,
    baseUrl,
  });
  return providerAccount.id;
}

const probe = (status: number, body: unknown) =>
  fake.expect({
    method: 'GET',
    path: /^\/transactions\/gateway-connection-test-[0-9a-f-]{36}$/,
    headers: { authorization: BASIC },
    reply: { status, body },
  });

describe('TestProviderAccount', () => {
  it('answers OK when the provider says the made-up charge does not exist: it accepted the credentials', async () => {
    const id = await paguesafeAccount(fake.url);
    probe(404, { message: 'Transaction not found' });
    const answer = await stack.client.call('accounts', 'testProviderAccount', { id });
    expect(answer).toEqual({
      verdict: ConnectionVerdict.CONNECTION_VERDICT_OK,
      message: 'Conexão bem-sucedida: o provedor aceitou as credenciais da conta.',
      detail: '',
    });
    fake.assertAllDone();
  });

  it('answers CREDENTIALS_REFUSED, with what the provider said, when it answers 401', async () => {
    const id = await paguesafeAccount(fake.url);
    probe(401, { message: 'Invalid API key' });
    const answer = await stack.client.call('accounts', 'testProviderAccount', { id });
    expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_CREDENTIALS_REFUSED);
    expect(answer.message).toBe('O provedor recusou as credenciais da conta. Confira as chaves.');
    expect(answer.detail).toContain('Invalid API key');
    expect(answer.detail).not.toContain(SECRET);
    fake.assertAllDone();
  });

  it('answers UNREACHABLE when nothing listens at the account’s address', async () => {
    const id = await paguesafeAccount(`http://127.0.0.1:${await closedPort()}`);
    const answer = await stack.client.call('accounts', 'testProviderAccount', { id });
    expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_UNREACHABLE);
    expect(answer.message).toBe('Não foi possível falar com o provedor: o endereço não responde ou o provedor está fora do ar. Confira a URL base.');
    expect(answer.detail).toContain('connection refused');
  });

  it('answers INCONCLUSIVE for a 400: it proves nothing about the credentials', async () => {
    const id = await paguesafeAccount(fake.url);
    probe(400, { message: 'bad id' });
    const answer = await stack.client.call('accounts', 'testProviderAccount', { id });
    expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_INCONCLUSIVE);
    fake.assertAllDone();
  });

  it('is NOT_FOUND for an unknown account', async () => {
    expect(await failureOf(stack.client.call('accounts', 'testProviderAccount', { id: '00000000-0000-4000-8000-000000000000' }))).toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('TestProviderAccount of values not saved yet (a candidate)', () => {
  const candidate = (secretKey: string) => ({ provider: 'paguesafe', publicKey: 'pk_connection_test', secretKey, baseUrl: fake.url });
  const accountCount = async () => (await stack.client.call('accounts', 'listProviderAccounts', {})).providerAccounts.length;

  it('answers CREDENTIALS_REFUSED for a wrong key before anything is saved, and stores nothing', async () => {
    const before = await accountCount();
    fake.expect({
      method: 'GET',
      path: /^\/transactions\/gateway-connection-test-[0-9a-f-]{36}$/,
      headers: { authorization: `Basic ${Buffer.from('sk_wrong:x').toString('base64')}` },
      reply: { status: 401, body: { message: 'Invalid API key' } },
    });
    const answer = await stack.client.call('accounts', 'testProviderAccount', TestProviderAccountRequest.fromPartial({ candidate: candidate('sk_wrong') }));
    expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_CREDENTIALS_REFUSED);
    expect(answer.detail).toContain('Invalid API key');
    expect(answer.detail).not.toContain('sk_wrong');
    fake.assertAllDone();
    expect(await accountCount()).toBe(before);
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.lines.join('\n')).not.toContain('sk_wrong');
  });

  it('answers OK for a key the provider accepts', async () => {
    probe(404, { message: 'Transaction not found' });
    const answer = await stack.client.call('accounts', 'testProviderAccount', TestProviderAccountRequest.fromPartial({ candidate: candidate(SECRET) }));
    expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_OK);
    fake.assertAllDone();
  });

  it('tests an edit with the stored secret where the form left it blank, and the typed address', async () => {
    const id = await paguesafeAccount(`http://127.0.0.1:${await closedPort()}`);
    probe(404, { message: 'Transaction not found' });
    const answer = await stack.client.call('accounts', 'testProviderAccount', { id, candidate: { provider: '', secretKey: '', baseUrl: fake.url } });
    expect(answer.verdict).toBe(ConnectionVerdict.CONNECTION_VERDICT_OK);
    fake.assertAllDone();
    const { providerAccount } = await stack.client.call('accounts', 'getProviderAccount', { id });
    expect(providerAccount.baseUrl).not.toBe(fake.url);
  });

  it('refuses an unknown provider and an unknown account as a save would', async () => {
    expect(
      await failureOf(
        stack.client.call('accounts', 'testProviderAccount', TestProviderAccountRequest.fromPartial({ candidate: { provider: 'NOPE', secretKey: 'sk' } })),
      ),
    ).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('unknown provider NOPE'),
    });
    expect(
      await failureOf(stack.client.call('accounts', 'testProviderAccount', { id: '00000000-0000-4000-8000-000000000000', candidate: { provider: '' } })),
    ).toMatchObject({ code: 'NOT_FOUND' });
  });
});
