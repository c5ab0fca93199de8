import { Badge } from '@mantine/core';
import { ReceiverStatus, type ReceiverDocuments } from '../../gen/es/gateway/v1/types_pb.js';
import { useI18n, type Messages } from './i18n.js';

const STATUS_COLORS: Record<ReceiverStatus, string> = {
  [ReceiverStatus.UNSPECIFIED]: 'gray',
  [ReceiverStatus.PENDING]: 'yellow',
  [ReceiverStatus.ACTIVE]: 'green',
  [ReceiverStatus.REJECTED]: 'red',
};

/** A receiver's status as a coloured badge. */
export function ReceiverStatusBadge({ status }: { status: ReceiverStatus }) {
  const { t } = useI18n();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" data-testid="status">
      {t.receiverStatus[status]}
    </Badge>
  );
}

type DocumentField = Exclude<keyof ReceiverDocuments, '$typeName' | '$unknown'>;

/**
 * The verification documents of document 1 §5, in the order the form and the
 * page show them: each field, its label, and its name in a field violation.
 * The social contract is for a CNPJ only.
 */
export const RECEIVER_DOCUMENTS: readonly { field: DocumentField; label: keyof Messages['receivers']; violation: string; cnpjOnly?: true }[] = [
  { field: 'documentPhotoUrl', label: 'documentPhoto', violation: 'document_photo_url' },
  { field: 'selfieWithDocumentUrl', label: 'selfie', violation: 'selfie_with_document_url' },
  { field: 'addressProofUrl', label: 'addressProof', violation: 'address_proof_url' },
  { field: 'balanceSheetUrl', label: 'balanceSheet', violation: 'balance_sheet_url' },
  { field: 'socialContractUrl', label: 'socialContract', violation: 'social_contract_url', cnpjOnly: true },
];

/** The two kinds of bank account every provider takes, by the value the gateway sends. */
export const ACCOUNT_TYPES = ['checking', 'savings'] as const;

/** A bank account type in the reader's language when it is one of the two kinds; as given otherwise. */
export function useAccountTypeLabel() {
  const { t } = useI18n();
  return (value: string) => ((ACCOUNT_TYPES as readonly string[]).includes(value) ? t.receivers[value as (typeof ACCOUNT_TYPES)[number]] : value);
}
