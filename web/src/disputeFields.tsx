import { Stack, Text, TextInput, Textarea } from '@mantine/core';
import { DayInput } from './filters.js';
import { useI18n } from './i18n.js';

/** The fields a dispute is opened with and corrected with (chargeDisputes.tsx, disputeCorrection.tsx), as the contract limits them. */

export function DisputeReasonField({ value, onChange, error }: { value: string; onChange: (text: string) => void; error?: string }) {
  const { t } = useI18n();
  return (
    <Textarea label={t.disputes.reason} value={value} onChange={(e) => onChange(e.currentTarget.value)} maxLength={1000} required error={error} autosize />
  );
}

/** Reais as typed (12,34); `error` is the caller's, from its own parse or the gateway's answer. */
export function DisputeAmountField(props: { value: string; onChange: (text: string) => void; description: string; error?: string }) {
  const { t } = useI18n();
  return (
    <TextInput
      label={t.disputes.amount}
      description={props.description}
      inputMode="decimal"
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
      error={props.error}
    />
  );
}

/** A day (ISO, '' for none) in dd/mm/aaaa, with the gateway's refusal in place of the hint. */
export function DisputeDeadlineField(props: { value: string; onChange: (iso: string) => void; hint: string; error?: string }) {
  const { t } = useI18n();
  return (
    <Stack gap={4}>
      <DayInput label={t.disputes.deadline} value={props.value} onChange={props.onChange} />
      <Text size="xs" c="dimmed">
        {props.error ?? props.hint}
      </Text>
    </Stack>
  );
}
