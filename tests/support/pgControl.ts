import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a PostgreSQL data folder's global/pg_control says: its system identifier, which initdb draws for each new
 * cluster and every copy keeps (bytes 0-7, as pg_control_system() reports it), and whether the server was shut down
 * cleanly (bytes 16-19: the DBState enum, 1 = DB_SHUTDOWNED; a running or crashed one says 6, DB_IN_PRODUCTION).
 */
export function pgControl(dataDir: string): { systemIdentifier: string; shutDownCleanly: boolean } {
  const control = readFileSync(join(dataDir, 'global/pg_control'));
  return { systemIdentifier: control.readBigUInt64LE(0).toString(), shutDownCleanly: control.readUInt32LE(16) === 1 };
}
