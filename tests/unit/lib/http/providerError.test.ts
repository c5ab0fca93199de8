import { describe, expect, it } from '@jest/globals';
import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { GatewayError } from '../../../../server/lib/errors.js';
import { ProviderCallError, providerError } from '../../../../server/lib/http/index.js';

const answered = (status: number, data: unknown): AxiosError => {
  const config = { headers: new AxiosHeaders() };
  const response = { status, statusText: '', data, headers: {}, config } as AxiosResponse;
  return new AxiosError(`Request failed with status code ${status}`, AxiosError.ERR_BAD_RESPONSE, config, {}, response);
};

describe('providerError', () => {
  it.each([
    [500, { message: 'Internal error' }, 'UNAVAILABLE', 'Erro ao criar transação: Internal error'],
    [503, '<html>down</html>', 'UNAVAILABLE', 'Erro ao criar transação: Request failed with status code 503'],
    [429, { error: 'rate limited' }, 'UNAVAILABLE', 'Erro ao criar transação: rate limited'],
    [400, { errors: [{ message: 'amount must be positive' }] }, 'INVALID_ARGUMENT', 'Erro ao criar transação: amount must be positive'],
    [
      400,
      {
        errors: [
          { code: 'invalid_value', description: 'O campo value deve ser informado' },
          { code: 'invalid_dueDate', description: 'Vencimento inválido' },
        ],
      },
      'INVALID_ARGUMENT',
      'Erro ao criar transação: O campo value deve ser informado',
    ],
    [400, { errors: ['billingType inválido'] }, 'INVALID_ARGUMENT', 'Erro ao criar transação: billingType inválido'],
    [422, { mensagem: 'CPF inválido' }, 'INVALID_ARGUMENT', 'Erro ao criar transação: CPF inválido'],
    [404, { error: { message: 'not found' } }, 'NOT_FOUND', 'Erro ao criar transação: not found'],
    [401, { detail: 'invalid key' }, 'FAILED_PRECONDITION', 'Erro ao criar transação: invalid key'],
    [400, {}, 'INVALID_ARGUMENT', 'Erro ao criar transação: Request failed with status code 400'],
    [
      307,
      {},
      'FAILED_PRECONDITION',
      "Erro ao criar transação: the provider answered a redirect (HTTP 307), which the gateway does not follow; check the account's base URL",
    ],
  ])('HTTP %i %j → %s', (status, data, code, message) => {
    expect(providerError('Erro ao criar transação', answered(status, data))).toMatchObject({ code, message });
  });

  it.each([
    [500, 'unknown'],
    [503, 'unknown'],
    [429, 'failed'],
    [422, 'failed'],
    [404, 'failed'],
    [401, 'failed'],
    [302, 'failed'],
  ])('HTTP %i: the provider %s', (status, outcome) => {
    expect(providerError('Erro ao criar transação', answered(status, {})).details.outcome).toBe(outcome);
  });

  it('a timeout or a reset may have reached the provider; a refused connection did not', () => {
    expect(providerError('p', new AxiosError('timeout of 1ms exceeded', AxiosError.ECONNABORTED)).details.outcome).toBe('unknown');
    expect(providerError('p', new AxiosError('socket hang up', 'ECONNRESET')).details.outcome).toBe('unknown');
    expect(providerError('p', new AxiosError('', 'ECONNREFUSED')).details.outcome).toBe('failed');
    expect(providerError('p', new AxiosError('bad url', 'ERR_INVALID_URL')).details.outcome).toBe('failed');
    expect(providerError('p', new ProviderCallError('UNAVAILABLE', 'PROVIDER_CIRCUIT_OPEN', 'open')).details.outcome).toBe('failed');
  });

  it('timeouts and network failures are UNAVAILABLE with the error text', () => {
    const timeout = new AxiosError('timeout of 20000ms exceeded', AxiosError.ECONNABORTED);
    expect(providerError('Erro ao buscar saque', timeout)).toMatchObject({ code: 'UNAVAILABLE', message: 'Erro ao buscar saque: timeout of 20000ms exceeded' });
    const refused = new AxiosError('', 'ECONNREFUSED');
    expect(providerError('Erro ao buscar saque', refused)).toMatchObject({ code: 'UNAVAILABLE', message: 'Erro ao buscar saque: connection refused' });
  });

  it('never names the address or port that failed, nor what a markup page said (issue "Operators and access", point 5)', () => {
    const refused = new AxiosError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    expect(providerError('Erro ao criar transação', refused).message).toBe('Erro ao criar transação: connection refused');
    const notFound = new AxiosError('getaddrinfo ENOTFOUND redis.internal', 'ENOTFOUND');
    expect(providerError('Erro ao criar transação', notFound).message).toBe('Erro ao criar transação: host not found');
    const v6 = new AxiosError('connect ECONNREFUSED ::1:6379', 'ECONNREFUSED');
    expect(providerError('p', v6).message).toBe('p: connection refused');
    const unknown = new AxiosError('something at 10.0.0.7:8500 broke', 'EWEIRD');
    expect(providerError('p', unknown).message).toBe('p: network error (EWEIRD)');
    expect(providerError('p', new AxiosError('socket hang up', 'ECONNRESET')).message).toBe('p: socket hang up');
    const html = new AxiosError('Request failed with status code 502', '502', undefined, undefined, {
      status: 502,
      data: '<html><title>Consul UI</title></html>',
    } as never);
    expect(providerError('p', html).message).toBe('p: Request failed with status code 502');
  });

  it('failures of the HTTP layer get the prefix; GatewayErrors keep their exact text', () => {
    const open = new ProviderCallError('UNAVAILABLE', 'PROVIDER_CIRCUIT_OPEN', 'provider temporarily unavailable');
    expect(providerError('Erro ao realizar saque', open)).toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Erro ao realizar saque: provider temporarily unavailable',
      details: { reason: 'PROVIDER_CIRCUIT_OPEN' },
    });
    const unauthorized = new GatewayError('FAILED_PRECONDITION', 'Unauthorized.');
    expect(providerError('Erro ao realizar saque', unauthorized)).toBe(unauthorized);
  });

  it('anything else is our own bug: INTERNAL', () => {
    expect(providerError('Erro ao criar recebedor', new TypeError('x is undefined'))).toMatchObject({
      code: 'INTERNAL',
      message: 'Erro ao criar recebedor: x is undefined',
    });
  });
});

