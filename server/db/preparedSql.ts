import type pg from 'pg';
import type { ConnectionType, EntityManager } from '@mikro-orm/core';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { failoverOrder, onFirstReachable } from './replicaRouting.js';

/**
 * A statement of a hot path (a charge, a read, a webhook's intake), sent as a named prepared statement: PostgreSQL
 * parses and plans it once per connection instead of once per call, and its values travel as parameters instead of
 * being written into the text. Measured on this project's charge insert, eight at a time against the machine's
 * PostgreSQL: half the database's CPU per statement (0.18 against 0.35 ms) and less than half the gateway's (0.07
 * against 0.15 ms) compared with MikroORM's `execute`, which inlines every value into a new text.
 *
 * The text is written with `?` placeholders, as for `execute`, and must hold no other question mark (no `?` operator,
 * none inside a literal). PostgreSQL refuses to run a prepared statement whose result row changed shape (another
 * process's migration added a column under a `t.*`); that refusal is answered here by preparing the statement again
 * on a new connection, once.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

export function prepared(name: string, sql: string): PreparedStatement {
  let index = 0;
  const text = sql.replace(/\?/g, () => `$${++index}`);
  return { name, text };
}

/** Sends statements named (prepared once per connection) or, with `named` false, unnamed (PgBouncer in transaction mode before 1.21). */
const namedByPool = new WeakMap<pg.Pool, boolean>();

/** Whether statements on `pool` are prepared under their name (DB_PREPARED_STATEMENTS); named unless said otherwise. */
export function usePreparedStatements(pool: pg.Pool, named: boolean): void {
  namedByPool.set(pool, named);
}

/** SQLSTATE 0A000 with this text: the cached plan of a prepared statement no longer matches its table. */
const STALE_PLAN = /cached plan must not change result type/i;

/**
 * Runs `statement` with `values` outside any transaction (autocommit, as `execute` without a transaction context
 * does) on the connection `type` names: the primary for 'write'; for 'read', a replica in turn, falling through to
 * the next one and then to the primary when one cannot be reached. Answers the rows; errors are the driver's, as
 * `execute`'s are.
 */
export async function runPrepared<Row>(em: EntityManager, type: ConnectionType, statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  const order = failoverOrder(em.getConnection(type) as PostgreSqlConnection);
  return onFirstReachable(order, async (connection) => runOn<Row>(await connection.getNativeClient(), statement, values));
}

/**
 * One statement on `client`, through node-postgres' callback form. Its promise form (`client.query(config)`) leaves
 * V8's scavenges finding more alive: a script sending one statement after another promoted 309 KB a scavenge with it
 * against 34 KB with this (docs/benchmarks.md, *The p99 at 200/s and V8's full collections*), and what a scavenge
 * promotes a full collection has to free. A failure gets the caller's stack, as the promise form gives it, instead of
 * the socket read's.
 */
async function send<Row>(client: pg.PoolClient, config: pg.QueryConfig): Promise<Row[]> {
  try {
    return await new Promise<Row[]>((resolve, reject) => {
      client.query<Row & pg.QueryResultRow>(config, (error: Error | undefined, result: pg.QueryResult<Row & pg.QueryResultRow>) =>
        error ? reject(error) : resolve(result.rows),
      );
    });
  } catch (error) {
    if (error instanceof Error) Error.captureStackTrace(error);
    throw error;
  }
}

async function runOn<Row>(pool: pg.Pool, statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  const config = namedByPool.get(pool) === false ? { text: statement.text, values } : { name: statement.name, text: statement.text, values };
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    try {
      const rows = await send<Row>(client, config);
      client.release();
      return rows;
    } catch (error) {
      const stale = attempt === 1 && 'name' in config && error instanceof Error && STALE_PLAN.test(error.message);
      // A stale plan lives on that connection's session: it goes, and a fresh one prepares the statement again.
      client.release(stale ? error : undefined);
      if (!stale) throw error;
    }
  }
}

/** Prepared statements run inside one database transaction (inPreparedTransaction), on its connection. */
export interface PreparedTx {
  run<Row>(statement: PreparedStatement, values: unknown[]): Promise<Row[]>;
}

/** Where a prepared statement runs: a transaction's connection, or (an EntityManager) the primary in autocommit. */
export type PreparedTarget = EntityManager | PreparedTx;

export function runPreparedOn<Row>(target: PreparedTarget, statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  return 'run' in target ? target.run<Row>(statement, values) : runPrepared<Row>(target, 'write', statement, values);
}

/**
 * Runs `work` in one database transaction on a connection of the primary's pool, its statements prepared as
 * runPrepared's are: a hot path's transaction (a webhook's status move with its outcome) without a unit of work to
 * fork and flush. Commits what `work` did when it resolves, rolls it all back when it throws. A stale plan (see
 * runPrepared) aborts the transaction: it is rolled back and `work` runs once more on a fresh connection, so `work`
 * must do nothing but its statements before it resolves.
 */
export async function inPreparedTransaction<T>(em: EntityManager, work: (tx: PreparedTx) => Promise<T>): Promise<T> {
  const pool = await (em.getConnection('write') as PostgreSqlConnection).getNativeClient();
  const named = namedByPool.get(pool) !== false;
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let begun = false;
    try {
      await send(client, { text: 'begin' });
      begun = true;
      const result = await work({
        run: <Row>(statement: PreparedStatement, values: unknown[]) =>
          send<Row>(client, named ? { name: statement.name, text: statement.text, values } : { text: statement.text, values }),
      });
      await send(client, { text: 'commit' });
      client.release();
      return result;
    } catch (error) {
      const stale = attempt === 1 && named && error instanceof Error && STALE_PLAN.test(error.message);
      // A connection whose rollback failed is in no known state: it is closed, not given back.
      const rolledBack =
        !begun ||
        (await client.query('rollback').then(
          () => true,
          () => false,
        ));
      client.release(stale || !rolledBack ? (error as Error) : undefined);
      if (!stale) throw error;
    }
  }
}
