import { Fragment, useState } from 'react';
import { Anchor, Group, Select, Table } from '@mantine/core';
import { Link } from 'react-router';
import { useInfiniteQuery, useQuery } from '@connectrpc/connect-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { WebhookService } from '../../../gen/es/gateway/v1/webhook_service_pb.js';
import { type WebhookOutcome } from '../../../gen/es/gateway/v1/types_pb.js';
import { isoDayOrEmpty } from '../days.js';
import { ErrorAlert } from '../errors.js';
import { AccountFilter, DayInput, ProviderFilter, dayStart } from '../filters.js';
import { useI18n } from '../i18n.js';
import { NotificationActions, OutcomeBadge, RawNotification } from '../notifications.js';
import { LoadMore, PAGE_SIZE, TableHead, When, enumValues, scrollable, useProviderAccounts } from '../ui.js';
import { useUrlState } from '../urlState.js';
import { RoleNote, Section } from './Section.js';

/** Every provider notification the gateway stored (unknown subjects and bad signatures too), filtered, each openable and reprocessable. */
export function AllNotifications({ canReprocess }: { canReprocess: boolean }) {
  const { t } = useI18n();
  const accounts = useProviderAccounts();
  const providers = useQuery(PaymentGatewayService.method.listProviders, {});
  const [provider, setProvider] = useUrlState('provider');
  const [account, setAccount] = useUrlState('account');
  const [outcome, setOutcome] = useUrlState('outcome');
  const [fromParam, setFrom] = useUrlState('from');
  const [toParam, setTo] = useUrlState('to');
  const from = isoDayOrEmpty(fromParam);
  const to = isoDayOrEmpty(toParam);
  const [open, setOpen] = useState<string | null>(null);
  const list = useInfiniteQuery(
    WebhookService.method.listWebhookNotifications,
    {
      provider,
      providerAccountId: account,
      outcome: outcome ? (Number(outcome) as WebhookOutcome) : undefined,
      receivedFrom: dayStart(from),
      receivedTo: dayStart(to, true),
      pageSize: PAGE_SIZE,
      pageToken: '',
    },
    { pageParamKey: 'pageToken', getNextPageParam: (last) => last.nextPageToken || undefined },
  );
  const notifications = list.data?.pages.flatMap((page) => page.notifications) ?? [];
  const accountName = (id: string) => accounts.data?.providerAccounts.find((a) => a.id === id)?.name ?? '—';
  const columns = [t.notifications.received, t.operations.provider, t.notifications.outcome, t.notifications.reason, t.operations.subject, t.accounts.actions];

  return (
    <Section title={t.operations.notifications} testId="ops-notifications" loading={list.isPending}>
      <Group mb="md" align="flex-end" role="search" aria-label={t.operations.notificationFilters}>
        <ProviderFilter providers={providers.data?.providers ?? []} value={provider} onChange={setProvider} />
        <AccountFilter accounts={accounts.data?.providerAccounts ?? []} value={account} onChange={setAccount} />
        <Select
          label={t.notifications.outcome}
          placeholder={t.all}
          data={enumValues(t.notifications.outcomes)}
          value={outcome || null}
          onChange={(value) => setOutcome(value ?? '')}
          clearable
        />
        <DayInput label={t.operations.receivedFrom} value={from} onChange={setFrom} />
        <DayInput label={t.operations.receivedTo} value={to} onChange={setTo} />
      </Group>
      {!canReprocess && <RoleNote text={t.operations.noReprocess} />}
      <ErrorAlert error={list.error ?? accounts.error ?? providers.error} />
      <div className="table-scroll" {...scrollable(t.tableOf(t.operations.notifications))}>
        <Table data-testid="ops-notifications-table">
          <TableHead columns={columns} />
          <Table.Tbody>
            {notifications.map((notification) => (
              <Fragment key={notification.id}>
                <Table.Tr data-testid="ops-notification">
                  <Table.Td>
                    <When at={notification.receivedAt} />
                  </Table.Td>
                  <Table.Td>
                    {notification.provider} · {accountName(notification.providerAccountId)}
                  </Table.Td>
                  <Table.Td className="nowrap">
                    <OutcomeBadge outcome={notification.outcome} />
                  </Table.Td>
                  <Table.Td>{notification.outcomeReason || '—'}</Table.Td>
                  <Table.Td>
                    {notification.subjectId ? (
                      <Anchor size="sm" component={Link} to={`/transactions/${notification.subjectId}`}>
                        {notification.subjectId.slice(0, 8)}
                      </Anchor>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <NotificationActions
                    notification={notification}
                    open={open === notification.id}
                    onToggle={() => setOpen(open === notification.id ? null : notification.id)}
                    canReprocess={canReprocess}
                  />
                </Table.Tr>
                {open === notification.id && (
                  <Table.Tr>
                    <Table.Td colSpan={columns.length}>
                      <RawNotification id={notification.id} />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <LoadMore list={list} empty={notifications.length === 0} />
    </Section>
  );
}
