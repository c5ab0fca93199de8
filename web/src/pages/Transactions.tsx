import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Group, Loader, Table, Text } from '@mantine/core';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { useInfiniteQuery, useTransport } from '@connectrpc/connect-query';
import { PaymentGatewayService, type ListTransactionsRequest } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { csvFile, csvFileName, decimalCents } from '../csv.js';
import { ErrorAlert } from '../errors.js';
import { useListFilters } from '../filters.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { LoadMore, PageHeader, PAGE_SIZE, StatusBadge, TableHead, When, scrollable } from '../ui.js';

/** Charges, newest first, filtered, a page at a time; a new one from the form, for roles that may create charges. */
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
      <ExportCsv request={filters.request} />
      <ErrorAlert error={list.error ?? filters.error} />
      <div className="table-scroll" {...scrollable(t.nav.transactions)}>
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
      <LoadMore list={list} empty={transactions.length === 0} />
    </>
  );
}

/** The export reads the list 200 charges a call (the most ListTransactions answers). */
const EXPORT_PAGE_SIZE = 200;

/**
 * Exports the charges the filters select as a spreadsheet: pages through
 * ListTransactions in the browser, counting as it goes (cancel stops it), then
 * downloads transacoes-YYYY-MM-DD.csv.
 */
function ExportCsv({ request }: { request: Partial<Omit<ListTransactionsRequest, '$typeName' | 'pageSize' | 'pageToken'>> }) {
  const { t } = useI18n();
  const transport = useTransport();
  const [exported, setExported] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  async function run() {
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setExported(0);
    const client = createClient(PaymentGatewayService, transport);
    const rows: string[][] = [];
    try {
      let pageToken = '';
      do {
        const page = await client.listTransactions({ ...request, pageSize: EXPORT_PAGE_SIZE, pageToken }, { signal: controller.signal });
        for (const tx of page.transactions)
          rows.push([
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
          ]);
        setExported(rows.length);
        pageToken = page.nextPageToken;
      } while (pageToken);
      download(csvFile(t.export.header, rows), csvFileName('transacoes', new Date()));
    } catch (err) {
      if (!controller.signal.aborted && ConnectError.from(err).code !== Code.Canceled) setError(err);
    } finally {
      if (abort.current === controller) {
        abort.current = null;
        setExported(null);
      }
    }
  }

  return (
    <>
      <Group mb="md" gap="sm">
        <Button variant="default" onClick={() => void run()} disabled={exported !== null}>
          {t.export.button}
        </Button>
        {exported !== null && (
          <>
            <Loader size="sm" aria-hidden />
            <Text role="status" data-testid="export-progress">
              {t.export.progress(exported)}
            </Text>
            <Button variant="subtle" color="red" onClick={() => abort.current?.abort()}>
              {t.export.cancel}
            </Button>
          </>
        )}
      </Group>
      <ErrorAlert error={error} />
    </>
  );
}

/** Saves text as a UTF-8 file through a temporary link. */
function download(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
