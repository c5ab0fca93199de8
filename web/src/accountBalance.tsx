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

/**
 * An account's balance as its provider reports it: available, and pending where the provider says; the unavailable
 * text where the provider has no balance read or could not be asked (never a guessed figure).
 */
export function AccountBalanceText({ accountId, provider, unavailable }: { accountId: string; provider: string | undefined; unavailable?: string }) {
  const { t } = useI18n();
  const reports = useReportsBalance(provider);
  const balance = useQuery(ProviderAccountService.method.getAccountBalance, { providerAccountId: accountId }, { enabled: reports, retry: false });
  if (!reports || balance.isError) return <>{unavailable ?? t.payout.balanceUnavailable}</>;
  if (!balance.data) return <>{t.loading}</>;
  const available = formatMoney(balance.data.available);
  return <>{balance.data.pending === undefined ? available : t.payout.balanceWithPending(available, formatMoney(balance.data.pending))}</>;
}
