import { Link } from 'react-router';
import { Anchor, Badge, Button, Card, CopyButton, Group, Loader, Table, Text, TextInput, Title } from '@mantine/core';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { useQuery } from '@connectrpc/connect-query';
import { TransactionStatus, WithdrawStatus, type StatusSource } from '../../gen/es/gateway/v1/types_pb.js';
import { ProviderAccountService } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import { shortId } from './format.js';
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
  [WithdrawStatus.AWAITING_APPROVAL]: TransactionStatus.PENDING,
};

/** A charge's status, or a payout's (`withdraw`), as a coloured badge. */
export function StatusBadge({ status, withdraw }: { status: TransactionStatus; withdraw?: never } | { status: WithdrawStatus; withdraw: true }) {
  const { t } = useI18n();
  const color = STATUS_COLORS[withdraw ? WITHDRAW_COLORS[status as WithdrawStatus] : (status as TransactionStatus)];
  return (
    <Badge color={color} variant="light" data-testid="status" className="status-badge">
      {withdraw ? t.withdrawStatus[status as WithdrawStatus] : t.status[status as TransactionStatus]}
    </Badge>
  );
}

/** An amount typed in reais (for parseCents), with a decimal keyboard on phones; refused beside it when `invalid` (a message of its own, or the catalogue's "type it like 12,34"), or with the gateway's violation. */
export function AmountInput({
  label,
  value,
  onChange,
  invalid,
  violation,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean | string;
  violation?: string;
}) {
  const { t } = useI18n();
  return (
    <TextInput
      label={label}
      inputMode="decimal"
      placeholder="0,00"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={typeof invalid === 'string' ? invalid : invalid ? t.detail.badAmount : violation}
      required
    />
  );
}

/** A spinner, named "Loading…" for screen readers, while `when` (a page's first answer is awaited); nothing after. */
export function Pending({ when }: { when: boolean }) {
  const { t } = useI18n();
  return when ? <Loader size="sm" role="status" aria-label={t.loading} /> : null;
}

/**
 * A page's heading: with a link back to its list above it, or a link to create one beside it (a button); with a
 * spinner beside the title while `loading`, so that an empty table or a bare title is not read as "nothing there".
 */
export function PageHeader({
  title,
  back,
  create,
  loading = false,
}: {
  title: string;
  back?: { to: string; label: string };
  create?: { to: string; label: string };
  loading?: boolean;
}) {
  return (
    <>
      {back && (
        <Anchor component={Link} to={back.to} size="sm">
          ← {back.label}
        </Anchor>
      )}
      <Group justify="space-between" mt={back ? 'md' : 0} mb="md">
        <Group gap="sm">
          <Title order={1}>{title}</Title>
          <Pending when={loading} />
        </Group>
        {create && (
          <Button component={Link} to={create.to}>
            {create.label}
          </Button>
        )}
      </Group>
    </>
  );
}

/** A charge's status changes, or a payout's (`withdraw`), oldest first, each with where it came from. */
export function StatusHistory({ changes, withdraw }: { changes: { status: number; source: StatusSource; changedAt?: Timestamp }[]; withdraw?: true }) {
  const { t } = useI18n();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.detail.history}
      </Title>
      <div className="table-scroll" {...scrollable(t.detail.history)}>
        <Table data-testid="history">
          <TableHead columns={[t.detail.when, t.transactions.status, t.detail.source]} />
          <Table.Tbody>
            {changes.map((change, index) => (
              <Table.Tr key={index}>
                <Table.Td>
                  <When at={change.changedAt} />
                </Table.Td>
                <Table.Td>
                  {withdraw ? <StatusBadge status={change.status as WithdrawStatus} withdraw /> : <StatusBadge status={change.status as TransactionStatus} />}
                </Table.Td>
                <Table.Td>{t.source[change.source]}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </Card>
  );
}

/** A term and its value in a page's facts (a `dl`), or nothing when there is no value. */
export const optionalFact = (label: string, value: string | undefined, testId?: string) =>
  value ? (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </>
  ) : null;

/** A protobuf Timestamp in the reader's language and time zone. */
export function When({ at }: { at: Timestamp | undefined }) {
  const { t } = useI18n();
  if (!at) return null;
  const date = timestampDate(at);
  return <time dateTime={date.toISOString()}>{date.toLocaleString(t.locale)}</time>;
}

/** Copies `value`; its accessible name says what (`what`), since a page may have several copy buttons. */
export function Copy({ value, what }: { value: string; what: string }) {
  const { t } = useI18n();
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button size="xs" variant="light" onClick={copy} aria-label={`${copied ? t.copied : t.copy}: ${what}`}>
          {copied ? t.copied : t.copy}
        </Button>
      )}
    </CopyButton>
  );
}

/**
 * An id as tables show it: its first 8 characters (the whole id is the link's name or the text's title) and a button
 * that copies the whole id, named by `what` of the short one. A link to `to` where the record has a page.
 */
export function ShortIdCopy({ id, what, to }: { id: string; what: (short: string) => string; to?: string }) {
  const short = shortId(id);
  return (
    <Group gap="xs" wrap="nowrap">
      {to ? (
        <Anchor component={Link} to={to} aria-label={id} title={id} ff="monospace">
          {short}
        </Anchor>
      ) : (
        <Text span ff="monospace" title={id} data-testid="short-id">
          {short}
        </Text>
      )}
      <Copy value={id} what={what(short)} />
    </Group>
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

/**
 * What a horizontally scrolling table's wrapper needs to be reachable by keyboard (a region in the tab order, named
 * after the table), so that a table wider than a phone can be scrolled without a mouse.
 */
export const scrollable = (label: string) => ({ tabIndex: 0, role: 'region', 'aria-label': label });

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
