import { Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@connectrpc/connect-query';
import { RoutingService } from '../../../gen/es/gateway/v1/routing_service_pb.js';
import { ErrorAlert } from '../errors.js';
import { useI18n } from '../i18n.js';
import { TableHead, When, scrollable, useProviderAccounts } from '../ui.js';
import { Section } from './Section.js';

const CIRCUIT_COLORS: Record<string, string> = { closed: 'green', 'half-open': 'orange', open: 'red' };

/**
 * Each account's recent provider calls, charges and payouts apart, as this gateway process saw them since it started:
 * circuit, approval and error rates, latency mean and p50/p95.
 */
export function ProviderHealth() {
  const { t } = useI18n();
  const health = useQuery(RoutingService.method.getRoutingHealth, {});
  const accounts = useProviderAccounts();
  const rows = health.data?.accounts ?? [];
  const percent = (share: number) => new Intl.NumberFormat(t.locale, { style: 'percent', maximumFractionDigits: 1 }).format(share);
  const name = (id: string) => accounts.data?.providerAccounts.find((a) => a.id === id)?.name ?? id.slice(0, 8);
  return (
    <Section title={t.operations.health} testId="ops-health" loading={health.isPending}>
      <Text size="sm" c="dimmed" mb="sm">
        {t.operations.healthHint}
        {health.data?.countingSince && (
          <>
            {' '}
            <span data-testid="ops-health-since">
              {t.operations.healthSince} <When at={health.data.countingSince} />.
            </span>
          </>
        )}
      </Text>
      <ErrorAlert error={health.error} />
      {health.isSuccess && rows.length === 0 && <Text c="dimmed">{t.operations.noHealth}</Text>}
      {rows.length > 0 && (
        <div className="table-scroll" {...scrollable(t.tableOf(t.operations.health))}>
          <Table data-testid="ops-health-table">
            <TableHead
              columns={[
                t.transactions.account,
                t.operations.operationKind,
                t.operations.circuit,
                t.operations.attempts,
                t.operations.approvalRate,
                t.operations.errorRate,
                t.operations.latency,
                t.operations.latencyP50,
                t.operations.latencyP95,
              ]}
            />
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={`${row.providerAccountId}-${row.operation}`}>
                  <Table.Td>
                    {name(row.providerAccountId)} ({row.provider})
                  </Table.Td>
                  <Table.Td>{t.operations.operationKinds[row.operation] ?? row.operation}</Table.Td>
                  <Table.Td className="nowrap">
                    <Badge variant="light" color={CIRCUIT_COLORS[row.circuitState] ?? 'gray'} miw="max-content">
                      {t.operations.circuits[row.circuitState] ?? row.circuitState}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{row.attempts}</Table.Td>
                  <Table.Td>{row.attempts ? percent(row.approvalRate) : '—'}</Table.Td>
                  <Table.Td>{row.attempts ? percent(row.errorRate) : '—'}</Table.Td>
                  <Table.Td>{row.attempts ? `${Math.round(row.meanLatencyMs)} ms` : '—'}</Table.Td>
                  <Table.Td>{row.attempts ? `≤ ${row.p50LatencyMs} ms` : '—'}</Table.Td>
                  <Table.Td>{row.attempts ? `≤ ${row.p95LatencyMs} ms` : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Section>
  );
}
