import { useState } from 'react';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { Alert, Anchor, Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from 'react-router';
import { createConnectQueryKey, useInfiniteQuery, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { DeliveryState, WebhookService, type OutboundDelivery } from '../../../gen/es/gateway/v1/webhook_service_pb.js';
import { isoDayOrEmpty } from '../days.js';
import { ErrorAlert } from '../errors.js';
import { DayInput, dayStart } from '../filters.js';
import { useI18n } from '../i18n.js';
import { Delivery } from '../notifications.js';
import { LoadMore, PAGE_SIZE } from '../ui.js';
import { useUrlState } from '../urlState.js';
import { RoleNote, Section } from './Section.js';

type Filter = { url: string; createdFrom?: Timestamp; createdTo?: Timestamp };

/** The gateway's notifications to merchants' webhook_url whose retries ran out: filtered, paged, resendable one by one or in bulk. */
export function GaveUpDeliveries({ canResend }: { canResend: boolean }) {
  const { t } = useI18n();
  const [url, setUrl] = useUrlState('deliveryUrl');
  const [fromParam, setFrom] = useUrlState('deliveryFrom');
  const [toParam, setTo] = useUrlState('deliveryTo');
  const from = isoDayOrEmpty(fromParam);
  const to = isoDayOrEmpty(toParam);
  // Typed a letter at a time: the list is asked again once typing pauses.
  const [typedUrl] = useDebouncedValue(url.trim(), 300);
  const filter: Filter = { url: typedUrl, createdFrom: dayStart(from), createdTo: dayStart(to, true) };
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState<'selected' | 'filtered' | null>(null);
  const list = useInfiniteQuery(
    WebhookService.method.listOutboundDeliveries,
    { state: DeliveryState.GAVE_UP, ...filter, pageSize: PAGE_SIZE, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (last) => last.nextPageToken || undefined },
  );
  const deliveries = list.data?.pages.flatMap((page) => page.deliveries) ?? [];
  const toggle = (id: string) =>
    setSelected((before) => {
      const after = new Set(before);
      if (!after.delete(id)) after.add(id);
      return after;
    });
  return (
    <Section title={t.operations.gaveUp} testId="ops-deliveries" loading={list.isPending}>
      <Group mb="md" align="flex-end" role="search" aria-label={t.operations.deliveryFilters}>
        <TextInput label={t.operations.deliveryUrl} value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
        <DayInput label={t.operations.createdFrom} value={from} onChange={setFrom} />
        <DayInput label={t.operations.createdTo} value={to} onChange={setTo} />
      </Group>
      {!canResend && <RoleNote text={t.operations.noResend} />}
      {canResend && deliveries.length > 0 && (
        <Group mb="md">
          <Button variant="default" disabled={selected.size === 0} onClick={() => setConfirming('selected')}>
            {t.operations.resendSelected(selected.size)}
          </Button>
          <Button variant="default" onClick={() => setConfirming('filtered')}>
            {t.operations.resendAllFiltered}
          </Button>
        </Group>
      )}
      <ErrorAlert error={list.error} />
      {list.isSuccess && deliveries.length === 0 && <Text c="dimmed">{t.operations.noneGaveUp}</Text>}
      <Stack>
        {deliveries.map((delivery) => (
          <Stack key={delivery.id} gap="xs" data-testid="ops-delivery">
            <Group gap="xs">
              {canResend && (
                <Checkbox aria-label={t.operations.selectDelivery(delivery.eventId)} checked={selected.has(delivery.id)} onChange={() => toggle(delivery.id)} />
              )}
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
      {deliveries.length > 0 && <LoadMore list={list} empty={false} />}
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={t.operations.resendTitle}
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t.close }}
      >
        {confirming && (
          <BulkResend
            ids={confirming === 'selected' ? [...selected] : undefined}
            filter={filter}
            onDone={() => setSelected(new Set())}
            onClose={() => setConfirming(null)}
          />
        )}
      </Modal>
    </Section>
  );
}

const useRefreshDeliveries = () => {
  const queryClient = useQueryClient();
  return () =>
    void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: WebhookService.method.listOutboundDeliveries, cardinality: undefined }) });
};

/**
 * The confirmation, then one ResendOutboundDeliveries: the gateway queues the chosen deliveries, or every one that gave
 * up under the filter, and answers the counts shown. For the filtered ones, the confirmation says how many first (the
 * same call with validate_only), as the list shows only the pages loaded.
 */
function BulkResend({ ids, filter, onDone, onClose }: { ids?: string[]; filter: Filter; onDone: () => void; onClose: () => void }) {
  const { t } = useI18n();
  const refresh = useRefreshDeliveries();
  const selection = ids ? { ids } : { filter: { url: filter.url, createdFrom: filter.createdFrom, createdTo: filter.createdTo } };
  const count = useQuery(WebhookService.method.resendOutboundDeliveries, { ...selection, validateOnly: true }, { enabled: !ids, gcTime: 0, staleTime: 0 });
  const resend = useMutation(WebhookService.method.resendOutboundDeliveries, {
    onSuccess: onDone,
    onSettled: refresh,
  });
  const total = ids ? ids.length : count.data?.queued;
  const done = resend.data;
  return (
    <Stack>
      {total === undefined ? (
        count.isPending && <Text size="sm">{t.operations.resendCounting}</Text>
      ) : (
        <Text size="sm">{ids ? t.operations.resendSelectedSummary(total) : t.operations.resendFilteredSummary(total)}</Text>
      )}
      {done && (
        <Alert color={done.skipped || done.notFound ? 'orange' : 'green'} role="status" data-testid="bulk-resend-result">
          {t.operations.resendResult(done.queued, done.skipped, done.notFound)}
        </Alert>
      )}
      <ErrorAlert error={count.error ?? resend.error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={resend.isPending}>
          {done ? t.close : t.cancel}
        </Button>
        {!done && (
          <Button loading={resend.isPending} disabled={!total} onClick={() => resend.mutate(selection)}>
            {t.operations.confirm}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function Resend({ delivery }: { delivery: OutboundDelivery }) {
  const { t } = useI18n();
  const refresh = useRefreshDeliveries();
  const resend = useMutation(WebhookService.method.resendOutboundDelivery, { onSuccess: refresh });
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
