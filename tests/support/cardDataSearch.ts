import { Writable } from 'node:stream';
import { expect } from '@jest/globals';
import { pino } from 'pino';
import { logger as moduleLogger } from '../../server/lib/logger.js';

/**
 * Searching what the gateway wrote for a card's number and CVV: the process-wide logger's lines (the provider
 * adapters' HTTP exchanges log there, at debug) captured while a suite runs, and a search that tells a CVV apart from
 * the ids, hashes and timestamps around it.
 */

/** Captures the process-wide logger's formatted lines, after its redaction, as they would reach stdout, at debug. */
export function captureModuleLog(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const streamSym = pino.symbols.streamSym as unknown as string;
  const target = moduleLogger as unknown as Record<string, unknown>;
  const stream = target[streamSym];
  const level = moduleLogger.level;
  target[streamSym] = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  moduleLogger.level = 'debug';
  return {
    lines,
    restore() {
      moduleLogger.level = level;
      target[streamSym] = stream;
    },
  };
}

/**
 * Text with what is noise for this search taken out: ids (UUIDs), hashes and sealed values (long hex or base64
 * runs), timestamps (ISO and epoch milliseconds). What remains is searched for the CVV as a number of its own.
 */
const withoutNoise = (text: string): string =>
  text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ' ')
    .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}(?::?\d{2})?)?/g, ' ')
    .replace(/(?<![\w/+-])[A-Za-z0-9_+/=-]{24,}/g, ' ')
    .replace(/(?<!\d)\d{13}(?!\d)/g, ' ');

/** Neither the card number (bare or grouped) nor the CVV (a number of its own) is in `text`; `where` names it in a failure. */
export function expectNoCardData(where: string, text: string, card: { pan: string; cvv: string }): void {
  const digits = text.replace(/[ -]/g, '');
  const grouped = card.pan.replace(/(\d{4})(?=\d)/g, '$1 ');
  expect({ where, pan: digits.includes(card.pan) || text.includes(grouped) }).toEqual({ where, pan: false });
  expect({ where, cvv: new RegExp(`(?<!\\d)${card.cvv}(?!\\d)`).test(withoutNoise(text)) }).toEqual({ where, cvv: false });
}
