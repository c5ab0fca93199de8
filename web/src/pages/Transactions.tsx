import { Group, Loader, Table } from '@mantine/core';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { createClient } from '@connectrpc/connect';
import { useInfiniteQuery, useTransport } from '@connectrpc/connect-query';
import { PaymentGatewayService, type ListTransactionsRequest } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { declineText } from '../charges.js';
import { CustomerSummary } from '../chargeDetails.js';
import { decimalCents } from '../csv.js';
import { ExportCsv, EXPORT_PAGE_SIZE, type ExportPage } from '../exportCsv.js';
import { ErrorAlert } from '../errors.js';
import { useListFilters } from '../filters.js';
import { formatDocument, formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { LoadMore, PageHeader, PAGE_SIZE, ShortIdCopy, StatusBadge, TableHead, When, scrollable } from '../ui.js';

/**
 * Charges, newest first, filtered, a page at a time, each with its customer (many share a name); a loader until the
 * filters' first page arrives; a new one from the form, for roles that may create charges.
 */
export default function Transactions({ canCreate }: { canCreate: boolean }) {
  const { t } = useI18n();
  const filters = useListFilters(t.status, t.method, t.transactions.query);
  const list = useInfiniteQuery(
    PaymentGatewayService.method.listTransactions,
    { ...filters.request, pageSize: PAGE_SIZE, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (last) => last.nextPageToken || undefined },
  );
  const transactions = list.data?.pages.flatMap((page) => page.transactions) ?? [];

  return (
    <>
      <PageHeader title={t.nav.transactions} create={canCreate ? { to: '/transactions/new', label: t.charge.new } : undefined} />
      {filters.bar}
      <TransactionsCsv request={filters.request} />
      <ErrorAlert error={list.error ?? filters.error} />
      <div className="table-scroll" {...scrollable(t.nav.transactions)}>
        <Table data-testid="transactions-table" striped highlightOnHover>
          <TableHead
            columns={[
              t.transactions.created,
              t.transactions.id,
              t.transactions.status,
              t.transactions.customer,
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
                <Table.Td className="nowrap">
                  {/* The short id is what is read; the full one is the link's name and what the button copies. */}
                  <ShortIdCopy id={tx.id} what={t.transactions.copyId} to={`/transactions/${tx.id}`} />
                </Table.Td>
                <Table.Td className="nowrap">
                  <StatusBadge status={tx.status} />
                </Table.Td>
                <Table.Td>
                  <CustomerSummary customer={tx.customer} />
                </Table.Td>
                <Table.Td>{t.method[tx.paymentMethod]}</Table.Td>
                <Table.Td className="money">{formatMoney(tx.amount, tx.currency)}</Table.Td>
                <Table.Td>{tx.provider}</Table.Td>
                <Table.Td>{tx.orderId}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      {list.isPending && (
        <Group justify="center" my="md">
          <Loader role="status" aria-label={t.loading} data-testid="transactions-loading" />
        </Group>
      )}
      <LoadMore list={list} empty={transactions.length === 0} />
    </>
  );
}

/** The charges the filters select, as transacoes-YYYY-MM-DD.csv, with their customer, description and decline reason and text. */
function TransactionsCsv({ request }: { request: Partial<Omit<ListTransactionsRequest, '$typeName' | 'pageSize' | 'pageToken'>> }) {
  const { t } = useI18n();
  const transport = useTransport();
  const page: ExportPage = async (pageToken, signal) => {
    const answer = await createClient(PaymentGatewayService, transport).listTransactions({ ...request, pageSize: EXPORT_PAGE_SIZE, pageToken }, { signal });
    return {
      nextPageToken: answer.nextPageToken,
      rows: answer.transactions.map((tx) => [
        tx.id,
        tx.provider,
        tx.providerAccountId,
        tx.transactionId,
        tx.orderId,
        t.method[tx.paymentMethod],
        t.status[tx.status],
        decimalCents(tx.amount),
        tx.currency,
        tx.createdAt ? timestampDate(tx.createdAt).toISOString() : '',
        tx.customer?.name ?? '',
        tx.customer?.email ?? '',
        tx.customer?.document ? formatDocument(tx.customer.document) : '',
        tx.description,
        declineText(t, tx),
        tx.declineMessage,
      ]),
    };
  };
  return <ExportCsv page={page} header={t.export.header} prefix="transacoes" />;
}
