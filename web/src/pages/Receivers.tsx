import { Link } from 'react-router';
import { Anchor, Table } from '@mantine/core';
import { useInfiniteQuery } from '@connectrpc/connect-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ErrorAlert } from '../errors.js';
import { useListFilters } from '../filters.js';
import { formatDocument } from '../format.js';
import { useI18n } from '../i18n.js';
import { ReceiverStatusBadge } from '../receivers.js';
import { LoadMore, PageHeader, PAGE_SIZE, TableHead, When, scrollable } from '../ui.js';

/**
 * Receivers (sub-merchants), newest first, filtered, a page at a time; live:
 * a receiver created or whose status moved, from here or elsewhere, refetches
 * the list (live.tsx).
 */
export default function Receivers({ canCreate }: { canCreate: boolean }) {
  const { t } = useI18n();
  const filters = useListFilters(t.receiverStatus, undefined, t.receivers.query);
  const list = useInfiniteQuery(
    PaymentGatewayService.method.listReceivers,
    { ...filters.request, pageSize: PAGE_SIZE, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (last) => last.nextPageToken || undefined },
  );
  const receivers = list.data?.pages.flatMap((page) => page.receivers) ?? [];

  return (
    <>
      <PageHeader title={t.nav.receivers} create={canCreate ? { to: '/receivers/new', label: t.receivers.create } : undefined} loading={list.isPending} />
      {filters.bar}
      <ErrorAlert error={list.error ?? filters.error} />
      <div className="table-scroll" {...scrollable(t.nav.receivers)}>
        <Table data-testid="receivers-table" striped highlightOnHover>
          <TableHead
            columns={[
              t.receivers.created,
              t.receivers.name,
              t.receivers.document,
              t.receivers.email,
              t.transactions.status,
              t.transactions.provider,
              t.receivers.receiverId,
            ]}
          />
          <Table.Tbody>
            {receivers.map((r) => (
              <Table.Tr key={r.id} data-id={r.id}>
                <Table.Td>
                  <When at={r.createdAt} />
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/receivers/${r.id}`}>
                    {r.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{formatDocument(r.document)}</Table.Td>
                <Table.Td>{r.email}</Table.Td>
                <Table.Td>
                  <ReceiverStatusBadge status={r.status} />
                </Table.Td>
                <Table.Td>{r.provider}</Table.Td>
                <Table.Td>{r.receiverId}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <LoadMore list={list} empty={receivers.length === 0} />
    </>
  );
}
