import { Table, Title } from '@mantine/core';
import { useQuery } from '@connectrpc/connect-query';
import { AccessService } from '../../../gen/es/gateway/v1/access_service_pb.js';
import { ErrorAlert } from '../errors.js';
import { useI18n } from '../i18n.js';
import { TableHead, When, scrollable } from '../ui.js';

/** The latest audited actions: who did what, from where, with what outcome. */
export default function Audit() {
  const { t } = useI18n();
  const audit = useQuery(AccessService.method.listAuditEvents, { pageSize: 100 });
  return (
    <>
      <Title order={1} mb="md">
        {t.nav.audit}
      </Title>
      <ErrorAlert error={audit.error} />
      <div className="table-scroll" {...scrollable(t.nav.audit)}>
        <Table data-testid="audit-table" striped>
          <TableHead columns={[t.audit.when, t.audit.who, t.audit.action, t.audit.resource, t.audit.from, t.audit.outcome]} />
          <Table.Tbody>
            {audit.data?.events.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td>
                  <When at={event.at} />
                </Table.Td>
                <Table.Td>{event.actorName}</Table.Td>
                <Table.Td>{event.action}</Table.Td>
                <Table.Td>{event.resource}</Table.Td>
                <Table.Td>{event.source}</Table.Td>
                <Table.Td title={event.detail}>{event.outcome}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </>
  );
}
