import { useEffect, useState, type FormEvent } from 'react';
import { Code, ConnectError } from '@connectrpc/connect';
import type { ProviderAccount } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import { PaymentMethod, type ProviderInfo } from '../../gen/es/gateway/v1/types_pb.js';
import { createGatewayClients } from './api.js';

const TOKEN_KEY = 'gateway.apiToken';

interface Data {
  providers: ProviderInfo[];
  accounts: ProviderAccount[];
}

export function App() {
  const [token, setToken] = useState(() => localStorage.getItem(TOKEN_KEY) ?? '');
  const [draft, setDraft] = useState(token);
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setData(null);
    setError(null);
    if (!token) return;
    const abort = new AbortController();
    const { gateway, providerAccounts } = createGatewayClients(token);
    const options = { signal: abort.signal };
    Promise.all([gateway.listProviders({}, options), providerAccounts.listProviderAccounts({}, options)])
      .then(([p, a]) => setData({ providers: p.providers, accounts: a.providerAccounts }))
      .catch((err: unknown) => {
        const e = ConnectError.from(err);
        if (!abort.signal.aborted && e.code !== Code.Canceled) setError(e.message);
      });
    return () => abort.abort();
  }, [token]);

  function save(event: FormEvent) {
    event.preventDefault();
    const value = draft.trim();
    if (value) localStorage.setItem(TOKEN_KEY, value);
    else localStorage.removeItem(TOKEN_KEY);
    setToken(value);
  }

  return (
    <main>
      <h1>Payment gateway back-office</h1>

      <form onSubmit={save}>
        <label htmlFor="api-token">API token</label>
        <input id="api-token" type="password" autoComplete="off" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit">Save</button>
      </form>

      {error && <p role="alert">{error}</p>}
      {!token && <p>Enter an API token to load the gateway's providers and accounts.</p>}
      {token && !data && !error && <p>Loading…</p>}

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
        </>
      )}
    </main>
  );
}
