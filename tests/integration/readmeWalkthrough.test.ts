import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { prepareTemplate, templateStaleBecause } from '../../scripts/serverBuild.js';
import { removeDir } from '../support/gateway.js';
import { portFor, spawnGateway, type GatewayProcess } from '../support/process.js';

/**
 * The README's walkthrough runs as written, twice, against a gateway on other ports than the defaults and a generated
 * token: everything it needs comes from `data/gateway.env`, each run makes its own charge, and nothing prints the QR
 * image. Its operators' block invites an operator and changes the first admin's password.
 */
const folder = mkdtempSync(join(tmpdir(), 'gateway-readme-'));
const dataDir = join(folder, 'data');
let gateway: GatewayProcess | undefined;

/** The shell block that follows a heading of the README. */
function blockAfter(heading: string): string {
  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const from = readme.indexOf(`${heading}\n`);
  if (from < 0) throw new Error(`README.md has no heading ${heading}`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(from));
  if (!block) throw new Error(`README.md has no sh block after ${heading}`);
  return block[1];
}

/** Runs shell lines from the README's folder of reference (the data folder beside them), stopping at the first failure. */
function run(script: string): { status: number | null; stdout: string; stderr: string } {
  const answer = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: folder, encoding: 'utf8', timeout: 60_000 });
  return { status: answer.status, stdout: answer.stdout, stderr: answer.stderr };
}

beforeAll(async () => {
  if (templateStaleBecause(process.cwd())) await prepareTemplate(process.cwd());
  mkdirSync(dataDir, { recursive: true });
  gateway = await spawnGateway({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    API_TOKENS: '',
    ADMIN_PASSWORD: '',
    GRPC_PORT: portFor(41),
    HTTP_PORT: portFor(42),
    WEBHOOK_PORT: portFor(43),
    SANDBOX_PORT: portFor(44),
  });
}, 120_000);

afterAll(async () => {
  gateway?.child.kill('SIGTERM');
  await gateway?.exited;
  removeDir(folder);
});

it('writes data/gateway.env with the addresses of this start, readable by its owner only', () => {
  const text = readFileSync(join(dataDir, 'gateway.env'), 'utf8');
  expect(text).toContain(`export GATEWAY_URL='http://127.0.0.1:${portFor(42)}'`);
  expect(text).toContain(`export GATEWAY_GRPC_ADDRESS='127.0.0.1:${portFor(41)}'`);
  expect(text).toContain(`export GATEWAY_TOKEN='${readFileSync(join(dataDir, 'api-token'), 'utf8').trim()}'`);
  expect(text).toMatch(/export GATEWAY_SANDBOX_ACCOUNT_ID='[0-9a-f-]{36}'/);
  expect(statSync(join(dataDir, 'gateway.env')).mode & 0o777).toBe(0o600);
});

it('the walkthrough runs as written twice: a new APPROVED charge each time, no QR image on the terminal', () => {
  const walkthrough = blockAfter('## Walkthrough: a PIX charge, paid and approved');
  const charges = [run(walkthrough), run(walkthrough)].map((answer) => {
    expect(answer).toMatchObject({ status: 0 });
    const output = answer.stdout + answer.stderr;
    expect(output).not.toContain('base64');
    expect(output.length).toBeLessThan(4_000);
    const lines = answer.stdout.trim().split('\n');
    // Step 1 prints the new charge PENDING; steps 2 and 3 print it APPROVED with both changes.
    expect(lines[0]).toMatch(/^[0-9a-f-]{36} TRANSACTION_STATUS_PENDING 000201/);
    const id = lines[0].split(' ')[0];
    expect(lines.filter((line) => line.startsWith(`${id} TRANSACTION_STATUS_APPROVED`))).toHaveLength(2);
    expect(answer.stdout).toMatch(/TRANSACTION_STATUS_APPROVED from STATUS_SOURCE_WEBHOOK/);
    return id;
  });
  expect(new Set(charges).size).toBe(2);
});

it("the operators' block invites an operator and changes the first admin's password", async () => {
  const block = blockAfter("### Operators: invite one, change the first admin's password");
  const answer = run(`. data/gateway.env\nH="authorization: Bearer $GATEWAY_TOKEN"\nJ='content-type: application/json'\nAPI=$GATEWAY_URL/gateway.v1\n${block}`);
  expect(answer).toMatchObject({ status: 0 });
  expect(answer.stdout).toMatch(/"initialPassword":"[^"]{12,}"/);
  const url = `http://127.0.0.1:${portFor(42)}/auth/sign-in`;
  const signIn = (password: string) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@localhost', password }) });
  expect((await signIn('choose one of 12 to 256 characters')).status).toBe(200);
  expect((await signIn(readFileSync(join(dataDir, 'admin-password'), 'utf8').trim())).status).not.toBe(200);
});
