/**
 * The third step of a rotation of SECRETS_KEY (docs/operations.md, "Key rotation"), once every gateway process runs
 * with SECRETS_KEY=<new> and SECRETS_KEY_OTHER=<old>:
 *
 *   SECRETS_KEY=<new> SECRETS_KEY_OTHER=<old> DATABASE_URL=… npm run secrets:reseal
 *
 * (in the image, which has no npm scripts' tools: node dist/server/reseal.js). Beside main.ts rather than in scripts/
 * so that it is compiled into dist/ and ships in the image.
 *
 * Seals every stored secret that opens only under the old key again under the new one, prints what it did per table,
 * and records the new key as the database's. Exit 1, nothing changed, when a value opens under neither key.
 */
import { resolve } from 'node:path';
import { KeyFingerprintsRepository } from './db/keyFingerprintsRepository.js';
import { openDatabase } from './db/orm.js';
import { SealedSecretsRepository } from './db/sealedSecretsRepository.js';
import { ResealRefused, resealSecrets } from './gateway/secretsReseal.js';
import { SecretBox } from './lib/secretBox.js';

async function main(): Promise<number> {
  const { SECRETS_KEY, SECRETS_KEY_OTHER, DATABASE_URL, DATA_DIR } = process.env;
  if (!SECRETS_KEY || !SECRETS_KEY_OTHER) {
    console.error('the reseal needs SECRETS_KEY (the new key) and SECRETS_KEY_OTHER (the old one)');
    return 1;
  }
  let secrets: SecretBox;
  try {
    secrets = SecretBox.fromEncodedKey(SECRETS_KEY, SECRETS_KEY_OTHER);
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  // Without DATABASE_URL, the embedded database in DATA_DIR: the gateway that uses it must be stopped.
  const db = await openDatabase({ databaseUrl: DATABASE_URL || undefined, dataDir: resolve(DATA_DIR || './data'), migrate: false, log: () => undefined });
  try {
    const counts = await resealSecrets({ db, sealed: new SealedSecretsRepository(), fingerprints: new KeyFingerprintsRepository() }, secrets);
    for (const count of counts)
      console.log(
        `${count.table}.${count.column}: ${count.resealed} re-sealed, ${count.current} already under SECRETS_KEY, ${count.changedMeanwhile} changed meanwhile by a gateway (kept)`,
      );
    console.log('SECRETS_KEY is now recorded as the database’s key: every process may drop SECRETS_KEY_OTHER');
    return 0;
  } catch (error) {
    if (!(error instanceof ResealRefused)) throw error;
    console.error(error.message);
    return 1;
  } finally {
    await db.close();
  }
}

process.exitCode = await main();
