import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { scriptEnvironmentText, shellWord, writeScriptEnvironment } from '../../server/scriptEnvironment.js';

describe('the addresses for scripts (data/gateway.env)', () => {
  it('quotes every value as one shell word, a single quote included', () => {
    const value = `it's $HOME; \`x\` "y"`;
    expect(execFileSync('bash', ['-c', `printf %s ${shellWord(value)}`], { encoding: 'utf8' })).toBe(value);
  });

  it('leaves out what this start does not have, and the token unless it was generated', () => {
    const text = scriptEnvironmentText({ connectUrl: 'http://127.0.0.1:8080', grpcAddress: undefined, sandboxAccountId: '' });
    expect(text).toContain("export GATEWAY_URL='http://127.0.0.1:8080'\n");
    expect(text).not.toContain('GATEWAY_GRPC_ADDRESS');
    expect(text).not.toContain('GATEWAY_SANDBOX_ACCOUNT_ID');
    expect(text).not.toContain('GATEWAY_TOKEN');
  });

  it('writes a file a shell sources, readable by its owner only', () => {
    const folder = mkdtempSync(join(tmpdir(), 'script-env-'));
    try {
      const path = writeScriptEnvironment(folder, { grpcAddress: '127.0.0.1:50051', generatedToken: 'tok-en' });
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(execFileSync('bash', ['-c', `. ${path}; printf '%s %s' "$GATEWAY_GRPC_ADDRESS" "$GATEWAY_TOKEN"`], { encoding: 'utf8' })).toBe(
        '127.0.0.1:50051 tok-en',
      );
      expect(readFileSync(path, 'utf8').startsWith('# Written by the gateway')).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
