import { useState } from 'react';
import { Anchor, Button, Group, Modal, SegmentedControl, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { Link } from 'react-router';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { FlowMismatchOutcome, FlowMismatchState, PaymentGatewayService, type FlowMismatch } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { TableHead, When, scrollable } from '../ui.js';
import { RoleNote, Section } from './Section.js';
import { useUrlState } from '../urlState.js';

const subjectOf = (mismatch: FlowMismatch) => mismatch.subjectId.slice(0, 8);

/**
 * Provider answers that claimed money moved for another amount or id than the gateway's record: never applied, listed
 * open first for follow-up, and settled (outcome and note, who and when) by those who may.
 */
export function FlowMismatches({ canSettle }: { canSettle: boolean }) {
  const { t } = useI18n();
  // In the address (open ones, the default, leave it out), so a reload keeps the list chosen.
  const [stateParam, setStateParam] = useUrlState('mismatchState');
  const state = stateParam || String(FlowMismatchState.OPEN);
  const setState = (value: string) => setStateParam(value === String(FlowMismatchState.OPEN) ? '' : value);
  const list = useQuery(PaymentGatewayService.method.listFlowMismatches, { state: Number(state) as FlowMismatchState });
  const [settling, setSettling] = useState<FlowMismatch | null>(null);
  const mismatches = list.data?.mismatches ?? [];
  const columns = [
    t.notifications.received,
    t.operations.subject,
    t.operations.claimed,
    t.operations.expected,
    t.operations.reported,
    t.notifications.reason,
    t.operations.resolution,
  ];
  return (
    <Section title={t.operations.mismatches} testId="ops-mismatches" loading={list.isPending}>
      <Text size="sm" c="dimmed" mb="sm">
        {t.operations.mismatchesHint}
      </Text>
      {!canSettle && <RoleNote text={t.operations.noSettleMismatch} />}
      <SegmentedControl
        mb="sm"
        aria-label={t.operations.mismatchState}
        value={state}
        onChange={setState}
        data={[
          { value: String(FlowMismatchState.OPEN), label: t.operations.mismatchesOpen },
          { value: String(FlowMismatchState.SETTLED), label: t.operations.mismatchesSettled },
          { value: String(FlowMismatchState.ANY), label: t.operations.mismatchesAll },
        ]}
      />
      <ErrorAlert error={list.error} />
      {list.isSuccess && mismatches.length === 0 && <Text c="dimmed">{t.operations.noneMismatches}</Text>}
      {mismatches.length > 0 && (
        <div className="table-scroll" {...scrollable(t.tableOf(t.operations.mismatches))}>
          <Table>
            <TableHead columns={columns} />
            <Table.Tbody>
              {mismatches.map((mismatch) => (
                <Table.Tr key={mismatch.id} data-testid="ops-mismatch">
                  <Table.Td>
                    <When at={mismatch.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <Anchor size="sm" component={Link} to={`/${mismatch.subjectKind === 'withdrawal' ? 'payouts' : 'transactions'}/${mismatch.subjectId}`}>
                      {subjectOf(mismatch)}
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
                  <Table.Td>
                    {mismatch.settledAt ? (
                      <Settlement mismatch={mismatch} />
                    ) : canSettle ? (
                      <Button size="xs" variant="default" onClick={() => setSettling(mismatch)} aria-label={`${t.operations.settle}: ${subjectOf(mismatch)}`}>
                        {t.operations.settle}
                      </Button>
                    ) : (
                      t.operations.mismatchOpen
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
      <Modal
        opened={settling !== null}
        onClose={() => setSettling(null)}
        title={t.operations.settleMismatchTitle}
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t.close }}
      >
        {settling && <SettleMismatch mismatch={settling} onDone={() => setSettling(null)} />}
      </Modal>
    </Section>
  );
}

/** Who settled it, when, what they found and their note. */
function Settlement({ mismatch }: { mismatch: FlowMismatch }) {
  const { t } = useI18n();
  return (
    <Stack gap={2} data-testid="mismatch-settlement">
      <Text size="sm" fw={500}>
        {t.operations.mismatchOutcomes[mismatch.settlementOutcome]}
      </Text>
      <Text size="sm">
        {mismatch.settledBy} · <When at={mismatch.settledAt} />
      </Text>
      <Text size="sm" c="dimmed">
        {mismatch.settlementNote}
      </Text>
    </Stack>
  );
}

/** The confirmation: what was found with the provider and how, said before the mismatch leaves the open list for good. */
function SettleMismatch({ mismatch, onDone }: { mismatch: FlowMismatch; onDone: () => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const settle = useMutation(PaymentGatewayService.method.settleFlowMismatch, {
    onSuccess: () => {
      void queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: PaymentGatewayService.method.listFlowMismatches, cardinality: undefined }),
      });
      onDone();
    },
  });
  const violations = useFieldViolations(settle.error);
  return (
    <Stack>
      <Text size="sm">
        {t.operations.settleMismatchSummary(subjectOf(mismatch), mismatch.provider, formatMoney(mismatch.expectedAmount), formatMoney(mismatch.reportedAmount))}
      </Text>
      <Select
        label={t.operations.mismatchOutcome}
        required
        data={[
          { value: String(FlowMismatchOutcome.ACCEPTED_RECORD), label: t.operations.mismatchOutcomes[FlowMismatchOutcome.ACCEPTED_RECORD] },
          { value: String(FlowMismatchOutcome.CORRECTED_AT_PROVIDER), label: t.operations.mismatchOutcomes[FlowMismatchOutcome.CORRECTED_AT_PROVIDER] },
        ]}
        value={outcome}
        onChange={setOutcome}
        error={violations.outcome}
      />
      <Textarea
        label={t.operations.mismatchNote}
        required
        autosize
        minRows={2}
        maxLength={255}
        value={note}
        onChange={(e) => setNote(e.currentTarget.value)}
        error={violations.note}
      />
      <ErrorAlert error={settle.error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button
          disabled={!outcome || !note.trim()}
          loading={settle.isPending}
          onClick={() => settle.mutate({ id: mismatch.id, outcome: Number(outcome) as FlowMismatchOutcome, note: note.trim() })}
        >
          {t.operations.confirm}
        </Button>
      </Group>
    </Stack>
  );
}
