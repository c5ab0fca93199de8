import { Checkbox, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import type { InstallmentPlan } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import { formatMoney, parseCents } from './format.js';
import { useI18n } from './i18n.js';

/** The most installments a plan may offer (the gateway refuses more); also how many fee fields the form will draw. */
const MAX_PLAN_INSTALLMENTS = 24;

/** An account's installment plan as the form edits it: texts as typed, one fee per count past the interest-free ones. */
export interface PlanDraft {
  enabled: boolean;
  max: string;
  interestFree: string;
  fees: Record<number, string>;
  minimum: string;
}

/** What the contract takes: the plan, or null for none. */
export interface PlanValue {
  maxInstallments: number;
  interestFreeInstallments: number;
  feePercentByInstallment: number[];
  minInstallmentValue: bigint;
}

const percentText = (value: number) => String(value).replace('.', ',');

export function draftOf(plan: InstallmentPlan | undefined): PlanDraft {
  if (!plan) return { enabled: false, max: '', interestFree: '', fees: {}, minimum: '' };
  const fees: Record<number, string> = {};
  plan.feePercentByInstallment.forEach((fee, index) => {
    if (index + 1 > plan.interestFreeInstallments) fees[index + 1] = percentText(fee);
  });
  return {
    enabled: true,
    max: String(plan.maxInstallments),
    interestFree: String(plan.interestFreeInstallments),
    fees,
    minimum: plan.minInstallmentValue > 0n ? formatMoney(plan.minInstallmentValue) : '',
  };
}

const wholeNumber = (text: string): number | null => (/^\s*\d+\s*$/.test(text) ? Number(text) : null);
const percent = (text: string): number | null => (/^\s*\d+([.,]\d{1,2})?\s*$/.test(text) ? Number(text.trim().replace(',', '.')) : null);

/** The counts that carry a fee, as far as the typed numbers say. */
function feeCounts(draft: PlanDraft): number[] {
  const max = Math.min(wholeNumber(draft.max) ?? 0, MAX_PLAN_INSTALLMENTS);
  const first = (wholeNumber(draft.interestFree) ?? 0) + 1;
  return Array.from({ length: Math.max(0, max - first + 1) }, (_, i) => first + i);
}

/** The plan the draft says (null: none), or the fields typed wrong, keyed as the form shows them. */
export function readDraft(draft: PlanDraft): { plan: PlanValue | null; errors: Record<string, true> } {
  if (!draft.enabled) return { plan: null, errors: {} };
  const errors: Record<string, true> = {};
  const max = wholeNumber(draft.max);
  const interestFree = draft.interestFree.trim() ? wholeNumber(draft.interestFree) : 0;
  const minimum = draft.minimum.trim() ? parseCents(draft.minimum) : 0n;
  if (max === null) errors.max = true;
  if (interestFree === null) errors.interestFree = true;
  if (minimum === null) errors.minimum = true;
  const fees: Record<number, number> = {};
  for (const count of feeCounts(draft)) {
    const fee = percent(draft.fees[count] ?? '');
    if (fee === null) errors[`fee${count}`] = true;
    else fees[count] = fee;
  }
  if (max === null || interestFree === null || minimum === null || Object.keys(errors).length) return { plan: null, errors };
  // One entry per count, 0 for the interest-free ones; none at all when every count is interest-free.
  const feePercentByInstallment = interestFree >= max ? [] : Array.from({ length: max }, (_, i) => (i + 1 <= interestFree ? 0 : (fees[i + 1] ?? 0)));
  return { plan: { maxInstallments: max, interestFreeInstallments: interestFree, feePercentByInstallment, minInstallmentValue: minimum }, errors };
}

export const samePlan = (a: PlanValue | null, b: InstallmentPlan | undefined): boolean =>
  (a === null && b === undefined) ||
  (a !== null &&
    b !== undefined &&
    a.maxInstallments === b.maxInstallments &&
    a.interestFreeInstallments === b.interestFreeInstallments &&
    a.minInstallmentValue === b.minInstallmentValue &&
    a.feePercentByInstallment.join() === b.feePercentByInstallment.join());

/** The plan's part of the account form. Server violations arrive under their field's last name. */
export function InstallmentPlanFields({
  draft,
  onChange,
  errors,
  violations,
}: {
  draft: PlanDraft;
  onChange: (draft: PlanDraft) => void;
  errors: Record<string, true>;
  violations: Record<string, string>;
}) {
  const { t } = useI18n();
  const set = (change: Partial<PlanDraft>) => onChange({ ...draft, ...change });
  return (
    <Fieldset data-testid="installment-plan">
      <Stack gap="xs">
        <Checkbox
          label={t.accounts.installmentPlan}
          description={t.accounts.installmentPlanHint}
          checked={draft.enabled}
          onChange={(e) => set({ enabled: e.currentTarget.checked })}
          error={violations.installment_plan}
        />
        {draft.enabled && (
          <>
            <Group grow>
              <TextInput
                label={t.accounts.maxInstallments}
                inputMode="numeric"
                value={draft.max}
                onChange={(e) => set({ max: e.currentTarget.value })}
                error={errors.max ? t.accounts.badWholeNumber : violations.max_installments}
                required
              />
              <TextInput
                label={t.accounts.interestFreeInstallments}
                inputMode="numeric"
                placeholder="0"
                value={draft.interestFree}
                onChange={(e) => set({ interestFree: e.currentTarget.value })}
                error={errors.interestFree ? t.accounts.badWholeNumber : violations.interest_free_installments}
              />
            </Group>
            {feeCounts(draft).map((count) => (
              <TextInput
                key={count}
                label={t.accounts.feeFor(count)}
                inputMode="decimal"
                placeholder="0,00"
                value={draft.fees[count] ?? ''}
                onChange={(e) => set({ fees: { ...draft.fees, [count]: e.currentTarget.value } })}
                error={errors[`fee${count}`] && t.accounts.badPercent}
                required
              />
            ))}
            {feeCounts(draft).length > 0 && (
              <Text size="xs" c="dimmed">
                {t.accounts.feeHint}
              </Text>
            )}
            {violations.fee_percent_by_installment && (
              <Text size="sm" c="red" role="alert">
                {violations.fee_percent_by_installment}
              </Text>
            )}
            <TextInput
              label={t.accounts.minInstallmentValue}
              description={t.accounts.minInstallmentHint}
              inputMode="decimal"
              placeholder="0,00"
              value={draft.minimum}
              onChange={(e) => set({ minimum: e.currentTarget.value })}
              error={errors.minimum ? t.accounts.badMinimum : violations.min_installment_value}
            />
          </>
        )}
      </Stack>
    </Fieldset>
  );
}
