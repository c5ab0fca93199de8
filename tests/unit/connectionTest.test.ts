import { describe, expect, it } from '@jest/globals';
import { GatewayError } from '../../server/lib/errors.js';
import type { AdapterContext, ProviderAdapter } from '../../server/providers/adapter.js';
import { testConnection } from '../../server/providers/kit/connectionTest.js';
import type { Operation } from '../../server/domain/types.js';

/** An adapter offering only `reads`, each answering with `answer` (a rejection when it is an error). */
function adapterWith(reads: Operation[], answer: unknown, asked: string[] = []): ProviderAdapter {
  const read = (operation: Operation) => async (_ctx: AdapterContext, id: string) => {
    asked.push(`${operation} ${id}`);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return {
    identity: { id: 'FAKEPAY' },
    supports: (operation: Operation) => reads.includes(operation),
    getTransaction: read('getTransaction'),
    getWithdraw: read('getWithdraw'),
    getReceiver: read('getReceiver'),
  } as unknown as ProviderAdapter;
}

const ctx = {} as AdapterContext;
const failure = (code: GatewayError['code'], reason: string) => new GatewayError(code, `Erro ao buscar transação: ${reason}`, { reason });

describe("Testar conexão's one rule", () => {
  it('reads a charge by an id of its own making; not found or found means the credentials were accepted', async () => {
    const asked: string[] = [];
    await expect(testConnection(adapterWith(['getTransaction'], failure('NOT_FOUND', 'PROVIDER_NOT_FOUND'), asked), ctx)).resolves.toEqual({
      verdict: 'OK',
      message: 'Conexão bem-sucedida: o provedor aceitou as credenciais da conta.',
    });
    expect(asked).toEqual([expect.stringMatching(/^getTransaction gateway-connection-test-[0-9a-f-]{36}$/)]);
    await expect(testConnection(adapterWith(['getTransaction'], { status: 'PENDING' }), ctx)).resolves.toMatchObject({ verdict: 'OK' });
  });

  it('reads a payout, then a receiver, where the provider has no charge to read', async () => {
    const asked: string[] = [];
    await testConnection(adapterWith(['getWithdraw', 'getReceiver'], failure('NOT_FOUND', 'PROVIDER_NOT_FOUND'), asked), ctx);
    await testConnection(adapterWith(['getReceiver'], failure('NOT_FOUND', 'PROVIDER_NOT_FOUND'), asked), ctx);
    expect(asked.map((line) => line.split(' ')[0])).toEqual(['getWithdraw', 'getReceiver']);
  });

  it.each([
    ['CREDENTIALS_REFUSED', 'FAILED_PRECONDITION', 'PROVIDER_REJECTED_CREDENTIALS'],
    ['UNREACHABLE', 'UNAVAILABLE', 'PROVIDER_UNAVAILABLE'],
    ['UNREACHABLE', 'UNAVAILABLE', 'PROVIDER_CIRCUIT_OPEN'],
    // An answer of an unexpected shape is an answer: the provider was reached, and it proves nothing about the keys.
    ['INCONCLUSIVE', 'UNAVAILABLE', 'PROVIDER_BAD_RESPONSE'],
    ['INCONCLUSIVE', 'INVALID_ARGUMENT', 'PROVIDER_REJECTED_REQUEST'],
    ['INCONCLUSIVE', 'FAILED_PRECONDITION', 'CREDENTIALS_MISSING'],
  ] as const)('answers %s, with the failure as the detail, for %s %s', async (verdict, code, reason) => {
    const error = failure(code, reason);
    await expect(testConnection(adapterWith(['getTransaction'], error), ctx)).resolves.toMatchObject({ verdict, detail: error.message });
  });

  it('is inconclusive for a provider with no read, and lets our own bugs through', async () => {
    await expect(testConnection(adapterWith([], undefined), ctx)).resolves.toEqual({
      verdict: 'INCONCLUSIVE',
      message: 'O teste não foi conclusivo: o provedor respondeu de um jeito que não prova se aceitou as credenciais.',
      detail: 'FAKEPAY offers no read the gateway can test with',
    });
    await expect(testConnection(adapterWith(['getTransaction'], new TypeError('bug')), ctx)).rejects.toThrow('bug');
  });
});
