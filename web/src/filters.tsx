import { useState } from 'react';
import { Group, MultiSelect, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { useQuery } from '@connectrpc/connect-query';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { useI18n } from './i18n.js';
import { enumValues, useProviderAccounts } from './ui.js';

/** The start of a yyyy-mm-dd day in the reader's time zone, as a Timestamp; the day after when `next`. */
export function dayStart(day: string, next = false) {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (next) date.setDate(date.getDate() + 1);
  return Number.isNaN(date.getTime()) ? undefined : timestampFromDate(date);
}

/**
 * The filters the lists share (ListTransactions, ListWithdrawals, ListReceivers):
 * statuses, method (where the list has one: `methodLabels`), provider (of those registered), provider account,
 * creation dates (whole days, `to` included) and an exact-match search.
 * Answers the request fields and the filter bar.
 */
export function useListFilters<S extends number, M extends number>(
  statusLabels: Record<S, string>,
  methodLabels: Record<M, string> | undefined,
  queryLabel: string,
) {
  const { t } = useI18n();
  const accounts = useProviderAccounts();
  const providers = useQuery(PaymentGatewayService.method.listProviders, {});
  const [provider, setProvider] = useState<string | null>(null);
  const [statuses, setStatuses] = useState<string[]>([]);
  const [method, setMethod] = useState<string | null>(null);
  const [account, setAccount] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [query, setQuery] = useState('');
  const [debouncedQuery] = useDebouncedValue(query.trim(), 300);

  const request = {
    statuses: statuses.map((s) => Number(s) as S),
    paymentMethod: method ? (Number(method) as M) : undefined,
    provider: provider ?? '',
    providerAccountId: account ?? '',
    createdFrom: dayStart(from),
    createdTo: dayStart(to, true),
    query: debouncedQuery,
  };
  const bar = (
    <Group mb="md" align="flex-end" role="search" aria-label={t.transactions.filters}>
      <MultiSelect label={t.transactions.statuses} placeholder={t.all} data={enumValues(statusLabels)} value={statuses} onChange={setStatuses} clearable />
      {methodLabels && (
        <Select label={t.transactions.method} placeholder={t.all} data={enumValues(methodLabels)} value={method} onChange={setMethod} clearable />
      )}
      <Select
        label={t.transactions.provider}
        placeholder={t.all}
        data={(providers.data?.providers ?? []).map((p) => p.id)}
        value={provider}
        onChange={setProvider}
        searchable
        clearable
      />
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
      <TextInput label={queryLabel} type="search" value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
    </Group>
  );
  return { request, bar, error: accounts.error ?? providers.error };
}
