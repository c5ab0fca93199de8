import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ACCOUNT_CHANGES_CHANNEL, AccountChangesListener } from '../../server/db/accountChanges.js';
import { AccountsRepository } from '../../server/db/accountsRepository.js';
import { SecretBox } from '../../server/lib/secretBox.js';
import { eventually } from '../support/eventually.js';
import { capturedLogger } from '../support/logCapture.js';

type Behaviour = 'accept' | 'refuse' | 'hang';

/** A stand-in for pg's Client: connects, fails to or never answers as told, and is lost or notified when the test says. */
class FakeClient extends EventEmitter {
  ended = false;
  listened: string[] = [];
  /** pg's socket: destroying it ends the session, and fails a connection still being made. */
  readonly connection = { stream: { destroy: () => this.cut() } };
  private cutShort?: (error: Error) => void;
  private ending = false;

  constructor(private readonly behaviour: Behaviour) {
    super();
  }

  async connect(): Promise<void> {
    if (this.behaviour === 'refuse') throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    if (this.behaviour === 'hang') await new Promise((_resolve, reject) => (this.cutShort = reject));
  }

  private cut(): void {
    // Like pg: once end() was asked for, a connect() under way is never settled.
    if (!this.ending) this.cutShort?.(new Error('Connection terminated unexpectedly'));
    if (this.ended) return;
    this.ended = true;
    this.emit('end');
  }

  async query(text: string): Promise<void> {
    this.listened.push(text);
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ending = true;
    // Like pg, a connection still being made is not ended by asking: the server never answers, so only a cut ends it.
    if (this.behaviour === 'hang') return new Promise((resolve) => this.once('end', () => resolve()));
    this.ended = true;
    this.emit('end');
  }

  /** The server ends the session (pg_terminate_backend): pg emits an error, then the end. */
  terminate(): void {
    this.emit('error', new Error('terminating connection due to administrator command'));
    this.ended = true;
    this.emit('end');
  }

  announce(channel: string, payload: string): void {
    this.emit('notification', { channel, payload });
  }
}

/** The listener over fake connections; `refusals` of the attempts, from the first, fail to connect (or hang). */
function harness(refusals = 0, failure: Behaviour = 'refuse') {
  const clients: FakeClient[] = [];
  const calls: string[] = [];
  const log = capturedLogger('warn');
  const listener = new AccountChangesListener({
    connect: () => {
      const client = new FakeClient(clients.length < refusals ? failure : 'accept');
      clients.push(client);
      return client as unknown as pg.Client;
    },
    target: { forget: (id) => calls.push(`forget ${id}`), forgetAll: () => calls.push('forgetAll') },
    logger: log.logger,
    firstRetryMs: 20,
    maxRetryMs: 80,
  });
  return { listener, clients, calls, log };
}

