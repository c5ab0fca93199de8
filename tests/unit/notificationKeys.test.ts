import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { NOTIFICATION_KEY_PATTERN, notificationKeyOf } from '../../server/providers/notificationKeys.js';

/** Issue "the codebase guards its design" §4: one notification-key scheme for every family and adapter. */

describe('notificationKeyOf', () => {
  const body = Buffer.from('{"id":"x"}');
  it.each([
    [{ eventId: 'evt_1' }, 'event:evt_1'],
    [{ subject: 'transaction', id: 'tx_1', status: 'PAID' }, 'transaction:tx_1:paid'],
    [{ subject: 'CashIn', id: '12345', status: 'Confirmed' }, 'CashIn:12345:confirmed'],
    [{ subject: 'pix', id: 'E1;E2', status: '' }, 'pix:E1;E2:'],
  ])('%j → %s', (identity, key) => {
    expect(notificationKeyOf(identity, body)).toBe(key);
    expect(key).toMatch(NOTIFICATION_KEY_PATTERN);
  });

  it('falls back to the body hash without an identity, or with an empty id', () => {
    for (const identity of [undefined, { eventId: '' }, { subject: 'transaction', id: '', status: 'paid' }]) {
      const key = notificationKeyOf(identity, body);
      expect(key).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(key).toMatch(NOTIFICATION_KEY_PATTERN);
    }
  });

  it('does not name the provider: keys are compared within one provider account', () => {
    expect(notificationKeyOf({ eventId: 'evt_1' }, body)).toBe(notificationKeyOf({ eventId: 'evt_1' }, Buffer.from('other')));
  });
});

/** Every .ts file under server/providers. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

it('no adapter or family builds a notification key of its own: every key goes through notificationKeyOf', () => {
  const offenders: string[] = [];
  for (const file of sources('server/providers')) {
    if (file.endsWith('notificationKeys.ts')) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      // A method or function that makes keys: notificationKey, objectNotificationKey, primePagNotificationKey, …
      const opening = /^(\s*)(?:(?:export\s+)?function\s+\w*NotificationKey\(|(?:override\s+|protected\s+)?\w*[nN]otificationKey\()/.exec(line);
      if (!opening || line.trim().startsWith('//') || line.includes('=>')) return;
      const indent = opening[1]!;
      for (let at = index + 1; at < lines.length && lines[at] !== `${indent}}`; at += 1)
        // A template joining parts with ':' is a key's own scheme ("provider:${id}"); composing an id is not.
        if (/`[^`]*:\$\{/.test(lines[at]!)) offenders.push(`${file}:${at + 1}: ${lines[at]!.trim()}`);
    });
  }
  expect(offenders).toEqual([]);
});
