import { Fragment, useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { WebhookOutcome, type WebhookNotification } from '../../gen/es/gateway/v1/types_pb.js';
import { DeliveryState, WebhookService, type OutboundDelivery } from '../../gen/es/gateway/v1/webhook_service_pb.js';
import { ErrorAlert } from './errors.js';
import { readableBody } from './format.js';
import { useI18n } from './i18n.js';
import { scrollable, TableHead, When } from './ui.js';

const OUTCOME_COLORS: Partial<Record<WebhookOutcome, string>> = {
  [WebhookOutcome.APPLIED]: 'green',
  [WebhookOutcome.RECEIVED]: 'blue',
  [WebhookOutcome.FAILED]: 'red',
  [WebhookOutcome.REJECTED]: 'red',
  [WebhookOutcome.MISMATCH]: 'red',
  [WebhookOutcome.UNCONFIRMED]: 'orange',
  [WebhookOutcome.UNKNOWN_SUBJECT]: 'orange',
};
const DELIVERY_COLORS: Record<DeliveryState, string> = {
  [DeliveryState.UNSPECIFIED]: 'gray',
  [DeliveryState.PENDING]: 'blue',
  [DeliveryState.DELIVERED]: 'green',
  [DeliveryState.GAVE_UP]: 'red',
};
/** While a delivery still has attempts to make, its list is read again this often (attempts produce no status event). */
const PENDING_DELIVERY_REFRESH_MS = 3000;

/** A titled card for a list read on its own: its failure, or a line saying it is empty, above it. */
function ListCard({ title, error, empty, children }: { title: string; error: unknown; empty: string | false; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      <ErrorAlert error={error} />
      {empty && <Text c="dimmed">{empty}</Text>}
      {children}
    </Card>
  );
}

/** The provider's notifications about one charge, newest first, each openable as received and, for those who may, processed again. */
export function ChargeNotifications({ transactionId, canReprocess }: { transactionId: string; canReprocess: boolean }) {
  const { t } = useI18n();
  const list = useQuery(WebhookService.method.listWebhookNotifications, { subjectId: transactionId, pageSize: 100 });
  const [open, setOpen] = useState<string | null>(null);
  const notifications = list.data?.notifications ?? [];
  return (
    <ListCard title={t.notifications.title} error={list.error} empty={list.isSuccess && notifications.length === 0 && t.notifications.none}>
      {notifications.length > 0 && (
        <div className="table-scroll" {...scrollable(t.notifications.title)}>
          <Table data-testid="notifications">
            <TableHead columns={[t.notifications.received, t.notifications.outcome, t.notifications.reason, t.notifications.attempts, t.accounts.actions]} />
            <Table.Tbody>
              {notifications.map((notification) => (
                <Fragment key={notification.id}>
                  <Table.Tr data-testid="notification">
                    <Table.Td>
                      <When at={notification.receivedAt} />
                    </Table.Td>
                    <Table.Td className="nowrap">
                      <OutcomeBadge outcome={notification.outcome} />
                    </Table.Td>
                    <Table.Td>{notification.outcomeReason || '—'}</Table.Td>
                    <Table.Td>{notification.attempts}</Table.Td>
                    <NotificationActions
                      notification={notification}
                      open={open === notification.id}
                      onToggle={() => setOpen(open === notification.id ? null : notification.id)}
                      canReprocess={canReprocess}
                    />
                  </Table.Tr>
                  {open === notification.id && (
                    <Table.Tr>
                      <Table.Td colSpan={5}>
                        <RawNotification id={notification.id} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </ListCard>
  );
}

/** A notification row's actions cell: show or hide what was received and, for those who may, reprocess. */
export function NotificationActions({
  notification,
  open,
  onToggle,
  canReprocess,
}: {
  notification: WebhookNotification;
  open: boolean;
  onToggle: () => void;
  canReprocess: boolean;
}) {
  const { t } = useI18n();
  const receivedAt = useReceivedAt();
  return (
    <Table.Td className="nowrap">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Button
          size="xs"
          variant="light"
          aria-expanded={open}
          aria-label={`${open ? t.notifications.hide : t.notifications.show}: ${t.notifications.of(receivedAt(notification))}`}
          onClick={onToggle}
        >
          {open ? t.notifications.hide : t.notifications.show}
        </Button>
        {canReprocess && <Reprocess notification={notification} />}
      </Group>
    </Table.Td>
  );
}

export function OutcomeBadge({ outcome }: { outcome: WebhookOutcome }) {
  const { t } = useI18n();
  return (
    // At least as wide as its label: in a narrow table Mantine would clip it to "ASSI…".
    <Badge color={OUTCOME_COLORS[outcome] ?? 'gray'} variant="light" data-testid="outcome" miw="max-content">
      {t.notifications.outcomes[outcome]}
    </Badge>
  );
}

/** What the provider sent, as stored: the headers (credentials were never stored), the address's parameters where any came, and the body. */
export function RawNotification({ id }: { id: string }) {
  const { t } = useI18n();
  const raw = useQuery(WebhookService.method.getWebhookNotification, { id });
  if (raw.error) return <ErrorAlert error={raw.error} />;
  if (!raw.data) return <Text c="dimmed">{t.loading}</Text>;
  return (
    <Stack gap="xs" data-testid="notification-raw">
      <Text fw={600}>{t.notifications.headers}</Text>
      <Code block data-testid="notification-headers">
        {Object.entries(raw.data.headers)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n')}
      </Code>
      {Object.keys(raw.data.query).length > 0 && (
        <>
          <Text fw={600}>{t.notifications.query}</Text>
          <Code block data-testid="notification-query">
            {Object.entries(raw.data.query)
              .map(([name, value]) => `${name}=${value}`)
              .join('\n')}
          </Code>
        </>
      )}
      <Text fw={600}>{t.notifications.body}</Text>
      <Code block data-testid="notification-body">
        {readableBody(raw.data.body)}
      </Code>
    </Stack>
  );
}

/** When a notification arrived, as the reader's locale writes it: what tells one row's buttons from another's. */
function useReceivedAt() {
  const { t } = useI18n();
  return (notification: WebhookNotification) => (notification.receivedAt ? timestampDate(notification.receivedAt).toLocaleString(t.locale) : notification.id);
}

function Reprocess({ notification }: { notification: WebhookNotification }) {
  const { t } = useI18n();
  const receivedAt = useReceivedAt();
  const queryClient = useQueryClient();
  const reprocess = useMutation(WebhookService.method.reprocessWebhookNotification, {
    onSuccess: () => {
      void queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: WebhookService.method.listWebhookNotifications, cardinality: undefined }),
      });
      void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: PaymentGatewayService.method.getTransaction, cardinality: undefined }) });
    },
  });
  return (
    <Stack gap={4}>
      <Button
        size="xs"
        variant="default"
        loading={reprocess.isPending}
        onClick={() => reprocess.mutate({ id: notification.id })}
        aria-label={`${t.notifications.reprocess}: ${t.notifications.of(receivedAt(notification))}`}
      >
        {t.notifications.reprocess}
      </Button>
      {reprocess.data?.notification && (
        <Alert color="green" role="status" p={4}>
          {t.notifications.reprocessed(t.notifications.outcomes[reprocess.data.notification.outcome])}
        </Alert>
      )}
      {reprocess.error && <ErrorAlert error={reprocess.error} />}
    </Stack>
  );
}

/** The gateway's POSTs of this charge's status changes to its webhook_url, each with its attempts. */
export function ChargeDeliveries({ transactionId }: { transactionId: string }) {
  const { t } = useI18n();
  const list = useQuery(
    WebhookService.method.listOutboundDeliveries,
    { transactionId },
    { refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.state === DeliveryState.PENDING) ? PENDING_DELIVERY_REFRESH_MS : false) },
  );
  const deliveries = list.data?.deliveries ?? [];
  return (
    <ListCard title={t.deliveries.title} error={list.error} empty={list.isSuccess && deliveries.length === 0 && t.deliveries.none}>
      <Stack>
        {deliveries.map((delivery) => (
          <Delivery key={delivery.id} delivery={delivery} />
        ))}
      </Stack>
    </ListCard>
  );
}

