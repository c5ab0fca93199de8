import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../server/db/orm.js';
import { ADMIN_URL, createTestDatabase, onDatabase } from './postgres.js';

/**
 * A busy gateway's past, for the benchmarks and for the browser suites that walk the back-office on it (issue 33:
 * "a gateway seeded with 100,000 charges"): 12 provider accounts of its own at 6 providers, and charges over the last
 * 90 days at those accounts.
 */

/** What the browser suites walk the back-office on (issue 33: "a gateway seeded with 100,000 charges"). */
export const SEEDED_CHARGES = 100_000;

/** For a beforeAll that starts a seeded stack: the first to start one builds the template (about a minute on 2 busy cores). */
export const SEEDING_TIMEOUT_MS = 240_000;

/** The seeded accounts' providers; account `n` is at PROVIDERS[n % 6]. */
const PROVIDERS = ['SANDBOX', 'VOLUTI', 'PAGARME', 'CELCOIN', 'ASAAS', 'SUITPAY'];
const SEEDED_ACCOUNTS = 12;

/** The id of seeded account `n` (0 to 11): fixed, so that a bench can filter by one. */
export const seededAccountId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * The seeded charges' 12 accounts ("Loja 1" to "Loja 12"). `seal` seals their secrets as the gateway does (SecretBox
 * with its SECRETS_KEY), so that it opens them like any account's; `providerBaseUrl` is where they send provider
 * calls: a loopback port nobody answers (closedPort()), so that nothing the gateway asks about a seeded charge (the
 * reconciliation of the pending ones) leaves the machine.
 */
export async function seedAccounts(databaseUrl: string, seal: (secret: string) => string, providerBaseUrl: string): Promise<void> {
  const accounts = Array.from({ length: SEEDED_ACCOUNTS }, (_, n) => n);
  await onDatabase(databaseUrl, (client) =>
    client.query(
      `insert into provider_accounts (id, provider, name, public_key, secret_key_sealed, base_url, created_at, updated_at)
       select id, provider, name, 'pk-seeded', secret, $4, now() - interval '91 days', now() - interval '91 days'
         from unnest($1::uuid[], $2::text[], $3::text[], $5::text[]) as accounts(id, provider, name, secret)`,
      [
        accounts.map(seededAccountId),
        accounts.map((n) => PROVIDERS[n % PROVIDERS.length]!),
        accounts.map((n) => `Loja ${n + 1}`),
        providerBaseUrl,
        accounts.map((n) => seal(`sk-seeded-${n}`)),
      ],
    ),
  );
}

/**
 * `rows` charges over the last 90 days at the seeded accounts (the first ones busier), inserted by one statement
 * (generate_series) into a migrated database, then analysed. The mix is a payments business's: 70 % PIX, 20 % card,
 * 10 % billet; 55 % APPROVED, 25 % PENDING, 10 % REJECTED, 5 % CANCELED, 4 % REFUNDED, 1 % CHARGEBACK. Order ids
 * (`ord-<i>`) and provider ids (`ch_<md5(i)>`) are unique; customers come back (40,000 e-mails), their names drawn
 * from 20 first names and 20 surnames: one charge in 20 is a "Maria …", another a "Mariana …", so "mari" finds one
 * in ten. Card charges carry a brand and last 4, declined ones a reason. All are older than now: charges a suite
 * makes afterwards are the newest. `pendingPolledAt`: when the reconciliation last asked about the pending ones.
 */
