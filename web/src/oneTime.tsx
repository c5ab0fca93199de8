import { Alert, Code, Group, Stack, Text } from '@mantine/core';
import { useI18n } from './i18n.js';
import { Copy } from './ui.js';

/**
 * A secret the gateway answers once (a made-up password, a service token): shown with a copy button and the warning
 * that it will not be shown again. It lives only in the page's memory until the dialog closes.
 */
export function OneTimeSecret({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useI18n();
  return (
    <Stack gap="xs">
      <Text fw={600}>{label}</Text>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid={testId} className="secret">
          {value}
        </Code>
        <Copy value={value} what={label} />
      </Group>
      <Alert color="yellow" role="status">
        {t.shownOnce}
      </Alert>
    </Stack>
  );
}
