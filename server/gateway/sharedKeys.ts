import type { Logger } from '../lib/logger.js';
import type { Database } from '../db/orm.js';
import type { KeyFingerprintsRepository } from '../db/keyFingerprintsRepository.js';
import { keyFingerprint, type SecretBox } from '../lib/secretBox.js';

const SECRETS_KEY = 'secrets-key';
const OUTBOUND_SECRET = 'outbound-webhook-secret';

export const SECRETS_KEY_MISMATCH =
  "SECRETS_KEY is not the key this database's provider secrets are sealed with: every gateway process of one database needs the same SECRETS_KEY " +
  '(unset, it is generated into DATA_DIR/secrets.key, so processes with different DATA_DIRs get different keys). Start this process with the key the others use.';
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
  if (recorded[SECRETS_KEY] !== own[SECRETS_KEY]) throw new SharedKeyMismatch(SECRETS_KEY_MISMATCH);
  if (recorded[OUTBOUND_SECRET] !== own[OUTBOUND_SECRET]) {
    if (!keys.outboundSecretChanged) throw new SharedKeyMismatch(OUTBOUND_SECRET_MISMATCH);
    await fingerprints.replace(em, OUTBOUND_SECRET, own[OUTBOUND_SECRET]);
    logger.warn('OUTBOUND_WEBHOOK_SECRET_CHANGED: this process recorded its outbound signing secret as the one every process of this database must use');
  }
}
