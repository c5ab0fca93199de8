import type { KeyFingerprintsRepository } from '../db/keyFingerprintsRepository.js';
import type { Database } from '../db/orm.js';
import { SEALED_COLUMNS, type SealedColumn, type SealedSecretsRepository, type SealedValue } from '../db/sealedSecretsRepository.js';
import { savedCardKeyInfo } from '../lib/savedCard.js';
import { SecretBox } from '../lib/secretBox.js';
import { RETIRED_SECRETS_KEY, SECRETS_KEY } from './sharedKeys.js';

/** What a reseal did to one sealed column. */
export interface ResealCount {
  table: string;
  column: string;
  /** Values that opened only under SECRETS_KEY_OTHER and are now sealed under SECRETS_KEY. */
  resealed: number;
  /** Values that were sealed under SECRETS_KEY already. */
  current: number;
  /** Values a live process changed between the read and the update: its change was kept. */
  changedMeanwhile: number;
}

/** The reseal did nothing: the reason, naming settings, tables and row ids, never a key or a value. */
export class ResealRefused extends Error {}

export interface ResealDeps {
  db: Database;
  sealed: SealedSecretsRepository;
  fingerprints: KeyFingerprintsRepository;
}

const BATCH = 500;

/**
 * The third step of a rotation of SECRETS_KEY (docs/operations.md, "Key rotation"): every stored value that opens only
 * under SECRETS_KEY_OTHER (the old key) is sealed again under SECRETS_KEY (the new one), then the new key is recorded as
 * the database's and the old one as retired, so that no process sealing under it starts again. Refuses, changing
 * nothing, when a value opens under neither key. Running it again changes nothing.
 */
export async function resealSecrets(deps: ResealDeps, secrets: SecretBox, batch = BATCH): Promise<ResealCount[]> {
  const other = secrets.otherFingerprint();
  if (other === undefined)
    throw new ResealRefused('SECRETS_KEY_OTHER is not set: run the reseal with the new key as SECRETS_KEY and the old one as SECRETS_KEY_OTHER');
  const recorded = await deps.fingerprints.get(deps.db.em(), SECRETS_KEY);
  if (recorded !== undefined && recorded !== secrets.fingerprint() && recorded !== other)
    throw new ResealRefused("neither SECRETS_KEY nor SECRETS_KEY_OTHER is this database's key: nothing was changed");
  const unopened = await valuesOpeningUnderNeither(deps, secrets, batch);
  if (unopened.length)
    throw new ResealRefused(
      `${unopened.length} sealed value(s) open under neither SECRETS_KEY nor SECRETS_KEY_OTHER (${unopened.slice(0, 10).join(', ')}${unopened.length > 10 ? ', …' : ''}): nothing was changed`,
    );
  const counts = SEALED_COLUMNS.map((at) => ({ table: at.table, column: at.column, resealed: 0, current: 0, changedMeanwhile: 0 }));
  for (const [index, at] of SEALED_COLUMNS.entries()) await resealColumn(deps, secrets, at, batch, counts[index]!);
  if (recorded !== secrets.fingerprint() || (await deps.fingerprints.get(deps.db.em(), RETIRED_SECRETS_KEY)) !== other)
    await deps.fingerprints.replaceAll(deps.db.em(), { [SECRETS_KEY]: secrets.fingerprint(), [RETIRED_SECRETS_KEY]: other });
  // A value a live process sealed under the old key while the first pass ran (it should be on the new key by now).
  for (const [index, at] of SEALED_COLUMNS.entries()) await resealColumn(deps, secrets, at, batch, counts[index]!, false);
  return counts;
}

/** The key ring a column's values open under: the secrets' own, or the keys derived from both for the row's account. */
const ringFor = (secrets: SecretBox, value: SealedValue): SecretBox => {
  if (value.accountId === undefined) return secrets;
  const [current, other] = secrets.deriveKeys(savedCardKeyInfo(value.accountId));
  return new SecretBox(current, other);
};

async function* valuesOf(deps: ResealDeps, at: SealedColumn, batch: number): AsyncGenerator<SealedValue> {
  let after: string | undefined;
  for (;;) {
    const values = await deps.sealed.batch(deps.db.em(), at, after, batch);
    yield* values;
    if (values.length < batch) return;
    after = values.at(-1)!.id;
  }
}

async function valuesOpeningUnderNeither(deps: ResealDeps, secrets: SecretBox, batch: number): Promise<string[]> {
  const unopened: string[] = [];
  for (const at of SEALED_COLUMNS) {
    for await (const value of valuesOf(deps, at, batch)) {
      let opens: boolean;
      try {
        opens = ringFor(secrets, value).opens(value.sealed);
      } catch {
        opens = false; // not a sealed value at all
      }
      if (!opens) unopened.push(`${at.table}.${at.column} id ${value.id}`);
    }
  }
  return unopened;
}

async function resealColumn(deps: ResealDeps, secrets: SecretBox, at: SealedColumn, batch: number, count: ResealCount, countCurrent = true): Promise<void> {
  for await (const value of valuesOf(deps, at, batch)) {
    let resealed: string | undefined;
    try {
      resealed = ringFor(secrets, value).reseal(value.sealed);
    } catch {
      // Changed since the check into something neither key opens: left as it is, the check of a next run names it.
      continue;
    }
    if (resealed === undefined) {
      if (countCurrent) count.current += 1;
    } else if (await deps.sealed.replace(deps.db.em(), at, value.id, value.sealed, resealed)) count.resealed += 1;
    else count.changedMeanwhile += 1;
  }
}
