import { useState, type FormEvent } from 'react';
import { Button, Code, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@connectrpc/connect-query';
import { AccessService } from '../../../gen/es/gateway/v1/access_service_pb.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { useI18n } from '../i18n.js';
import { OneTimeSecret } from '../oneTime.js';
import { Copy, scrollable } from '../ui.js';

/** The one permission a publishable key holds (the gateway refuses any other with allowed origins). */
const TOKENIZE = 'cards:tokenize';

/** How a checkout page uses the key with @payment-gateway/checkout, served by this gateway. */
export function checkoutSnippet(gatewayUrl: string, key: string, providerAccountId: string): string {
  return [
    '<script type="module">',
    `  import { createCheckout, readCardFields } from '${gatewayUrl}/checkout/checkout.js';`,
    `  const checkout = createCheckout({ gatewayUrl: '${gatewayUrl}', publishableKey: '${key}', providerAccountId: '${providerAccountId}' });`,
    '  // On submit: the card goes to the gateway; send only cardToken to your server, which charges it.',
    "  const cardToken = await checkout.tokenize(readCardFields(document.querySelector('#checkout')));",
    '</script>',
  ].join('\n');
}

/**
 * A publishable key for one provider account and the origins of the pages that may use it: a service token that can
 * only create card tokens, safe to embed in a checkout page. Its secret is shown once, with the snippet that uses it.
 */
export function CreatePublishableKey({
  accounts,
  onDone,
  onCreated,
}: {
  accounts: { value: string; label: string }[];
  onDone: () => void;
  onCreated: () => void;
}) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const [accountId, setAccountId] = useState<string | null>(null);
  const [origins, setOrigins] = useState('');
  const create = useMutation(AccessService.method.createServiceToken, { onSuccess: onCreated });
  const violations = useFieldViolations(create.error);

  if (create.data) {
    const snippet = checkoutSnippet(window.location.origin, create.data.secret, accountId ?? '');
    return (
      <Stack>
        <OneTimeSecret label={t.tokens.secret(create.data.token?.name ?? name)} value={create.data.secret} testId="token-secret" />
        <Text fw={600}>{t.tokens.snippet}</Text>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Code block data-testid="checkout-snippet" {...scrollable(t.tokens.snippet)}>
            {snippet}
          </Code>
          <Copy value={snippet} what={t.tokens.snippet} />
        </Group>
        <Group justify="flex-end">
          <Button onClick={onDone}>{t.team.done}</Button>
        </Group>
      </Stack>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const allowedOrigins = origins
      .split(/\s+/)
      .map((origin) => origin.trim())
      .filter(Boolean);
    create.mutate({ name, scopes: [TOKENIZE], providerAccountIds: accountId ? [accountId] : [], allowedOrigins });
  }
  const shown = violations.name ?? violations.provider_account_ids ?? violations.allowed_origins;
  return (
    <form onSubmit={submit}>
      <Stack>
        <Text size="sm">{t.tokens.publishableHint}</Text>
        <TextInput label={t.tokens.name} required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} error={violations.name} />
        <Select
          label={t.tokens.account}
          data={accounts}
          value={accountId}
          onChange={setAccountId}
          searchable
          required
          error={violations.provider_account_ids}
        />
        <Textarea
          label={t.tokens.origins}
          description={t.tokens.originsHint}
          required
          autosize
          minRows={2}
          value={origins}
          onChange={(e) => setOrigins(e.currentTarget.value)}
          error={violations.allowed_origins}
        />
        {!shown && <ErrorAlert error={create.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t.cancel}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t.tokens.createSubmit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
