import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Code, ConnectError } from '@connectrpc/connect';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { ProviderAccount } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import type { AuditEvent } from '../../gen/es/gateway/v1/access_service_pb.js';
import { PaymentMethod, type ProviderInfo } from '../../gen/es/gateway/v1/types_pb.js';
import { createGatewayClients, currentSession, signIn, signOut, type Session } from './api.js';

interface Data {
  providers: ProviderInfo[];
  accounts: ProviderAccount[];
  /** Absent for roles without audit:read. */
  audit?: AuditEvent[];
}

/** Roles that hold audit:read (server/gateway/access.ts). */
const AUDIT_READERS = new Set(['admin', 'operator']);

export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const signedOut = useCallback(() => setSession(null), []);

  useEffect(() => {
    currentSession().then(setSession, (err: unknown) => setError(String(err)));
  }, []);

  if (session === undefined) return <main>{error ? <p role="alert">{error}</p> : <p>Loading…</p>}</main>;
  if (session === null) return <SignIn onSignedIn={setSession} />;
  return <SignedIn session={session} onSignedOut={signedOut} />;
}

function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    signIn(email, password).then(onSignedIn, (err: unknown) => {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    });
  }

  return (
    <main>
      <h1>Payment gateway back-office</h1>
      <form onSubmit={submit}>
        <label htmlFor="email">E-mail</label>
        <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {error && <p role="alert">{error}</p>}
    </main>
  );
}

function SignedIn({ session, onSignedOut }: { session: Session; onSignedOut: () => void }) {
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    const { gateway, providerAccounts, access } = createGatewayClients(session.csrfToken);
    const options = { signal: abort.signal };
    Promise.all([
      gateway.listProviders({}, options),
      providerAccounts.listProviderAccounts({}, options),
      AUDIT_READERS.has(session.operator.role) ? access.listAuditEvents({ pageSize: 50 }, options) : Promise.resolve(undefined),
    ])
      .then(([p, a, audit]) => setData({ providers: p.providers, accounts: a.providerAccounts, audit: audit?.events }))
      .catch((err: unknown) => {
        const e = ConnectError.from(err);
        if (abort.signal.aborted || e.code === Code.Canceled) return;
        // The session ended (idle, expired, signed out elsewhere): sign in again.
        if (e.code === Code.Unauthenticated) onSignedOut();
        else setError(e.message);
      });
    return () => abort.abort();
  }, [session, onSignedOut]);

  function leave() {
    void signOut(session.csrfToken).finally(onSignedOut);
  }

  return (
    <main>
      <h1>Payment gateway back-office</h1>
      <p>
        Signed in as <span data-testid="operator">{session.operator.email}</span> ({session.operator.role}){' '}
        <button type="button" onClick={leave}>
          Sign out
        </button>
      </p>

      {error && <p role="alert">{error}</p>}
      {!data && !error && <p>Loading…</p>}

      {data && (
        <>
          <h2>Providers</h2>
          <table data-testid="providers-table">
            <thead>
              <tr>
                <th>ID</th>
                <th>Payment methods</th>
                <th>Operations</th>
              </tr>
            </thead>
            <tbody>
              {data.providers.map((p) => (
                <tr key={p.id}>
                  <td>{p.id}</td>
                  <td>{p.paymentMethods.map((m) => PaymentMethod[m] ?? String(m)).join(', ')}</td>
                  <td>{p.operations.length}</td>
                </tr>
              ))}
            </tbody>
          </table>

          <h2>Provider accounts</h2>
          <table data-testid="accounts-table">
            <thead>
              <tr>
                <th>ID</th>
                <th>Provider</th>
                <th>Name</th>
                <th>Secret key</th>
              </tr>
            </thead>
            <tbody>
              {data.accounts.map((a) => (
                <tr key={a.id}>
                  <td>{a.id}</td>
                  <td>{a.provider}</td>
                  <td>{a.name}</td>
                  <td>{a.hasSecretKey ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>

          {data.audit && (
            <>
              <h2>Audit trail</h2>
              <table data-testid="audit-table">
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Who</th>
                    <th>Action</th>
                    <th>Resource</th>
                    <th>From</th>
                    <th>Outcome</th>
                  </tr>
                </thead>
                <tbody>
                  {data.audit.map((event) => (
                    <tr key={event.id}>
                      <td>{event.at ? timestampDate(event.at).toISOString() : ''}</td>
                      <td>{event.actorName}</td>
                      <td>{event.action}</td>
                      <td>{event.resource}</td>
                      <td>{event.source}</td>
                      <td title={event.detail}>{event.outcome}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </>
      )}
    </main>
  );
}
