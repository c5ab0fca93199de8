import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../server/lib/logger.js';

/** A gateway logger whose JSON lines are kept in memory, to assert on what was logged. */
export function capturedLogger(level = 'info'): { logger: Logger; lines: string[]; records(): Record<string, any>[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger(level, destination), lines, records: () => lines.map((line) => JSON.parse(line)) };
}
