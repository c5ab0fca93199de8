import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/eventually.js';
import { capturedLogger } from '../support/logCapture.js';
import { SandboxPsp, type SandboxPspOptions } from '../../server/sandbox/psp.js';
import { qrPng } from '../../server/lib/pixQrCode.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
const stateFile = join(dir, 'state.json');
const API_KEY = 'sk_live_looking_secret_0123456789';
const SECRET = 'whsec_signing_secret_never_on_disk';
const CARD = '4111111111111111';
let psp: SandboxPsp;

beforeAll(async () => {
  psp = await new SandboxPsp({ stateFile }).start();
});
afterAll(async () => {
  await psp.stop();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${psp.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** Everything on disk: the snapshot and the journal beside it. */
const saved = (file: string) => [file, `${file}.journal`].map((path) => (existsSync(path) ? readFileSync(path, 'utf8') : '')).join('\n');

it('keeps no API key in clear in its state file, and a restart still serves the same merchant', async () => {
  const created = (await (await post('/v1/charges', { amount: 1000, method: 'pix' })).json()) as { id: string };
  // Saved in the background, and by stop() at the latest.
  await eventually(async () => saved(stateFile).includes(created.id));
  await psp.stop();
  expect(saved(stateFile)).not.toContain(API_KEY);

  psp = await new SandboxPsp({ stateFile }).start();
  const again = await fetch(`${psp.url}/v1/charges/${created.id}`, { headers: { authorization: `Bearer ${API_KEY}` } });
  expect(again.status).toBe(200);
  const other = await fetch(`${psp.url}/v1/charges/${created.id}`, { headers: { authorization: 'Bearer someone-else' } });
  expect(other.status).toBe(404);
});

it('honours the Idempotency-Key header: the same key gets the same charge, never a second one', async () => {
  const first = (await (await post('/v1/charges', { amount: 2000, method: 'pix' }, { 'idempotency-key': 'order-77' })).json()) as { id: string };
  const second = await post('/v1/charges', { amount: 2000, method: 'pix' }, { 'idempotency-key': 'order-77' });
  expect(second.status).toBe(200);
  expect(((await second.json()) as { id: string }).id).toBe(first.id);
  const found = (await (await fetch(`${psp.url}/v1/charges?reference=order-77`, { headers: { authorization: `Bearer ${API_KEY}` } })).json()) as {
    data: unknown[];
  };
  expect(found.data).toHaveLength(1);
  const elsewhere = await fetch(`${psp.url}/v1/charges?reference=order-77`, { headers: { authorization: 'Bearer someone-else' } });
  expect(((await elsewhere.json()) as { data: unknown[] }).data).toHaveLength(0);
});

it('gives two charges sent at once with one Idempotency-Key the same charge', async () => {
  const answers = await Promise.all(Array.from({ length: 4 }, () => post('/v1/charges', { amount: 2100, method: 'pix' }, { 'idempotency-key': 'order-race' })));
  const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as { id: string }[];
  expect(new Set(bodies.map((body) => body.id)).size).toBe(1);
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 201]);
});

it("answers a PIX charge's QR image at an address, drawn when asked, not in the charge or its saved state", async () => {
  const created = (await (await post('/v1/charges', { amount: 1990, method: 'pix' })).json()) as {
    id: string;
    pix: { copyPaste: string; qrCodeUrl: string; qrCodeDataUrl?: string };
  };
  expect(created.pix.qrCodeUrl).toBe(`${psp.url}/v1/charges/${created.id}/qr.png`);
  expect(created.pix.qrCodeDataUrl).toBeUndefined();
  const image = await fetch(created.pix.qrCodeUrl);
  expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
  expect(Buffer.from(await image.arrayBuffer())).toEqual(qrPng(created.pix.copyPaste, 4));
  expect((await fetch(`${psp.url}/v1/charges/ch_unknown/qr.png`)).status).toBe(404);
  await eventually(async () => saved(stateFile).includes(created.id));
  expect(saved(stateFile)).not.toContain('data:image');
});

describe('the state journal', () => {
  const running: SandboxPsp[] = [];
  afterEach(async () => {
    for (const each of running.splice(0)) await each.stop();
  });

  const freshStateFile = () => join(mkdtempSync(join(dir, 'journal-')), 'state.json');
  const start = async (options: SandboxPspOptions) => {
    const started = await new SandboxPsp({ settleDelayMs: 20, ...options }).start();
    running.push(started);
    return started;
  };
  const call = async (on: SandboxPsp, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${on.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const pix = async (on: SandboxPsp, extra: Record<string, unknown> = {}) =>
    (await call(on, 'POST', '/v1/charges', { amount: 1990, method: 'pix', ...extra })).body as { id: string; status: string };
  const journalLines = (file: string) =>
    readFileSync(`${file}.journal`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));

  it('appends one line per changed record to a journal, and leaves the snapshot alone between compactions', async () => {
    const file = freshStateFile();
    const on = await start({ stateFile: file });
    const first = await pix(on);
    await eventually(async () => existsSync(`${file}.journal`) && readFileSync(`${file}.journal`, 'utf8').includes(first.id));
    const snapshot = readFileSync(file);
    const journal = readFileSync(`${file}.journal`, 'utf8');

    const more = [await pix(on), await pix(on), await pix(on)];
    expect((await call(on, 'POST', `/v1/charges/${first.id}/pay`)).status).toBe(200);
    await eventually(async () => readFileSync(`${file}.journal`, 'utf8').split('\n').length >= journal.split('\n').length + 4);

    expect(readFileSync(file)).toEqual(snapshot);
    const after = readFileSync(`${file}.journal`, 'utf8');
    expect(after.startsWith(journal)).toBe(true);
    const appended = after
      .slice(journal.length)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(appended.map(({ kind, id, record }) => [kind, id, record.status])).toEqual([
      ...more.map(({ id }) => ['charges', id, 'pending']),
      ['charges', first.id, 'paid'],
    ]);
  });

  it('survives a restart by replaying the journal over the snapshot, the last line of each record winning', async () => {
    const file = freshStateFile();
    let on = await start({ stateFile: file });
    const paid = await pix(on, { notificationSecret: SECRET });
    const refunded = await pix(on);
    // Paid once its pending line is written, so the journal holds both and the later must win.
    await eventually(async () => readFileSync(`${file}.journal`, 'utf8').includes(refunded.id));
    await call(on, 'POST', `/v1/charges/${paid.id}/pay`);
    await call(on, 'POST', `/v1/charges/${refunded.id}/pay`);
    await call(on, 'POST', `/v1/charges/${refunded.id}/refunds`, { amount: 500 });
    const withdrawal = (
      await call(on, 'POST', '/v1/withdrawals', { amount: 700, pixKey: 'ana@example.com', pixKeyType: 'EMAIL' }, { 'idempotency-key': 'wd-1' })
    ).body as { id: string };
    const recipient = (await call(on, 'POST', '/v1/recipients', { name: 'Ana', document: '12345678909' })).body as { id: string };
    await eventually(async () => (await call(on, 'GET', `/v1/withdrawals/${withdrawal.id}`)).body.status === 'paid');
    const before = await Promise.all(
      [`/v1/charges/${paid.id}`, `/v1/charges/${refunded.id}`, `/v1/withdrawals/${withdrawal.id}`, `/v1/recipients/${recipient.id}`].map(
        async (path) => (await call(on, 'GET', path)).body,
      ),
    );
    await on.stop();
    // All of it is in the journal only: the snapshot was written at start, before any of it.
    for (const id of [paid.id, refunded.id, withdrawal.id, recipient.id]) expect(readFileSync(file, 'utf8')).not.toContain(id);
    expect(journalLines(file).flatMap((line) => (line.id === paid.id ? [line.record.status] : []))).toEqual(['pending', 'paid']);

    on = await start({ stateFile: file });
    const after = await Promise.all(
      [`/v1/charges/${paid.id}`, `/v1/charges/${refunded.id}`, `/v1/withdrawals/${withdrawal.id}`, `/v1/recipients/${recipient.id}`].map(
        async (path) => (await call(on, 'GET', path)).body,
      ),
    );
    expect(after).toEqual(before);
    expect(after.slice(0, 3).map((item) => item.status)).toEqual(['paid', 'paid', 'paid']);
    expect(after[1].refundedAmount).toBe(500);
    // The Idempotency-Key still finds the withdrawal after the restart.
    const again = await call(on, 'POST', '/v1/withdrawals', { amount: 700, pixKey: 'ana@example.com', pixKeyType: 'EMAIL' }, { 'idempotency-key': 'wd-1' });
    expect([again.status, again.body.id]).toEqual([200, withdrawal.id]);
  });

  it('ignores a last journal line cut short by a crash, and starts', async () => {
    const file = freshStateFile();
    let on = await start({ stateFile: file });
    const kept = await pix(on);
    await on.stop();
    expect(readFileSync(`${file}.journal`, 'utf8')).toContain(kept.id);
    appendFileSync(`${file}.journal`, '{"kind":"charges","id":"ch_torn","record":{"id":"ch_to');

    const log = capturedLogger('warn');
    on = await start({ stateFile: file, logger: log.logger });
    expect((await call(on, 'GET', `/v1/charges/${kept.id}`)).status).toBe(200);
    expect((await call(on, 'GET', '/v1/charges/ch_torn')).status).toBe(404);
    expect(log.records().map((record) => record.msg)).toEqual([expect.stringContaining('cut short')]);

    // The journal it appends to now is whole: what comes next survives the next restart.
    const next = await pix(on);
    await on.stop();
    on = await start({ stateFile: file, logger: log.logger });
    for (const id of [kept.id, next.id]) expect((await call(on, 'GET', `/v1/charges/${id}`)).status).toBe(200);
    expect(log.records()).toHaveLength(1);
  });

  it('skips an unreadable line in the middle of the journal with a warning, and replays the lines after it', async () => {
    const file = freshStateFile();
    let on = await start({ stateFile: file });
    const first = await pix(on);
    await eventually(async () => readFileSync(`${file}.journal`, 'utf8').includes(first.id));
    const second = await pix(on);
    await on.stop();
    const [header, ...lines] = readFileSync(`${file}.journal`, 'utf8').split('\n');
    writeFileSync(`${file}.journal`, [header, lines[0], '{"kind":"charges","id":', ...lines.slice(1)].join('\n'));

    const log = capturedLogger('warn');
    on = await start({ stateFile: file, logger: log.logger });
    for (const id of [first.id, second.id]) expect((await call(on, 'GET', `/v1/charges/${id}`)).status).toBe(200);
    expect(log.records()).toEqual([expect.objectContaining({ msg: expect.stringContaining('skipped an unreadable line'), line: 3 })]);
  });

  it('compacts: the snapshot takes in the journal, the journal shrinks, and nothing is lost', async () => {
    const file = freshStateFile();
    let on = await start({ stateFile: file, journalCompactBytes: 1 });
    const ids: string[] = [];
    const journalSizes: number[] = [];
    for (let n = 0; n < 12; n += 1) {
      const charge = await pix(on);
      ids.push(charge.id);
      if (n % 3 === 0) await call(on, 'POST', `/v1/charges/${charge.id}/pay`);
      await eventually(async () => readFileSync(`${file}.journal`, 'utf8').includes(charge.id));
      journalSizes.push(readFileSync(`${file}.journal`).length);
    }
    const before = await Promise.all(ids.map(async (id) => (await call(on, 'GET', `/v1/charges/${id}`)).body));
    await on.stop();

    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    expect(snapshot.generation).toBeGreaterThan(2);
    expect(Object.keys(snapshot.charges).length).toBeGreaterThan(3);
    expect(journalSizes.some((size, n) => n > 0 && size < journalSizes[n - 1]!)).toBe(true);
    // Bounded by the snapshot: the disk does not keep every line ever appended.
    expect(readFileSync(`${file}.journal`).length).toBeLessThan(2 * readFileSync(file).length + 20_000);

    on = await start({ stateFile: file });
    expect(await Promise.all(ids.map(async (id) => (await call(on, 'GET', `/v1/charges/${id}`)).body))).toEqual(before);
    // Started from a journal with lines in it: compacted again, the journal is back to its header.
    expect(journalLines(file)).toEqual([{ generation: JSON.parse(readFileSync(file, 'utf8')).generation }]);
  });

  it('loses nothing whichever step of a compaction a crash interrupts', async () => {
    const file = freshStateFile();
    let on = await start({ stateFile: file });
    const charge = await pix(on);
    await call(on, 'POST', `/v1/charges/${charge.id}/pay`);
    await on.stop();
    const lines = journalLines(file);
    const pending = lines.find((line) => line.id === charge.id && line.record.status === 'pending');

    // Before the renames: the temporary files are half written, the old snapshot and its whole journal are in place.
    writeFileSync(`${file}.tmp`, '{"generation":99,"charges":{"ch_');
    writeFileSync(`${file}.journal.tmp`, '{"gener');
    on = await start({ stateFile: file });
    expect((await call(on, 'GET', `/v1/charges/${charge.id}`)).body.status).toBe('paid');
    await on.stop();

    // Between the renames: the new snapshot (which holds the charge paid) beside the journal it superseded, whose lines are older.
    const { generation } = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(`${file}.journal`, [{ generation: generation - 1 }, pending].map((line) => `${JSON.stringify(line)}\n`).join(''));
    const log = capturedLogger('warn');
    on = await start({ stateFile: file, logger: log.logger });
    expect((await call(on, 'GET', `/v1/charges/${charge.id}`)).body.status).toBe('paid');
    expect(log.records()).toEqual([]);
  });

  it('loads a state file from before the journal as its snapshot, and journals from there', async () => {
    const file = freshStateFile();
    const apiKey = createHash('sha256').update(API_KEY).digest('hex');
    const charge = { id: 'ch_legacy', amount: 1500, method: 'pix', status: 'paid', installments: 1, createdAt: '2026-01-01T00:00:00.000Z', refundedAmount: 0 };
    const withdrawal = {
      id: 'wd_legacy',
      amount: 300,
      status: 'paid',
      pixKey: 'ana@example.com',
      pixKeyType: 'EMAIL',
      description: '',
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    const recipient = {
      id: 'rp_legacy',
      token: 't',
      name: 'Ana',
      document: '12345678909',
      email: '',
      status: 'active',
      balance: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    writeFileSync(
      file,
      JSON.stringify({
        charges: { [charge.id]: { ...charge, apiKey, idempotencyKey: 'legacy-1' } },
        withdrawals: { [withdrawal.id]: { ...withdrawal, apiKey } },
        recipients: { [recipient.id]: { ...recipient, apiKey } },
      }),
    );

    let on = await start({ stateFile: file });
    expect((await call(on, 'GET', '/v1/charges/ch_legacy')).body).toEqual(charge);
    expect((await call(on, 'GET', '/v1/withdrawals/wd_legacy')).body).toEqual(withdrawal);
    expect((await call(on, 'GET', '/v1/recipients/rp_legacy')).body).toEqual(recipient);
    expect((await call(on, 'GET', '/v1/charges?reference=legacy-1')).body.data).toEqual([charge]);
    expect((await call(on, 'POST', '/v1/charges', { amount: 1500, method: 'pix' }, { 'idempotency-key': 'legacy-1' })).body.id).toBe('ch_legacy');
    const later = await pix(on);
    await on.stop();
    expect(journalLines(file).map((line) => line.id)).toEqual([undefined, later.id]);

    on = await start({ stateFile: file });
    for (const path of ['/v1/charges/ch_legacy', `/v1/charges/${later.id}`, '/v1/withdrawals/wd_legacy', '/v1/recipients/rp_legacy'])
      expect((await call(on, 'GET', path)).status).toBe(200);
  });

  it('saves what it stops keeping whole, and brings a state saved under a higher limit under a lower one at start', async () => {
    const file = freshStateFile();
    let on = await start({ stateFile: file, wholeRecords: 5 });
    const keyed = (await call(on, 'POST', '/v1/charges', { amount: 100, method: 'pix' }, { 'idempotency-key': 'first' })).body as { id: string };
    const charges = [keyed, await pix(on, { amount: 200 }), await pix(on, { amount: 300 })];
    await call(on, 'POST', `/v1/charges/${charges[1]!.id}/pay`);
    await on.stop();

    on = await start({ stateFile: file, wholeRecords: 1 });
    const read = async () => Promise.all(charges.map(async ({ id }) => (await call(on, 'GET', `/v1/charges/${id}`)).body));
    const brought = await read();
    expect(brought.map((charge) => [charge.amount, charge.status, charge.forgotten])).toEqual([
      [100, 'canceled', true],
      [200, 'paid', true],
      [300, 'pending', undefined],
    ]);
    await on.stop();
    expect(
      journalLines(file)
        .filter((line) => line.record?.forgotten)
        .map((line) => [line.id, line.record.status]),
    ).toEqual([
      [charges[0]!.id, 'canceled'],
      [charges[1]!.id, 'paid'],
    ]);

    // Forgotten stays forgotten under a higher limit again: a canceled charge is never pending again. Its key still finds it.
    on = await start({ stateFile: file, wholeRecords: 5 });
    expect(await read()).toEqual(brought);
    expect((await call(on, 'GET', '/v1/charges?reference=first')).body.data).toEqual([brought[0]]);
    expect((await call(on, 'POST', `/v1/charges/${charges[0]!.id}/pay`)).status).toBe(409);
  });

  it('never writes a signing secret, a card number or an API key, in the snapshot or the journal', async () => {
    const file = freshStateFile();
    let on = await start({ stateFile: file, journalCompactBytes: 1 });
    const { token } = (await call(on, 'POST', '/v1/card-tokens', { number: CARD, expMonth: 12, expYear: 2031, cvv: '123', holderName: 'Ana' })).body;
    const card = (await call(on, 'POST', '/v1/cards', { token })).body as { id: string };
    const byCard = (await call(on, 'POST', '/v1/charges', { amount: 2500, method: 'card', cardId: card.id, notificationSecret: SECRET })).body as {
      id: string;
    };
    const byPix = await pix(on, { notificationSecret: SECRET });
    await call(on, 'POST', `/v1/charges/${byPix.id}/pay`);
    const withdrawal = (await call(on, 'POST', '/v1/withdrawals', { amount: 700, pixKey: 'ana@example.com', notificationSecret: SECRET })).body as {
      id: string;
    };
    await eventually(async () => (await call(on, 'GET', `/v1/withdrawals/${withdrawal.id}`)).body.status === 'paid');
    await on.stop();

    const check = () => {
      const disk = saved(file);
      for (const id of [byCard.id, byPix.id, withdrawal.id]) expect(disk).toContain(id);
      for (const secret of [SECRET, CARD, API_KEY]) expect(disk).not.toContain(secret);
    };
    check();
    expect(journalLines(file).some((line) => line.id === withdrawal.id && line.record.status === 'paid')).toBe(true);
    // And once compacted at the next start.
    on = await start({ stateFile: file });
    await on.stop();
    check();
  });
});
