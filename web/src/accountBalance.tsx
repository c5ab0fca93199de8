import { Alert } from '@mantine/core';
import { useQuery } from '@connectrpc/connect-query';
import { ProviderAccountService } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import { Operation } from '../../gen/es/gateway/v1/types_pb.js';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { formatMoney } from './format.js';
import { useI18n } from './i18n.js';

/** Whether the account's provider lists the balance read (ListProviders): the gateway is asked only then. */
export function useReportsBalance(provider: string | undefined): boolean {
  const providers = useQuery(PaymentGatewayService.method.listProviders, {});
  const info = providers.data?.providers.find((p) => p.id === provider);
  return info?.operations.includes(Operation.GET_ACCOUNT_BALANCE) ?? false;
}

/** The account's balance read at its provider now, asked only where the provider has a balance read. */
export function useAccountBalance(accountId: string, provider: string | undefined) {
  const reports = useReportsBalance(provider);
  const balance = useQuery(ProviderAccountService.method.getAccountBalance, { providerAccountId: accountId }, { enabled: reports, retry: false });
  return { reports, balance };
}

/**
 * An account's balance as its provider reports it: available, and pending where the provider says; the unavailable
 * text where the provider has no balance read or could not be asked (never a guessed figure).
 */
export function AccountBalanceText({ accountId, provider, unavailable }: { accountId: string; provider: string | undefined; unavailable?: string }) {
  const { t } = useI18n();
  const { reports, balance } = useAccountBalance(accountId, provider);
  if (!reports || balance.isError) return <>{unavailable ?? t.payout.balanceUnavailable}</>;
  if (!balance.data) return <>{t.loading}</>;
  const available = formatMoney(balance.data.available);
  return <>{balance.data.pending === undefined ? available : t.payout.balanceWithPending(available, formatMoney(balance.data.pending))}</>;
}

/**
 * A warning where the payout asks for more than the provider says is available now: not a refusal (the read may be a
 * moment old, and the provider decides), but the operator confirms knowing it.
 */
export function OverBalanceWarning({ accountId, provider, amount }: { accountId: string; provider: string | undefined; amount: bigint }) {
  const { t } = useI18n();
  const { reports, balance } = useAccountBalance(accountId, provider);
  if (!reports || !balance.data || amount <= balance.data.available) return null;
  return (
    <Alert color="yellow" data-testid="confirm-over-balance">
      {t.payout.overBalance(formatMoney(balance.data.available))}
    </Alert>
  );
}
