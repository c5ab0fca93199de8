import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { DeliveryState, WebhookService, type OutboundDelivery } from '../../../gen/es/gateway/v1/webhook_service_pb.js';
import { ErrorAlert } from '../errors.js';
import { useI18n } from '../i18n.js';
import { Delivery } from '../notifications.js';
import { RoleNote, Section } from './Section.js';

/** The newest this many deliveries that gave up are shown; a longer backlog is a monitoring alert, not a list to page through. */
const GAVE_UP_SHOWN = 100;

/** The gateway's notifications to merchants' webhook_url whose retries ran out, each resendable by those who may. */
export function GaveUpDeliveries({ canResend }: { canResend: boolean }) {
  const { t } = useI18n();
  const list = useQuery(WebhookService.method.listOutboundDeliveries, { state: DeliveryState.GAVE_UP, pageSize: GAVE_UP_SHOWN });
  const deliveries = list.data?.deliveries ?? [];
  return (
    <Section title={t.operations.gaveUp} testId="ops-deliveries" loading={list.isPending}>
      {!canResend && <RoleNote text={t.operations.noResend} />}
      <ErrorAlert error={list.error} />
      {list.isSuccess && deliveries.length === 0 && <Text c="dimmed">{t.operations.noneGaveUp}</Text>}
      <Stack>
        {deliveries.map((delivery) => (
          <Stack key={delivery.id} gap="xs" data-testid="ops-delivery">
            <Group gap="xs">
              <Text size="sm">{t.operations.charge}</Text>
              <Anchor size="sm" component={Link} to={`/transactions/${delivery.transactionId}`}>
                {delivery.transactionId.slice(0, 8)}
              </Anchor>
              {canResend && <Resend delivery={delivery} />}
            </Group>
            <Delivery delivery={delivery} />
          </Stack>
        ))}
      </Stack>
    </Section>
  );
}

function Resend({ delivery }: { delivery: OutboundDelivery }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const resend = useMutation(WebhookService.method.resendOutboundDelivery, {
    onSuccess: () =>
      void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: WebhookService.method.listOutboundDeliveries, cardinality: undefined }) }),
  });
  return (
    <>
      <Button
        size="xs"
        variant="default"
        loading={resend.isPending}
        onClick={() => resend.mutate({ id: delivery.id })}
        aria-label={`${t.operations.resend}: ${t.deliveries.event} ${delivery.eventId}`}
      >
        {t.operations.resend}
      </Button>
      {resend.isSuccess && (
        <Alert color="green" role="status" p={4}>
          {t.operations.resent}
        </Alert>
      )}
      <ErrorAlert error={resend.error} />
    </>
  );
}
