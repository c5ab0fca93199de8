import { useState, type FormEvent } from 'react';
import { Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@connectrpc/connect-query';
import { AccessService } from '../../../gen/es/gateway/v1/access_service_pb.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { useI18n } from '../i18n.js';
import { TwoStepVerification } from './TwoStepVerification.js';

/**
 * The signed-in operator's own account: their two-step verification, and their password, changed by giving the current one. The gateway checks the
 * rules and answers each refusal beside its field; the page checks only that the new password was typed twice alike.
 * A change ends every session, this one included, so `onChanged` takes the operator back to the sign-in form.
 */
export default function MyAccount({
  email,
  role,
  totpEnabled,
  onChanged,
  onTotpChanged,
}: {
  email: string;
  role: string;
  totpEnabled: boolean;
  onChanged: () => void;
  onTotpChanged: () => void;
}) {
  const { t } = useI18n();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation(AccessService.method.changeOwnPassword, { onSuccess: onChanged });
  const violations = useFieldViolations(change.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (next !== repeated) return setMismatch(true);
    change.mutate({ currentPassword: current, newPassword: next });
  }

  return (
    <>
      <Title order={1} mb="md">
        {t.nav.account}
      </Title>
      <Text mb="md">
        {email} ({t.team.roles[role as keyof typeof t.team.roles] ?? role})
      </Text>
      <TwoStepVerification enabled={totpEnabled} onChanged={onTotpChanged} />
      <Card withBorder maw={480} mt="md">
        <Title order={2} size="h4" mb="sm">
          {t.account.changePassword}
        </Title>
        <form onSubmit={submit}>
          <Stack>
            <PasswordInput
              label={t.account.current}
              autoComplete="current-password"
              required
              value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)}
              error={violations.current_password}
            />
            <PasswordInput
              label={t.account.new}
              description={t.account.rules}
              autoComplete="new-password"
              required
              value={next}
              onChange={(e) => {
                setNext(e.currentTarget.value);
                setMismatch(false);
              }}
              error={violations.new_password}
            />
            <PasswordInput
              label={t.account.repeat}
              autoComplete="new-password"
              required
              value={repeated}
              onChange={(e) => {
                setRepeated(e.currentTarget.value);
                setMismatch(false);
              }}
              error={mismatch ? t.account.mismatch : undefined}
            />
            {!violations.current_password && !violations.new_password && <ErrorAlert error={change.error} />}
            <Group>
              <Button type="submit" loading={change.isPending}>
                {t.account.submit}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </>
  );
}
