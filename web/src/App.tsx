import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { HashRouter, NavLink as RouterLink, Navigate, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TransportProvider } from '@connectrpc/connect-query';
import { Alert, Burger, Button, Group, Loader, NavLink, PasswordInput, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { TotpCodeInput } from './totpCodeInput.js';
import { createGatewayTransport, currentSession, signIn, SignInError, signOut, type Session } from './api.js';
import { useI18n, type Language } from './i18n.js';
import { LiveEvents } from './live.js';
import { reasonText } from './errorText.js';
import { EventSubject } from '../../gen/es/gateway/v1/types_pb.js';
import { isRole, ROLE_PERMISSIONS, UPLOAD_PERMISSIONS, type Permission } from '../../shared/permissions.js';

const Dashboard = lazy(() => import('./pages/Dashboard.js'));
const Transactions = lazy(() => import('./pages/Transactions.js'));
const TransactionDetail = lazy(() => import('./pages/TransactionDetail.js'));
const NewCharge = lazy(() => import('./pages/NewCharge.js'));
const Payouts = lazy(() => import('./pages/Payouts.js'));
const Receivers = lazy(() => import('./pages/Receivers.js'));
const ReceiverDetail = lazy(() => import('./pages/ReceiverDetail.js'));
const NewReceiver = lazy(() => import('./pages/NewReceiver.js'));
const PayoutDetail = lazy(() => import('./pages/PayoutDetail.js'));
const NewPayout = lazy(() => import('./pages/NewPayout.js'));
const Providers = lazy(() => import('./pages/Providers.js'));
const Balances = lazy(() => import('./pages/Balances.js'));
const ProviderAccounts = lazy(() => import('./pages/ProviderAccounts.js'));
const Audit = lazy(() => import('./pages/Audit.js'));
const Team = lazy(() => import('./pages/Team.js'));
const ServiceTokens = lazy(() => import('./pages/ServiceTokens.js'));
const MyAccount = lazy(() => import('./pages/MyAccount.js'));
const RoutesPage = lazy(() => import('./pages/Routes.js'));
const Operations = lazy(() => import('./pages/Operations.js'));
const Disputes = lazy(() => import('./pages/Disputes.js'));
const DisputeDetail = lazy(() => import('./pages/DisputeDetail.js'));

/** Whether the operator's role holds a permission, by the gateway's own table (shared/permissions.ts), not a copy. */
const holds = (role: string, permission: Permission) => isRole(role) && ROLE_PERMISSIONS[role].includes(permission);

export function App() {
  const { t } = useI18n();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  /** Set when the operator changed their password, which ended the session: the sign-in form says so. */
  const [passwordChanged, setPasswordChanged] = useState(false);
  const signedOut = useCallback(() => setSession(null), []);
  const changedPassword = useCallback(() => {
    setPasswordChanged(true);
    setSession(null);
  }, []);

  useEffect(() => {
    currentSession().then(setSession, (err: unknown) => setError(String(err)));
  }, []);
  /** Two-step verification turned on or off: the session says again whether it is still required. */
  const refreshSession = useCallback(() => {
    currentSession().then(
      (fresh) => fresh && setSession(fresh),
      () => undefined,
    );
  }, []);

  if (session === undefined)
    return (
      <main className="centered">
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : (
          <Loader role="status" aria-label={t.loading} />
        )}
      </main>
    );
  if (session === null)
    return (
      <SignIn
        passwordChanged={passwordChanged}
        onSignedIn={(signedIn) => {
          setPasswordChanged(false);
          setSession(signedIn);
        }}
      />
    );
  return <SignedIn key={session.csrfToken} session={session} onSignedOut={signedOut} onPasswordChanged={changedPassword} onTotpChanged={refreshSession} />;
}

function LanguageSwitch() {
  const { t, language, setLanguage } = useI18n();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t.language}
      value={language}
      onChange={(value) => setLanguage(value as Language)}
      data={[
        { value: 'pt', label: 'PT' },
        { value: 'en', label: 'EN' },
      ]}
    />
  );
}

