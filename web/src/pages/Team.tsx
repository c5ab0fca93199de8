import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, Modal, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { AccessService, type Operator } from '../../../gen/es/gateway/v1/access_service_pb.js';
import { ROLES } from '../../../shared/permissions.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { useI18n } from '../i18n.js';
import { OneTimeSecret } from '../oneTime.js';
import { Pending, TableHead, When, scrollable } from '../ui.js';

function useRefreshOperators() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: AccessService.method.listOperators, cardinality: undefined }) });
}

/**
 * The team (admins only: the route is not there for other roles): every operator, invited with a password the gateway
 * makes up and shows once, disabled or enabled again, given another role, given a new made-up password, or their
 * two-step verification turned off (a lost phone). The
 * signed-in admin's own row offers none of these (their password is changed under "My account"), with the reason.
 */
export default function Team({ selfId }: { selfId: string }) {
  const { t } = useI18n();
  const operators = useQuery(AccessService.method.listOperators, {});
  const [inviting, setInviting] = useState(false);
  const [resetting, setResetting] = useState<Operator | null>(null);

  return (
    <>
      <Group justify="space-between" mb="md">
        <Group gap="sm">
          <Title order={1}>{t.nav.team}</Title>
          <Pending when={operators.isPending} />
        </Group>
        <Button onClick={() => setInviting(true)}>{t.team.invite}</Button>
      </Group>
      <ErrorAlert error={operators.error} />
      <div className="table-scroll" {...scrollable(t.nav.team)}>
        <Table data-testid="team-table" striped>
          <TableHead columns={[t.email, t.team.role, t.team.state, t.team.lastSignIn, t.team.actions]} />
          <Table.Tbody>
            {operators.data?.operators.map((operator) => (
              <OperatorRow key={operator.id} operator={operator} self={operator.id === selfId} onReset={() => setResetting(operator)} />
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <Modal opened={inviting} onClose={() => setInviting(false)} title={t.team.invite} lockScroll={false} closeButtonProps={{ 'aria-label': t.close }}>
        {inviting && <Invite onDone={() => setInviting(false)} />}
      </Modal>
      <Modal
        opened={resetting !== null}
        onClose={() => setResetting(null)}
        title={t.team.resetTitle}
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t.close }}
      >
        {resetting && <ResetPassword operator={resetting} onDone={() => setResetting(null)} />}
      </Modal>
    </>
  );
}

function OperatorRow({ operator, self, onReset }: { operator: Operator; self: boolean; onReset: () => void }) {
  const { t } = useI18n();
  const refresh = useRefreshOperators();
  const update = useMutation(AccessService.method.updateOperator, { onSuccess: () => void refresh() });
  const reason = self ? t.team.selfReason : undefined;
  return (
    <Table.Tr data-email={operator.email}>
      <Table.Td>{operator.email}</Table.Td>
      <Table.Td>
        <Select
          aria-label={`${t.team.role}: ${operator.email}`}
          data={ROLES.map((role) => ({ value: role, label: t.team.roles[role] }))}
          value={operator.role}
          onChange={(role) => role && role !== operator.role && update.mutate({ id: operator.id, role })}
          disabled={self}
          title={reason}
          allowDeselect={false}
          w={150}
        />
      </Table.Td>
      <Table.Td>
        <Badge color={operator.disabled ? 'gray' : 'green'} variant="light">
          {operator.disabled ? t.team.disabled : t.team.active}
        </Badge>
        {operator.totpEnabled && (
          <Badge color="blue" variant="light" ml={4}>
            {t.team.totpOn}
          </Badge>
        )}
      </Table.Td>
      <Table.Td>{operator.lastSignInAt ? <When at={operator.lastSignInAt} /> : t.team.never}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            disabled={self}
            title={reason}
            loading={update.isPending}
            onClick={() => update.mutate({ id: operator.id, disabled: !operator.disabled })}
            aria-label={`${operator.disabled ? t.team.enable : t.team.disable}: ${operator.email}`}
          >
            {operator.disabled ? t.team.enable : t.team.disable}
          </Button>
          <Button size="xs" variant="light" disabled={self} title={reason} onClick={onReset} aria-label={`${t.team.reset}: ${operator.email}`}>
            {t.team.reset}
          </Button>
          {operator.totpEnabled && !self && (
            <Button
              size="xs"
              variant="light"
              loading={update.isPending}
              onClick={() => update.mutate({ id: operator.id, resetTotp: true })}
              aria-label={`${t.team.resetTotp}: ${operator.email}`}
            >
              {t.team.resetTotp}
            </Button>
          )}
        </Group>
        {self && (
          <Text size="xs" c="dimmed" mt={4}>
            {reason}
          </Text>
        )}
        <ErrorAlert error={update.error} />
      </Table.Td>
    </Table.Tr>
  );
}

function Invite({ onDone }: { onDone: () => void }) {
  const { t } = useI18n();
  const refresh = useRefreshOperators();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string>('operator');
  const create = useMutation(AccessService.method.createOperator, { onSuccess: () => void refresh() });
  const violations = useFieldViolations(create.error);

  if (create.data)
    return (
      <Stack>
        <Text>{t.team.invited(create.data.operator?.email ?? email)}</Text>
        <OneTimeSecret label={t.team.initialPassword} value={create.data.initialPassword} testId="initial-password" />
        <Group justify="flex-end">
          <Button onClick={onDone}>{t.team.done}</Button>
        </Group>
      </Stack>
    );

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ email, role, password: '' });
  }
  return (
    <form onSubmit={submit}>
      <Stack>
        <TextInput label={t.email} type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={violations.email} />
        <Select
          label={t.team.role}
          data={ROLES.map((value) => ({ value, label: t.team.roles[value] }))}
          value={role}
          onChange={(value) => value && setRole(value)}
          allowDeselect={false}
          error={violations.role}
        />
        <Text size="sm" c="dimmed">
          {t.team.inviteHint}
        </Text>
        {!violations.email && !violations.role && <ErrorAlert error={create.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t.cancel}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t.team.inviteSubmit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ResetPassword({ operator, onDone }: { operator: Operator; onDone: () => void }) {
  const { t } = useI18n();
  const reset = useMutation(AccessService.method.updateOperator);
  if (reset.data)
    return (
      <Stack>
        <OneTimeSecret label={t.team.newPassword(operator.email)} value={reset.data.generatedPassword} testId="generated-password" />
        <Group justify="flex-end">
          <Button onClick={onDone}>{t.team.done}</Button>
        </Group>
      </Stack>
    );
  return (
    <Stack>
      <Text>{t.team.resetConfirm(operator.email)}</Text>
      <ErrorAlert error={reset.error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button color="red" loading={reset.isPending} onClick={() => reset.mutate({ id: operator.id, resetPassword: true })}>
          {t.team.reset}
        </Button>
      </Group>
    </Stack>
  );
}
