import type { EntityManager } from '@mikro-orm/postgresql';

/** The fingerprints of the keys every process of this database shares (entities.ts, KeyFingerprintEntity). */
export class KeyFingerprintsRepository {
  /**
   * Records each fingerprint whose name has none yet (the first process to start wins a race) and returns what is
   * recorded for those names afterwards: the caller's own where it was first, another process's otherwise.
   */
  async recordIfAbsent(em: EntityManager, fingerprints: Record<string, string>): Promise<Record<string, string>> {
    const connection = em.getConnection('write');
    const names = Object.keys(fingerprints);
    const now = new Date();
    await connection.execute(
      `insert into key_fingerprints (name, fingerprint, recorded_at) values ${names.map(() => '(?, ?, ?)').join(', ')} on conflict (name) do nothing`,
      names.flatMap((name) => [name, fingerprints[name], now]),
    );
    const rows = await connection.execute<{ name: string; fingerprint: string }[]>(
      `select name, fingerprint from key_fingerprints where name in (${names.map(() => '?').join(', ')})`,
      names,
      'all',
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.fingerprint]));
  }

  /** Whether a fingerprint for `name` is recorded at all. */
  async has(em: EntityManager, name: string): Promise<boolean> {
    const rows = await em.getConnection('write').execute<unknown[]>('select 1 from key_fingerprints where name = ?', [name], 'all');
    return rows.length > 0;
  }

  /** The fingerprint recorded for `name`, if any. */
  async get(em: EntityManager, name: string): Promise<string | undefined> {
    const rows = await em.getConnection('write').execute<{ fingerprint: string }[]>('select fingerprint from key_fingerprints where name = ?', [name], 'all');
    return rows[0]?.fingerprint;
  }

  /** Replaces the fingerprint for `name` (a key changed on purpose). */
  async replace(em: EntityManager, name: string, fingerprint: string): Promise<void> {
    await this.replaceAll(em, { [name]: fingerprint });
  }

  /** Replaces several fingerprints at once, in one statement: no process sees some of them changed and not the others. */
  async replaceAll(em: EntityManager, fingerprints: Record<string, string>): Promise<void> {
    const names = Object.keys(fingerprints);
    const now = new Date();
    await em.getConnection('write').execute(
      `insert into key_fingerprints (name, fingerprint, recorded_at) values ${names.map(() => '(?, ?, ?)').join(', ')} on conflict (name) do update set fingerprint = excluded.fingerprint, recorded_at = excluded.recorded_at`,
      names.flatMap((name) => [name, fingerprints[name], now]),
    );
  }

  /** Forgets the fingerprint for `name`, if it still is `fingerprint` (another process may have changed it since). */
  async remove(em: EntityManager, name: string, fingerprint: string): Promise<void> {
    await em.getConnection('write').execute('delete from key_fingerprints where name = ? and fingerprint = ?', [name, fingerprint]);
  }

  /** One provider secret as stored (sealed), to try a key on a database whose key was never fingerprinted; none when it keeps no secret. */
  async anySealedSecret(em: EntityManager): Promise<string | undefined> {
    const rows = await em.getConnection('write').execute<{ sealed: string }[]>('select secret_key_sealed as sealed from provider_accounts limit 1', [], 'all');
    return rows[0]?.sealed;
  }
}
