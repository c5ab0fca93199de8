import { useCallback, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Alert, Anchor, Badge, Button, Card, Group, Select, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { DisputeService, DisputeStatus, type Dispute } from '../../../gen/es/gateway/v1/dispute_service_pb.js';
import { UploadPurpose } from '../../../gen/es/gateway/v1/upload_service_pb.js';
import { DisputeCorrection } from '../disputeCorrection.js';
import { isOpenDispute, isOverdue } from '../disputes.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { formatMoney } from '../format.js';
import { useI18n } from '../i18n.js';
import { DocumentUpload } from '../upload.js';
import { optionalFact, PageHeader, scrollable, TableHead, When } from '../ui.js';

const OUTCOMES = [DisputeStatus.WON, DisputeStatus.LOST, DisputeStatus.ACCEPTED];

/**
 * One dispute: its charge, amount, reason, deadline and status; its evidence (each document opened through a
 * short-lived link); and while it is open, for roles that may, its facts corrected, evidence uploaded through the
 * private upload flow, the defence submitted (sent to the provider, or recorded where its API takes none), and the outcome.
 */
export default function DisputeDetail({ canWrite, canUpload }: { canWrite: boolean; canUpload: boolean }) {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const detail = useQuery(DisputeService.method.getDispute, { id });
  const dispute = detail.data?.dispute;
  const open = dispute !== undefined && isOpenDispute(dispute);

  return (
    <>
      <PageHeader title={t.disputes.title} back={{ to: '/disputes', label: t.disputes.back }} loading={detail.isPending} />
      <ErrorAlert error={detail.error} />
      {dispute && (
        <Stack>
          <Card withBorder>
            <DisputeFacts dispute={dispute} />
          </Card>
          {open && <DisputeCorrection dispute={dispute} canWrite={canWrite} />}
          <Evidence dispute={dispute} />
          {!open && <Alert color="gray">{t.disputes.closed}</Alert>}
          {open && !canWrite && <Alert color="blue">{t.disputes.readOnly}</Alert>}
          {open && canWrite && (
            <>
              <AddEvidence dispute={dispute} canUpload={canUpload} />
              <SubmitDefense dispute={dispute} />
              <CloseDispute dispute={dispute} />
            </>
          )}
        </Stack>
      )}
    </>
  );
}

function useRefetchDisputes() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: DisputeService, cardinality: undefined }) });
}

function DisputeFacts({ dispute }: { dispute: Dispute }) {
  const { t } = useI18n();
  return (
    <dl className="facts" data-testid="dispute">
      <dt>{t.transactions.id}</dt>
      <dd>{dispute.id}</dd>
      <dt>{t.disputes.charge}</dt>
      <dd>
        <Anchor component={Link} to={`/transactions/${dispute.transactionId}`} data-testid="charge-link">
          {dispute.transactionId}
        </Anchor>
      </dd>
      <dt>{t.disputes.kindLabel}</dt>
      <dd>{t.disputes.kind[dispute.kind]}</dd>
      <dt>{t.disputes.statusLabel}</dt>
      <dd data-testid="dispute-status">{t.disputes.status[dispute.status]}</dd>
      <dt>{t.disputes.amount}</dt>
      <dd data-testid="amount">{formatMoney(dispute.amount)}</dd>
      <dt>{t.disputes.deadline}</dt>
      <dd>
        <When at={dispute.deadline} />
        {isOverdue(dispute) && (
          <Badge color="red" variant="light" className="status-badge" ml="xs">
            {t.disputes.overdue}
          </Badge>
        )}
      </dd>
      <dt>{t.disputes.reason}</dt>
      <dd data-testid="reason">{dispute.reason}</dd>
      {optionalFact(t.disputes.reasonCode, dispute.reasonCode, 'reason-code')}
      <dt>{t.transactions.provider}</dt>
      <dd>{dispute.provider}</dd>
      {optionalFact(t.disputes.providerDisputeId, dispute.providerDisputeId, 'provider-dispute-id')}
      <dt>{t.disputes.openedBy}</dt>
      <dd>{dispute.openedBy}</dd>
      <dt>{t.disputes.openedAt}</dt>
      <dd>
        <When at={dispute.openedAt} />
      </dd>
      {optionalFact(t.disputes.outcomeNote, dispute.outcomeNote, 'outcome-note')}
    </dl>
  );
}

