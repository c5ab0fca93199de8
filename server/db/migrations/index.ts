import { Migration20261122023336_initial } from './Migration20261122023336_initial.js';
import { Migration20261122030408_idempotency_keys } from './Migration20261122030408_idempotency_keys.js';
import { Migration20261122030836_webhook_pipeline } from './Migration20261122030836_webhook_pipeline.js';
import { Migration20261122114830_unsolicited_payments } from './Migration20261122114830_unsolicited_payments.js';
import { Migration20261122161500_unknown_outcomes } from './Migration20261122161500_unknown_outcomes.js';
import { Migration20261122163000_refunded_amounts } from './Migration20261122163000_refunded_amounts.js';
import { Migration20261124120000_intake_authentication } from './Migration20261124120000_intake_authentication.js';
import { Migration20261125120000_receiver_secrets } from './Migration20261125120000_receiver_secrets.js';
import { Migration20261125130000_flow_mismatches } from './Migration20261125130000_flow_mismatches.js';
import { Migration20261125140000_access } from './Migration20261125140000_access.js';
import { Migration20261125150000_operators } from './Migration20261125150000_operators.js';
import { Migration20261125160000_lists } from './Migration20261125160000_lists.js';
import { Migration20261125170000_commit_ordered_events } from './Migration20261125170000_commit_ordered_events.js';
import { Migration20261126100000_receiver_details } from './Migration20261126100000_receiver_details.js';
import { Migration20261127100000_key_fingerprints } from './Migration20261127100000_key_fingerprints.js';
import { Migration20261127120000_notification_backlog } from './Migration20261127120000_notification_backlog.js';
import { Migration20261128100000_unproven_dedup_keys } from './Migration20261128100000_unproven_dedup_keys.js';
import { Migration20261128114303_inflight_owners } from './Migration20261128114303_inflight_owners.js';
import { Migration20261128120000_account_api_version } from './Migration20261128120000_account_api_version.js';
import { Migration20261128120435_sign_in_failures } from './Migration20261128120435_sign_in_failures.js';
import { Migration20261128143000_account_installment_plan } from './Migration20261128143000_account_installment_plan.js';
import { Migration20261128143100_card_token_uses } from './Migration20261128143100_card_token_uses.js';

// Every migration, in order. `npm run migration:create` writes a new file here; add it to this list.
export const MIGRATIONS = [
  { name: 'Migration20261122023336_initial', class: Migration20261122023336_initial },
  { name: 'Migration20261122030408_idempotency_keys', class: Migration20261122030408_idempotency_keys },
  { name: 'Migration20261122030836_webhook_pipeline', class: Migration20261122030836_webhook_pipeline },
  { name: 'Migration20261122114830_unsolicited_payments', class: Migration20261122114830_unsolicited_payments },
  { name: 'Migration20261122161500_unknown_outcomes', class: Migration20261122161500_unknown_outcomes },
  { name: 'Migration20261122163000_refunded_amounts', class: Migration20261122163000_refunded_amounts },
  { name: 'Migration20261124120000_intake_authentication', class: Migration20261124120000_intake_authentication },
  { name: 'Migration20261125120000_receiver_secrets', class: Migration20261125120000_receiver_secrets },
  { name: 'Migration20261125130000_flow_mismatches', class: Migration20261125130000_flow_mismatches },
  { name: 'Migration20261125140000_access', class: Migration20261125140000_access },
  { name: 'Migration20261125150000_operators', class: Migration20261125150000_operators },
  { name: 'Migration20261125160000_lists', class: Migration20261125160000_lists },
  { name: 'Migration20261125170000_commit_ordered_events', class: Migration20261125170000_commit_ordered_events },
  { name: 'Migration20261126100000_receiver_details', class: Migration20261126100000_receiver_details },
  { name: 'Migration20261127100000_key_fingerprints', class: Migration20261127100000_key_fingerprints },
  { name: 'Migration20261127120000_notification_backlog', class: Migration20261127120000_notification_backlog },
  { name: 'Migration20261128100000_unproven_dedup_keys', class: Migration20261128100000_unproven_dedup_keys },
  { name: 'Migration20261128114303_inflight_owners', class: Migration20261128114303_inflight_owners },
  { name: 'Migration20261128120000_account_api_version', class: Migration20261128120000_account_api_version },
  { name: 'Migration20261128120435_sign_in_failures', class: Migration20261128120435_sign_in_failures },
  { name: 'Migration20261128143000_account_installment_plan', class: Migration20261128143000_account_installment_plan },
  { name: 'Migration20261128143100_card_token_uses', class: Migration20261128143100_card_token_uses },
];
