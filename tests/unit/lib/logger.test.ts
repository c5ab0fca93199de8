import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { createLogger } from '../../../server/lib/logger.js';

/** A logger writing into an array of lines, as a log shipper would read them. */
function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger('debug', destination), lines };
}

const PAN = '4111111111111111';

describe('logger', () => {
  it('keeps card numbers and CVVs a provider echoed out of messages, fields and errors', () => {
    const { logger, lines } = capturingLogger();
    logger.warn({ reason: `provider said: card ${PAN} cvv=123 declined` }, `declined 4111 1111 1111 1111`);
    logger.error({ err: new Error(`Erro ao criar transação: invalid {"number":"${PAN}","cvv":"123"}`) }, 'provider call failed');
    const config = { headers: new AxiosHeaders({ authorization: 'Bearer sk_live_1' }), data: JSON.stringify({ number: PAN, cvv: '123' }) };
    const response = { status: 422, statusText: '', data: { message: `bad card ${PAN}` }, headers: {}, config } as AxiosResponse;
    logger.error({ err: new AxiosError(`card ${PAN} refused`, AxiosError.ERR_BAD_REQUEST, config, {}, response) }, 'axios failure');
    const output = lines.join('\n');
    expect(lines).toHaveLength(3);
    expect(output).not.toContain(PAN);
    expect(output).not.toContain('1111 1111');
    expect(output).not.toMatch(/cvv\\?"?[:=]\\?"?123/);
    expect(output).not.toContain('sk_live_1');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'declined [redacted]', reason: 'provider said: card [redacted] cvv=[redacted] declined' });
    expect(JSON.parse(lines[1]!).err).toMatchObject({ type: 'Error', message: expect.stringContaining('"number":"[redacted]"') });
  });

  it('keeps a security code next to its word out of messages, fields and errors', () => {
    const { logger, lines } = capturingLogger();
    logger.warn({ providerMessage: 'CVV 9731 inválido' }, 'refused: código de segurança 9731');
    logger.error({ err: new Error('Erro ao criar transação: security code 9731 does not match') }, 'provider call failed');
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toContain('9731');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'refused: código de segurança [redacted]', providerMessage: 'CVV [redacted] inválido' });
  });

  it('leaves ordinary records as they were', () => {
    const { logger, lines } = capturingLogger();
    logger.info({ orderId: '4111111111111112', amount: 1990, provider: 'SANDBOX' }, 'charge created');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'charge created', orderId: '4111111111111112', amount: 1990, provider: 'SANDBOX' });
  });
});