export function Delivery({ delivery }: { delivery: OutboundDelivery }) {
  const { t } = useI18n();
  return (
    <Stack gap="xs" data-testid="delivery">
      <Group gap="xs">
        <Badge color={DELIVERY_COLORS[delivery.state]} variant="light" data-testid="delivery-state">
          {t.deliveries.states[delivery.state]}
        </Badge>
        <Text size="sm">
          {t.deliveries.event} {delivery.eventId} → <Code>{delivery.url}</Code>
        </Text>
        {delivery.state === DeliveryState.PENDING && delivery.nextAttemptAt && (
          <Text size="sm" c="dimmed">
            {t.deliveries.nextAttempt} <When at={delivery.nextAttemptAt} />
          </Text>
        )}
      </Group>
      {delivery.attempts.length > 0 && (
        <div className="table-scroll" {...scrollable(`${t.deliveries.attempt} · ${delivery.eventId}`)}>
          <Table data-testid="delivery-attempts">
            <TableHead columns={[t.deliveries.attempt, t.detail.when, t.deliveries.response, t.deliveries.error]} />
            <Table.Tbody>
              {delivery.attempts.map((attempt) => (
                <Table.Tr key={attempt.number}>
                  <Table.Td>{attempt.number}</Table.Td>
                  <Table.Td>
                    <When at={attempt.attemptedAt} />
                  </Table.Td>
                  <Table.Td>{attempt.responseStatus || t.deliveries.noAnswer}</Table.Td>
                  <Table.Td>{attempt.error || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Stack>
  );
}
