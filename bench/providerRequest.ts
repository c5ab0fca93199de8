/**
 * The CPU one provider call costs the gateway's process (issue 31): a PIX charge's POST through the toolkit's
 * ProviderHttp (axios, its interceptors, the circuit, the span) beside the same exchange on bare node:http (a
 * keep-alive agent, JSON both ways), the floor a leaner client could reach. The provider answers from a process of
 * its own, so the CPU read (process.cpuUsage) is the client's alone. 8 calls in flight; ROUNDS interleaved rounds of
 * PROVIDER_REQUEST_CALLS calls per row (7 of 4,000); the median of the rounds.
 *
 * `npx tsx bench/providerRequest.ts`. To read a change to the toolkit, run it in turns in this tree and in a worktree
 * of the code before it (several runs each), and compare each run's ratio of its two rows: the bare row carries the
 * machine's state. Two versions of the toolkit in one process do not compare: they share axios, whose functions
 * then see both versions' objects (two copies of one toolkit read 15 % apart that way).
 */
import { fork } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import { median } from './gateway/load.js';
import { createProviderHttp } from '../server/lib/http/providerHttp.js';

const ANSWER = JSON.stringify({ id: 'tx_1', status: 'waiting_payment', amount: 1990, pix: { qrcode: '00020101021226880014br.gov.bcb.pix' } });
const BODY = {
  amount: 1990,
  paymentMethod: 'pix',
  customer: { name: 'Ana Souza', email: 'ana@example.com', document: { number: '12345678909', type: 'cpf' } },
  items: [{ title: 'Pedido 1', unitPrice: 1990, quantity: 1, tangible: false }],
  postbackUrl: 'https://gateway.example/webhooks/acme',
};

if (process.argv[2] === '--provider') {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ANSWER);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as { port: number }).port));
} else {
  const CALLS = Number(process.env.PROVIDER_REQUEST_CALLS ?? 4000);
  const ROUNDS = 7;
  const IN_FLIGHT = 8;
  const provider = fork(new URL(import.meta.url).pathname, ['--provider'], { execArgv: ['--import', 'tsx'] });
  const port = await new Promise<number>((done) => provider.once('message', (message) => done(message as number)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const ctx = { accountId: 'bench', publicKey: 'pk_bench', secretKey: 'sk_bench', baseUrl };

  const agent = new Agent({ keepAlive: true });
  const bare = () =>
    new Promise<unknown>((done, fail) => {
      const body = JSON.stringify(BODY);
      const headers = {
        accept: 'application/json',
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        authorization: 'Basic c2tfYmVuY2g6',
      };
      const call = request({ host: '127.0.0.1', port, path: '/transactions', method: 'POST', agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      });
      call.on('error', fail);
      call.end(body);
    });
  const http = createProviderHttp({ ctx, provider: 'bench', auth: { type: 'basic', username: 'secretKey', password: 'empty' } });
  const rows: { name: string; call: () => Promise<unknown>; microseconds: number[] }[] = [
    { name: 'bare node:http', call: bare, microseconds: [] },
    { name: 'ProviderHttp', call: () => http.post('/transactions', BODY, { errorPrefix: 'Erro ao criar transação' }), microseconds: [] },
  ];
  const batch = async (call: () => Promise<unknown>) => {
    for (let sent = 0; sent < CALLS; sent += IN_FLIGHT) await Promise.all(Array.from({ length: IN_FLIGHT }, call));
  };
  // Warm-up: the first rounds run before the JIT has optimised the paths (they read a third higher).
  for (const row of rows) for (let warm = 0; warm < 3; warm += 1) await batch(row.call);
  for (let round = 0; round < ROUNDS; round += 1)
    for (const row of round % 2 === 0 ? rows : [...rows].reverse()) {
      const before = process.cpuUsage();
      await batch(row.call);
      const used = process.cpuUsage(before);
      row.microseconds.push((used.user + used.system) / CALLS);
    }
  console.log(`The client's CPU per provider call, µs (${ROUNDS} interleaved rounds of ${CALLS} calls, ${IN_FLIGHT} in flight):`);
  for (const row of rows)
    console.log(`  ${row.name}: median ${median(row.microseconds).toFixed(1)} (${row.microseconds.map((us) => us.toFixed(1)).join(', ')})`);
  const [floor, toolkit] = rows.map((row) => median(row.microseconds)) as [number, number];
  console.log(`  ProviderHttp / bare: ${(toolkit / floor).toFixed(2)}; ${(toolkit - floor).toFixed(1)} µs a call above the floor`);
  provider.kill();
  agent.destroy();
  // The toolkit's keep-alive agents hold their sockets open.
  process.exit(0);
}
