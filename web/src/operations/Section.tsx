import type { ReactNode } from 'react';
import { Card, Group, Loader, Text, Title } from '@mantine/core';
import { useI18n } from '../i18n.js';

/** One block of the operations console: a titled card, with a spinner while its first answer is awaited. */
export function Section({ title, testId, loading, children }: { title: string; testId: string; loading: boolean; children: ReactNode }) {
  const { t } = useI18n();
  return (
    <Card withBorder component="section" aria-label={title} data-testid={testId}>
      <Group gap="sm" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {loading && <Loader size="xs" role="status" aria-label={t.loading} />}
      </Group>
      {children}
    </Card>
  );
}

/** Why the caller sees a list without its action: their role does not hold the permission. */
export function RoleNote({ text }: { text: string }) {
  return (
    <Text size="sm" c="dimmed" mb="sm" data-testid="role-note">
      {text}
    </Text>
  );
}
