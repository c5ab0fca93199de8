import { Badge, Button, CopyButton, Table, Text } from '@mantine/core';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { useQuery } from '@connectrpc/connect-query';
import { TransactionStatus, WithdrawStatus } from '../../gen/es/gateway/v1/types_pb.js';
import { ProviderAccountService } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import { useI18n } from './i18n.js';

/** Mantine colour names of the charges' statuses: their badges and the dashboard's charts. */
export const STATUS_COLORS: Record<TransactionStatus, string> = {
  [TransactionStatus.UNSPECIFIED]: 'gray',
  [TransactionStatus.PENDING]: 'yellow',
  [TransactionStatus.APPROVED]: 'green',
  [TransactionStatus.REJECTED]: 'red',
  [TransactionStatus.REFUNDED]: 'violet',
  [TransactionStatus.CHARGEBACK]: 'orange',
  [TransactionStatus.CANCELED]: 'gray',
};

const WITHDRAW_COLORS: Record<WithdrawStatus, TransactionStatus> = {
  [WithdrawStatus.UNSPECIFIED]: TransactionStatus.UNSPECIFIED,
  [WithdrawStatus.PENDING]: TransactionStatus.PENDING,
  [WithdrawStatus.APPROVED]: TransactionStatus.APPROVED,
  [WithdrawStatus.REJECTED]: TransactionStatus.REJECTED,
  [WithdrawStatus.CANCELED]: TransactionStatus.CANCELED,
};

/** A charge's status, or a payout's (`withdraw`), as a coloured badge. */
export function StatusBadge({ status, withdraw }: { status: TransactionStatus; withdraw?: never } | { status: WithdrawStatus; withdraw: true }) {
  const { t } = useI18n();
  const color = STATUS_COLORS[withdraw ? WITHDRAW_COLORS[status as WithdrawStatus] : (status as TransactionStatus)];
  return (
    <Badge color={color} variant="light" data-testid="status">
      {withdraw ? t.withdrawStatus[status as WithdrawStatus] : t.status[status as TransactionStatus]}
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

/** Rows per page of the lists. */
export const PAGE_SIZE = 25;

/** "Nothing found" for an empty list, or the button that loads the next page. */
export function LoadMore({
  list,
  empty,
}: {
  list: { isSuccess: boolean; hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  empty: boolean;
}) {
  const { t } = useI18n();
  if (list.isSuccess && empty) return <Text mt="md">{t.empty}</Text>;
  if (!list.hasNextPage) return null;
  return (
    <Button mt="md" variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
      {t.loadMore}
    </Button>
  );
}
