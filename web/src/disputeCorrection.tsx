import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Group, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation } from '@connectrpc/connect-query';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { useQueryClient } from '@tanstack/react-query';
import { DisputeService, type Dispute, type UpdateDisputeRequest } from '../../gen/es/gateway/v1/dispute_service_pb.js';
import { isoDayOf } from './days.js';
import { ErrorAlert, useFieldViolations } from './errors.js';
import { DisputeAmountField, DisputeDeadlineField, DisputeReasonField } from './disputeFields.js';
import { dayStart } from './filters.js';
import { formatMoney, parseCents } from './format.js';
import { useI18n } from './i18n.js';

/**
 * "Editar" on an open dispute: an operator corrects the reason, deadline, amount at stake or provider's id with what
 * the provider told them (a dispute the gateway opened has a fixed reason and a 7-day deadline), saying why. Only the
 * fields changed are sent. Roles without disputes:write see the action disabled, with the reason.
 */
export function DisputeCorrection({ dispute, canWrite }: { dispute: Dispute; canWrite: boolean }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const [deadlinePassed, setDeadlinePassed] = useState<boolean | undefined>();
  if (!canWrite)
    return (
      <Group>
        <Button variant="default" disabled aria-describedby="dispute-edit-denied">
          {t.disputes.edit}
        </Button>
        <Text size="sm" id="dispute-edit-denied">
          {t.disputes.editNeedsPermission}
        </Text>
      </Group>
    );
  return (
    <Stack gap="sm">
      {deadlinePassed !== undefined && (
        <Alert color={deadlinePassed ? 'yellow' : 'green'} role="status" data-testid="correction-result">
          {deadlinePassed ? t.disputes.correctedPastDeadline : t.disputes.corrected}
        </Alert>
      )}
      {editing ? (
        <CorrectionForm
          dispute={dispute}
          onDone={(passed) => {
            setEditing(false);
            setDeadlinePassed(passed);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <Group>
          <Button
            variant="default"
            onClick={() => {
              setDeadlinePassed(undefined);
              setEditing(true);
            }}
          >
            {t.disputes.edit}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function CorrectionForm({ dispute, onDone, onCancel }: { dispute: Dispute; onDone: (deadlinePassed: boolean) => void; onCancel: () => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  // A deadline chosen as a day is that day's end (the next midnight): shown as the day it closes.
  const initialDay = dispute.deadline ? isoDayOf(new Date(timestampDate(dispute.deadline).getTime() - 1)) : '';
  const [reason, setReason] = useState(dispute.reason);
  const [deadline, setDeadline] = useState(initialDay);
  const [amount, setAmount] = useState(formatMoney(dispute.amount));
  const [providerDisputeId, setProviderDisputeId] = useState('');
  const [note, setNote] = useState('');
  const [badAmount, setBadAmount] = useState(false);
  const [unchanged, setUnchanged] = useState(false);
  const update = useMutation(DisputeService.method.updateDispute, {
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: DisputeService, cardinality: undefined }) });
      onDone(answer.deadlinePassed);
    },
  });
  const violations = useFieldViolations(update.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseCents(amount);
    setBadAmount(cents === null);
    if (cents === null) return;
    const changes: Partial<UpdateDisputeRequest> = {
      ...(reason.trim() !== dispute.reason && { reason }),
      // Through the whole day chosen, in the operator's time zone (as when a dispute is opened).
      ...(deadline && deadline !== initialDay && { deadline: dayStart(deadline, true) }),
      ...(cents !== dispute.amount && { amount: cents }),
      ...(providerDisputeId.trim() && { providerDisputeId }),
    };
    setUnchanged(Object.keys(changes).length === 0);
    if (Object.keys(changes).length) update.mutate({ disputeId: dispute.id, note, ...changes });
  }

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.disputes.editTitle}
      </Title>
      <form onSubmit={submit} aria-label={t.disputes.editTitle}>
        <Stack gap="sm">
          <Text size="sm">{t.disputes.editHint}</Text>
          <DisputeReasonField value={reason} onChange={setReason} error={violations.reason} />
          <Group grow wrap="wrap" align="flex-start">
            <DisputeAmountField
              value={amount}
              onChange={setAmount}
              description={t.disputes.amountLeftHint}
              error={badAmount ? t.detail.badAmount : violations.amount}
            />
            <DisputeDeadlineField value={deadline} onChange={setDeadline} hint={t.disputes.pastDeadlineHint} error={violations.deadline} />
            {!dispute.providerDisputeId && (
              <TextInput
                label={t.disputes.providerDisputeId}
                value={providerDisputeId}
                onChange={(e) => setProviderDisputeId(e.currentTarget.value)}
                maxLength={128}
                error={violations.provider_dispute_id}
              />
            )}
          </Group>
          <Textarea
            label={t.disputes.correctionNote}
            description={t.disputes.correctionNoteHint}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            maxLength={1000}
            required
            error={violations.note}
            autosize
          />
          <Group>
            <Button type="submit" loading={update.isPending}>
              {t.disputes.saveCorrection}
            </Button>
            <Button variant="default" onClick={onCancel}>
              {t.cancel}
            </Button>
          </Group>
          {unchanged && <Text size="sm">{t.disputes.nothingChanged}</Text>}
          {update.error && !Object.keys(violations).length && <ErrorAlert error={update.error} />}
        </Stack>
      </form>
    </Card>
  );
}
