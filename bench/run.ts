/**
 * `npm run bench`: every benchmark in turn, one after the other (they would
 * measure each other otherwise): the gateway under load (bench/gateway.ts,
 * which writes its section of docs/benchmarks.md), the back-office lists, the
 * SANDBOX PSP, the PIX QR image's encoder against the `qrcode` package, charges
 * through the SANDBOX PSP as `npm start` runs it, the
 * route decision's CPU per charge, the gateway against its bare two-commit
 * baseline, and `npm start` to healthy when nothing changed; then issue 31's
 * figures in one table beside the previous run's (bench/issue31.ts, which
 * writes its section of docs/benchmarks.md and bench/lastRun.json). Each reads
 * its own options from the command line and ignores the others'; run one alone
 * with `npx tsx bench/<name>.ts`. `--quick` makes every one short (for
 * development; the gateway section is then not written unless `--write`, and
 * issue 31's section and bench/lastRun.json not at all).
 */
import { loadavg } from 'node:os';
import { reportIssue31 } from './issue31.js';

const loadBefore = loadavg();
await import('./gateway.js');
await import('./transactionLists.js');
await import('./sandboxPsp.js');
await import('./qrImages.js');
await import('./sandboxCharges.js');
await import('./routeDecision.js');
await import('./baseline.js');
await import('./npmStart.js');
reportIssue31(process.argv.includes('--quick'), loadBefore);
