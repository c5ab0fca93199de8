import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@connectrpc/connect-query';
import { AccessService } from '../../../gen/es/gateway/v1/access_service_pb.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { errorText } from '../errorText.js';
import { useI18n } from '../i18n.js';
import { Copy } from '../ui.js';
import { TotpCodeInput } from '../totpCodeInput.js';

/**
 * The signed-in operator's two-step verification: turning it on shows the new secret's QR code and key (answered this
 * once) and asks for a current code to confirm; turning it off asks for a current code too.
 */
export function TwoStepVerification({ enabled: enabledAtStart, onChanged }: { enabled: boolean; onChanged: () => void }) {
  const { t } = useI18n();
  const [enabled, setEnabled] = useState(enabledAtStart);
  const [code, setCode] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const begin = useMutation(AccessService.method.beginTotpEnrollment, { onSuccess: () => setDone(null) });
  const finish = (on: boolean) => () => {
    setEnabled(on);
    setCode('');
    setDone(on ? t.totp.enabled : t.totp.disabled);
    begin.reset();
    onChanged();
  };
  const confirm = useMutation(AccessService.method.confirmTotpEnrollment, { onSuccess: finish(true) });
  const disable = useMutation(AccessService.method.disableTotp, { onSuccess: finish(false) });
  const pending = enabled ? disable : confirm;
  // The catalogue's text for a wrong code, in the page's language; the gateway's for anything else about the field.
  const violation = useFieldViolations(pending.error).code && errorText(pending.error, t.errorReasons);

  function submit(event: FormEvent) {
    event.preventDefault();
    pending.mutate({ code });
  }

  const codeForm = (action: string) => (
    <form onSubmit={submit}>
      <Stack>
        <TotpCodeInput value={code} onChange={setCode} error={violation || undefined} />
        {!violation && <ErrorAlert error={pending.error} />}
        <Group>
          <Button type="submit" loading={pending.isPending} {...(enabled ? { color: 'red', variant: 'light' } : {})}>
            {action}
          </Button>
        </Group>
      </Stack>
    </form>
  );

  return (
    <Card withBorder maw={480} mt="md">
      <Title order={2} size="h4" mb="sm">
        {t.totp.title}
      </Title>
      <Stack>
        {done && (
          <Alert color="green" role="status">
            {done}
          </Alert>
        )}
        <Text>{enabled ? t.totp.on : t.totp.off}</Text>
        {enabled && codeForm(t.totp.disable)}
        {!enabled && !begin.data && (
          <Group>
            <Button onClick={() => begin.mutate({})} loading={begin.isPending}>
              {t.totp.begin}
            </Button>
          </Group>
        )}
        <ErrorAlert error={begin.error} />
        {!enabled && begin.data && (
          <>
            <Text>{t.totp.scan}</Text>
            <Image src={begin.data.qrCode} alt={t.totp.qrAlt} w={200} h={200} fit="contain" />
            <Group gap="xs">
              <Text fw={600}>{t.totp.secret}</Text>
              <code data-testid="totp-secret" className="secret">
                {begin.data.secret}
              </code>
              <Copy value={begin.data.secret} what={t.totp.secret} />
            </Group>
            {codeForm(t.totp.confirm)}
          </>
        )}
      </Stack>
    </Card>
  );
}
