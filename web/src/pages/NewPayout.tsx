import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Autocomplete, Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@connectrpc/connect-query';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { PixKeyType, WithdrawMethod, type WithdrawInput } from '../../../gen/es/gateway/v1/types_pb.js';
import { inferPixKeyType, isValidPixKey } from '../../../shared/pixKeyRules.js';
import { ErrorAlert, useFieldViolations } from '../errors.js';
import { formatMoney, parseCents } from '../format.js';
import { useI18n } from '../i18n.js';
import { useIdempotencyKey } from '../idempotency.js';
import { AmountInput, PageHeader, useProviderAccounts } from '../ui.js';
import { AccountBalanceText, OverBalanceWarning } from '../accountBalance.js';
import { awaitsApproval, usePayoutApprovalLimit } from '../payoutApprovalLimit.js';

type PayoutRequest = Pick<WithdrawInput, 'paymentMethod' | 'amount' | 'pixKey' | 'pixType' | 'description' | 'name' | 'receiverId'>;

/** The fields whose violations the form shows beside their inputs (the last segment of the gateway's field path). */
const FORM_FIELDS = ['provider_account_id', 'amount', 'pix_key', 'pix_type', 'description', 'name', 'receiver_id', 'payment_method'];

/** The ways the back-office pays out, in the order offered when a provider takes several. */
const PAYOUT_METHODS = [WithdrawMethod.PIX, WithdrawMethod.BANK_ACCOUNT, WithdrawMethod.RECEIVER] as const;
type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/**
 * A payout (Withdraw), by the ways the account's provider pays out (ListProviders' withdraw methods): by PIX to a
 * key, to the bank account registered at the provider (Iugu's bank domicile: the request names no destination), or
 * to one of the account's receivers. The key's type is inferred as the gateway infers it (shared/pixKeyRules.ts,
 * imported as is) and shown while typing; a key that is not well formed for its type is refused beside the field
 * before anything is sent. A valid form opens a confirmation (amount, destination, recipient, the account and its
 * balance where its provider reports one); only its confirm button sends. On success, the payout's page (held for
 * approval above the team's limit).
 */
