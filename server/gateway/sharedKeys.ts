import type { Logger } from '../lib/logger.js';
import type { Database } from '../db/orm.js';
import type { KeyFingerprintsRepository } from '../db/keyFingerprintsRepository.js';
import { keyFingerprint, type SecretBox } from '../lib/secretBox.js';

/** The key the database's secrets are sealed under (during a rotation: the key before it, until the reseal). */
export const SECRETS_KEY = 'secrets-key';
/** The key a finished reseal moved the secrets away from: no process may seal under it any more. */
export const RETIRED_SECRETS_KEY = 'secrets-key-retired';
const OUTBOUND_SECRET = 'outbound-webhook-secret';

export const SECRETS_KEY_MISMATCH =
  "SECRETS_KEY is not the key this database's secrets are sealed with, nor is SECRETS_KEY_OTHER: every gateway process of one database needs the same SECRETS_KEY " +
  '(unset, it is generated into DATA_DIR/secrets.key, so processes with different DATA_DIRs get different keys). Start this process with the key the others use ' +
  "(during a rotation, with the database's key as SECRETS_KEY or SECRETS_KEY_OTHER).";
export const SECRETS_KEY_RETIRED =
  "SECRETS_KEY is the key this database's secrets were re-sealed away from (npm run secrets:reseal): no process may seal under it any more. " +
  'Start this process with the new key as SECRETS_KEY (and the old one as SECRETS_KEY_OTHER only until every process has the new one).';
export const OUTBOUND_SECRET_MISMATCH =
  'OUTBOUND_WEBHOOK_SECRET is not the secret the other gateway processes of this database sign webhook deliveries with: set the same OUTBOUND_WEBHOOK_SECRET on every process ' +
  '(unset, it is generated into DATA_DIR/outbound-webhook.secret). To change it on purpose, give every process the new secret and start the first of them with OUTBOUND_WEBHOOK_SECRET_CHANGED=true.';

/** A process whose keys are not the ones its database's other processes use: it must not start. */
export class SharedKeyMismatch extends Error {}

/**
 * Every process of one database must open the provider secrets sealed by the others and sign outbound webhooks
 * as they do. The first process to start records its keys' fingerprints; a later one with another key refuses to
 * start, before it serves a call or takes a notification, instead of failing each call on a secret it cannot open
 * or signing deliveries that the receivers' checks refuse. A database from before the fingerprints is checked by
 * opening one of its stored secrets.
 */
export async function checkSharedKeys(
  db: Database,
  fingerprints: KeyFingerprintsRepository,
  keys: { secrets: SecretBox; outboundSecret: string; outboundSecretChanged: boolean },
  logger: Logger,
): Promise<void> {
  const em = db.em();
  if (!(await fingerprints.has(em, SECRETS_KEY))) {
    const sealed = await fingerprints.anySealedSecret(em);
    if (sealed !== undefined) {
      try {
        keys.secrets.open(sealed);
      } catch {
        throw new SharedKeyMismatch(SECRETS_KEY_MISMATCH);
      }
    }
  }
  const own = { [SECRETS_KEY]: keys.secrets.fingerprint(), [OUTBOUND_SECRET]: keyFingerprint(keys.outboundSecret, 'outbound-webhook-secret') };
  const recorded = await fingerprints.recordIfAbsent(em, own);
  await checkSecretsKey(db, fingerprints, keys.secrets, recorded[SECRETS_KEY]!, logger);
  if (recorded[OUTBOUND_SECRET] !== own[OUTBOUND_SECRET]) {
    if (!keys.outboundSecretChanged) throw new SharedKeyMismatch(OUTBOUND_SECRET_MISMATCH);
    await fingerprints.replace(em, OUTBOUND_SECRET, own[OUTBOUND_SECRET]);
    logger.warn('OUTBOUND_WEBHOOK_SECRET_CHANGED: this process recorded its outbound signing secret as the one every process of this database must use');
  }
}

/**
 * A rotation of SECRETS_KEY (docs/operations.md, "Key rotation"): a process seals under its SECRETS_KEY and opens under
 * it or SECRETS_KEY_OTHER. It may start when its SECRETS_KEY is the database's key, or when its SECRETS_KEY_OTHER is
 * (it is moving to a new key, and opens what the others sealed) unless its SECRETS_KEY is the key a reseal retired:
 * what such a process sealed would not open once the rotation ends.
 */
async function checkSecretsKey(db: Database, fingerprints: KeyFingerprintsRepository, secrets: SecretBox, recorded: string, logger: Logger): Promise<void> {
  const em = db.em();
  const retired = await fingerprints.get(em, RETIRED_SECRETS_KEY);
  const other = secrets.otherFingerprint();
  if (recorded === secrets.fingerprint()) {
    if (other !== undefined && other === retired) {
      // A rotation back to the key retired before: from now on processes may seal under it again.
      await fingerprints.remove(em, RETIRED_SECRETS_KEY, retired);
      logger.warn('SECRETS_KEY_OTHER is the key a reseal retired before: processes may now seal under it again');
    }
    return;
  }
  if (secrets.fingerprint() === retired) throw new SharedKeyMismatch(SECRETS_KEY_RETIRED);
  if (other !== recorded) throw new SharedKeyMismatch(SECRETS_KEY_MISMATCH);
}