export async function seedCharges(databaseUrl: string, rows: number, pendingPolledAt: Date | null = null): Promise<void> {
  await onDatabase(databaseUrl, async (client) => {
    await client.query(
      `insert into transactions (id, provider_account_id, provider, provider_transaction_id, payment_method, status, amount, currency, installments,
                                 pix_code, pix_qr_code, order_id, customer_document, customer_email, customer_name,
                                 card_brand, card_last4, decline_reason, origin, last_polled_at, created_at, updated_at)
       select gen_random_uuid(),
              ('00000000-0000-4000-8000-' || lpad(account::text, 12, '0'))::uuid,
              ($2::text[])[1 + account % 6],
              'ch_' || md5(i::text),
              method, status, 500 + (random() * 499500)::bigint, 'BRL', 1,
              case when method = 'PIX' then '00020126580014br.gov.bcb.pix0136' || md5(i::text) || '5204000053039865802BR' end,
              case when method = 'PIX' then 'data:image/png;base64,' || repeat(md5(i::text), 80) end,
              'ord-' || i,
              lpad((random() * 99999999999)::bigint::text, 11, '0'),
              'customer' || (i % 40000) || '@example.com',
              (array['Maria','José','Ana','João','Francisca','Antônio','Mariana','Carlos','Paulo','Adriana',
                     'Lucas','Juliana','Pedro','Fernanda','Rafael','Patrícia','Bruno','Aline','Diego','Camila'])[1 + i % 20]
                || ' ' || (array['Silva','Santos','Oliveira','Souza','Rodrigues','Ferreira','Alves','Pereira','Lima','Gomes',
                     'Costa','Ribeiro','Martins','Carvalho','Almeida','Lopes','Soares','Fernandes','Vieira','Barbosa'])[1 + (i / 20) % 20],
              case when method = 'CREDIT_CARD' then (array['visa','mastercard','elo'])[1 + i % 3] end,
              case when method = 'CREDIT_CARD' then lpad((i % 10000)::text, 4, '0') end,
              case when status = 'REJECTED' then 'Saldo ou limite insuficiente' end,
              'api', case when status = 'PENDING' then $3::timestamptz end, at, at
         from (select i,
                      least(11, floor(12 * power(random(), 1.6)))::int as account,
                      case when r1 < 0.70 then 'PIX' when r1 < 0.90 then 'CREDIT_CARD' else 'BILLET' end as method,
                      case when r2 < 0.55 then 'APPROVED' when r2 < 0.80 then 'PENDING' when r2 < 0.90 then 'REJECTED'
                           when r2 < 0.95 then 'CANCELED' when r2 < 0.99 then 'REFUNDED' else 'CHARGEBACK' end as status,
                      date_trunc('milliseconds', now() - random() * interval '90 days') as at
                 from (select i, random() as r1, random() as r2 from generate_series(1, $1) as i) as drawn) as charges
        -- Stored in the order they arrived, as a live table is.
        order by at`,
      [rows, PROVIDERS, pendingPolledAt],
    );
    await client.query('analyze transactions');
  });
}

/** What a seeded template is made of: the migrations, the seed's statement, its size and the day (the charges' 90 days end at it). */
function templateName(rows: number): string {
  const hash = createHash('sha256');
  const migrations = fileURLToPath(new URL('../../server/db/migrations/', import.meta.url));
  for (const file of readdirSync(migrations).sort()) hash.update(file).update(readFileSync(join(migrations, file)));
  hash.update(seedCharges.toString());
  hash.update(`${rows} ${new Date().toISOString().slice(0, 10)}`);
  return `gw_seed_${hash.digest('hex').slice(0, 16)}`;
}

/**
 * A fresh database for one suite, migrated and holding `rows` seeded charges (no accounts: seedAccounts, with the
 * suite's gateway's key), dropped afterwards. Seeding 100,000 charges takes about a minute on 2 busy cores, most of
 * it the search's trigram index; so it is done once, into a template database named by what it is made of
 * (templateName, `gw_seed_…`, kept on the server for the next suite and the next run), and each suite gets a copy of
 * it (CREATE DATABASE … TEMPLATE, about a second). Suites in parallel take turns through an advisory lock: the first
 * builds, the others copy.
 */
export async function seededTestDatabase(rows: number, adminUrl = ADMIN_URL): Promise<{ url: string; drop(): Promise<void> }> {
  const template = templateName(rows);
  return onDatabase(adminUrl, async (admin) => {
    await admin.query('select pg_advisory_lock(hashtext($1))', [template]);
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [template]);
      if (!rowCount) {
        // Built under another name and renamed when whole: a build cut short never passes for a template.
        const building = await createTestDatabase(adminUrl, 'gw_seeding');
        const dataDir = mkdtempSync(join(tmpdir(), 'gateway-seed-'));
        try {
          await (await openDatabase({ databaseUrl: building.url, dataDir })).close();
          // The pending charges are not asked about while the template lives (its name has the day, a copy lives a
          // suite): a gateway that kept up with its 25,000 pending charges, rather than one that asks about all of them
          // back to back while the suite runs (a loop that did work goes again at once). Set here, not in each copy:
          // updating 25,000 rows of a copy takes 5 to 15 s.
          await seedCharges(building.url, rows, new Date(Date.now() + 2 * 86_400_000));
          await admin.query(`alter database ${new URL(building.url).pathname.slice(1)} rename to ${template}`);
        } catch (error) {
          await building.drop();
          throw error;
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
      return await createTestDatabase(adminUrl, 'gw_test', template);
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [template]);
    }
  });
}
