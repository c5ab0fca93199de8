import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, Modal, MultiSelect, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccessService, type ServiceToken } from '../../../gen/es/gateway/v1/access_service_pb.js';
import { PERMISSIONS } from '../../../shared/permissions.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { useI18n } from '../i18n.js';
import { OneTimeSecret } from '../oneTime.js';
import { Pending, TableHead, When, scrollable, useProviderAccounts } from '../ui.js';
import { CreatePublishableKey } from './PublishableKey.js';

function useRefreshTokens() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: AccessService.method.listServiceTokens, cardinality: undefined }) });
}

/**
 * Service tokens (admins only: the route is not there for other roles): the checkout's services' credentials, with
 * their scopes, the provider accounts they are limited to and their last use (recorded at most once a minute). A new
 * token's secret is shown once; revoking is final and asks first.
 */
export default function ServiceTokens() {
  const { t } = useI18n();
  const [withRevoked, setWithRevoked] = useState(false);
  const tokens = useQuery(AccessService.method.listServiceTokens, { includeRevoked: withRevoked });
  const accounts = useProviderAccounts();
  const accountName = (id: string) => accounts.data?.providerAccounts.find((a) => a.id === id)?.name ?? id;
  const [creating, setCreating] = useState(false);
  const [creatingPublishable, setCreatingPublishable] = useState(false);
  const refresh = useRefreshTokens();
  const accountOptions = (accounts.data?.providerAccounts ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.provider})` }));
  const [revoking, setRevoking] = useState<ServiceToken | null>(null);

  return (
    <>
      <Group justify="space-between" mb="md">
        <Group gap="sm">
          <Title order={1}>{t.nav.tokens}</Title>
          <Pending when={tokens.isPending} />
        </Group>
        <Group gap="xs">
          <Button variant="light" onClick={() => setCreatingPublishable(true)}>
            {t.tokens.createPublishable}
          </Button>
          <Button onClick={() => setCreating(true)}>{t.tokens.create}</Button>
        </Group>
      </Group>
      <Switch mb="md" label={t.tokens.withRevoked} checked={withRevoked} onChange={(e) => setWithRevoked(e.currentTarget.checked)} />
      <ErrorAlert error={tokens.error} />
      <div className="table-scroll" {...scrollable(t.nav.tokens)}>
        <Table data-testid="tokens-table" striped>
          <TableHead columns={[t.tokens.name, t.tokens.scopes, t.tokens.accounts, t.tokens.created, t.tokens.lastUsed, t.team.actions]} />
          <Table.Tbody>
            {tokens.data?.tokens.map((token) => (
              <Table.Tr key={token.id} data-name={token.name}>
                <Table.Td>
                  <strong>{token.name}</strong>
                  <Text size="xs" c="dimmed">
                    {t.tokens.by(token.createdBy)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {token.scopes.join(', ')}
                  {token.allowedOrigins.length > 0 && (
                    <Text size="xs" c="dimmed" data-testid="allowed-origins">
                      {t.tokens.publishable}: {token.allowedOrigins.join(', ')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{token.providerAccountIds.length ? token.providerAccountIds.map(accountName).join(', ') : t.tokens.anyAccount}</Table.Td>
                <Table.Td>
                  <When at={token.createdAt} />
                </Table.Td>
                <Table.Td data-testid="last-used">{token.lastUsedAt ? <When at={token.lastUsedAt} /> : t.team.never}</Table.Td>
                <Table.Td>
                  {token.revokedAt ? (
                    <Badge color="gray" variant="light">
                      {t.tokens.revoked}
                    </Badge>
                  ) : (
                    <Button size="xs" color="red" variant="light" onClick={() => setRevoking(token)} aria-label={`${t.tokens.revoke}: ${token.name}`}>
                      {t.tokens.revoke}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <Modal opened={creating} onClose={() => setCreating(false)} title={t.tokens.create} lockScroll={false} closeButtonProps={{ 'aria-label': t.close }}>
        {creating && <CreateToken accounts={accountOptions} onDone={() => setCreating(false)} />}
      </Modal>
      <Modal
        opened={creatingPublishable}
        onClose={() => setCreatingPublishable(false)}
        title={t.tokens.createPublishable}
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t.close }}
      >
        {creatingPublishable && (
          <CreatePublishableKey accounts={accountOptions} onDone={() => setCreatingPublishable(false)} onCreated={() => void refresh()} />
        )}
      </Modal>
      <Modal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t.tokens.revokeTitle}
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t.close }}
      >
        {revoking && <RevokeToken token={revoking} onDone={() => setRevoking(null)} />}
      </Modal>
    </>
  );
}

function CreateToken({ accounts, onDone }: { accounts: { value: string; label: string }[]; onDone: () => void }) {
  const { t } = useI18n();
  const refresh = useRefreshTokens();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [accountIds, setAccountIds] = useState<string[]>([]);
  const create = useMutation(AccessService.method.createServiceToken, { onSuccess: () => void refresh() });
  const violations = useFieldViolations(create.error);

  if (create.data)
    return (
      <Stack>
        <OneTimeSecret label={t.tokens.secret(create.data.token?.name ?? name)} value={create.data.secret} testId="token-secret" />
        <Group justify="flex-end">
          <Button onClick={onDone}>{t.team.done}</Button>
        </Group>
      </Stack>
    );

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name, scopes, providerAccountIds: accountIds });
  }
  return (
    <form onSubmit={submit}>
      <Stack>
        <TextInput label={t.tokens.name} required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} error={violations.name} />
        <MultiSelect
          label={t.tokens.scopes}
          description={t.tokens.scopesHint}
          data={[...PERMISSIONS]}
          value={scopes}
          onChange={setScopes}
          searchable
          error={violations.scopes}
        />
        <MultiSelect
          label={t.tokens.accounts}
          description={t.tokens.accountsHint}
          data={accounts}
          value={accountIds}
          onChange={setAccountIds}
          clearable
          error={violations.provider_account_ids}
        />
        {!violations.name && !violations.scopes && !violations.provider_account_ids && <ErrorAlert error={create.error} />}
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

function RevokeToken({ token, onDone }: { token: ServiceToken; onDone: () => void }) {
  const { t } = useI18n();
  const refresh = useRefreshTokens();
  const revoke = useMutation(AccessService.method.revokeServiceToken, { onSuccess: () => void refresh().then(onDone) });
  return (
    <Stack>
      <Text>{t.tokens.revokeConfirm(token.name)}</Text>
      <ErrorAlert error={revoke.error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate({ id: token.id })}>
          {t.tokens.revoke}
        </Button>
      </Group>
    </Stack>
  );
}
