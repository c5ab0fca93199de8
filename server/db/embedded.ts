import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmbeddedServerReport, EmbeddedServerRequest } from './embeddedServer.js';

/**
 * The zero-install default: PGlite (PostgreSQL compiled to WebAssembly) keeping its files in the data folder, served
 * on loopback by pglite-socket so the ORM talks to it over the ordinary PostgreSQL wire protocol. Both run in a child
 * process (embeddedServer.ts): the WASM engine is CPU-bound and would otherwise share the gateway's event loop.
 * The socket server takes one connection at a time, hence a pool of one.
 */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/** Compiled (dist/server/db/embedded.js, as `npm start` runs) or the sources (tests, tsx). */
const compiled = import.meta.url.endsWith('.js');
const ENTRY = fileURLToPath(new URL(`./embeddedServer.${compiled ? 'js' : 'ts'}`, import.meta.url));
/**
 * PostgreSQL's WebAssembly runs on V8's baseline compiler only: optimising its large functions in the background
 * (TurboFan) took the process's memory to 700-780 MB at its peak for a moment, against 150-250 MB without, and
 * charges through the embedded database were no slower without it (docs/decisions.md).
 */
const WASM_FLAGS = ['--liftoff-only'];
/**
 * The process's own JavaScript is small (20-35 MB live: the socket server's buffers and PGlite's glue) but churns
 * through short-lived buffers: under load V8's young generation grew to 32 MB. One-megabyte semi-spaces, and V8 on
 * the main thread only (its collections and compilations: this process serves one connection), which lowered its peak
 * further (docs/decisions.md, docs/benchmarks.md).
 */
const EMBEDDED_V8_FLAGS = [...WASM_FLAGS, '--max-semi-space-size=1', '--single-threaded'];
/**
 * The C library's allocator in the database's process: blocks of 128 kB and more (the socket's buffers, the statements'
 * results) are mapped apart and given back when freed, and freed memory at the top of its heap is returned past 128 kB,
 * instead of glibc raising both thresholds as large blocks come and go and keeping what it freed. Its heap grew from 12 to
 * 28 MB under the bench's load and stayed there (docs/benchmarks.md). Settings of its own environment win.
 */
const EMBEDDED_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
const EXEC_ARGV = [...EMBEDDED_V8_FLAGS, ...(compiled ? ['--enable-source-maps'] : ['--import', createRequire(import.meta.url).resolve('tsx')])];
/** The data-folder template scripts/serverBuild.ts prepares in dist/: the sources use the one built beside them. */
export const TEMPLATE_FOLDER = 'embedded-template/pgdata';
const TEMPLATE = fileURLToPath(new URL(`${compiled ? '../..' : '../../dist'}/${TEMPLATE_FOLDER}`, import.meta.url));

/** Where the embedded database keeps its files in the gateway's data folder. */
export const embeddedDataDir = (dataDir: string): string => join(dataDir, 'pgdata');

/**
 * Starts PGlite on `dataDir` in a process of its own. An empty or missing `dataDir` starts as a copy of `template`
 * (the build's by default; null: none) when there is one, else PGlite runs initdb.
 */
export async function startEmbeddedPostgres(dataDir: string, port = 0, template: string | null = TEMPLATE): Promise<EmbeddedPostgres> {
  // Not the gateway's own flags: a test's preloaded modules or jest's have no business in the database's process.
  const child = fork(ENTRY, [dataDir, String(port), template ?? ''], {
    execArgv: EXEC_ARGV,
    env: { ...EMBEDDED_MALLOC_ENV, ...process.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let failure: string | undefined;
    child.once('message', (message: EmbeddedServerReport) => {
      if (message.type === 'listening') resolve(message.url);
      else failure = message.message;
    });
    child.once('error', (error) => reject(new Error(`the embedded PostgreSQL's process did not start: ${error.message}`)));
    // Rejected once the process is gone, so that a failed start leaves nothing running.
    child.once('exit', (code, signal) =>
      reject(
        new Error(
          failure
            ? `the embedded PostgreSQL in ${dataDir} did not start: ${failure}`
            : `the embedded PostgreSQL's process ended before it listened (${signal ?? `exit code ${code}`}); its output is above`,
        ),
      ),
    );
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  child.once('exit', (code, signal) => {
    if (stopping) return;
    // The gateway cannot work without its database: an uncaught exception, which shuts it down for a supervisor
    // to restart (server/lib/processPolicy.ts), as a WASM abort did when PGlite ran inside the gateway.
    throw new Error(`the embedded PostgreSQL's process ended unexpectedly (${signal ?? `exit code ${code}`})`);
  });
  return {
    url,
    async stop() {
      // Already gone: that was reported when it happened.
      if (stopping || !running()) return exited;
      stopping = true;
      const request: EmbeddedServerRequest = { type: 'stop' };
      // A channel already closing fails the send; the child then stops on its own ('disconnect').
      child.send(request, () => {});
      await exited;
      if (child.exitCode !== 0) throw new Error(`the embedded PostgreSQL did not stop cleanly (${child.signalCode ?? `exit code ${child.exitCode}`})`);
    },
  };
}
