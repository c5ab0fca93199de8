import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Table } from '@mantine/core';
import { createClient } from '@connectrpc/connect';
import { useInfiniteQuery, useTransport } from '@connectrpc/connect-query';
import { PaymentGatewayService, type ListWithdrawalsRequest } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { decimalCents } from '../csv.js';
import { ExportCsv, EXPORT_PAGE_SIZE, type ExportPage } from '../exportCsv.js';
import { payoutDestination } from '../payouts.js';
import { ErrorAlert } from '../errors.js';
import { useListFilters } from '../filters.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { PayoutApprovalLimit } from '../payoutApprovalLimit.js';
import { LoadMore, PageHeader, PAGE_SIZE, ShortIdCopy, StatusBadge, TableHead, When, scrollable } from '../ui.js';

/** Payouts (withdrawals), newest first, filtered, a page at a time; live like the charges. Each opens its detail; a new one from the form, for roles that may pay out. Above
 * them, the four-eyes limit (changed by admins). */
export default function Payouts({ canCreate, canAdmin }: { canCreate: boolean; canAdmin: boolean }) {
  const { t } = useI18n();
  const filters = useListFilters(t.withdrawStatus, t.withdrawMethod, t.transactions.payoutQuery);
  const list = useInfiniteQuery(
    PaymentGatewayService.method.listWithdrawals,
    { ...filters.request, pageSize: PAGE_SIZE, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (last) => last.nextPageToken || undefined },
  );
  const withdrawals = list.data?.pages.flatMap((page) => page.withdrawals) ?? [];

  return (
    <>
      <PageHeader title={t.nav.payouts} create={canCreate ? { to: '/payouts/new', label: t.payout.new } : undefined} loading={list.isPending} />
      <PayoutApprovalLimit canAdmin={canAdmin} />
      {filters.bar}
      <ExportPayouts request={filters.request} />
      <ErrorAlert error={list.error ?? filters.error} />
      <div className="table-scroll" {...scrollable(t.nav.payouts)}>
        <Table data-testid="payouts-table" striped>
          <TableHead
            columns={[t.transactions.created, t.transactions.id, t.transactions.status, t.transactions.method, t.transactions.amount, t.transactions.provider]}
          />
          <Table.Tbody>
            {withdrawals.map((w) => (
              <Table.Tr key={w.id} data-id={w.id}>
                <Table.Td>
                  <When at={w.createdAt} />
                </Table.Td>
                <Table.Td className="nowrap">
                  <ShortIdCopy id={w.id} what={t.transactions.copyId} to={`/payouts/${w.id}`} />
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={w.status} withdraw />
                </Table.Td>
                <Table.Td>{t.withdrawMethod[w.paymentMethod]}</Table.Td>
                <Table.Td>{formatMoney(w.amount)}</Table.Td>
                <Table.Td>{w.provider}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <LoadMore list={list} empty={withdrawals.length === 0} />
    </>
  );
}

/** The payouts the filters select, as saques-YYYY-MM-DD.csv: where each went, who asked and reviewed it, why it was refused. */
function ExportPayouts({ request }: { request: Partial<Omit<ListWithdrawalsRequest, '$typeName' | 'pageSize' | 'pageToken'>> }) {
  const { t } = useI18n();
  const transport = useTransport();
  const page: ExportPage = async (pageToken, signal) => {
    const answer = await createClient(PaymentGatewayService, transport).listWithdrawals({ ...request, pageSize: EXPORT_PAGE_SIZE, pageToken }, { signal });
    const rows = answer.withdrawals.map((w) => [
      w.id,
      w.provider,
      w.providerAccountId,
      w.withdrawId,
      t.withdrawMethod[w.paymentMethod],
      t.withdrawStatus[w.status],
      decimalCents(w.amount),
      payoutDestination(w, t),
      w.request?.name ?? '',
      w.request?.description ?? '',
      w.requestedBy,
      w.review?.reviewedBy ?? '',
      w.refusalReason,
      w.createdAt ? timestampDate(w.createdAt).toISOString() : '',
    ]);
    return { rows, nextPageToken: answer.nextPageToken };
  };
  return <ExportCsv page={page} header={t.payout.exportHeader} prefix="saques" />;
}
