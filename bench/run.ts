/**
 * `npm run bench`: every benchmark in turn, one after the other (they would
 * measure each other otherwise). Each reads its own options from the command
 * line and ignores the others'; run one alone with `npx tsx bench/<name>.ts`.
 */
await import('./webhookIntake.js');
await import('./transactionLists.js');
await import('./sandboxPsp.js');