function SignIn({ onSignedIn, passwordChanged }: { onSignedIn: (session: Session) => void; passwordChanged: boolean }) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  /** Undefined until the gateway asks for a code (the password matched an operator with two-step verification). */
  const [code, setCode] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    signIn(email, password, code).then(onSignedIn, (err: unknown) => {
      const refusal = err instanceof SignInError ? err : undefined;
      if (refusal?.reason === 'TOTP_REQUIRED') setCode('');
      setError(reasonText(refusal?.reason, refusal?.metadata ?? {}, t.errorReasons) ?? (err instanceof Error ? err.message : String(err)));
      setBusy(false);
    });
  }

  return (
    <main className="sign-in">
      <Group justify="space-between" mb="md">
        <Title order={1} size="h3">
          {t.appTitle}
        </Title>
        <LanguageSwitch />
      </Group>
      <form onSubmit={submit}>
        <Stack>
          {passwordChanged && (
            <Alert color="green" role="status">
              {t.account.changed}
            </Alert>
          )}
          <TextInput label={t.email} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput label={t.password} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          {code !== undefined && <TotpCodeInput value={code} onChange={setCode} autoFocus />}
          <Button type="submit" loading={busy}>
            {t.signIn}
          </Button>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </form>
    </main>
  );
}

function SignedIn({
  session,
  onSignedOut,
  onPasswordChanged,
  onTotpChanged,
}: {
  session: Session;
  onSignedOut: () => void;
  onPasswordChanged: () => void;
  onTotpChanged: () => void;
}) {
  const { t } = useI18n();
  const [navOpen, setNavOpen] = useState(false);
  const transport = useMemo(() => createGatewayTransport(session.csrfToken, onSignedOut), [session, onSignedOut]);
  const queryClient = useMemo(
    () =>
      new QueryClient({
        defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
      }),
    [],
  );
  const { role } = session.operator;
  const auditReader = holds(role, 'audit:read');
  // ListOperators, CreateOperator, UpdateOperator
  const teamAdmin = holds(role, 'operators:admin');
  // CreateServiceToken, ListServiceTokens, RevokeServiceToken
  const tokenAdmin = holds(role, 'tokens:admin');
  // CreateReceiver, and CreateUploadLink for a receiver's documents (UPLOAD_PERMISSIONS)
  const receiverWriter = holds(role, 'receivers:write');
  // CreateTransaction, CreateCardToken, CreateCardId
  const chargeWriter = holds(role, 'payments:write');
  const payoutWriter = holds(role, 'payouts:write');
  const refundWriter = holds(role, 'refunds:write');
  // ReprocessWebhookNotification, ResendOutboundDelivery, ResendOutboundDeliveries
  const notificationWriter = holds(role, 'notifications:write');
  // SettleUnconfirmedRequest, SettleFlowMismatch
  const settler = holds(role, 'reconciliation:write');
  // ListRoutes, PreviewRoute, GetRouteOutcomes; CreateRoute, UpdateRoute, DeleteRoute with routes:admin
  const routeReader = holds(role, 'routes:read');
  // Create/Update/Delete/TestProviderAccount, and CreateUploadLink for the account form's certificate files (UPLOAD_PERMISSIONS)
  const accountAdmin = holds(role, 'accounts:admin');
  const routeAdmin = holds(role, 'routes:admin');
  // ListDisputes, GetDispute; OpenDispute, UpdateDispute, AddDisputeEvidence, SubmitDisputeDefense, CloseDispute with disputes:write
  const disputeReader = holds(role, 'disputes:read');
  const disputeWriter = holds(role, 'disputes:write');
  // CreateUploadLink for a dispute's evidence (UPLOAD_PERMISSIONS)
  const evidenceUploader = holds(role, UPLOAD_PERMISSIONS.DISPUTE_EVIDENCE);
  // Charges and payouts come with events:read; receivers' and accounts' events need their reads too.
  const liveSubjects = [
    EventSubject.TRANSACTION,
    EventSubject.WITHDRAWAL,
    ...(holds(role, 'receivers:read') ? [EventSubject.RECEIVER] : []),
    ...(holds(role, 'accounts:read') ? [EventSubject.PROVIDER_ACCOUNT] : []),
  ];

  function leave() {
    void signOut(session.csrfToken).finally(onSignedOut);
  }

  const links = [
    { to: '/', label: t.nav.dashboard },
    { to: '/transactions', label: t.nav.transactions },
    { to: '/payouts', label: t.nav.payouts },
    { to: '/receivers', label: t.nav.receivers },
    { to: '/accounts', label: t.nav.accounts },
    { to: '/providers', label: t.nav.providers },
    { to: '/balances', label: t.nav.balances },
    { to: '/operations', label: t.nav.operations },
    ...(disputeReader ? [{ to: '/disputes', label: t.nav.disputes }] : []),
    ...(routeReader ? [{ to: '/routes', label: t.nav.routes }] : []),
    ...(auditReader ? [{ to: '/audit', label: t.nav.audit }] : []),
    ...(teamAdmin ? [{ to: '/team', label: t.nav.team }] : []),
    ...(tokenAdmin ? [{ to: '/tokens', label: t.nav.tokens }] : []),
    { to: '/account', label: t.nav.account },
  ];

  return (
    <TransportProvider transport={transport}>
      <QueryClientProvider client={queryClient}>
        <LiveEvents subjects={liveSubjects}>
          <HashRouter>
            <div className="shell">
              <header className="shell-header">
                <Group gap="sm" wrap="nowrap">
                  <Burger
                    className="shell-burger"
                    opened={navOpen}
                    onClick={() => setNavOpen((open) => !open)}
                    aria-label={t.menu}
                    aria-expanded={navOpen}
                    size="sm"
                  />
                  <Text fw={700} className="shell-title">
                    {t.appTitle}
                  </Text>
                </Group>
                <Group gap="sm" wrap="wrap" justify="flex-end">
                  <LanguageSwitch />
                  <Text size="sm" className="shell-operator">
                    {t.signedInAs} <span data-testid="operator">{session.operator.email}</span> ({session.operator.role})
                  </Text>
                  <Button size="xs" variant="default" onClick={leave}>
                    {t.signOut}
                  </Button>
                </Group>
              </header>
              <nav className="shell-nav" data-open={navOpen} aria-label={t.navigation}>
                {links.map((link) => (
                  <NavLink key={link.to} component={RouterLink} to={link.to} end={link.to === '/'} label={link.label} onClick={() => setNavOpen(false)} />
                ))}
              </nav>
              <main className="shell-main">
                {session.totpEnrollmentRequired && (
                  <Alert color="yellow" role="status" mb="md">
                    {t.totp.required}
                  </Alert>
                )}
                <Suspense fallback={<Loader role="status" aria-label={t.loading} />}>
                  <Routes>
                    <Route path="/" element={<Dashboard />} />
                    <Route path="/transactions" element={<Transactions canCreate={chargeWriter} />} />
                    {/* Routed for every role, so that "new" is never read as a charge's id. */}
                    <Route path="/transactions/new" element={chargeWriter ? <NewCharge /> : <Navigate to="/transactions" replace />} />
                    <Route
                      path="/transactions/:id"
                      element={
                        <TransactionDetail
                          canRefund={refundWriter}
                          canReprocess={notificationWriter}
                          canReadDisputes={disputeReader}
                          canOpenDispute={disputeWriter}
                        />
                      }
                    />
                    <Route path="/payouts" element={<Payouts canCreate={payoutWriter} canAdmin={accountAdmin} />} />
                    <Route path="/receivers" element={<Receivers canCreate={receiverWriter} />} />
                    {receiverWriter && <Route path="/receivers/new" element={<NewReceiver />} />}
                    <Route path="/receivers/:id" element={<ReceiverDetail />} />
                    <Route path="/payouts/new" element={payoutWriter ? <NewPayout /> : <Navigate to="/payouts" replace />} />
                    <Route path="/payouts/:id" element={<PayoutDetail canReview={payoutWriter} operatorId={session.operator.id} />} />
                    <Route path="/accounts" element={<ProviderAccounts canAdmin={accountAdmin} />} />
                    <Route path="/providers" element={<Providers />} />
                    <Route path="/balances" element={<Balances />} />
                    <Route path="/operations" element={<Operations canWriteNotifications={notificationWriter} canSettle={settler} />} />
                    {disputeReader && <Route path="/disputes" element={<Disputes />} />}
                    {disputeReader && <Route path="/disputes/:id" element={<DisputeDetail canWrite={disputeWriter} canUpload={evidenceUploader} />} />}
                    {routeReader && <Route path="/routes" element={<RoutesPage canAdmin={routeAdmin} />} />}
                    {auditReader && <Route path="/audit" element={<Audit />} />}
                    {teamAdmin && <Route path="/team" element={<Team selfId={session.operator.id} />} />}
                    {tokenAdmin && <Route path="/tokens" element={<ServiceTokens />} />}
                    <Route
                      path="/account"
                      element={
                        <MyAccount
                          email={session.operator.email}
                          role={session.operator.role}
                          totpEnabled={session.operator.totpEnabled === true}
                          onChanged={onPasswordChanged}
                          onTotpChanged={onTotpChanged}
                        />
                      }
                    />
                    <Route path="*" element={<Navigate to="/" replace />} />
                  </Routes>
                </Suspense>
              </main>
            </div>
          </HashRouter>
        </LiveEvents>
      </QueryClientProvider>
    </TransportProvider>
  );
}
