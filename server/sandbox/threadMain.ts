import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../lib/logger.js';
import { SandboxPsp } from './psp.js';
import type { ThreadRequest, ThreadMessage, ThreadData } from './threadMessages.js';

/**
 * The sandbox PSP inside its worker thread (started by SandboxPspThread): its HTTP server, its state and its
 * journal live here, so that drawing QR codes and saving state never take the gateway's event loop.
 */
const port = parentPort!;
const { options, logLevel } = workerData as ThreadData;
const post = (message: ThreadMessage) => port.postMessage(message);

// Its log lines go through the gateway's logger, so they land where the gateway's own do.
const logger = createLogger(
  logLevel,
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      post({ type: 'log', line: chunk.toString('utf8') });
      done();
    },
  }),
);
// As in the gateway's process (lib/processPolicy): a forgotten promise is one failed piece of work, not a dead PSP.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection in the sandbox PSP thread'));

const psp = await new SandboxPsp({ ...options, logger }).start();
port.on('message', (request: ThreadRequest) => {
  if (request.type !== 'stop') return;
  void psp.stop().then(() => {
    post({ type: 'stopped' });
    port.close();
  });
});
post({ type: 'listening', url: psp.url });