export default function NewPayout() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const accounts = useProviderAccounts();
  const providers = useQuery(PaymentGatewayService.method.listProviders, {});
  const [accountId, setAccountId] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [badAmount, setBadAmount] = useState(false);
  const [pixKey, setPixKey] = useState('');
  // The key is judged once the operator leaves the field or submits, not at the first keystroke.
  const [keyChecked, setKeyChecked] = useState(false);
  const [description, setDescription] = useState('');
  const [recipient, setRecipient] = useState('');
  const [chosenMethod, setChosenMethod] = useState<PayoutMethod | null>(null);
  const [receiverId, setReceiverId] = useState('');
  // The request the confirmation shows and, once confirmed, sends.
  const [confirming, setConfirming] = useState<{ accountId: string; request: PayoutRequest } | null>(null);
  const idempotencyKey = useIdempotencyKey();
  const approval = usePayoutApprovalLimit();
  const withdraw = useMutation(PaymentGatewayService.method.withdraw, {
    onSuccess: (answer) => {
      if (answer.withdrawal) void navigate(`/payouts/${answer.withdrawal.id}`);
    },
    onError: () => setConfirming(null),
  });

  const methodsByProvider = new Map(
    (providers.data?.providers ?? []).map((p) => [p.id, PAYOUT_METHODS.filter((method) => p.withdrawMethods.includes(method))] as const),
  );
  const payingAccounts = (accounts.data?.providerAccounts ?? []).filter((a) => (methodsByProvider.get(a.provider) ?? []).length > 0);
  const chosenAccount = payingAccounts.find((a) => a.id === accountId);
  const methods = chosenAccount ? (methodsByProvider.get(chosenAccount.provider) ?? []) : [];
  const method: PayoutMethod = chosenMethod !== null && methods.includes(chosenMethod) ? chosenMethod : (methods[0] ?? WithdrawMethod.PIX);
  const receivers = useQuery(
    PaymentGatewayService.method.listReceivers,
    { providerAccountId: accountId ?? '', pageSize: 500, pageToken: '' },
    { enabled: Boolean(accountId) && method === WithdrawMethod.RECEIVER },
  );
  const knownReceivers = receivers.data?.receivers ?? [];
  const receiverName = (id: string) => knownReceivers.find((r) => r.receiverId === id)?.name;
  // Without a receiver, an account naming its platform's default recipient (platform_id) pays out from that one.
  const defaultRecipient = chosenAccount?.platformId ?? '';
  const keyType = pixKey.trim() ? inferPixKeyType(pixKey) : undefined;
  const keyValid = keyType !== undefined && isValidPixKey(pixKey, keyType);
  const violations = useFieldViolations(withdraw.error);
  const otherError = withdraw.error && !FORM_FIELDS.some((field) => violations[field]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseCents(amount);
    setBadAmount(cents === null);
    setKeyChecked(method === WithdrawMethod.PIX);
    if (cents === null || !accountId) return;
    let request: PayoutRequest;
    if (method === WithdrawMethod.PIX) {
      if (!keyType || !keyValid) return;
      request = {
        paymentMethod: method,
        amount: cents,
        pixKey: pixKey.trim(),
        pixType: PixKeyType[keyType],
        description,
        name: recipient.trim(),
        receiverId: '',
      };
    } else if (method === WithdrawMethod.RECEIVER) {
      const id = receiverId.trim();
      if (!id && !defaultRecipient) return;
      request = {
        paymentMethod: method,
        amount: cents,
        pixKey: '',
        pixType: PixKeyType.UNSPECIFIED,
        description,
        name: receiverName(id) ?? '',
        receiverId: id,
      };
    } else {
      // The provider pays to the bank account registered with it: the request names no destination (Iugu refuses one).
      request = { paymentMethod: method, amount: cents, pixKey: '', pixType: PixKeyType.UNSPECIFIED, description, name: '', receiverId: '' };
    }
    withdraw.reset();
    setConfirming({ accountId, request });
  }

  function send() {
    if (!confirming) return;
    const { accountId: providerAccountId, request } = confirming;
    withdraw.mutate({ providerAccountId, idempotencyKey: idempotencyKey({ accountId: providerAccountId, request }), withdraw: request });
  }

  const confirmingAccount = payingAccounts.find((a) => a.id === confirming?.accountId);
  const confirmingReceiver = confirming?.request.receiverId
    ? [confirming.request.name, confirming.request.receiverId].filter(Boolean).join(' · ')
    : t.payout.accountDefaultRecipient(defaultRecipient);

  return (
    <>
      <PageHeader title={t.payout.new} back={{ to: '/payouts', label: t.payout.back }} />
      <form onSubmit={submit} className="form">
        <Stack>
          <ErrorAlert error={accounts.error ?? providers.error} />
          {accounts.isSuccess && providers.isSuccess && payingAccounts.length === 0 && <Alert color="yellow">{t.payout.noAccounts}</Alert>}
          <Select
            label={t.payout.account}
            data={payingAccounts.map((a) => ({ value: a.id, label: `${a.name} (${a.provider})` }))}
            value={accountId}
            onChange={(value) => {
              setAccountId(value);
              setReceiverId('');
              withdraw.reset();
            }}
            error={violations.provider_account_id}
            searchable
            required
          />
          {methods.length > 1 && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="payout-method-label">
                {t.payout.method}
              </Text>
              <SegmentedControl
                aria-labelledby="payout-method-label"
                data={methods.map((m) => ({ value: String(m), label: t.withdrawMethod[m] }))}
                value={String(method)}
                onChange={(value) => setChosenMethod(Number(value) as PayoutMethod)}
              />
            </Stack>
          )}
          <AmountInput label={t.payout.amount} value={amount} onChange={setAmount} invalid={badAmount} violation={violations.amount} />
          {method === WithdrawMethod.BANK_ACCOUNT && (
            <Alert color="gray" data-testid="payout-bank-domicile">
              {t.payout.registeredBankAccount(chosenAccount?.provider ?? '')}
            </Alert>
          )}
          {method === WithdrawMethod.RECEIVER && (
            <Autocomplete
              label={t.payout.receiver}
              description={receiverName(receiverId.trim()) ?? (defaultRecipient ? t.payout.defaultRecipient(defaultRecipient) : t.payout.receiverHint)}
              autoComplete="off"
              data={knownReceivers.map((r) => r.receiverId)}
              value={receiverId}
              onChange={(value) => {
                setReceiverId(value);
                withdraw.reset();
              }}
              error={violations.receiver_id}
              required={!defaultRecipient}
            />
          )}
          {method === WithdrawMethod.PIX && (
            <TextInput
              label={t.payout.pixKey}
              autoComplete="off"
              value={pixKey}
              onChange={(e) => {
                setPixKey(e.currentTarget.value);
                withdraw.reset();
              }}
              onBlur={() => setKeyChecked(pixKey.trim() !== '')}
              description={
                keyType ? (
                  <>
                    {t.payout.keyType}: <span data-testid="pix-key-type">{t.pixKeyType[keyType]}</span>
                  </>
                ) : (
                  t.payout.pixKeyHint
                )
              }
              error={keyChecked && keyType && !keyValid ? t.pixKeyInvalid[keyType] : (violations.pix_key ?? violations.pix_type)}
              required
            />
          )}
          {method === WithdrawMethod.PIX && (
            <TextInput
              label={t.payout.recipient}
              description={t.payout.recipientHint}
              autoComplete="off"
              value={recipient}
              onChange={(e) => setRecipient(e.currentTarget.value)}
              error={violations.name}
            />
          )}
          <TextInput label={t.payout.description} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={violations.description} />
          {otherError && <ErrorAlert error={withdraw.error} />}
          <Group>
            <Button type="submit">{t.payout.review}</Button>
          </Group>
        </Stack>
      </form>
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={t.payout.confirmTitle}
        lockScroll={false}
        closeButtonProps={{ 'aria-label': t.close }}
        centered
      >
        {confirming && (
          <Stack>
            <Text size="sm">{t.payout.confirmIntro}</Text>
            <dl className="facts" data-testid="payout-confirmation">
              <dt>{t.payout.amount}</dt>
              <dd data-testid="confirm-amount">{formatMoney(confirming.request.amount)}</dd>
              {confirming.request.paymentMethod === WithdrawMethod.PIX ? (
                <>
                  <dt>{t.payout.pixKey}</dt>
                  <dd data-testid="confirm-key">
                    {confirming.request.pixKey} ({keyType && t.pixKeyType[keyType]})
                  </dd>
                  <dt>{t.payout.recipient}</dt>
                  <dd data-testid="confirm-recipient">{confirming.request.name || t.payout.notGiven}</dd>
                </>
              ) : (
                <>
                  <dt>{t.payout.destination}</dt>
                  <dd data-testid="confirm-destination">
                    {confirming.request.paymentMethod === WithdrawMethod.RECEIVER
                      ? confirmingReceiver
                      : t.payout.registeredBankAccount(confirmingAccount?.provider ?? '')}
                  </dd>
                </>
              )}
              <dt>{t.payout.account}</dt>
              <dd>{confirmingAccount ? `${confirmingAccount.name} (${confirmingAccount.provider})` : confirming.accountId}</dd>
              <dt>{t.payout.balance}</dt>
              <dd data-testid="confirm-balance">
                <AccountBalanceText accountId={confirming.accountId} provider={confirmingAccount?.provider} />
              </dd>
              {confirming.request.description && (
                <>
                  <dt>{t.payout.description}</dt>
                  <dd>{confirming.request.description}</dd>
                </>
              )}
            </dl>
            <OverBalanceWarning accountId={confirming.accountId} provider={confirmingAccount?.provider} amount={confirming.request.amount} />
            <ApprovalNote amount={confirming.request.amount} settings={approval} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                {t.payout.edit}
              </Button>
              <Button onClick={send} loading={withdraw.isPending}>
                {t.payout.confirm}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}

/**
 * Whether the payout being confirmed will wait for a second operator, by the limit in force (read when the form
 * opened; the gateway decides with the limit at the moment it is asked). The general rule while the limit is unknown.
 */
function ApprovalNote({ amount, settings }: { amount: bigint; settings: ReturnType<typeof usePayoutApprovalLimit> }) {
  const { t } = useI18n();
  const limit = settings.data?.settings?.approvalAboveCents;
  const waits = settings.isSuccess && awaitsApproval(amount, limit);
  const text = !settings.isSuccess
    ? t.payout.approvalNeeded
    : limit === undefined
      ? t.payoutApproval.noReview
      : waits
        ? t.payoutApproval.willWait(formatMoney(limit))
        : t.payoutApproval.wontWait(formatMoney(limit));
  return (
    <Text size="sm" c={waits ? undefined : 'dimmed'} fw={waits ? 500 : undefined} data-testid="confirm-approval">
      {text}
    </Text>
  );
}
