import { useState } from 'react';
import { Alert, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { PaymentGatewayService, SettlementOutcome, type UnconfirmedRequest } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { useI18n } from '../i18n.js';
import { TableHead, When, scrollable, useProviderAccounts } from '../ui.js';
import { RoleNote, Section } from './Section.js';

/** Money requests whose outcome at the provider is unknown (idempotency keys held), oldest first, settled by hand by those who may. */
export function UnconfirmedRequests({ canSettle }: { canSettle: boolean }) {
  const { t } = useI18n();
  const list = useQuery(PaymentGatewayService.method.listUnconfirmedRequests, {});
  const accounts = useProviderAccounts();
  const [settling, setSettling] = useState<string | null>(null);
  const requests = list.data?.requests ?? [];
  const name = (id: string) => accounts.data?.providerAccounts.find((a) => a.id === id)?.name ?? id.slice(0, 8);
  const columns = [
    t.operations.since,
    t.transactions.account,
    t.operations.operation,
    t.operations.idempotencyKey,
    t.operations.failure,
    t.operations.nextCheck,
  ];
  return (
    <Section title={t.operations.unconfirmed} testId="ops-unconfirmed" loading={list.isPending}>
      {!canSettle && <RoleNote text={t.operations.noSettle} />}
      <ErrorAlert error={list.error} />
      {list.isSuccess && requests.length === 0 && <Text c="dimmed">{t.operations.noneUnconfirmed}</Text>}
      {requests.length > 0 && (
        <div className="table-scroll" {...scrollable(t.tableOf(t.operations.unconfirmed))}>
          <Table>
            <TableHead columns={canSettle ? [...columns, t.accounts.actions] : columns} />
            <Table.Tbody>
              {requests.map((request) => (
                <Table.Tr key={request.id} data-testid="ops-unconfirmed-request">
                  <Table.Td>
                    <When at={request.unknownSince ?? request.createdAt} />
                  </Table.Td>
                  <Table.Td>{name(request.providerAccountId)}</Table.Td>
                  <Table.Td>{request.operation}</Table.Td>
                  <Table.Td>{request.idempotencyKey}</Table.Td>
                  <Table.Td>{request.failure || '—'}</Table.Td>
                  <Table.Td>{request.nextCheckAt ? <When at={request.nextCheckAt} /> : t.operations.byHand}</Table.Td>
                  {canSettle && (
                    <Table.Td>
                      {settling === request.id ? (
                        <Settle request={request} onDone={() => setSettling(null)} />
                      ) : (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setSettling(request.id)}
                          aria-label={`${t.operations.settle}: ${request.idempotencyKey}`}
                        >
                          {t.operations.settle}
                        </Button>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Section>
  );
}

/** What the operator confirmed with the provider: it acted (with the id it gave), or it did not (and how that was confirmed). */
function Settle({ request, onDone }: { request: UnconfirmedRequest; onDone: () => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<string | null>(null);
  const [providerId, setProviderId] = useState('');
  const [note, setNote] = useState('');
  const settle = useMutation(PaymentGatewayService.method.settleUnconfirmedRequest, {
    onSuccess: () =>
      void queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: PaymentGatewayService.method.listUnconfirmedRequests, cardinality: undefined }),
      }),
  });
  const violations = useFieldViolations(settle.error);
  const succeeded = Number(outcome) === SettlementOutcome.SUCCEEDED;
  return (
    <Stack gap="xs" miw={220}>
      <Select
        size="xs"
        label={t.operations.settleOutcome}
        data={[
          { value: String(SettlementOutcome.SUCCEEDED), label: t.operations.succeeded },
          { value: String(SettlementOutcome.FAILED), label: t.operations.failed },
        ]}
        value={outcome}
        onChange={setOutcome}
      />
      {outcome && succeeded && request.operation !== 'refoundTransaction' && (
        <TextInput
          size="xs"
          label={t.operations.providerId}
          value={providerId}
          error={violations.provider_id}
          onChange={(e) => setProviderId(e.currentTarget.value)}
        />
      )}
      {outcome && !succeeded && (
        <TextInput size="xs" label={t.operations.note} value={note} error={violations.note} onChange={(e) => setNote(e.currentTarget.value)} />
      )}
      <Group gap="xs">
        <Button
          size="xs"
          disabled={!outcome}
          loading={settle.isPending}
          onClick={() => settle.mutate({ id: request.id, outcome: Number(outcome) as SettlementOutcome, providerId: providerId.trim(), note: note.trim() })}
        >
          {t.operations.confirm}
        </Button>
        <Button size="xs" variant="subtle" onClick={onDone}>
          {t.cancel}
        </Button>
      </Group>
      {settle.isSuccess && (
        <Alert color="green" role="status" p={4}>
          {t.operations.settled}
        </Alert>
      )}
      <ErrorAlert error={settle.error} />
    </Stack>
  );
}
