import { Badge, Button, CopyButton, Table } from '@mantine/core';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { useQuery } from '@connectrpc/connect-query';
import { TransactionStatus } from '../../gen/es/gateway/v1/types_pb.js';
import { ProviderAccountService } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import { useI18n } from './i18n.js';

const STATUS_COLORS: Record<TransactionStatus, string> = {
  [TransactionStatus.UNSPECIFIED]: 'gray',
  [TransactionStatus.PENDING]: 'yellow',
  [TransactionStatus.APPROVED]: 'green',
  [TransactionStatus.REJECTED]: 'red',
  [TransactionStatus.REFUNDED]: 'violet',
  [TransactionStatus.CHARGEBACK]: 'orange',
  [TransactionStatus.CANCELED]: 'gray',
};

export function StatusBadge({ status }: { status: TransactionStatus }) {
  const { t } = useI18n();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" data-testid="status">
      {t.status[status]}
    </Badge>
  );
}

/** A protobuf Timestamp in the reader's language and time zone. */
export function When({ at }: { at: Timestamp | undefined }) {
  const { t } = useI18n();
  if (!at) return null;
  const date = timestampDate(at);
  return <time dateTime={date.toISOString()}>{date.toLocaleString(t.locale)}</time>;
}

export function Copy({ value }: { value: string }) {
  const { t } = useI18n();
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button size="xs" variant="light" onClick={copy}>
          {copied ? t.copied : t.copy}
        </Button>
      )}
    </CopyButton>
  );
}

/** The provider accounts, for filters and names. */
export function useProviderAccounts() {
  return useQuery(ProviderAccountService.method.listProviderAccounts, {});
}

/** Values of a protobuf enum except UNSPECIFIED (0). */
export function enumValues<E extends number>(labels: Record<E, string>): { value: string; label: string }[] {
  return Object.entries(labels as Record<string, string>)
    .filter(([value]) => value !== '0')
    .map(([value, label]) => ({ value, label }));
}

/** A table's header row. */
export function TableHead({ columns }: { columns: string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((column) => (
          <Table.Th key={column}>{column}</Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}
