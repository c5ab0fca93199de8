import { Fragment, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Alert, Anchor, Badge, Card, Group, Loader, Stack, Title } from '@mantine/core';
import { useMutation, useQuery } from '@connectrpc/connect-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { DocumentType, type Receiver } from '../../../gen/es/gateway/v1/types_pb.js';
import { UploadService, type ReceiverDocument } from '../../../gen/es/gateway/v1/upload_service_pb.js';
import { ErrorAlert } from '../errors.js';
import { fileNameOf, formatDocument, formatMoney, formatZipCode, isPdf, withCheckDigit } from '../format.js';
import { useI18n } from '../i18n.js';
import { RECEIVER_DOCUMENTS, ReceiverStatusBadge, useAccountTypeLabel } from '../receivers.js';
import { When } from '../ui.js';

/** Pairs of a definition list; pairs without a value are left out. */
function Facts({ facts, testId }: { facts: [string, ReactNode][]; testId?: string }) {
  return (
    <dl className="facts" data-testid={testId}>
      {facts
        .filter(([, value]) => value !== '' && value !== undefined && value !== null)
        .map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
    </dl>
  );
}

/**
 * One receiver: found by the gateway's id among those stored (ListReceivers),
 * then read again from its provider (GetReceiver) for the current status and
 * balance. What the gateway was given at creation (bank account, address,
 * verification documents) is shown as it kept it. Live: a receiver's event
 * reads both again (live.tsx).
 */
export default function ReceiverDetail() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  // The search also matches provider ids and documents: the one whose gateway id this is.
  const stored = useQuery(PaymentGatewayService.method.listReceivers, { query: id });
  const found = stored.data?.receivers.find((receiver) => receiver.id === id);
  const fresh = useQuery(
    PaymentGatewayService.method.getReceiver,
    { providerAccountId: found?.providerAccountId ?? '', receiverId: found?.receiverId ?? '' },
    { enabled: found !== undefined },
  );
  const receiver = fresh.data?.receiver ?? found;

  return (
    <>
      <Anchor component={Link} to="/receivers" size="sm">
        ← {t.receivers.back}
      </Anchor>
      <Title order={1} my="md">
        {t.receivers.title}
      </Title>
      <ErrorAlert error={stored.error} />
      {stored.isSuccess && !found && (
        <Alert color="yellow" role="alert">
          {t.receivers.notFound}
        </Alert>
      )}
      {fresh.isFetching && <Loader size="sm" role="status" aria-label={t.loading} />}
      {/* The provider could not be read: the page keeps what the gateway stored, and says why. */}
      <ErrorAlert error={fresh.error} />
      {receiver && <ReceiverCards receiver={receiver} />}
    </>
  );
}

function ReceiverCards({ receiver: r }: { receiver: Receiver }) {
  const { t } = useI18n();
  const accountType = useAccountTypeLabel();
  const documentType = r.documentType === DocumentType.CNPJ ? 'CNPJ' : r.documentType === DocumentType.CPF ? 'CPF' : '';
  const documents = RECEIVER_DOCUMENTS.filter(({ field }) => r.documents?.[field]);

  return (
    <Stack>
      <Card withBorder>
        <Facts
          testId="receiver"
          facts={[
            [t.receivers.name, r.name],
            [documentType || t.receivers.document, <span data-testid="document">{formatDocument(r.document)}</span>],
            [t.receivers.email, r.email],
            [t.transactions.status, <ReceiverStatusBadge status={r.status} />],
            [t.receivers.balance, formatMoney(r.balance)],
            [t.transactions.provider, r.provider],
            [t.receivers.receiverId, r.receiverId],
            [t.receivers.token, r.receiverToken],
            [t.receivers.description, r.description],
            [t.receivers.userId, r.userId],
            [t.receivers.revenue, r.monthlyRevenue ? formatMoney(r.monthlyRevenue) : ''],
            [t.receivers.created, <When at={r.createdAt} />],
            [t.receivers.updated, <When at={r.updatedAt} />],
            [t.transactions.id, r.id],
          ]}
        />
      </Card>

      <FactsCard
        title={t.receivers.bankAccount}
        testId="bank-account"
        facts={
          r.bankAccount && [
            [t.receivers.bankCode, r.bankAccount.bankCode],
            [t.receivers.branchNumber, withCheckDigit(r.bankAccount.branchNumber, r.bankAccount.branchDigit)],
            [t.receivers.accountNumber, withCheckDigit(r.bankAccount.accountNumber, r.bankAccount.accountDigit)],
            [t.receivers.accountType, accountType(r.bankAccount.accountType)],
            [t.receivers.pixCode, r.bankAccount.pixCode],
          ]
        }
      />
      <FactsCard
        title={t.receivers.address}
        testId="address"
        facts={
          r.address && [
            [t.receivers.street, [r.address.street, r.address.number].filter(Boolean).join(', ')],
            [t.receivers.district, r.address.district],
            [t.receivers.city, [r.address.city, r.address.state].filter(Boolean).join(' / ')],
            [t.receivers.zipcode, formatZipCode(r.address.zipcode)],
          ]
        }
      />
      <FactsCard
        title={t.receivers.documents}
        testId="documents"
        facts={
          documents.length > 0
            ? documents.map(({ field, label, kind }) => {
                const url = r.documents![field];
                return [
                  t.receivers[label],
                  <Group gap="xs" wrap="nowrap">
                    <Badge variant="outline" size="sm">
                      {isPdf(fileNameOf(url)) ? t.receivers.pdf : t.receivers.image}
                    </Badge>
                    <DocumentLink receiver={r} document={kind} name={fileNameOf(url)} />
                  </Group>,
                ];
              })
            : undefined
        }
      />
    </Stack>
  );
}

/**
 * Opens one of the receiver's documents in a new tab through a link the gateway hands out for it
 * (CreateDocumentReadLink: a presigned GET valid for minutes, and a line in the audit trail), never through the
 * document's own address, which private uploads do not serve. The tab is opened in the click itself, so that no popup
 * blocker stops it, and sent to the document once the link is there; a refusal closes it and is shown here.
 */
function DocumentLink({ receiver, document, name }: { receiver: Receiver; document: ReceiverDocument; name: string }) {
  const { t } = useI18n();
  const createLink = useMutation(UploadService.method.createDocumentReadLink);
  const [error, setError] = useState<unknown>();
  async function open() {
    setError(undefined);
    const tab = window.open('', '_blank');
    try {
      const link = await createLink.mutateAsync({ providerAccountId: receiver.providerAccountId, receiverId: receiver.receiverId, document });
      if (tab) tab.location.replace(link.url);
      else window.location.assign(link.url);
    } catch (err) {
      tab?.close();
      setError(err);
    }
  }
  return (
    <Stack gap={4}>
      <Anchor component="button" type="button" className="url" onClick={() => void open()} aria-label={`${t.receivers.openDocument}: ${name}`}>
        {name}
      </Anchor>
      <ErrorAlert error={error} />
    </Stack>
  );
}

/** A titled card of facts, or "none given" when there are none. */
function FactsCard({ title, testId, facts }: { title: string; testId: string; facts: [string, ReactNode][] | undefined }) {
  const { t } = useI18n();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {facts ? <Facts testId={testId} facts={facts} /> : t.receivers.none}
    </Card>
  );
}
