import { Link } from 'react-router';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Anchor, Badge, Table } from '@mantine/core';
import { DisputeStatus, type Dispute } from '../../gen/es/gateway/v1/dispute_service_pb.js';
import { formatMoney, shortId } from './format.js';
import { useI18n } from './i18n.js';
import { scrollable, TableHead, When } from './ui.js';

const OPEN = [DisputeStatus.OPEN, DisputeStatus.EVIDENCE_SUBMITTED];

/** Whether a dispute still open is past its deadline. */
export const isOverdue = (dispute: Dispute, now = Date.now()): boolean =>
  OPEN.includes(dispute.status) && dispute.deadline !== undefined && timestampDate(dispute.deadline).getTime() < now;

export const isOpenDispute = (dispute: Dispute): boolean => OPEN.includes(dispute.status);

/** Disputes in the order given (the gateway's: nearest deadline first), each linking to its page; overdue ones marked. */
export function DisputeTable({ disputes, withCharge = true }: { disputes: Dispute[]; withCharge?: boolean }) {
  const { t } = useI18n();
  return (
    <div className="table-scroll" {...scrollable(t.nav.disputes)}>
      <Table data-testid="disputes-table" striped>
        <TableHead
          columns={[
            t.disputes.deadline,
            t.transactions.id,
            t.disputes.kindLabel,
            t.disputes.statusLabel,
            t.disputes.amount,
            ...(withCharge ? [t.disputes.charge] : []),
            t.transactions.provider,
          ]}
        />
        <Table.Tbody>
          {disputes.map((dispute) => {
            const overdue = isOverdue(dispute);
            return (
              <Table.Tr key={dispute.id} data-id={dispute.id} data-overdue={overdue || undefined}>
                <Table.Td>
                  <When at={dispute.deadline} />
                  {overdue && (
                    <Badge color="red" variant="filled" ml="xs">
                      {t.disputes.overdue}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/disputes/${dispute.id}`}>
                    {shortId(dispute.id)}
                  </Anchor>
                </Table.Td>
                <Table.Td>{t.disputes.kind[dispute.kind]}</Table.Td>
                <Table.Td>{t.disputes.status[dispute.status]}</Table.Td>
                <Table.Td>{formatMoney(dispute.amount)}</Table.Td>
                {withCharge && (
                  <Table.Td>
                    <Anchor component={Link} to={`/transactions/${dispute.transactionId}`}>
                      {shortId(dispute.transactionId)}
                    </Anchor>
                  </Table.Td>
                )}
                <Table.Td>{dispute.provider}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </div>
  );
}
