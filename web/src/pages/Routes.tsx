import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Checkbox, Group, Modal, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { RoutingService, RoutingStrategy, type Route, type RouteRule } from '../../../gen/es/gateway/v1/routing_service_pb.js';
import { PaymentMethod } from '../../../gen/es/gateway/v1/types_pb.js';
import { ErrorAlert } from '../errors.js';
import { formatMoney, parseCents } from '../format.js';
import { useI18n } from '../i18n.js';
import { TableHead, When, enumValues, scrollable, useProviderAccounts } from '../ui.js';

/** One target as the form holds it: text fields, turned into the contract's shape on preview and save. */
interface TargetForm {
  accountId: string;
  weight: string;
  feeFixed: string;
  feePercent: string;
}

/** One rule as the form holds it; `kept` is the saved rule, whose conditions the form does not edit (currencies, brands, BINs, installments). */
interface RuleForm {
  methods: string[];
  minAmount: string;
  maxAmount: string;
  strategy: string;
  targets: TargetForm[];
  kept?: RouteRule;
}

const emptyTarget = (): TargetForm => ({ accountId: '', weight: '', feeFixed: '', feePercent: '' });
const emptyRule = (): RuleForm => ({ methods: [], minAmount: '', maxAmount: '', strategy: String(RoutingStrategy.PRIORITY), targets: [emptyTarget()] });
const reais = (cents: bigint) => (cents ? formatMoney(cents).replace(/^R\$\s*/, '') : '');

function ruleForm(rule: RouteRule): RuleForm {
  return {
    methods: rule.paymentMethods.map(String),
    minAmount: reais(rule.minAmount),
    maxAmount: reais(rule.maxAmount),
    strategy: String(rule.strategy),
    targets: rule.targets.map((target) => ({
      accountId: target.providerAccountId,
      weight: target.weight ? String(target.weight) : '',
      feeFixed: target.fees[0] ? String(target.fees[0].fixed) : '',
      feePercent: target.fees[0] ? String(target.fees[0].percentBps) : '',
    })),
    kept: rule,
  };
}

/** An amount bound: empty is no bound (0); anything parseCents refuses goes as -1, for the gateway to refuse naming the field. */
const bound = (text: string): bigint => (text.trim() ? (parseCents(text) ?? -1n) : 0n);

/** The form's rule in the contract's shape; a lowest-cost rule's fee goes for each of its methods. */
function toRule(form: RuleForm) {
  const strategy = Number(form.strategy) as RoutingStrategy;
  const methods = form.methods.map(Number) as PaymentMethod[];
  const kept = form.kept;
  return {
    currencies: kept?.currencies ?? [],
    cardBrands: kept?.cardBrands ?? [],
    binRanges: kept?.binRanges ?? [],
    minInstallments: kept?.minInstallments ?? 0,
    maxInstallments: kept?.maxInstallments ?? 0,
    paymentMethods: methods,
    minAmount: bound(form.minAmount),
    maxAmount: bound(form.maxAmount),
    strategy,
    targets: form.targets.map((target) => ({
      providerAccountId: target.accountId,
      weight: strategy === RoutingStrategy.WEIGHTED ? Number(target.weight) || 0 : 0,
      fees:
        strategy === RoutingStrategy.LOWEST_COST
          ? methods.map((paymentMethod) => ({
              paymentMethod,
              fixed: BigInt(Number(target.feeFixed) || 0),
              percentBps: Number(target.feePercent) || 0,
            }))
          : [],
    })),
  };
}

function useRefreshRoutes() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: RoutingService, cardinality: undefined }) });
}

/**
 * Routes: the list, their outcomes over the last 24 hours, and (for routes:admin) creating, editing with a preview of
 * where a charge would go, and deleting behind a confirmation. The preview and the save are the gateway's own checks,
 * so the page shows the gateway's refusals as they are.
 */
