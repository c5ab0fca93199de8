import { Group, Select } from '@mantine/core';
import { useInfiniteQuery } from '@connectrpc/connect-query';
import { DisputeService } from '../../../gen/es/gateway/v1/dispute_service_pb.js';
import { DisputeTable } from '../disputes.js';
import { ErrorAlert } from '../errors.js';
import { AccountFilter } from '../filters.js';
import { useI18n } from '../i18n.js';
import { enumValues, LoadMore, PageHeader, PAGE_SIZE, useProviderAccounts } from '../ui.js';
import { useUrlStates } from '../urlState.js';

const FILTERS = ['status', 'kind', 'account'] as const;

/** Disputes, the nearest deadline first, overdue ones marked, a page at a time; filtered by status, kind and account in the address. */
export default function Disputes() {
  const { t } = useI18n();
  const accounts = useProviderAccounts();
  const [filters, setFilters] = useUrlStates(FILTERS);
  const list = useInfiniteQuery(
    DisputeService.method.listDisputes,
    { status: Number(filters.status) || 0, kind: Number(filters.kind) || 0, providerAccountId: filters.account, pageSize: PAGE_SIZE, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (last) => last.nextPageToken || undefined },
  );
  const disputes = list.data?.pages.flatMap((page) => page.disputes) ?? [];

  return (
    <>
      <PageHeader title={t.nav.disputes} loading={list.isPending} />
      <Group align="flex-end" mb="md" wrap="wrap">
        <Select
          label={t.disputes.statusLabel}
          placeholder={t.disputes.any}
          data={enumValues(t.disputes.status)}
          value={filters.status || null}
          onChange={(value) => setFilters({ ...filters, status: value ?? '' })}
          clearable
        />
        <Select
          label={t.disputes.kindLabel}
          placeholder={t.disputes.any}
          data={enumValues(t.disputes.kind)}
          value={filters.kind || null}
          onChange={(value) => setFilters({ ...filters, kind: value ?? '' })}
          clearable
        />
        <AccountFilter accounts={accounts.data?.providerAccounts ?? []} value={filters.account} onChange={(account) => setFilters({ ...filters, account })} />
      </Group>
      <ErrorAlert error={list.error} />
      <DisputeTable disputes={disputes} />
      <LoadMore list={list} empty={disputes.length === 0} />
    </>
  );
}
