import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { ChangeOwnPasswordRequest, CreateOperatorRequest, UpdateOperatorRequest, WhoAmIRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/**
 * Issue 33 §6, team: an admin invites an operator with a password the gateway
 * makes up (answered once, kept only as a hash), resets one the same way, and
 * every operator changes their own password by giving the current one.
 */
let stack: TestStack;
let connect: Driver;
let db: pg.Client;
const opened: Driver[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  connect = connectDriver(stack.gateway.httpUrl!, TEST_TOKEN);
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
});
afterAll(async () => {
  opened.forEach((driver) => driver.close());
  await db?.end();
  connect?.close();
  await stack?.close();
});

const signIn = (email: string, password: string) =>
  fetch(`${stack.gateway.httpUrl}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

/** A Connect driver signed in as the operator, as the back-office calls. */
async function operatorDriver(email: string, password: string): Promise<Driver> {
  const response = await signIn(email, password);
  expect(response.status).toBe(200);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  const driver = connectDriver(stack.gateway.httpUrl!, null, { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken });
  opened.push(driver);
  return driver;
}

const invite = (client: Driver, email: string, role = 'operator', password = '') =>
  client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ email, role, password }));

describe.each(['gRPC', 'Connect'] as const)('inviting and resetting over %s', (transport) => {
  const client = () => (transport === 'gRPC' ? stack.client : connect);

  it('without a password, the gateway makes one up, answers it once and keeps only its hash; it signs in', async () => {
    const email = `invited-${transport.toLowerCase()}@example.com`;
    const { operator, initialPassword } = await invite(client(), email);
    expect(operator).toMatchObject({ email, role: 'operator', disabled: false });
    expect(initialPassword).toMatch(/^[\w-]{24}$/);
    const { rows } = await db.query('select password_hash from operators where id = $1', [operator.id]);
    expect(rows[0].password_hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify((await db.query('select * from audit_events')).rows)).not.toContain(initialPassword);
    expect((await signIn(email, initialPassword)).status).toBe(200);
  });

  it('a chosen password is answered nowhere, and one equal to the e-mail is refused naming the field', async () => {
    const email = `chosen-${transport.toLowerCase()}@example.com`;
    expect((await invite(client(), email, 'viewer', 'a chosen long password')).initialPassword).toBe('');
    const sameAsEmail = invite(client(), `Long.Enough@example.com`, 'viewer', 'long.enough@example.com');
    expect(await failureOf(sameAsEmail)).toEqual({ code: 'INVALID_ARGUMENT', message: "password must not be the operator's e-mail" });
    expect((await errorDetailsOf(invite(client(), `x-${email}`, 'viewer', `x-${email}`))).fields).toEqual(['password']);
  });

  it('reset_password makes up a new one, answered once, ends the sessions; the old password stops working', async () => {
    const email = `reset-${transport.toLowerCase()}@example.com`;
    const { operator, initialPassword } = await invite(client(), email, 'viewer');
    const session = await operatorDriver(email, initialPassword);
    const { generatedPassword, operator: after } = await client().call(
      'access',
      'updateOperator',
      UpdateOperatorRequest.fromPartial({ id: operator.id, resetPassword: true }),
    );
    expect(generatedPassword).toMatch(/^[\w-]{24}$/);
    expect(generatedPassword).not.toBe(initialPassword);
    expect(after.role).toBe('viewer');
    expect((await failureOf(session.call('access', 'whoAmI', WhoAmIRequest.fromPartial({})))).code).toBe('UNAUTHENTICATED');
    expect((await signIn(email, initialPassword)).status).toBe(401);
    expect((await signIn(email, generatedPassword)).status).toBe(200);

    const both = client().call(
      'access',
      'updateOperator',
      UpdateOperatorRequest.fromPartial({ id: operator.id, resetPassword: true, password: 'another long one' }),
    );
    expect(await failureOf(both)).toEqual({ code: 'INVALID_ARGUMENT', message: 'reset_password and password cannot both be set' });
    const asEmail = client().call('access', 'updateOperator', UpdateOperatorRequest.fromPartial({ id: operator.id, password: email }));
    expect(await failureOf(asEmail)).toEqual({ code: 'INVALID_ARGUMENT', message: "password must not be the operator's e-mail" });
  });
});

describe('changing one’s own password', () => {
  const change = (driver: Driver, currentPassword: string, newPassword: string) =>
    driver.call('access', 'changeOwnPassword', ChangeOwnPasswordRequest.fromPartial({ currentPassword, newPassword }));

  it('a viewer changes theirs with the current one; every session ends; only the new one signs in; the audit trail has it', async () => {
    const email = 'changes-own@example.com';
    const { operator, initialPassword } = await invite(stack.client, email, 'viewer');
    const session = await operatorDriver(email, initialPassword);
    const other = await operatorDriver(email, initialPassword);
    await change(session, initialPassword, 'my own long password');
    for (const driver of [session, other]) expect((await failureOf(driver.call('access', 'whoAmI', {}))).code).toBe('UNAUTHENTICATED');
    expect((await signIn(email, initialPassword)).status).toBe(401);
    expect((await signIn(email, 'my own long password')).status).toBe(200);
    const { rows } = await db.query(`select actor_id, outcome from audit_events where action = 'gateway.v1.AccessService/ChangeOwnPassword'`);
    expect(rows).toEqual([{ actor_id: operator.id, outcome: 'OK' }]);
    expect(JSON.stringify((await db.query('select * from audit_events')).rows)).not.toContain('my own long password');
  });

  it('refuses a wrong current password, a short one, the e-mail and the same one, each naming its field; nothing changes', async () => {
    const email = 'refused-change@example.com';
    await invite(stack.client, email, 'operator', 'the first long password');
    const session = await operatorDriver(email, 'the first long password');
    // Each with the rule the back-office says in its own language (web/src/errorReasons.ts).
    const cases: [string, string, string, string, string][] = [
      ['', 'a new long password', 'current_password', 'current_password is required', 'REQUIRED'],
      ['not the current one', 'a new long password', 'current_password', "current_password is not the operator's current password", 'WRONG_PASSWORD'],
      ['the first long password', 'short', 'new_password', 'new_password must be 12 to 256 characters long', 'LENGTH_OUT_OF_RANGE'],
      ['the first long password', 'REFUSED-change@example.com', 'new_password', "new_password must not be the operator's e-mail", 'PASSWORD_IS_EMAIL'],
      ['the first long password', 'the first long password', 'new_password', 'new_password must differ from the current password', 'SAME_PASSWORD'],
    ];
    for (const [current, next, field, message, rule] of cases) {
      expect(await failureOf(change(session, current, next))).toEqual({ code: 'INVALID_ARGUMENT', message });
      expect(await errorDetailsOf(change(session, current, next))).toMatchObject({ fields: [field], fieldReasons: [rule] });
    }
    // Still signed in, still the old password.
    await session.call('access', 'whoAmI', {});
    expect((await signIn(email, 'the first long password')).status).toBe(200);
  });

  it('wrong current passwords count as failed sign-ins: enough of them lock the e-mail out', async () => {
    const email = 'guessing-session@example.com';
    await invite(stack.client, email, 'viewer', 'the real long password');
    const session = await operatorDriver(email, 'the real long password');
    for (let attempt = 0; attempt < 5; attempt++) await failureOf(change(session, `guess number ${attempt}`, 'a new long password'));
    expect(await failureOf(change(session, 'the real long password', 'a new long password'))).toEqual({
      code: 'RESOURCE_EXHAUSTED',
      message: expect.stringMatching(/^too many failed sign-ins: try again in \d+ minutes?$/),
    });
    expect((await signIn(email, 'the real long password')).status).toBe(429);
  });

  it('a service token has no password to change', async () => {
    expect(await failureOf(change(connect, 'whatever it is', 'a new long password'))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'only an operator signed in to the back-office has a password to change',
    });
  });
});