export default function Routes({ canAdmin }: { canAdmin: boolean }) {
  const { t } = useI18n();
  const routes = useQuery(RoutingService.method.listRoutes, {});
  const accounts = useProviderAccounts();
  const accountName = (id: string) => accounts.data?.providerAccounts.find((a) => a.id === id)?.name ?? id;
  const [editing, setEditing] = useState<Route | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Route | null>(null);

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>{t.nav.routes}</Title>
        {canAdmin && editing === null && <Button onClick={() => setEditing('new')}>{t.routes.create}</Button>}
      </Group>
      <ErrorAlert error={routes.error} />
      {editing !== null && (
        <RouteEditor
          key={editing === 'new' ? 'new' : editing.id}
          route={editing === 'new' ? undefined : editing}
          accounts={(accounts.data?.providerAccounts ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.provider})` }))}
          accountName={accountName}
          onDone={() => setEditing(null)}
        />
      )}
      <div className="table-scroll" {...scrollable(t.nav.routes)}>
        <Table data-testid="routes-table" striped>
          <TableHead columns={[t.routes.name, t.routes.rules, t.routes.maxAttempts, t.routes.updated, ...(canAdmin ? [t.routes.actions] : [])]} />
          <Table.Tbody>
            {routes.data?.routes.map((route) => (
              <Table.Tr key={route.id} data-name={route.name}>
                <Table.Td>
                  <strong>{route.name}</strong>
                </Table.Td>
                <Table.Td>
                  {t.routes.rulesSummary(route.rules.length)}:{' '}
                  {route.rules.map((rule) => rule.targets.map((target) => accountName(target.providerAccountId)).join(' → ')).join('; ')}
                </Table.Td>
                <Table.Td>{route.maxAttempts || 2}</Table.Td>
                <Table.Td>
                  <When at={route.updatedAt} />
                </Table.Td>
                {canAdmin && (
                  <Table.Td>
                    <Group gap="xs">
                      <Button size="xs" variant="light" onClick={() => setEditing(route)} aria-label={`${t.edit}: ${route.name}`}>
                        {t.edit}
                      </Button>
                      <Button size="xs" color="red" variant="light" onClick={() => setDeleting(route)} aria-label={`${t.delete}: ${route.name}`}>
                        {t.delete}
                      </Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      {routes.data?.routes.length === 0 && <Text c="dimmed">{t.routes.none}</Text>}
      <Outcomes accountName={accountName} />
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t.routes.deleteTitle}
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t.close }}
      >
        {deleting && <DeleteRoute route={deleting} onDone={() => setDeleting(null)} />}
      </Modal>
    </>
  );
}

function RouteEditor({
  route,
  accounts,
  accountName,
  onDone,
}: {
  route?: Route;
  accounts: { value: string; label: string }[];
  accountName: (id: string) => string;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const refresh = useRefreshRoutes();
  const [name, setName] = useState(route?.name ?? '');
  const [maxAttempts, setMaxAttempts] = useState(String(route?.maxAttempts ?? 0));
  const [rules, setRules] = useState<RuleForm[]>(route ? route.rules.map(ruleForm) : [emptyRule()]);
  const create = useMutation(RoutingService.method.createRoute, { onSuccess: () => void refresh().then(onDone) });
  const update = useMutation(RoutingService.method.updateRoute, { onSuccess: () => void refresh().then(onDone) });
  const save = route ? update : create;
  const changeRule = (index: number, patch: Partial<RuleForm>) => setRules((all) => all.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)));
  const changeTarget = (ruleIndex: number, index: number, patch: Partial<TargetForm>) =>
    changeRule(ruleIndex, { targets: rules[ruleIndex]!.targets.map((target, i) => (i === index ? { ...target, ...patch } : target)) });
  const contractRules = () => rules.map(toRule);

  function submit(event: FormEvent) {
    event.preventDefault();
    const request = { name, rules: contractRules(), maxAttempts: Number(maxAttempts) || 0 };
    if (route) update.mutate({ ...request, id: route.id });
    else create.mutate(request);
  }

  return (
    <Card withBorder mb="md" data-testid="route-editor">
      <Title order={2} size="h4" mb="sm">
        {route ? t.routes.editTitle(route.name) : t.routes.createTitle}
      </Title>
      <form onSubmit={submit}>
        <Stack>
          <Group grow align="flex-start">
            <TextInput label={t.routes.name} required maxLength={255} value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <TextInput
              label={t.routes.maxAttempts}
              description={t.routes.maxAttemptsHint}
              inputMode="numeric"
              value={maxAttempts}
              onChange={(e) => setMaxAttempts(e.currentTarget.value)}
            />
          </Group>
          <Text size="sm" c="dimmed">
            {t.routes.ruleHint}
          </Text>
          {rules.map((rule, ruleIndex) => (
            <Card withBorder key={ruleIndex} role="group" aria-label={t.routes.rule(ruleIndex)}>
              <Group justify="space-between" mb="xs">
                <Text fw={700}>{t.routes.rule(ruleIndex)}</Text>
                {rules.length > 1 && (
                  <Button size="xs" variant="subtle" color="red" onClick={() => setRules((all) => all.filter((_, i) => i !== ruleIndex))}>
                    {t.routes.removeRule(ruleIndex)}
                  </Button>
                )}
              </Group>
              <Stack gap="xs">
                <Checkbox.Group label={t.routes.methods} value={rule.methods} onChange={(methods) => changeRule(ruleIndex, { methods })}>
                  <Group mt={4}>
                    {enumValues(t.method).map((method) => (
                      <Checkbox key={method.value} value={method.value} label={method.label} />
                    ))}
                  </Group>
                </Checkbox.Group>
                <Group grow>
                  <TextInput
                    label={t.routes.minAmount}
                    inputMode="decimal"
                    placeholder="0,00"
                    value={rule.minAmount}
                    onChange={(e) => changeRule(ruleIndex, { minAmount: e.currentTarget.value })}
                  />
                  <TextInput
                    label={t.routes.maxAmount}
                    inputMode="decimal"
                    placeholder="0,00"
                    value={rule.maxAmount}
                    onChange={(e) => changeRule(ruleIndex, { maxAmount: e.currentTarget.value })}
                  />
                  <NativeSelect
                    label={t.routes.strategy}
                    value={rule.strategy}
                    onChange={(e) => changeRule(ruleIndex, { strategy: e.currentTarget.value })}
                    data={Object.entries(t.routes.strategies).map(([value, label]) => ({ value, label }))}
                  />
                </Group>
                <Text size="sm" fw={500}>
                  {t.routes.targets}
                </Text>
                {rule.targets.map((target, index) => (
                  <Group key={index} align="flex-end" wrap="wrap">
                    <NativeSelect
                      label={t.routes.account(index)}
                      value={target.accountId}
                      onChange={(e) => changeTarget(ruleIndex, index, { accountId: e.currentTarget.value })}
                      data={[{ value: '', label: t.routes.chooseAccount }, ...accounts]}
                    />
                    {Number(rule.strategy) === RoutingStrategy.WEIGHTED && (
                      <TextInput
                        label={t.routes.weight(index)}
                        inputMode="numeric"
                        w={160}
                        value={target.weight}
                        onChange={(e) => changeTarget(ruleIndex, index, { weight: e.currentTarget.value })}
                      />
                    )}
                    {Number(rule.strategy) === RoutingStrategy.LOWEST_COST && (
                      <>
                        <TextInput
                          label={t.routes.feeFixed(index)}
                          inputMode="numeric"
                          value={target.feeFixed}
                          onChange={(e) => changeTarget(ruleIndex, index, { feeFixed: e.currentTarget.value })}
                        />
                        <TextInput
                          label={t.routes.feePercent(index)}
                          inputMode="numeric"
                          value={target.feePercent}
                          onChange={(e) => changeTarget(ruleIndex, index, { feePercent: e.currentTarget.value })}
                        />
                      </>
                    )}
                    {rule.targets.length > 1 && (
                      <Button
                        variant="subtle"
                        color="red"
                        onClick={() => changeRule(ruleIndex, { targets: rule.targets.filter((_, i) => i !== index) })}
                        aria-label={t.routes.removeTarget(index)}
                      >
                        ×
                      </Button>
                    )}
                  </Group>
                ))}
                <Group>
                  <Button size="xs" variant="default" onClick={() => changeRule(ruleIndex, { targets: [...rule.targets, emptyTarget()] })}>
                    {t.routes.addTarget}
                  </Button>
                </Group>
              </Stack>
            </Card>
          ))}
          <Group>
            <Button variant="default" onClick={() => setRules((all) => [...all, emptyRule()])}>
              {t.routes.addRule}
            </Button>
          </Group>
          <Preview rules={contractRules} maxAttempts={Number(maxAttempts) || 0} accountName={accountName} />
          <ErrorAlert error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t.routes.saveRoute}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** "This charge would go to …": the form's rules, unsaved, decided by the gateway for a sample charge. */
function Preview({ rules, maxAttempts, accountName }: { rules: () => ReturnType<typeof toRule>[]; maxAttempts: number; accountName: (id: string) => string }) {
  const { t } = useI18n();
  const [method, setMethod] = useState(String(PaymentMethod.PIX));
  const [amount, setAmount] = useState('');
  const [brand, setBrand] = useState('');
  const [bin, setBin] = useState('');
  const preview = useMutation(RoutingService.method.previewRoute);
  const answer = preview.data;

  function run() {
    preview.mutate({
      rules: rules(),
      maxAttempts,
      paymentMethod: Number(method) as PaymentMethod,
      amount: parseCents(amount) ?? 0n,
      cardBrand: brand,
      cardBin: bin,
    });
  }

  return (
    <Card withBorder role="region" aria-label={t.routes.previewTitle}>
      <Text fw={700}>{t.routes.previewTitle}</Text>
      <Text size="sm" c="dimmed" mb="xs">
        {t.routes.previewHint}
      </Text>
      <Group align="flex-end" wrap="wrap">
        <NativeSelect label={t.routes.sampleMethod} value={method} onChange={(e) => setMethod(e.currentTarget.value)} data={enumValues(t.method)} />
        <TextInput label={t.routes.sampleAmount} inputMode="decimal" placeholder="0,00" value={amount} onChange={(e) => setAmount(e.currentTarget.value)} />
        <TextInput label={t.routes.sampleBrand} value={brand} onChange={(e) => setBrand(e.currentTarget.value)} />
        <TextInput label={t.routes.sampleBin} inputMode="numeric" value={bin} onChange={(e) => setBin(e.currentTarget.value)} />
        <Button variant="light" onClick={run} loading={preview.isPending}>
          {t.routes.preview}
        </Button>
      </Group>
      <ErrorAlert error={preview.error} />
      {answer && !preview.error && (
        <div data-testid="route-preview" role="status">
          {answer.matched ? (
            <>
              <Text mt="sm">{t.routes.wouldGo(answer.ruleIndex)}</Text>
              <ol>
                {answer.targets.map((target) => (
                  <li key={target.providerAccountId}>
                    <strong>{accountName(target.providerAccountId)}</strong> ({target.provider}): {target.reason}
                    {!target.tried && ` — ${t.routes.skipped(target.skippedBecause)}`}
                  </li>
                ))}
              </ol>
            </>
          ) : (
            <Alert color="yellow" mt="sm">
              {t.routes.noMatch}
            </Alert>
          )}
        </div>
      )}
    </Card>
  );
}

function Outcomes({ accountName }: { accountName: (id: string) => string }) {
  const { t } = useI18n();
  const outcomes = useQuery(RoutingService.method.getRouteOutcomes, {});
  const routes = outcomes.data?.routes ?? [];
  const cells = (counts: { charges: number; approved: number; declined: number; fallbacks: number } | undefined) => (
    <>
      <Table.Td>{counts?.charges ?? 0}</Table.Td>
      <Table.Td>{counts?.approved ?? 0}</Table.Td>
      <Table.Td>{counts?.declined ?? 0}</Table.Td>
      <Table.Td>{counts?.fallbacks ?? 0}</Table.Td>
    </>
  );
  return (
    <Card withBorder mt="md">
      <Title order={2} size="h4" mb="xs">
        {t.routes.outcomes}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t.routes.fallbacksHint}
      </Text>
      <ErrorAlert error={outcomes.error} />
      {outcomes.data && !routes.length && <Text c="dimmed">{t.routes.outcomesNone}</Text>}
      {routes.length > 0 && (
        <div className="table-scroll" {...scrollable(t.routes.outcomes)}>
          <Table data-testid="route-outcomes">
            <TableHead columns={[t.routes.outcomeRoute, t.routes.charges, t.routes.approved, t.routes.declined, t.routes.fallbacks]} />
            <Table.Tbody>
              {routes.map((route) => [
                <Table.Tr key={route.routeId} data-route={route.routeName}>
                  <Table.Td>
                    <strong>{route.routeName}</strong>
                  </Table.Td>
                  {cells(route.counts)}
                </Table.Tr>,
                ...route.accounts.map((account) => (
                  <Table.Tr
                    key={`${route.routeId}/${account.providerAccountId}`}
                    data-route={route.routeName}
                    data-account={accountName(account.providerAccountId)}
                  >
                    <Table.Td pl="xl">
                      {accountName(account.providerAccountId)} ({account.provider})
                    </Table.Td>
                    {cells(account.counts)}
                  </Table.Tr>
                )),
              ])}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Card>
  );
}

function DeleteRoute({ route, onDone }: { route: Route; onDone: () => void }) {
  const { t } = useI18n();
  const refresh = useRefreshRoutes();
  const remove = useMutation(RoutingService.method.deleteRoute, { onSuccess: () => void refresh().then(onDone) });
  return (
    <Stack>
      <Text>{t.routes.deleteConfirm(route.name)}</Text>
      <ErrorAlert error={remove.error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button color="red" loading={remove.isPending} onClick={() => remove.mutate({ id: route.id })}>
          {t.delete}
        </Button>
      </Group>
    </Stack>
  );
}
