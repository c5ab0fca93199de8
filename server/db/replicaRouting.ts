import { ConnectionException, type ConnectionType } from '@mikro-orm/core';
import { PostgreSqlDriver, type PostgreSqlConnection } from '@mikro-orm/postgresql';
import { isDatabaseUnreachable } from '../lib/errors.js';

/**
 * Reads over the replicas in true round-robin order, with failover.
 *
 * MikroORM picks a replica with Math.round(Math.random() * (n - 1)), which is
 * biased (three replicas get 25/50/25 %). Its documented extension point is the
 * driver class, so this driver only replaces that choice: writes and
 * transactions still get the primary connection, and a read that cannot reach
 * its replica moves on to the next one, then to the primary.
 */
export class RoundRobinPostgreSqlDriver extends PostgreSqlDriver {
  private nextReplica = 0;

  override getConnection(type: ConnectionType = 'write'): PostgreSqlConnection {
    if (type === 'write' || this.replicas.length === 0) return this.connection;
    const start = this.nextReplica;
    this.nextReplica = (this.nextReplica + 1) % this.replicas.length;
    const order = [...this.replicas.slice(start), ...this.replicas.slice(0, start), this.connection];
    return withFailover(order);
  }

  /** The primary and each replica, named as the metrics show them. */
  namedConnections(): { name: string; connection: PostgreSqlConnection }[] {
    return [{ name: 'primary', connection: this.connection }, ...this.replicas.map((connection, index) => ({ name: `replica-${index + 1}`, connection }))];
  }
}

/** Errors that say the server could not be reached, as opposed to errors in the query. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ConnectionException || isDatabaseUnreachable(error);
}

const FAILOVER_ORDER = Symbol('failover order');

/** The connections to try in turn for a statement on `connection`: a read's replicas then the primary, else itself alone. */
export function failoverOrder(connection: PostgreSqlConnection): readonly PostgreSqlConnection[] {
  return (connection as PostgreSqlConnection & { [FAILOVER_ORDER]?: PostgreSqlConnection[] })[FAILOVER_ORDER] ?? [connection];
}

/** The first connection of `order`, whose `execute` falls through to the next ones when a server is unreachable. */
function withFailover(order: PostgreSqlConnection[]): PostgreSqlConnection {
  const [first] = order as [PostgreSqlConnection];
  return new Proxy(first, {
    get(target, property, receiver) {
      if (property === FAILOVER_ORDER) return order;
      if (property !== 'execute') return Reflect.get(target, property, receiver);
      return (...args: Parameters<PostgreSqlConnection['execute']>) => onFirstReachable(order, (connection) => connection.execute(...args));
    },
  });
}

/** Runs `work` on the first connection of `order` whose server can be reached; other failures end it at once. */
export async function onFirstReachable<T>(order: readonly PostgreSqlConnection[], work: (connection: PostgreSqlConnection) => Promise<T>): Promise<T> {
  let lastError: unknown;
  for (const connection of order) {
    try {
      return await work(connection);
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      lastError = error;
    }
  }
  throw lastError;
}
