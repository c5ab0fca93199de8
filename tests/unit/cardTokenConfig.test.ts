import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { loadConfig } from '../../server/config.js';

/** Settings that make loadConfig write nothing into the data folder. */
const cardTokensOf = (more: Record<string, string> = {}) =>
  loadConfig({ DATA_DIR: join(tmpdir(), 'card-token-config'), API_TOKENS: 't', SECRETS_KEY: 'k', OUTBOUND_WEBHOOK_SECRET: 's', ADMIN_PASSWORD: 'p', ...more })
    .cardTokens;

it("reads how long the gateway's card tokens open and the key version they are sealed under: one hour and version 1 by default", () => {
  expect(cardTokensOf()).toEqual({ ttlSeconds: 3600, keyVersion: 1 });
  expect(cardTokensOf({ CARD_TOKEN_TTL_SECONDS: '900', CARD_TOKEN_KEY_VERSION: '3' })).toEqual({ ttlSeconds: 900, keyVersion: 3 });
  expect(() => cardTokensOf({ CARD_TOKEN_TTL_SECONDS: '0' })).toThrow('CARD_TOKEN_TTL_SECONDS must be at least 1');
  expect(() => cardTokensOf({ CARD_TOKEN_KEY_VERSION: 'two' })).toThrow('CARD_TOKEN_KEY_VERSION must be a whole number');
});
