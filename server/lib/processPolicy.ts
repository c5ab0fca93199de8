import type { Logger } from './logger.js';

/**
 * What the process does with an error no handler caught (docs/decisions.md):
 *
 * - an unhandled promise rejection is one failed piece of work (a request, a
 *   worker round) whose caller forgot to await it: logged, and the process
 *   carries on serving;
 * - an uncaught exception leaves the process in a state nobody can vouch for:
 *   logged, then the gateway shuts down gracefully (in-flight calls finish,
 *   stored notifications stay stored) and exits 1, so a supervisor restarts
 *   it. It never ends silently and never keeps running broken.
 */
export function installProcessPolicy(
  logger: Logger,
  shutdown: (reason: string) => Promise<void>,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection: logged, the gateway keeps running');
  });
  let failing = false;
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception: shutting down gracefully, exit 1 for the supervisor to restart');
    if (failing) return;
    failing = true;
    // A shutdown that hangs must not keep a broken process alive.
    setTimeout(() => exit(1), 15_000).unref();
    shutdown('uncaughtException').then(
      () => exit(1),
      () => exit(1),
    );
  });
}
