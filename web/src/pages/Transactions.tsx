import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Group, MultiSelect, Select, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import type { PaymentMethod, TransactionStatus } from '../../../gen/es/gateway/v1/types_pb.js';
import { ErrorAlert } from '../errors.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { StatusBadge, TableHead, When, enumValues, useProviderAccounts } from '../ui.js';

const PAGE_SIZE = 25;

/** The start of a yyyy-mm-dd day in the reader's time zone, as a Timestamp; the day after when `next`. */
function dayStart(day: string, next = false) {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (next) date.setDate(date.getDate() + 1);
  return Number.isNaN(date.getTime()) ? undefined : timestampFromDate(date);
}

/** Charges, newest first, filtered, a page at a time. */
export default function Transactions() {
  const { t } = useI18n();
  const accounts = useProviderAccounts();
  const [statuses, setStatuses] = useState<string[]>([]);
  const [method, setMethod] = useState<string | null>(null);
  const [account, setAccount] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [query, setQuery] = useState('');
  const [debouncedQuery] = useDebouncedValue(query.trim(), 300);

  const list = useInfiniteQuery(
    PaymentGatewayService.method.listTransactions,
    {
      statuses: statuses.map((s) => Number(s) as TransactionStatus),
      paymentMethod: method ? (Number(method) as PaymentMethod) : undefined,
      providerAccountId: account ?? '',
      createdFrom: dayStart(from),
      createdTo: dayStart(to, true),
      query: debouncedQuery,
      pageSize: PAGE_SIZE,
      pageToken: '',
    },
    { pageParamKey: 'pageToken', getNextPageParam: (last) => last.nextPageToken || undefined },
  );
  const transactions = list.data?.pages.flatMap((page) => page.transactions) ?? [];

  return (
    <>
      <Title order={1} mb="md">
        {t.nav.transactions}
      </Title>
      <Group mb="md" align="flex-end" role="search" aria-label={t.transactions.filters}>
        <MultiSelect label={t.transactions.statuses} placeholder={t.all} data={enumValues(t.status)} value={statuses} onChange={setStatuses} clearable />
        <Select label={t.transactions.method} placeholder={t.all} data={enumValues(t.method)} value={method} onChange={setMethod} clearable />
        <Select
          label={t.transactions.account}
          placeholder={t.all}
          data={(accounts.data?.providerAccounts ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.provider})` }))}
          value={account}
          onChange={setAccount}
          clearable
        />
        <TextInput label={t.transactions.from} type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <TextInput label={t.transactions.to} type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        <TextInput label={t.transactions.query} type="search" value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
      </Group>
      <ErrorAlert error={list.error ?? accounts.error} />
      <div className="table-scroll">
        <Table data-testid="transactions-table" striped highlightOnHover>
          <TableHead
            columns={[
              t.transactions.created,
              t.transactions.id,
              t.transactions.status,
              t.transactions.method,
              t.transactions.amount,
              t.transactions.provider,
              t.transactions.order,
            ]}
          />
          <Table.Tbody>
            {transactions.map((tx) => (
              <Table.Tr key={tx.id} data-id={tx.id}>
                <Table.Td>
                  <When at={tx.createdAt} />
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/transactions/${tx.id}`}>
                    {tx.id}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={tx.status} />
                </Table.Td>
                <Table.Td>{t.method[tx.paymentMethod]}</Table.Td>
                <Table.Td>{formatMoney(tx.amount, tx.currency)}</Table.Td>
                <Table.Td>{tx.provider}</Table.Td>
                <Table.Td>{tx.orderId}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      {list.isSuccess && transactions.length === 0 && <Text mt="md">{t.empty}</Text>}
      {list.hasNextPage && (
        <Button mt="md" variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          {t.loadMore}
        </Button>
      )}
    </>
  );
}
