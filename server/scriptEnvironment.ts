import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a script needs to talk to the gateway this start brought up, as shell variables: the addresses (the ports
 * come from the environment, so a script must not assume the defaults), the ready-made SANDBOX account and, only
 * when the gateway generated it, the API token (already kept in the same folder, readable by its owner only).
 * A token given in API_TOKENS is the deployer's secret and is never written anywhere.
 */
export interface ScriptEnvironment {
  connectUrl?: string;
  grpcAddress?: string;
  webhookUrl?: string;
  sandboxAccountId?: string;
  adminEmail?: string;
  /** Only a generated token: one from API_TOKENS stays out of the file. */
  generatedToken?: string;
}

/** The file's name in DATA_DIR. */
export const SCRIPT_ENVIRONMENT_FILE = 'gateway.env';

/** A value as one word for a POSIX shell: single-quoted, with any single quote closed, escaped and reopened. */
export const shellWord = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** The file's text: `export NAME='value'` lines a shell sources (`. data/gateway.env`); unknown values are left out. */
export function scriptEnvironmentText(environment: ScriptEnvironment): string {
  const variables: Array<[string, string | undefined]> = [
    ['GATEWAY_URL', environment.connectUrl],
    ['GATEWAY_GRPC_ADDRESS', environment.grpcAddress],
    ['GATEWAY_WEBHOOK_URL', environment.webhookUrl],
    ['GATEWAY_SANDBOX_ACCOUNT_ID', environment.sandboxAccountId],
    ['GATEWAY_ADMIN_EMAIL', environment.adminEmail],
    ['GATEWAY_TOKEN', environment.generatedToken],
  ];
  return [
    '# Written by the gateway at each start: where this start listens, for scripts (`. data/gateway.env`).',
    ...variables
      .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
      .map(([name, value]) => `export ${name}=${shellWord(value)}`),
    '',
  ].join('\n');
}

/** Writes the file whole (a reader never sees half of it), readable by its owner only since it may hold the token. */
export function writeScriptEnvironment(dataDir: string, environment: ScriptEnvironment): string {
  const path = join(dataDir, SCRIPT_ENVIRONMENT_FILE);
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, scriptEnvironmentText(environment), { mode: 0o600 });
  renameSync(partial, path);
  return path;
}
