import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { base32Decode, base32Encode, totpCode } from '../../server/lib/totp.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 33 §6: operators turn on two-step verification (TOTP) and then sign in with a code; a missing code is asked
 * for only once the password matched, a wrong or replayed one counts towards the lock-out, an admin resets another's,
 * and with OPERATOR_TOTP_REQUIRED_FOR_ADMINS an admin without it may only enroll.
 */
let stack: TestStack;
let db: pg.Client;
let base: string;
let admin: { email: string; password: string };

beforeAll(async () => {
  stack = await startTestStack({ env: { OPERATOR_TOTP_REQUIRED_FOR_ADMINS: 'true', SIGN_IN_MAX_FAILURES: '4', SIGN_IN_RATE_PER_MINUTE: '1000' } });
  base = stack.gateway.httpUrl!;
  admin = { email: stack.gateway.firstAdmin!.email, password: stack.gateway.firstAdmin!.password! };
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await stack?.close();
});

type Headers = Record<string, string>;

const signIn = (email: string, password: string, totpCode?: string) =>
  fetch(`${base}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(totpCode === undefined ? { email, password } : { email, password, totpCode }),
  });

async function session(email: string, password: string, code?: string): Promise<Headers> {
  const response = await signIn(email, password, code);
  expect(response.status).toBe(200);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken };
}

async function rpc(method: string, headers: Headers, body: unknown = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/gateway.v1.AccessService/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Begins and confirms an enrollment with the current code; answers the secret. */
async function enroll(headers: Headers): Promise<Buffer> {
  const begun = await rpc('BeginTotpEnrollment', headers);
  expect(begun.status).toBe(200);
  const secret = base32Decode(begun.body.secret as string);
  expect((await rpc('ConfirmTotpEnrollment', headers, { code: totpCode(secret, Date.now()) })).status).toBe(200);
  return secret;
}

/** A code of the next step: the current one was spent by the confirmation or the last sign-in. */
const nextCode = (secret: Buffer) => totpCode(secret, Date.now() + 30_000);

/** Six digits none of the window's steps has. */
function wrongCode(secret: Buffer): string {
  const near = [-30_000, 0, 30_000].map((offset) => totpCode(secret, Date.now() + offset));
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, '0');
    if (!near.includes(code)) return code;
  }
}

let adminSecret: Buffer;
let adminHeaders: Headers;

describe('two-step verification', () => {
  it('lets an admin without it sign in but only enroll while OPERATOR_TOTP_REQUIRED_FOR_ADMINS is on', async () => {
    const response = await signIn(admin.email, admin.password);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ totpEnrollmentRequired: true, operator: { totpEnabled: false } });
    adminHeaders = await session(admin.email, admin.password);
    const refused = await rpc('ListOperators', adminHeaders);
    expect(refused.body).toMatchObject({ code: 'failed_precondition', message: 'turn on two-step verification first: it is required for admins' });
    expect((await rpc('WhoAmI', adminHeaders)).body).toMatchObject({ totpEnrollmentRequired: true });

    const begun = await rpc('BeginTotpEnrollment', adminHeaders);
    expect(begun.body).toMatchObject({
      secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
      otpauthUri: expect.stringMatching(/^otpauth:\/\/totp\/Payment%20Gateway:admin%40localhost\?secret=[A-Z2-7]{32}&issuer=Payment%20Gateway&/),
      qrCode: expect.stringMatching(/^data:image\/png;base64,/),
    });
    const secret = base32Decode(begun.body.secret as string);
    const wrong = await rpc('ConfirmTotpEnrollment', adminHeaders, { code: wrongCode(secret) });
    expect(wrong.body).toMatchObject({ code: 'invalid_argument', message: 'code is not a current code of the secret begun' });
    const confirmed = await rpc('ConfirmTotpEnrollment', adminHeaders, { code: totpCode(secret, Date.now()) });
    expect(confirmed.body).toMatchObject({ operator: { email: admin.email, totpEnabled: true } });
    adminSecret = secret;

    expect((await rpc('ListOperators', adminHeaders)).status).toBe(200);
    expect((await rpc('WhoAmI', adminHeaders)).body.totpEnrollmentRequired).toBeUndefined();
  });

  it('keeps the secret sealed at rest and out of the audit trail', async () => {
    const { rows } = await db.query('select totp_secret_sealed, totp_pending_sealed from operators where email = $1', [admin.email]);
    const again = (await rpc('BeginTotpEnrollment', adminHeaders)).body;
    expect(again).toMatchObject({ code: 'failed_precondition', message: 'two-step verification is already on: disable it first' });
    expect(rows[0].totp_secret_sealed).toMatch(/^v1\./);
    expect(rows[0].totp_pending_sealed).toBeNull();
    const secretText = base32Encode(adminSecret);
    expect(rows[0].totp_secret_sealed).not.toContain(secretText);
    const audit = await db.query("select action, detail from audit_events where action like '%Totp%'");
    expect(audit.rows.map((row) => row.action)).toEqual(expect.arrayContaining(['gateway.v1.AccessService/BeginTotpEnrollment']));
    expect(JSON.stringify(audit.rows)).not.toContain(secretText);
  });

  it('asks for the code only after the password matched, and signs in with a right one once', async () => {
    const wrongPassword = await signIn(admin.email, 'not the password at all');
    expect(wrongPassword.status).toBe(401);
    expect(await wrongPassword.json()).toEqual({ code: 'unauthenticated', message: 'wrong e-mail or password', reason: 'WRONG_CREDENTIALS' });
    const wrongPasswordWithCode = await signIn(admin.email, 'not the password at all', nextCode(adminSecret));
    expect(await wrongPasswordWithCode.json()).toMatchObject({ reason: 'WRONG_CREDENTIALS' });

    const missing = await signIn(admin.email, admin.password);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: 'unauthenticated', message: 'a code from the authenticator app is required', reason: 'TOTP_REQUIRED' });

    const wrong = await signIn(admin.email, admin.password, wrongCode(adminSecret));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ code: 'unauthenticated', message: 'wrong or already used code', reason: 'WRONG_TOTP_CODE' });

    const code = nextCode(adminSecret);
    adminHeaders = await session(admin.email, admin.password, code);
    const replayed = await signIn(admin.email, admin.password, code);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ reason: 'WRONG_TOTP_CODE' });
    // The success before the replay cleared the failures: one wrong code now is not a lock-out.
    expect((await db.query('select failed_sign_ins from sign_in_failures')).rows).toEqual([{ failed_sign_ins: 1 }]);
  });

  it('counts wrong codes towards the lock-out, which then refuses even the right code', async () => {
    const created = await rpc('CreateOperator', adminHeaders, { email: 'bia@example.com', role: 'operator', password: 'bia-password-123' });
    expect(created.status).toBe(200);
    const secret = await enroll(await session('bia@example.com', 'bia-password-123'));
    for (let i = 0; i < 3; i += 1) expect((await signIn('bia@example.com', 'bia-password-123', wrongCode(secret))).status).toBe(401);
    const locked = await signIn('bia@example.com', 'bia-password-123', wrongCode(secret));
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ reason: 'LOCKED_OUT' });
    expect((await signIn('bia@example.com', 'bia-password-123', nextCode(secret))).status).toBe(429);
  });

  it("lets an admin reset another operator's, and an operator disable their own with a current code", async () => {
    await rpc('CreateOperator', adminHeaders, { email: 'caio@example.com', role: 'viewer', password: 'caio-password-123' });
    const caio = await session('caio@example.com', 'caio-password-123');
    await enroll(caio);
    expect((await signIn('caio@example.com', 'caio-password-123')).status).toBe(401);
    const id = ((await rpc('ListOperators', adminHeaders)).body.operators as { id: string; email: string }[]).find(
      (operator) => operator.email === 'caio@example.com',
    )!.id;
    const reset = await rpc('UpdateOperator', adminHeaders, { id, resetTotp: true });
    expect(reset.body).toMatchObject({ operator: { email: 'caio@example.com' } });
    expect((reset.body.operator as { totpEnabled?: boolean }).totpEnabled).toBeUndefined();
    const caioAgain = await session('caio@example.com', 'caio-password-123');

    const secret = await enroll(caioAgain);
    const wrong = await rpc('DisableTotp', caioAgain, { code: wrongCode(secret) });
    expect(wrong.body).toMatchObject({ code: 'invalid_argument', message: 'code is wrong or was already used' });
    const disabled = await rpc('DisableTotp', caioAgain, { code: nextCode(secret) });
    expect(disabled.status).toBe(200);
    expect((await signIn('caio@example.com', 'caio-password-123')).status).toBe(200);
  });
});
