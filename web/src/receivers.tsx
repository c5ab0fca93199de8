import { Badge } from '@mantine/core';
import { ReceiverStatus, type ReceiverDocuments } from '../../gen/es/gateway/v1/types_pb.js';
import { ReceiverDocument } from '../../gen/es/gateway/v1/upload_service_pb.js';
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
export const RECEIVER_DOCUMENTS: readonly {
  field: DocumentField;
  label: keyof Messages['receivers'];
  violation: string;
  /** How CreateDocumentReadLink names it. */
  kind: ReceiverDocument;
  cnpjOnly?: true;
}[] = [
  { field: 'documentPhotoUrl', label: 'documentPhoto', violation: 'document_photo_url', kind: ReceiverDocument.DOCUMENT_PHOTO },
  { field: 'selfieWithDocumentUrl', label: 'selfie', violation: 'selfie_with_document_url', kind: ReceiverDocument.SELFIE_WITH_DOCUMENT },
  { field: 'addressProofUrl', label: 'addressProof', violation: 'address_proof_url', kind: ReceiverDocument.ADDRESS_PROOF },
  { field: 'balanceSheetUrl', label: 'balanceSheet', violation: 'balance_sheet_url', kind: ReceiverDocument.BALANCE_SHEET },
  { field: 'socialContractUrl', label: 'socialContract', violation: 'social_contract_url', kind: ReceiverDocument.SOCIAL_CONTRACT, cnpjOnly: true },
];

/** The two kinds of bank account every provider takes, by the value the gateway sends. */
export const ACCOUNT_TYPES = ['checking', 'savings'] as const;

/** A bank account type in the reader's language when it is one of the two kinds; as given otherwise. */
export function useAccountTypeLabel() {
  const { t } = useI18n();
  return (value: string) => ((ACCOUNT_TYPES as readonly string[]).includes(value) ? t.receivers[value as (typeof ACCOUNT_TYPES)[number]] : value);
}
