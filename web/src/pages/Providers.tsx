import { Anchor, Badge, Group, Select, Table, Text, Title, type ComboboxData } from '@mantine/core';
import { useQuery } from '@connectrpc/connect-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { PaymentMethod, ProviderEvidence } from '../../../gen/es/gateway/v1/types_pb.js';
import { ErrorAlert } from '../errors.js';
import { useI18n } from '../i18n.js';
import { TableHead, enumValues, scrollable } from '../ui.js';
import { useUrlState } from '../urlState.js';

/** What every registered provider can do and what its adapter stands on, filterable by spec group, payment method and evidence. */
export default function Providers() {
  const { t } = useI18n();
  const providers = useQuery(PaymentGatewayService.method.listProviders, {});
  // In the address, as the other lists' filters, so a reload or a shared link shows the same providers.
  const [group, setGroup] = useUrlState('group');
  const [method, setMethod] = useUrlState('method');
  const [evidence, setEvidence] = useUrlState('evidence');
  const groups = [...new Set(providers.data?.providers.map((p) => p.specGroup))].sort();
  const shown = (providers.data?.providers ?? []).filter(
    (p) =>
      (!group || p.specGroup === group) &&
      (!method || p.paymentMethods.includes(Number(method) as PaymentMethod)) &&
      (!evidence || p.evidence === (Number(evidence) as ProviderEvidence)),
  );

  return (
    <>
      <Title order={1} mb="md">
        {t.nav.providers}
      </Title>
      <ErrorAlert error={providers.error} />
      <Group mb="md" align="flex-end">
        <FilterSelect label={t.providers.specGroup} data={groups} state={[group, setGroup]} />
        <FilterSelect label={t.providers.method} data={enumValues(t.method)} state={[method, setMethod]} />
        <FilterSelect label={t.providers.evidence} data={enumValues(t.evidence)} state={[evidence, setEvidence]} />
      </Group>
      <Text size="sm" mb="md">
        {t.providers.evidenceHint}
      </Text>
      <div className="table-scroll" {...scrollable(t.nav.providers)}>
        <Table data-testid="providers-table" striped>
          <TableHead
            columns={[
              t.providers.id,
              t.providers.specGroup,
              t.providers.family,
              t.providers.evidence,
              t.providers.paymentMethods,
              t.providers.withdrawMethods,
              t.providers.operations,
            ]}
          />
          <Table.Tbody>
            {shown.map((p) => (
              <Table.Tr key={p.id} data-provider={p.id}>
                <Table.Td>
                  <strong>{p.id}</strong>
                  {p.aliases.length > 0 && <div title={t.providers.aliases}>{p.aliases.join(', ')}</div>}
                </Table.Td>
                <Table.Td>{p.specGroup}</Table.Td>
                <Table.Td>{p.family}</Table.Td>
                <Table.Td data-evidence={ProviderEvidence[p.evidence]}>
                  <Badge variant="light" size="sm">
                    {t.evidence[p.evidence]}
                  </Badge>
                  {p.evidenceAddresses.map((address) => (
                    <div key={address}>
                      <Anchor href={address} target="_blank" rel="noreferrer noopener" size="xs">
                        {new URL(address).host}
                      </Anchor>
                    </div>
                  ))}
                </Table.Td>
                <Table.Td>
                  <Badges labels={p.paymentMethods.map((m) => t.method[m])} />
                </Table.Td>
                <Table.Td>
                  <Badges labels={p.withdrawMethods.map((m) => t.withdrawMethod[m])} />
                </Table.Td>
                <Table.Td>
                  <Badges labels={p.operations.map((o) => t.operation[o])} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </>
  );
}

function Badges({ labels }: { labels: string[] }) {
  return (
    <Group gap={4}>
      {labels.map((label) => (
        <Badge key={label} variant="outline" size="sm">
          {label}
        </Badge>
      ))}
    </Group>
  );
}

/** One of the page's filters: a clearable choice whose value ('' for all) lives in the address (useUrlState). */
function FilterSelect({ label, data, state: [value, set] }: { label: string; data: ComboboxData; state: [string, (value: string) => void] }) {
  const { t } = useI18n();
  return <Select label={label} placeholder={t.all} data={data} value={value || null} onChange={(chosen) => set(chosen ?? '')} clearable />;
}
