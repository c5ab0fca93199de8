import { Stack, Title } from '@mantine/core';
import { useI18n } from '../i18n.js';
import { AllNotifications } from '../operations/AllNotifications.js';
import { FlowMismatches } from '../operations/FlowMismatches.js';
import { GaveUpDeliveries } from '../operations/GaveUpDeliveries.js';
import { ProviderHealth } from '../operations/ProviderHealth.js';
import { UnconfirmedRequests } from '../operations/Unconfirmed.js';

/** The operations console: what needs a person across all charges (notifications, deliveries, unknown outcomes, mismatches) and the providers' health. */
export default function Operations({ canWriteNotifications, canSettle }: { canWriteNotifications: boolean; canSettle: boolean }) {
  const { t } = useI18n();
  return (
    <>
      <Title order={1} mb="md">
        {t.nav.operations}
      </Title>
      <Stack>
        <ProviderHealth />
        <GaveUpDeliveries canResend={canWriteNotifications} />
        <UnconfirmedRequests canSettle={canSettle} />
        <FlowMismatches canSettle={canSettle} />
        <AllNotifications canReprocess={canWriteNotifications} />
      </Stack>
    </>
  );
}
