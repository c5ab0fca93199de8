import { Card, Table, Text, Title } from '@mantine/core';
import type { Transaction } from '../../gen/es/gateway/v1/types_pb.js';
import { formatDocument, formatMoney, shortEmail } from './format.js';
import { useI18n } from './i18n.js';
import { ShortIdCopy, TableHead, When, scrollable } from './ui.js';

/**
 * What a charge was asked with and what came of it beyond its status, for its page: the customer, the items and
 * every refund as a record (the cents refunded so far are the refund form's).
 */

/** The customer as the charge was asked with; said so when the charge has none (older, or reported unasked). */
export function ChargeCustomer({ transaction: tx }: { transaction: Transaction }) {
  const { t } = useI18n();
  const customer = tx.customer;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.detail.customer}
      </Title>
      {customer ? (
        <dl className="facts" data-testid="customer">
          <dt>{t.detail.customerName}</dt>
          <dd>{customer.name || '—'}</dd>
          <dt>{t.detail.customerEmail}</dt>
          <dd>{customer.email || '—'}</dd>
          <dt>{t.detail.customerDocument}</dt>
          <dd>{customer.document ? formatDocument(customer.document) : '—'}</dd>
        </dl>
      ) : (
        <Text>{t.detail.noCustomer}</Text>
      )}
    </Card>
  );
}

/**
 * The customer in a list's row, to tell apart the many customers of one name: the name, and under it the e-mail (a long
 * name before the @ cut, kept on one line) or, without one, the document. A dash for a charge without a customer.
 */
export function CustomerSummary({ customer }: { customer: Transaction['customer'] }) {
  const contact = customer?.email ? shortEmail(customer.email) : customer?.document ? formatDocument(customer.document) : '';
  if (!customer?.name && !contact) return <>—</>;
  return (
    <>
      <Text size="sm" data-testid="customer-name">
        {customer?.name || '—'}
      </Text>
      {contact && (
        <Text size="xs" c="dimmed" className="nowrap" title={customer?.email || undefined} data-testid="customer-contact">
          {contact}
        </Text>
      )}
    </>
  );
}

/** The items as asked: unit prices and totals in the charge's currency. */
export function ChargeItems({ transaction: tx }: { transaction: Transaction }) {
  const { t } = useI18n();
  if (tx.items.length === 0) return null;
  const money = (cents: bigint) => <span className="money">{formatMoney(cents, tx.currency)}</span>;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.detail.items}
      </Title>
      <div className="table-scroll" {...scrollable(t.detail.items)}>
        <Table data-testid="items">
          <TableHead columns={[t.detail.itemTitle, t.detail.itemQuantity, t.detail.itemUnitPrice, t.detail.itemTotal]} />
          <Table.Tbody>
            {tx.items.map((item, index) => (
              <Table.Tr key={index}>
                <Table.Td>{item.title || item.id}</Table.Td>
                <Table.Td>{item.quantity}</Table.Td>
                <Table.Td>{money(item.unitPrice)}</Table.Td>
                <Table.Td>{money(item.unitPrice * BigInt(item.quantity))}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </Card>
  );
}

/** Every refund the provider answered, oldest first: id, amount, when, who asked, its status and the provider's id. */
export function ChargeRefunds({ transaction: tx }: { transaction: Transaction }) {
  const { t } = useI18n();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t.detail.refunds}
      </Title>
      {tx.refunds.length === 0 ? (
        <Text>{t.detail.noRefunds}</Text>
      ) : (
        <div className="table-scroll" {...scrollable(t.detail.refunds)}>
          <Table data-testid="refunds">
            <TableHead
              columns={[t.detail.refundId, t.detail.refundValue, t.detail.refundWhen, t.detail.refundBy, t.detail.refundStatus, t.detail.providerId]}
            />
            <Table.Tbody>
              {tx.refunds.map((refund) => (
                <Table.Tr key={refund.id} data-id={refund.id}>
                  <Table.Td className="nowrap">
                    <ShortIdCopy id={refund.id} what={t.detail.copyRefundId} />
                  </Table.Td>
                  <Table.Td className="money">{formatMoney(refund.amount, tx.currency)}</Table.Td>
                  <Table.Td>
                    <When at={refund.createdAt} />
                  </Table.Td>
                  <Table.Td>{refund.requestedBy || '—'}</Table.Td>
                  <Table.Td className="nowrap">{t.detail.refundStatuses[refund.status] ?? refund.status}</Table.Td>
                  <Table.Td>{refund.providerRefundId || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Card>
  );
}
