import { Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@connectrpc/connect-query';
import { ProviderAccountService, type StatementDay } from '../../../gen/es/gateway/v1/provider_account_service_pb.js';
import { AccountBalanceText } from '../accountBalance.js';
import { decimalCents } from '../csv.js';
import { formatDay, isoDayOf, isoDayOrEmpty } from '../days.js';
import { ErrorAlert } from '../errors.js';
import { ExportCsv } from '../exportCsv.js';
import { AccountFilter, DayInput } from '../filters.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { RoleNote, Section } from '../operations/Section.js';
import { PageHeader, TableHead, scrollable, useProviderAccounts } from '../ui.js';
import { useUrlState } from '../urlState.js';

/** Without days in the address: this month so far, in the reader's calendar. */
function defaultRange(): { from: string; to: string } {
  const today = new Date();
  return { from: isoDayOf(new Date(today.getFullYear(), today.getMonth(), 1)), to: isoDayOf(today) };
}

/** A day's figures in the table's column order: counts as numbers, amounts as the caller formats them. */
function statementCells(row: StatementDay, money: (cents: bigint) => string): string[] {
  return [
    String(row.chargesCount),
    money(row.chargesAmount),
    money(row.refundsAmount),
    money(row.chargebacksAmount),
    money(row.payoutsAmount),
    money(row.netAmount),
    money(row.feesAmount),
    String(row.feesReportedCount),
    String(row.feesDeclaredCount),
  ];
}

/**
 * "Saldo e extrato": the chosen account's balance as its provider reports it (said to be unavailable where the
 * provider has no balance read), and the gateway's own statement per São Paulo day for the account (or every account)
 * and the days in the address, with its CSV.
 */
export default function Balances() {
  const { t } = useI18n();
  const accounts = useProviderAccounts();
  const [account, setAccount] = useUrlState('account');
  const [fromParam, setFrom] = useUrlState('from');
  const [toParam, setTo] = useUrlState('to');
  const fallback = defaultRange();
  const from = isoDayOrEmpty(fromParam) || fallback.from;
  const to = isoDayOrEmpty(toParam) || fallback.to;
  const statement = useQuery(ProviderAccountService.method.getAccountStatement, { providerAccountId: account, fromDay: from, toDay: to });
  const chosen = accounts.data?.providerAccounts.find((a) => a.id === account);
  const days = statement.data?.days ?? [];
  const columns = [
    t.balances.day,
    t.balances.charges,
    t.balances.chargesAmount,
    t.balances.refunds,
    t.balances.chargebacks,
    t.balances.payouts,
    t.balances.net,
    t.balances.fees,
    t.balances.feesReportedCount,
    t.balances.feesDeclaredCount,
  ];
  const total = statement.data?.total;
  const csvRows = [
    ...days.map((row) => [row.day, ...statementCells(row, decimalCents)]),
    ...(total ? [[t.balances.total, ...statementCells(total, decimalCents)]] : []),
  ];

  return (
    <Stack>
      <PageHeader title={t.balances.title} />
      <Group align="flex-end" role="search" aria-label={t.balances.filters}>
        <AccountFilter accounts={accounts.data?.providerAccounts ?? []} value={account} onChange={setAccount} />
        <DayInput label={t.balances.from} value={from} onChange={setFrom} />
        <DayInput label={t.balances.to} value={to} onChange={setTo} />
      </Group>
      <Section title={t.balances.balance} testId="balance" loading={false}>
        {chosen ? (
          <Text fw={600} data-testid="balance-value">
            <AccountBalanceText accountId={chosen.id} provider={chosen.provider} unavailable={t.balances.unavailable} />
          </Text>
        ) : (
          <RoleNote text={t.balances.chooseAccount} />
        )}
      </Section>
      <Section title={t.balances.statement} testId="statement" loading={statement.isPending}>
        <Text size="sm" c="dimmed" mb="sm">
          {t.balances.statementNote}
        </Text>
        <Text size="sm" c="dimmed" mb="sm" data-testid="fees-note">
          {t.balances.feesNote}
        </Text>
        <ExportCsv page={async () => ({ rows: csvRows, nextPageToken: '' })} header={columns} prefix={t.balances.csvPrefix} />
        <ErrorAlert error={statement.error ?? accounts.error} />
        <div className="table-scroll" {...scrollable(t.tableOf(t.balances.statement))}>
          <Table data-testid="statement-table">
            <TableHead columns={columns} />
            <Table.Tbody>
              {days.map((row) => (
                <Table.Tr key={row.day} data-testid="statement-day">
                  <Table.Td className="nowrap">{formatDay(row.day)}</Table.Td>
                  {statementCells(row, formatMoney).map((cell, index) => (
                    <Table.Td key={columns[index + 1]} className="nowrap">
                      {cell}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
              {total && days.length > 0 && (
                <Table.Tr data-testid="statement-total">
                  <Table.Th scope="row">{t.balances.total}</Table.Th>
                  {statementCells(total, formatMoney).map((cell, index) => (
                    <Table.Td key={columns[index + 1]} className="nowrap" fw={600}>
                      {cell}
                    </Table.Td>
                  ))}
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </div>
        {statement.isSuccess && days.length === 0 && <Text size="sm">{t.balances.empty}</Text>}
      </Section>
    </Stack>
  );
}
