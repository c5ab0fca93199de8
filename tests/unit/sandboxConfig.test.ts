import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { loadConfig } from '../../server/config.js';

/** Settings that make loadConfig write nothing into the data folder. */
const configOf = (more: Record<string, string> = {}) =>
  loadConfig({ DATA_DIR: join(tmpdir(), 'sandbox-config'), API_TOKENS: 't', SECRETS_KEY: 'k', OUTBOUND_WEBHOOK_SECRET: 's', ADMIN_PASSWORD: 'p', ...more });
const wholeRecordsOf = (more: Record<string, string> = {}) => configOf(more).sandboxWholeRecords;

it('reads how many charges, payouts and cards the fake PSP keeps whole: 5,000 by default, at least one', () => {
  expect(wholeRecordsOf()).toBe(5000);
  expect(wholeRecordsOf({ SANDBOX_WHOLE_RECORDS: '200000' })).toBe(200_000);
  expect(() => wholeRecordsOf({ SANDBOX_WHOLE_RECORDS: '0' })).toThrow('SANDBOX_WHOLE_RECORDS must be at least 1');
  expect(() => wholeRecordsOf({ SANDBOX_WHOLE_RECORDS: 'all' })).toThrow('SANDBOX_WHOLE_RECORDS must be a whole number');
});

it("reads how long the fake PSP's PIX charges can be paid: a day by default, at least a second", () => {
  expect(configOf().sandboxPixTtlSeconds).toBe(86_400);
  expect(configOf({ SANDBOX_PIX_TTL_SECONDS: '30' }).sandboxPixTtlSeconds).toBe(30);
  expect(() => configOf({ SANDBOX_PIX_TTL_SECONDS: '0' })).toThrow('SANDBOX_PIX_TTL_SECONDS must be at least 1');
});