describe('providerError keeps echoed card data out of the message', () => {
  it.each([
    [400, { message: 'invalid card 4111 1111 1111 1111 (cvv=123)' }, 'Erro ao criar token do cartão: invalid card [redacted] (cvv=[redacted])'],
    [
      422,
      { error: 'Bad request: {"card":{"number":"5555555555554444","cvv":"321"}}' },
      'Erro ao criar token do cartão: Bad request: {"card":{"number":"[redacted]","cvv":"[redacted]"}}',
    ],
    [
      502,
      '<pre>POST /tokens number=4000000000000002&securityCode=999</pre>',
      // A markup page is not the provider's message: the status stands in for it (and nothing of the page is shown).
      'Erro ao criar token do cartão: Request failed with status code 502',
    ],
    [
      402,
      { message: 'Cartão 4111111111111111 recusado: CVV 9731 inválido' },
      'Erro ao criar token do cartão: Cartão [redacted] recusado: CVV [redacted] inválido',
    ],
    [422, { errors: [{ description: 'código de segurança 987 não confere' }] }, 'Erro ao criar token do cartão: código de segurança [redacted] não confere'],
  ])('HTTP %i %j', (status, data, message) => {
    expect(providerError('Erro ao criar token do cartão', answered(status, data)).message).toBe(message);
  });

  it("redacts a failure of the HTTP layer's text too (an unreadable answer quoting the provider)", () => {
    const unreadable = new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'resposta do provedor com success: false: CVV 9731 inválido');
    expect(providerError('Erro ao criar transação', unreadable).message).toBe(
      'Erro ao criar transação: resposta do provedor com success: false: CVV [redacted] inválido',
    );
  });

  it('redacts before cutting a long message short, so no card number survives half-cut', () => {
    const message = providerError('Erro', answered(400, `${'x'.repeat(490)} 4111111111111111`)).message;
    expect(message).not.toMatch(/41111/);
  });
});
