import type { SandboxPspOptions } from './psp.js';

/** What the sandbox PSP's thread is started with: the PSP's options less what cannot cross a thread (its logger). */
export interface ThreadData {
  options: Omit<SandboxPspOptions, 'logger'>;
  logLevel: string;
}

/** From the gateway to the thread. */
export type ThreadRequest = { type: 'stop' };

/** From the thread to the gateway: a log line is one of pino's JSON lines. */
export type ThreadMessage = { type: 'listening'; url: string } | { type: 'stopped' } | { type: 'log'; line: string };
