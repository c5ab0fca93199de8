import type { Permission } from '../gateway/access.js';
import { UPLOAD_PERMISSIONS } from '../../shared/permissions.js';
import { UploadPurpose } from '../../gen/ts-proto/gateway/v1/upload_service.js';

/**
 * How an RPC meets a caller limited to some provider accounts:
 * - `request`: the request names the account (`provider_account_id`, or `id` for the account RPCs); it must be one of the caller's;
 * - `filter`: a list whose `provider_account_id` filter the caller must set to one of theirs (or, for WatchEvents, the accounts it may watch);
 * - `response`: a read by the gateway's id, refused after the read when the record is another account's;
 * - `list`: the answer keeps only the caller's accounts;
 * - `none`: not about an account (the providers' catalogue);
 * - `refused`: limited callers may not call it at all (administration, and actions by id whose account is only known after acting).
 */
export type AccountRule = 'request' | 'filter' | 'response' | 'list' | 'none' | 'refused';

export interface RpcRule {
  /** `authenticated`: any caller with a valid credential. */
  permission: Permission | 'authenticated';
  accounts: AccountRule;
  /** Changes something, so it is written to the audit trail. */
  audited: boolean;
  /** Open to an admin who must turn two-step verification on first (OPERATOR_TOTP_REQUIRED_FOR_ADMINS): the enrollment itself. */
  beforeTotp?: boolean;
  /**
   * Where what the call needs depends on what the request asks: the request's field, and the permission each of its
   * values needs in place of `permission` (which an unset field, or any other value, needs).
   */
  byRequest?: { field: string; permissions: Readonly<Record<number, Permission>> };
}

const rule = (permission: RpcRule['permission'], accounts: AccountRule, audited = false): RpcRule => ({ permission, accounts, audited });
const enrollment = (audited: boolean): RpcRule => ({ ...rule('authenticated', 'none', audited), beforeTotp: true });

