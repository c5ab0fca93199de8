import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Fieldset, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { create } from '@bufbuild/protobuf';
import { skipToken, useMutation, useQuery } from '@connectrpc/connect-query';
import { GetTransactionResponseSchema, PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { Operation, PaymentMethod, type Transaction } from '../../../gen/es/gateway/v1/types_pb.js';
import { PaymentInstructions, SimulatePayment, TransactionFacts } from '../charges.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { formatMoney, parseCents } from '../format.js';
import { useI18n } from '../i18n.js';
import { useIdempotencyKey } from '../idempotency.js';
import { AmountInput, PageHeader, useProviderAccounts } from '../ui.js';

/** A new charge: the form, then what the payer needs (PIX code, boleto line), live, with a link to its detail. */
export default function NewCharge() {
  const { t } = useI18n();
  const [created, setCreated] = useState<Transaction | null>(null);
  return (
    <>
      <PageHeader title={t.charge.new} back={{ to: '/transactions', label: t.detail.back }} />
      {created ? <CreatedCharge created={created} onAnother={() => setCreated(null)} /> : <ChargeForm onCreated={setCreated} />}
    </>
  );
}

const NO_CARD = { cardNumber: '', holderName: '', holderDocument: '', expMonth: '', expYear: '', cvv: '' };
const NO_CUSTOMER = { name: '', email: '', document: '', phone: '' };

/** A request field's name as the gateway's violations spell it: cardNumber is card_number. */
const fieldPath = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The fields whose violations the form shows beside their inputs (the last segment of the gateway's field path). */
const FORM_FIELDS = [
  'provider_account_id',
  'amount',
  'payment_method',
  'installments',
  'description',
  'order_id',
  ...Object.keys(NO_CUSTOMER),
  ...Object.keys(NO_CARD).map(fieldPath),
];

function ChargeForm({ onCreated }: { onCreated: (transaction: Transaction) => void }) {
  const { t } = useI18n();
  const accounts = useProviderAccounts();
  const providers = useQuery(PaymentGatewayService.method.listProviders, {});
  const [accountId, setAccountId] = useState<string | null>(null);
  const [methodChoice, setMethodChoice] = useState<string>('');
  const [amount, setAmount] = useState('');
  const [badAmount, setBadAmount] = useState(false);
  const [customer, setCustomer] = useState(NO_CUSTOMER);
  const [description, setDescription] = useState('');
  const [orderId, setOrderId] = useState('');
  // The card lives in this component's memory only, and goes nowhere but the provider's tokenisation.
  const [card, setCard] = useState(NO_CARD);
  // The card id the provider gave for the card as typed: a retry reuses it instead of tokenising again.
  const cardId = useRef('');
  const [installments, setInstallments] = useState<string | null>('1');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const idempotencyKey = useIdempotencyKey();
  const tokenize = useMutation(PaymentGatewayService.method.createCardToken);
  const saveCard = useMutation(PaymentGatewayService.method.createCardId);
  const charge = useMutation(PaymentGatewayService.method.createTransaction);

  const account = accounts.data?.providerAccounts.find((a) => a.id === accountId);
  const provider = providers.data?.providers.find((p) => p.id === account?.provider);
  const methods = provider?.paymentMethods ?? [];
  const operations = new Set(provider?.operations ?? []);
  const method = methods.find((m) => String(m) === methodChoice) ?? methods[0];
  const byCard = method === PaymentMethod.CREDIT_CARD;
  const cardsTokenised = operations.has(Operation.CREATE_CARD_TOKEN) || operations.has(Operation.CREATE_CARD_ID);

  const cents = parseCents(amount);
  const [settledCents] = useDebouncedValue(cents, 300);
  const offersInstallments = byCard && operations.has(Operation.CALCULATE_INSTALLMENTS);
  // The card's first six digits (its BIN), once typed: a provider that quotes installments per card (MERCADOPAGO)
  // needs them; the others ignore them. Only the prefix is sent, so the quote is asked again only when it changes.
  const digits = card.cardNumber.replace(/\D/g, '');
  const cardBin = digits.length >= 6 ? digits.slice(0, 6) : '';
  const installmentOptions = useQuery(
    PaymentGatewayService.method.calculateInstallments,
    offersInstallments && accountId && settledCents ? { providerAccountId: accountId, amount: settledCents, cardBin } : skipToken,
  );
  const options = offersInstallments ? (installmentOptions.data?.options ?? []) : [];
  const chosenInstallments = options.find((o) => String(o.installmentNumber) === installments)?.installmentNumber ?? 1;

  const violations = useFieldViolations(error);
  const otherError = Boolean(error) && !FORM_FIELDS.some((field) => violations[field]);

  // Autocomplete off: an operator's browser must not offer to keep (or fill in) a customer's details or card.
  const customerInput = (field: keyof typeof NO_CUSTOMER) => ({
    autoComplete: 'off',
    value: customer[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setCustomer((previous) => ({ ...previous, [field]: value }));
    },
    error: violations[field],
  });
  const cardInput = (field: keyof typeof NO_CARD) => ({
    autoComplete: 'off',
    value: card[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      cardId.current = '';
      setCard((previous) => ({ ...previous, [field]: value }));
    },
    error: violations[fieldPath(field)],
  });

  /** CreateCardToken, then CreateCardId where the provider saves cards; the token itself where it only tokenises. */
  async function cardIdFor(providerAccountId: string): Promise<string> {
    if (cardId.current) return cardId.current;
    const token = operations.has(Operation.CREATE_CARD_TOKEN) ? (await tokenize.mutateAsync({ providerAccountId, card })).cardToken : '';
    cardId.current = operations.has(Operation.CREATE_CARD_ID)
      ? (await saveCard.mutateAsync({ providerAccountId, cardToken: token, card: token ? undefined : card, customer })).cardId
      : token;
    return cardId.current;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBadAmount(cents === null);
    if (cents === null || !accountId || method === undefined) return;
    setBusy(true);
    setError(null);
    try {
      const transaction = {
        amount: cents,
        paymentMethod: method,
        customer,
        description,
        orderId,
        cardId: byCard ? await cardIdFor(accountId) : '',
        installments: byCard ? chosenInstallments : 1,
      };
      const answer = await charge.mutateAsync({
        providerAccountId: accountId,
        idempotencyKey: idempotencyKey({ accountId, transaction }),
        transaction,
      });
      if (answer.transaction) onCreated(answer.transaction);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="form">
      <Stack>
        <ErrorAlert error={accounts.error ?? providers.error} />
        <Select
          label={t.charge.account}
          data={(accounts.data?.providerAccounts ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.provider})` }))}
          value={accountId}
          onChange={(value) => {
            cardId.current = '';
            setAccountId(value);
          }}
          error={violations.provider_account_id}
          searchable
          required
        />
        {account && methods.length === 0 && <Alert color="yellow">{t.charge.noMethods}</Alert>}
        {methods.length > 0 && (
          <Radio.Group label={t.charge.method} value={String(method)} onChange={setMethodChoice} error={violations.payment_method} required>
            <Group mt="xs">
              {methods.map((m) => (
                <Radio key={m} value={String(m)} label={t.method[m]} />
              ))}
            </Group>
          </Radio.Group>
        )}
        <div className="form-grid">
          <AmountInput label={t.charge.amount} value={amount} onChange={setAmount} invalid={badAmount} violation={violations.amount} />
          <TextInput label={t.charge.orderId} value={orderId} onChange={(e) => setOrderId(e.currentTarget.value)} error={violations.order_id} />
        </div>
        <TextInput label={t.charge.description} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={violations.description} />

        <Fieldset legend={t.charge.customer}>
          <div className="form-grid">
            <TextInput label={t.charge.name} {...customerInput('name')} />
            <TextInput label={t.charge.document} inputMode="numeric" {...customerInput('document')} />
            <TextInput label={t.charge.email} type="email" {...customerInput('email')} />
            <TextInput label={t.charge.phone} type="tel" {...customerInput('phone')} />
          </div>
        </Fieldset>

        {byCard && !cardsTokenised && <Alert color="yellow">{t.charge.noCardTokens}</Alert>}
        {byCard && cardsTokenised && (
          <Fieldset legend={t.charge.card}>
            <Stack>
              <Text size="sm" c="dimmed">
                {t.charge.cardHint}
              </Text>
              <TextInput label={t.charge.cardNumber} inputMode="numeric" required {...cardInput('cardNumber')} />
              <div className="form-grid">
                <TextInput label={t.charge.holderName} required {...cardInput('holderName')} />
                <TextInput label={t.charge.holderDocument} inputMode="numeric" {...cardInput('holderDocument')} />
                <TextInput label={t.charge.expMonth} inputMode="numeric" maxLength={2} required {...cardInput('expMonth')} />
                <TextInput label={t.charge.expYear} inputMode="numeric" maxLength={2} required {...cardInput('expYear')} />
                <TextInput label={t.charge.cvv} inputMode="numeric" maxLength={4} required {...cardInput('cvv')} />
              </div>
              {offersInstallments && (
                <Select
                  label={t.charge.installments}
                  data={options.map((o) => ({
                    value: String(o.installmentNumber),
                    label: `${o.installmentNumber}× ${formatMoney(o.installmentValue)} (${t.charge.installmentsTotal} ${formatMoney(o.finalValue)})`,
                  }))}
                  value={String(chosenInstallments)}
                  onChange={setInstallments}
                  disabled={options.length === 0}
                  error={violations.installments}
                  allowDeselect={false}
                />
              )}
              <ErrorAlert error={installmentOptions.error} />
            </Stack>
          </Fieldset>
        )}

        {otherError && <ErrorAlert error={error} />}
        <Group>
          <Button type="submit" loading={busy} disabled={!account || method === undefined || (byCard && !cardsTokenised)}>
            {t.charge.submit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The charge just created, shown at once from CreateTransaction's answer and then kept current by the live events. */
function CreatedCharge({ created, onAnother }: { created: Transaction; onAnother: () => void }) {
  const { t } = useI18n();
  const detail = useQuery(
    PaymentGatewayService.method.getTransaction,
    { id: created.id },
    { initialData: create(GetTransactionResponseSchema, { transaction: created }) },
  );
  const tx = detail.data?.transaction ?? created;
  return (
    <Stack>
      <Alert color="green" role="status">
        {t.charge.created}{' '}
        <Anchor component={Link} to={`/transactions/${tx.id}`}>
          {t.charge.open}
        </Anchor>
      </Alert>
      <TransactionFacts transaction={tx} />
      <SimulatePayment transaction={tx} />
      <PaymentInstructions transaction={tx} />
      <ErrorAlert error={detail.error} />
      <Group>
        <Button variant="default" onClick={onAnother}>
          {t.charge.new}
        </Button>
      </Group>
    </Stack>
  );
}