let running: AccountChangesListener | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('AccountChangesListener', () => {
  it('listens on the channel and drops the account each announcement names, ignoring other channels', async () => {
    const { listener, clients, calls } = harness();
    running = await listener.start();
    expect(listener.isListening).toBe(true);
    expect(clients[0]!.listened).toEqual([`listen ${ACCOUNT_CHANGES_CHANNEL}`]);
    clients[0]!.announce(ACCOUNT_CHANGES_CHANNEL, 'acc-1');
    clients[0]!.announce('some_other_channel', 'acc-2');
    expect(calls).toEqual(['forgetAll', 'forget acc-1']);
  });

  it('lost: clears the cache at once, warns, and clears it again once it listens on a new connection', async () => {
    const { listener, clients, calls, log } = harness();
    running = await listener.start();
    calls.length = 0;
    clients[0]!.terminate();
    // Before any reconnection: what was cached may miss changes announced from now on.
    expect(calls).toEqual(['forgetAll']);
    expect(listener.isListening).toBe(false);
    clients[0]!.announce(ACCOUNT_CHANGES_CHANNEL, 'too-late');
    await eventually(async () => listener.isListening, 2_000, 'the listener to be back');
    expect(clients).toHaveLength(2);
    expect(calls).toEqual(['forgetAll', 'forgetAll']);
    clients[1]!.announce(ACCOUNT_CHANGES_CHANNEL, 'acc-3');
    expect(calls.at(-1)).toBe('forget acc-3');
    const warnings = log.records();
    expect(warnings.map((record) => [record.level, record.msg])).toEqual([
      [40, expect.stringContaining('lost the listening connection')],
      [40, expect.stringContaining('listening again')],
    ]);
    expect(warnings[0]!.reason).toBe('terminating connection due to administrator command');
  });

  it('keeps trying with a growing back-off while the database refuses, without failing the start', async () => {
    const { listener, clients, log } = harness(3);
    running = await listener.start();
    expect(listener.isListening).toBe(false);
    await eventually(async () => listener.isListening, 2_000, 'the listener to get through');
    expect(clients).toHaveLength(4);
    const waits = log.records().flatMap((record) => (record.retryInMs === undefined ? [] : [record.retryInMs as number]));
    expect(waits).toHaveLength(3);
    // Each drawn between half and all of 20, 40, 80 ms.
    waits.forEach((wait, index) => {
      expect(wait).toBeGreaterThanOrEqual((20 * 2 ** index) / 2);
      expect(wait).toBeLessThanOrEqual(20 * 2 ** index);
    });
  });

  it('closed: ends its connection and neither clears nor reconnects afterwards, even while waiting to retry', async () => {
    const { listener, clients, calls } = harness();
    await listener.start();
    calls.length = 0;
    await listener.close();
    expect(clients[0]!.ended).toBe(true);
    expect(calls).toEqual([]);

    const refused = harness(Infinity);
    await refused.listener.start();
    await refused.listener.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(refused.clients).toHaveLength(1);
  });

  it('closed while connecting to a database that does not answer: cuts the connection rather than wait for it', async () => {
    const { listener, clients, calls } = harness(Infinity, 'hang');
    const starting = listener.start();
    await eventually(async () => clients.length === 1);
    await listener.close();
    await starting;
    expect(clients[0]!.ended).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(clients).toHaveLength(1);
    expect(calls).toEqual([]);
  });
});

describe('AccountsRepository, dropped while reading', () => {
  it('does not keep what a read that started before an announcement returns: the read may predate the change', async () => {
    const secrets = SecretBox.fromEncodedKey('1'.repeat(64));
    const id = '0b9d7f3e-1111-4222-8333-444455556666';
    const row = (secret: string) => ({
      id,
      provider: 'SANDBOX',
      name: 'raced',
      publicKey: 'pk',
      secretKeySealed: secrets.seal(secret),
      webhookSecretSealed: null,
      createdAt: new Date(),
      updatedAt: new Date(),
      deletedAt: null,
    });
    const reads: ((value: unknown) => void)[] = [];
    const connections: unknown[] = [];
    const em = {
      findOne: (_entity: unknown, _where: unknown, options: { connectionType?: string }) => {
        connections.push(options.connectionType);
        return new Promise((resolve) => reads.push(resolve));
      },
    } as unknown as EntityManager;
    const accounts = new AccountsRepository(secrets, 60_000);

    const before = accounts.getWithSecrets(em, id);
    await eventually(async () => reads.length === 1);
    accounts.forget(id); // another process's change is announced while the read is on its way
    reads[0]!(row('sk-old'));
    expect((await before)?.secretKey).toBe('sk-old');

    const after = accounts.getWithSecrets(em, id);
    await eventually(async () => reads.length === 2, 2_000, 'a second read: the first one was not kept');
    reads[1]!(row('sk-new'));
    expect((await after)?.secretKey).toBe('sk-new');
    // Now kept: no third read.
    expect((await accounts.getWithSecrets(em, id))?.secretKey).toBe('sk-new');
    expect(reads).toHaveLength(2);
    // Read on the primary: a lagging replica could still hold the version the announcement dropped.
    expect(connections).toEqual(['write', 'write']);
  });
});
