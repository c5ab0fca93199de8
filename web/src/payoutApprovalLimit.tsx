import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccessService } from '../../gen/es/gateway/v1/access_service_pb.js';
import { decimalCents } from './csv.js';
import { ErrorAlert, useFieldViolations } from './errors.js';
import { formatMoney, parseCents } from './format.js';
import { useI18n } from './i18n.js';
import { RoleNote } from './operations/Section.js';
import { AmountInput } from './ui.js';

/** The four-eyes limit in force (GetPayoutApprovalSettings, payouts:read): cents, undefined when no payout waits. */
export function usePayoutApprovalLimit() {
  return useQuery(AccessService.method.getPayoutApprovalSettings, {});
}

/** Whether a payout of `amount` cents waits for a second operator under `limit` (the gateway holds strictly above it). */
export const awaitsApproval = (amount: bigint, limit: bigint | undefined): boolean => limit !== undefined && amount > limit;

/** A limit as typed, in reais: 0 (written `0`, `0,00`…) turns the review off; otherwise as any amount (parseCents). */
function parseLimit(text: string): bigint | null {
  return /^\s*(R\$\s*)?0+([,.]0{1,2})?\s*$/i.test(text) ? 0n : parseCents(text);
}

/**
 * "Aprovação em dupla" on the payouts page: the limit above which an operator's payout waits for another operator.
 * An admin (accounts:admin) changes it (0: off); other roles read it, with the reason they cannot change it.
 */
export function PayoutApprovalLimit({ canAdmin }: { canAdmin: boolean }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const settings = usePayoutApprovalLimit();
  const limit = settings.data?.settings?.approvalAboveCents;
  const [editing, setEditing] = useState<string | null>(null);
  const [bad, setBad] = useState(false);
  const update = useMutation(AccessService.method.updatePayoutApprovalSettings, {
    onSuccess: () => {
      void queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: AccessService.method.getPayoutApprovalSettings, cardinality: undefined }),
      });
      setEditing(null);
    },
  });
  const violations = useFieldViolations(update.error);

  function save(event: FormEvent) {
    event.preventDefault();
    if (editing === null) return;
    const cents = parseLimit(editing);
    setBad(cents === null);
    if (cents === null) return;
    update.mutate({ approvalAboveCents: cents });
  }

  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="payout-approval-title" data-testid="payout-approval">
      <Stack gap="xs">
        <Title order={2} size="h4" id="payout-approval-title">
          {t.payoutApproval.title}
        </Title>
        <ErrorAlert error={settings.error} />
        {settings.isSuccess && (
          <Text size="sm" data-testid="payout-approval-limit">
            {limit ? t.payoutApproval.above(formatMoney(limit)) : t.payoutApproval.off}
          </Text>
        )}
        {!canAdmin && <RoleNote text={t.payoutApproval.noAdmin} />}
        {canAdmin && settings.isSuccess && editing === null && (
          <Group>
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                update.reset();
                setBad(false);
                setEditing(limit ? decimalCents(limit) : '0,00');
              }}
            >
              {t.payoutApproval.change}
            </Button>
          </Group>
        )}
        {canAdmin && editing !== null && (
          <form onSubmit={save}>
            <Stack gap="xs">
              <AmountInput
                label={t.payoutApproval.limit}
                value={editing}
                onChange={(value) => {
                  setEditing(value);
                  update.reset();
                }}
                invalid={bad && t.payoutApproval.badLimit}
                violation={violations.approval_above_cents}
              />
              <Text size="xs" c="dimmed">
                {t.payoutApproval.zeroHint}
              </Text>
              {update.error && !violations.approval_above_cents && <ErrorAlert error={update.error} />}
              <Group>
                <Button type="submit" loading={update.isPending}>
                  {t.payoutApproval.save}
                </Button>
                <Button variant="default" onClick={() => setEditing(null)}>
                  {t.payoutApproval.cancel}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
