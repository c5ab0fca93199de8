import { useEffect, useState } from 'react';
import { Group, MultiSelect, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { useQuery } from '@connectrpc/connect-query';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { formatDay, isoDayOrEmpty, parseDay, typingDay } from './days.js';
import { useI18n } from './i18n.js';
import { enumValues, useProviderAccounts } from './ui.js';
import { useUrlList, useUrlState } from './urlState.js';

/** The start of a yyyy-mm-dd day in the reader's time zone, as a Timestamp; the day after when `next`. */
export function dayStart(day: string, next = false) {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (next) date.setDate(date.getDate() + 1);
  return Number.isNaN(date.getTime()) ? undefined : timestampFromDate(date);
}

/**
 * A day field shown and typed as dd/mm/aaaa (a browser's date input follows the browser's language, not the page's:
 * mm/dd/yyyy in an English Chromium reading a Portuguese page). `value` and `onChange` are ISO days (yyyy-mm-dd, ''
 * for none); a day that is not whole or not real is shown as an error and changes nothing.
 */
export function DayInput({ label, value, onChange }: { label: string; value: string; onChange: (iso: string) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState(formatDay(value));
  // Another source of the value (the address, a reset) is shown; what is being typed is kept until it is a day.
  useEffect(() => {
    if (parseDay(text) !== value) setText(formatDay(value));
  }, [value]);
  const invalid = text.length === 10 && parseDay(text) === undefined;
  return (
    <TextInput
      label={label}
      placeholder={t.dayPlaceholder}
      inputMode="numeric"
      autoComplete="off"
      maxLength={10}
      value={text}
      error={invalid ? t.dayInvalid : undefined}
      onChange={(e) => {
        const typed = typingDay(e.currentTarget.value);
        setText(typed);
        const iso = parseDay(typed);
        if (iso !== undefined && iso !== value) onChange(iso);
      }}
    />
  );
}

/** A filter by provider, of those registered; '' for all. */
export function ProviderFilter({ providers, value, onChange }: { providers: { id: string }[]; value: string; onChange: (id: string) => void }) {
  const { t } = useI18n();
  return (
    <Select
      label={t.transactions.provider}
      placeholder={t.all}
      data={providers.map((p) => p.id)}
      value={value || null}
      onChange={(id) => onChange(id ?? '')}
      searchable
      clearable
    />
  );
}

/** A filter by provider account, named with its provider; '' for all. */
export function AccountFilter({
  accounts,
  value,
  onChange,
}: {
  accounts: { id: string; name: string; provider: string }[];
  value: string;
  onChange: (id: string) => void;
}) {
  const { t } = useI18n();
  return (
    <Select
      label={t.transactions.account}
      placeholder={t.all}
      data={accounts.map((a) => ({ value: a.id, label: `${a.name} (${a.provider})` }))}
      value={value || null}
      onChange={(id) => onChange(id ?? '')}
      clearable
    />
  );
}

/**
 * The filters the lists share (ListTransactions, ListWithdrawals, ListReceivers):
 * statuses, method (where the list has one: `methodLabels`), provider (of those registered), provider account,
 * creation dates (whole days, `to` included) and an exact-match search.
 * Answers the request fields and the filter bar. The filters live in the address (useUrlState), so a reload or a
 * shared link shows the same list.
 */
export function useListFilters<S extends number, M extends number>(
  statusLabels: Record<S, string>,
  methodLabels: Record<M, string> | undefined,
  queryLabel: string,
) {
  const { t } = useI18n();
  const accounts = useProviderAccounts();
  const providers = useQuery(PaymentGatewayService.method.listProviders, {});
  const [provider, setProvider] = useUrlState('provider');
  const [statuses, setStatuses] = useUrlList('status');
  const [method, setMethod] = useUrlState('method');
  const [account, setAccount] = useUrlState('account');
  const [fromParam, setFrom] = useUrlState('from');
  const [toParam, setTo] = useUrlState('to');
  const from = isoDayOrEmpty(fromParam);
  const to = isoDayOrEmpty(toParam);
  const [savedQuery, saveQuery] = useUrlState('q');
  // Typed here, in the address once typing pauses.
  const [query, setQuery] = useState(savedQuery);
  const [debouncedQuery] = useDebouncedValue(query.trim(), 300);
  useEffect(() => saveQuery(debouncedQuery), [debouncedQuery, saveQuery]);

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
        <Select
          label={t.transactions.method}
          placeholder={t.all}
          data={enumValues(methodLabels)}
          value={method || null}
          onChange={(value) => setMethod(value ?? '')}
          clearable
        />
      )}
      <ProviderFilter providers={providers.data?.providers ?? []} value={provider} onChange={setProvider} />
      <AccountFilter accounts={accounts.data?.providerAccounts ?? []} value={account} onChange={setAccount} />
      <DayInput label={t.transactions.from} value={from} onChange={setFrom} />
      <DayInput label={t.transactions.to} value={to} onChange={setTo} />
      <TextInput label={queryLabel} type="search" value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
    </Group>
  );
  return { request, bar, error: accounts.error ?? providers.error };
}
