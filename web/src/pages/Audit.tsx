import { useEffect, useState } from 'react';
import { Group, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { createClient } from '@connectrpc/connect';
import { useInfiniteQuery, useTransport } from '@connectrpc/connect-query';
import { AccessService } from '../../../gen/es/gateway/v1/access_service_pb.js';
import { ErrorAlert } from '../errors.js';
import { ExportCsv, type ExportPage } from '../exportCsv.js';
import { isoDayOrEmpty } from '../days.js';
import { DayInput, dayStart } from '../filters.js';
import { useI18n } from '../i18n.js';
import { LoadMore, PageHeader, PAGE_SIZE, TableHead, When, scrollable } from '../ui.js';
import { useUrlState, useUrlStates } from '../urlState.js';

const EXPORT_PAGE_SIZE = 500;

/** The audit trail: who did what, from where, with what outcome; filtered by who, action, resource and days, a page at a time, exportable. */
export default function Audit() {
  const { t } = useI18n();
  const transport = useTransport();
  // The filters live in the address (a reload or a shared link shows the same trail); the typed ones once typing pauses.
  const [params, writeParams] = useUrlStates(['who', 'action', 'resource']);
  const [who, setWho] = useState(params.who);
  const [action, setAction] = useState(params.action);
  const [resource, setResource] = useState(params.resource);
  const [fromParam, setFrom] = useUrlState('from');
  const [toParam, setTo] = useUrlState('to');
  const from = isoDayOrEmpty(fromParam);
  const to = isoDayOrEmpty(toParam);
  const [typed] = useDebouncedValue({ who: who.trim(), action: action.trim(), resource: resource.trim() }, 300);
  useEffect(() => writeParams(typed), [typed, writeParams]);
  const filter = { actorName: typed.who, action: typed.action, resource: typed.resource, from: dayStart(from), to: dayStart(to, true) };
  const list = useInfiniteQuery(
    AccessService.method.listAuditEvents,
    { ...filter, pageSize: PAGE_SIZE, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (last) => last.nextPageToken || undefined },
  );
  const events = list.data?.pages.flatMap((page) => page.events) ?? [];
  const page: ExportPage = async (pageToken, signal) => {
    const answer = await createClient(AccessService, transport).listAuditEvents({ ...filter, pageSize: EXPORT_PAGE_SIZE, pageToken }, { signal });
    return {
      nextPageToken: answer.nextPageToken,
      rows: answer.events.map((e) => [
        e.at ? timestampDate(e.at).toISOString() : '',
        e.actorKind,
        e.actorId,
        e.actorName,
        e.action,
        e.resource,
        e.source,
        e.outcome,
        e.detail,
      ]),
    };
  };

  return (
    <>
      <PageHeader title={t.nav.audit} loading={list.isPending} />
      <Group mb="md" align="flex-end" role="search" aria-label={t.audit.filters}>
        <TextInput label={t.audit.who} description={t.audit.whoHint} value={who} onChange={(e) => setWho(e.currentTarget.value)} />
        <TextInput label={t.audit.action} value={action} onChange={(e) => setAction(e.currentTarget.value)} />
        <TextInput label={t.audit.resource} value={resource} onChange={(e) => setResource(e.currentTarget.value)} />
        <DayInput label={t.audit.since} value={from} onChange={setFrom} />
        <DayInput label={t.audit.until} value={to} onChange={setTo} />
      </Group>
      <ExportCsv page={page} header={t.audit.header} prefix="auditoria" />
      <ErrorAlert error={list.error} />
      <div className="table-scroll" {...scrollable(t.nav.audit)}>
        <Table data-testid="audit-table" striped>
          <TableHead columns={[t.audit.when, t.audit.who, t.audit.action, t.audit.resource, t.audit.from, t.audit.outcome]} />
          <Table.Tbody>
            {events.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td>
                  <When at={event.at} />
                </Table.Td>
                <Table.Td>{event.actorName}</Table.Td>
                <Table.Td>{event.action}</Table.Td>
                <Table.Td>{event.resource}</Table.Td>
                <Table.Td>{event.source}</Table.Td>
                <Table.Td>
                  <Outcome outcome={event.outcome} detail={event.detail} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <LoadMore list={list} empty={events.length === 0} />
    </>
  );
}

/**
 * An event's outcome, and its detail (a refusal's reason, what changed) behind a disclosure that opens by tap, click or
 * keyboard: a hover title is out of reach on a phone and of most screen readers.
 */
function Outcome({ outcome, detail }: { outcome: string; detail: string }) {
  if (!detail) return outcome;
  return (
    <details className="audit-detail">
      <summary>{outcome}</summary>
      <Text size="sm" data-testid="audit-detail">
        {detail}
      </Text>
    </details>
  );
}
