import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useQuery } from '@connectrpc/connect-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ErrorAlert } from '../errors.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { TableHead, When, scrollable } from '../ui.js';
import { Section } from './Section.js';

/** Provider answers that claimed money moved for another amount or id than the gateway's record: never applied, shown for follow-up. */
export function FlowMismatches() {
  const { t } = useI18n();
  const list = useQuery(PaymentGatewayService.method.listFlowMismatches, {});
  const mismatches = list.data?.mismatches ?? [];
  return (
    <Section title={t.operations.mismatches} testId="ops-mismatches" loading={list.isPending}>
      <Text size="sm" c="dimmed" mb="sm">
        {t.operations.mismatchesHint}
      </Text>
      <ErrorAlert error={list.error} />
      {list.isSuccess && mismatches.length === 0 && <Text c="dimmed">{t.operations.noneMismatches}</Text>}
      {mismatches.length > 0 && (
        <div className="table-scroll" {...scrollable(t.operations.mismatches)}>
          <Table>
            <TableHead
              columns={[
                t.notifications.received,
                t.operations.subject,
                t.operations.claimed,
                t.operations.expected,
                t.operations.reported,
                t.notifications.reason,
              ]}
            />
            <Table.Tbody>
              {mismatches.map((mismatch) => (
                <Table.Tr key={mismatch.id}>
                  <Table.Td>
                    <When at={mismatch.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <Anchor size="sm" component={Link} to={`/${mismatch.subjectKind === 'withdrawal' ? 'payouts' : 'transactions'}/${mismatch.subjectId}`}>
                      {mismatch.subjectId.slice(0, 8)}
                    </Anchor>{' '}
                    ({mismatch.provider}, {mismatch.source})
                  </Table.Td>
                  <Table.Td>{mismatch.claimedStatus}</Table.Td>
                  <Table.Td>
                    {formatMoney(mismatch.expectedAmount)} {mismatch.expectedProviderId}
                  </Table.Td>
                  <Table.Td>
                    {formatMoney(mismatch.reportedAmount)} {mismatch.reportedProviderId}
                  </Table.Td>
                  <Table.Td>{mismatch.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Section>
  );
}
