/**
 * `npm run bench`: every benchmark in turn, one after the other (they would
 * measure each other otherwise): the gateway under load (bench/gateway.ts,
 * which writes its section of docs/benchmarks.md), the back-office lists, the
 * SANDBOX PSP, charges through the SANDBOX PSP as `npm start` runs it, the route decision's CPU per charge, the gateway against its bare two-commit baseline. Each reads its own options from the command line and ignores
 * the others'; run one alone with `npx tsx bench/<name>.ts`. `--quick` makes
 * every one short (for development; the gateway section is then not written
 * unless `--write`).
 */
await import('./gateway.js');
await import('./transactionLists.js');
await import('./sandboxPsp.js');
await import('./sandboxCharges.js');
await import('./routeDecision.js');
await import('./baseline.js');