/** Every RPC, by its path (`/package.Service/Method`, the same in gRPC and Connect), and what it needs. */
export const RPC_RULES: Record<string, RpcRule> = {
  '/gateway.v1.PaymentGatewayService/CreateCardToken': rule('cards:tokenize', 'request', true),
  '/gateway.v1.PaymentGatewayService/CreateCardId': rule('payments:write', 'request', true),
  '/gateway.v1.PaymentGatewayService/RevokeSavedCard': rule('payments:write', 'request', true),
  '/gateway.v1.PaymentGatewayService/CreateTransaction': rule('payments:write', 'request', true),
  '/gateway.v1.PaymentGatewayService/GetTransaction': rule('payments:read', 'response'),
  '/gateway.v1.PaymentGatewayService/RefoundTransaction': rule('refunds:write', 'request', true),
  '/gateway.v1.PaymentGatewayService/Withdraw': rule('payouts:write', 'request', true),
  '/gateway.v1.PaymentGatewayService/GetWithdraw': rule('payouts:read', 'response'),
  // Reviews of held payouts are by operators (payouts.ts), who are not limited to accounts.
  '/gateway.v1.PaymentGatewayService/ApproveWithdraw': rule('payouts:write', 'refused', true),
  '/gateway.v1.PaymentGatewayService/RejectWithdraw': rule('payouts:write', 'refused', true),
  '/gateway.v1.PaymentGatewayService/CreateReceiver': rule('receivers:write', 'request', true),
  '/gateway.v1.PaymentGatewayService/GetReceiver': rule('receivers:read', 'request'),
  '/gateway.v1.PaymentGatewayService/ProcessWebhook': rule('notifications:write', 'request', true),
  '/gateway.v1.PaymentGatewayService/CalculateInstallments': rule('payments:read', 'request'),
  '/gateway.v1.PaymentGatewayService/ListProviders': rule('authenticated', 'none'),
  '/gateway.v1.PaymentGatewayService/WatchEvents': rule('events:read', 'filter'),
  '/gateway.v1.PaymentGatewayService/ListUnconfirmedRequests': rule('payments:read', 'filter'),
  '/gateway.v1.PaymentGatewayService/SettleUnconfirmedRequest': rule('reconciliation:write', 'refused', true),
  '/gateway.v1.PaymentGatewayService/ListFlowMismatches': rule('payments:read', 'filter'),
  // Settled like an unconfirmed request: by whoever reconciles, not limited to accounts (the account is known only after the read).
  '/gateway.v1.PaymentGatewayService/SettleFlowMismatch': rule('reconciliation:write', 'refused', true),
  '/gateway.v1.PaymentGatewayService/ListTransactions': rule('payments:read', 'filter'),
  '/gateway.v1.PaymentGatewayService/GetTransactionStats': rule('payments:read', 'filter'),
  '/gateway.v1.PaymentGatewayService/ListWithdrawals': rule('payouts:read', 'filter'),
  '/gateway.v1.PaymentGatewayService/ListReceivers': rule('receivers:read', 'filter'),
  '/gateway.v1.ProviderAccountService/CreateProviderAccount': rule('accounts:admin', 'refused', true),
  '/gateway.v1.ProviderAccountService/GetProviderAccount': rule('accounts:read', 'request'),
  '/gateway.v1.ProviderAccountService/ListProviderAccounts': rule('accounts:read', 'list'),
  '/gateway.v1.ProviderAccountService/UpdateProviderAccount': rule('accounts:admin', 'request', true),
  '/gateway.v1.ProviderAccountService/DeleteProviderAccount': rule('accounts:admin', 'request', true),
  '/gateway.v1.ProviderAccountService/GetAccountBalance': rule('accounts:read', 'request'),
  // Charges, refunds and payouts added up: read by who may read all three.
  '/gateway.v1.ProviderAccountService/GetAccountStatement': rule('payments:read', 'filter'),
  // Sends the account's secrets to its provider: for whoever may change them.
  '/gateway.v1.ProviderAccountService/TestProviderAccount': rule('accounts:admin', 'request'),
  // Routes name accounts of every kind: a token limited to some accounts neither reads nor changes them.
  '/gateway.v1.RoutingService/CreateRoute': rule('routes:admin', 'refused', true),
  '/gateway.v1.RoutingService/GetRoute': rule('routes:read', 'refused'),
  '/gateway.v1.RoutingService/ListRoutes': rule('routes:read', 'refused'),
  '/gateway.v1.RoutingService/UpdateRoute': rule('routes:admin', 'refused', true),
  '/gateway.v1.RoutingService/DeleteRoute': rule('routes:admin', 'refused', true),
  '/gateway.v1.RoutingService/GetRoutingHealth': rule('routes:read', 'refused'),
  '/gateway.v1.RoutingService/PreviewRoute': rule('routes:read', 'refused'),
  '/gateway.v1.RoutingService/GetRouteOutcomes': rule('routes:read', 'refused'),
  // Disputes are about charges of every account, and an operator's work: a token limited to some accounts has none.
  '/gateway.v1.DisputeService/ListDisputes': rule('disputes:read', 'refused'),
  '/gateway.v1.DisputeService/GetDispute': rule('disputes:read', 'refused'),
  '/gateway.v1.DisputeService/OpenDispute': rule('disputes:write', 'refused', true),
  '/gateway.v1.DisputeService/AddDisputeEvidence': rule('disputes:write', 'refused', true),
  '/gateway.v1.DisputeService/SubmitDisputeDefense': rule('disputes:write', 'refused', true),
  '/gateway.v1.DisputeService/CloseDispute': rule('disputes:write', 'refused', true),
  '/gateway.v1.DisputeService/UpdateDispute': rule('disputes:write', 'refused', true),
  '/gateway.v1.SandboxService/SimulatePayment': rule('sandbox:write', 'refused', true),
  '/gateway.v1.WebhookService/ListWebhookNotifications': rule('notifications:read', 'filter'),
  '/gateway.v1.WebhookService/GetWebhookNotification': rule('notifications:read', 'response'),
  '/gateway.v1.WebhookService/ReprocessWebhookNotification': rule('notifications:write', 'refused', true),
  '/gateway.v1.WebhookService/ListOutboundDeliveries': rule('notifications:read', 'refused'),
  '/gateway.v1.WebhookService/ResendOutboundDelivery': rule('notifications:write', 'refused', true),
  '/gateway.v1.WebhookService/ResendOutboundDeliveries': rule('notifications:write', 'refused', true),
  '/gateway.v1.AccessService/CreateServiceToken': rule('tokens:admin', 'refused', true),
  '/gateway.v1.AccessService/ListServiceTokens': rule('tokens:admin', 'refused'),
  '/gateway.v1.AccessService/RevokeServiceToken': rule('tokens:admin', 'refused', true),
  '/gateway.v1.AccessService/CreateOperator': rule('operators:admin', 'refused', true),
  '/gateway.v1.AccessService/ListOperators': rule('operators:admin', 'refused'),
  '/gateway.v1.AccessService/UpdateOperator': rule('operators:admin', 'refused', true),
  // The four-eyes limit: shown to whoever asks for payouts, changed by an admin of the gateway's configuration.
  '/gateway.v1.AccessService/GetPayoutApprovalSettings': rule('payouts:read', 'none'),
  '/gateway.v1.AccessService/UpdatePayoutApprovalSettings': rule('accounts:admin', 'refused', true),
  '/gateway.v1.AccessService/ListAuditEvents': rule('audit:read', 'refused'),
  '/gateway.v1.AccessService/WhoAmI': enrollment(false),
  // An operator's own password: the session is the permission (services are refused by the use case).
  '/gateway.v1.AccessService/ChangeOwnPassword': rule('authenticated', 'none', true),
  '/gateway.v1.AccessService/BeginTotpEnrollment': enrollment(true),
  '/gateway.v1.AccessService/ConfirmTotpEnrollment': enrollment(true),
  '/gateway.v1.AccessService/DisableTotp': rule('authenticated', 'none', true),
  // A file needs the permission of the call that will name it: a receiver's document, a dispute's evidence, an account's certificate.
  '/gateway.v1.UploadService/CreateUploadLink': {
    ...rule(UPLOAD_PERMISSIONS.RECEIVER_DOCUMENT, 'none'),
    byRequest: {
      field: 'purpose',
      permissions: {
        [UploadPurpose.UPLOAD_PURPOSE_DISPUTE_EVIDENCE]: UPLOAD_PERMISSIONS.DISPUTE_EVIDENCE,
        [UploadPurpose.UPLOAD_PURPOSE_CERTIFICATE]: UPLOAD_PERMISSIONS.CERTIFICATE,
      },
    },
  },
  // A read, but of identity documents (personal data): who opened which is kept in the audit trail.
  '/gateway.v1.UploadService/CreateDocumentReadLink': rule('receivers:read', 'request', true),
};

/** Every permission a call under this rule may need, whatever its request asks. */
export const rulePermissions = (rule: RpcRule): RpcRule['permission'][] => [rule.permission, ...Object.values(rule.byRequest?.permissions ?? {})];

/** The permission a call under this rule needs for this request. */
export function requestPermission(rule: RpcRule, request: Record<string, unknown>): RpcRule['permission'] {
  const value = rule.byRequest && request[rule.byRequest.field];
  return (typeof value === 'number' && rule.byRequest?.permissions[value]) || rule.permission;
}
