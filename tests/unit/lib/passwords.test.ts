import { expect, it } from '@jest/globals';
import { hashPassword, UNMATCHABLE_HASH, verifyPassword } from '../../../server/lib/passwords.js';

it('hashes with scrypt and a fresh salt each time, and verifies only the same password', async () => {
  const first = await hashPassword('correct horse battery');
  const second = await hashPassword('correct horse battery');
  expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w+/]+=*\$[\w+/]+=*$/);
  expect(first).not.toBe(second);
  await expect(verifyPassword('correct horse battery', first)).resolves.toBe(true);
  await expect(verifyPassword('correct horse batterY', first)).resolves.toBe(false);
  await expect(verifyPassword('', first)).resolves.toBe(false);
});

it('treats a password the same in either Unicode form, and never matches a malformed or the unmatchable hash', async () => {
  const composed = await hashPassword('senha-do-operador-ção');
  await expect(verifyPassword('senha-do-operador-c\u0327a\u0303o', composed)).resolves.toBe(true);
  await expect(verifyPassword('anything', 'plain-text')).resolves.toBe(false);
  await expect(verifyPassword('anything', UNMATCHABLE_HASH)).resolves.toBe(false);
});
