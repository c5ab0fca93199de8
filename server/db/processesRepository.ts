import type { EntityManager } from '@mikro-orm/postgresql';

/** A process registered on some host, as its row says. */
export interface RegisteredProcess {
  id: string;
  pid: number;
}

/**
 * The gateway processes that may hold provider calls in flight (gateway_processes). Each keeps its own row alive:
 * one UPDATE per process and interval, whatever number of calls it has in flight. Times are the database's clock,
 * so that processes on hosts whose clocks differ judge each other alike.
 */
export class ProcessesRepository {
  /** Marks the process alive now; creates its row on the first beat (and again if a sweep had removed it). */
  async beat(em: EntityManager, process: { id: string; host: string; pid: number }): Promise<void> {
    await em.getConnection('write').execute(
      `insert into gateway_processes (id, host, pid, started_at, heartbeat_at) values (?, ?, ?, now(), now())
         on conflict (id) do update set heartbeat_at = now()`,
      [process.id, process.host, process.pid],
      'run',
    );
  }

  /** The other processes registered from `host`, so that the caller can tell which of them no longer run there. */
  async onHost(em: EntityManager, host: string, exceptId: string): Promise<RegisteredProcess[]> {
    const rows = await em
      .getConnection('write')
      .execute<Array<{ id: string; pid: number }>>(`select id, pid from gateway_processes where host = ? and id <> ?`, [host, exceptId], 'all');
    return rows.map((row) => ({ id: row.id, pid: Number(row.pid) }));
  }

  /** Forgets processes known to be gone: the keys they held are then held by nobody. */
  async forget(em: EntityManager, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await em.getConnection('write').execute(`delete from gateway_processes where id in (${ids.map(() => '?').join(', ')})`, [...ids], 'run');
  }

  /** Forgets processes silent for longer than `silentMs` (their keys were swept as orphans long before). */
  async forgetSilent(em: EntityManager, silentMs: number): Promise<number> {
    const rows = await em
      .getConnection('write')
      .execute<Array<{ id: string }>>(
        `delete from gateway_processes where heartbeat_at < now() - (? * interval '1 millisecond') returning id`,
        [silentMs],
        'all',
      );
    return rows.length;
  }
}