function Evidence({ dispute }: { dispute: Dispute }) {
  const { t } = useI18n();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.disputes.evidence}
      </Title>
      {dispute.evidence.length === 0 ? (
        <Text>{t.disputes.noEvidence}</Text>
      ) : (
        <div className="table-scroll" {...scrollable(t.disputes.evidence)}>
          <Table data-testid="evidence">
            <TableHead
              columns={[
                t.disputes.document,
                t.disputes.description,
                t.disputes.addedBy,
                t.detail.when,
                ...(dispute.providerTakesDefense ? [t.disputes.sentAt] : []),
              ]}
            />
            <Table.Tbody>
              {dispute.evidence.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>
                    <Anchor href={item.readUrl || item.documentUrl} target="_blank" rel="noopener noreferrer">
                      {item.fileName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{item.description}</Table.Td>
                  <Table.Td>{item.addedBy}</Table.Td>
                  <Table.Td>
                    <When at={item.addedAt} />
                  </Table.Td>
                  {dispute.providerTakesDefense && <Table.Td data-testid="evidence-sent">{item.sentAt ? <When at={item.sentAt} /> : '—'}</Table.Td>}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Card>
  );
}

/** A document uploaded straight to the store (DocumentUpload), then named as this dispute's evidence. */
function AddEvidence({ dispute, canUpload }: { dispute: Dispute; canUpload: boolean }) {
  const { t } = useI18n();
  const refetch = useRefetchDisputes();
  const [url, setUrl] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [description, setDescription] = useState('');
  // A new upload component after each piece of evidence is added: the field starts empty again.
  const [round, setRound] = useState(0);
  const add = useMutation(DisputeService.method.addDisputeEvidence, {
    onSuccess: () => {
      setUrl(undefined);
      setDescription('');
      setRound((n) => n + 1);
      refetch();
    },
  });
  const onUploaded = useCallback((uploaded: string | undefined) => setUrl(uploaded), []);
  const onBusy = useCallback((uploading: boolean) => setBusy(uploading), []);
  const violations = useFieldViolations(add.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (url) add.mutate({ disputeId: dispute.id, documentUrl: url, description });
  }

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.disputes.addEvidence}
      </Title>
      {canUpload ? (
        <form onSubmit={submit} aria-label={t.disputes.addEvidence}>
          <Stack gap="sm">
            <DocumentUpload
              key={round}
              label={t.disputes.evidenceFile}
              purpose={UploadPurpose.DISPUTE_EVIDENCE}
              error={violations.document_url}
              onUploaded={onUploaded}
              onBusy={onBusy}
            />
            <TextInput label={t.disputes.description} value={description} onChange={(e) => setDescription(e.currentTarget.value)} maxLength={1000} />
            <Group>
              <Button type="submit" disabled={!url || busy} loading={add.isPending}>
                {t.disputes.addEvidence}
              </Button>
            </Group>
            {add.error && !violations.document_url && <ErrorAlert error={add.error} />}
          </Stack>
        </form>
      ) : (
        <Text>{t.disputes.uploadNeedsPermission}</Text>
      )}
    </Card>
  );
}

function SubmitDefense({ dispute }: { dispute: Dispute }) {
  const { t } = useI18n();
  const refetch = useRefetchDisputes();
  const submit = useMutation(DisputeService.method.submitDisputeDefense, { onSuccess: refetch });
  const sent = submit.data?.dispute;
  // Where the provider takes the defence, each document goes once: with nothing new there is nothing to send.
  const nothingNew = dispute.providerTakesDefense && dispute.evidence.length > 0 && dispute.evidence.every((item) => item.sentAt);
  const hint = !dispute.evidence.length
    ? t.disputes.needsEvidence
    : nothingNew
      ? t.disputes.allSent
      : dispute.providerTakesDefense
        ? t.disputes.submitNewHint
        : t.disputes.submitHint;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.disputes.submit}
      </Title>
      <Stack gap="sm">
        <Text size="sm">{hint}</Text>
        {!dispute.providerTakesDefense && <Text size="sm">{t.disputes.recordedOnly}</Text>}
        <Group>
          <Button onClick={() => submit.mutate({ disputeId: dispute.id })} loading={submit.isPending} disabled={!dispute.evidence.length || nothingNew}>
            {t.disputes.submit}
          </Button>
        </Group>
        {sent && (
          <Alert color="green" role="status" data-testid="defense-result">
            {sent.sentToProvider ? t.disputes.sent : t.disputes.recordedOnly}
          </Alert>
        )}
        <ErrorAlert error={submit.error} />
      </Stack>
    </Card>
  );
}

function CloseDispute({ dispute }: { dispute: Dispute }) {
  const { t } = useI18n();
  const refetch = useRefetchDisputes();
  const [outcome, setOutcome] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const close = useMutation(DisputeService.method.closeDispute, { onSuccess: refetch });
  const violations = useFieldViolations(close.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    close.mutate({ disputeId: dispute.id, outcome: Number(outcome) as DisputeStatus, note });
  }

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.disputes.close}
      </Title>
      <form onSubmit={submit} aria-label={t.disputes.close}>
        <Stack gap="sm">
          <Select
            label={t.disputes.outcome}
            data={OUTCOMES.map((value) => ({ value: String(value), label: t.disputes.status[value] }))}
            value={outcome}
            onChange={setOutcome}
            required
            error={violations.outcome}
          />
          <Textarea label={t.disputes.outcomeNote} value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={1000} autosize />
          <Group>
            <Button type="submit" color="red" disabled={!outcome} loading={close.isPending}>
              {t.disputes.closeSubmit}
            </Button>
          </Group>
          {close.error && !violations.outcome && <ErrorAlert error={close.error} />}
        </Stack>
      </form>
    </Card>
  );
}
