import { enableCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The entry point (`npm start` runs its compiled dist/server/main.js). Loading the gateway's modules is most of a
 * start; Node's compile cache keeps the code V8 compiled from them in dist/.compile-cache (a build empties dist/),
 * so that a restart compiles only what changed. It must be on before those modules load, so they are loaded here,
 * after it, from run.ts. Under tsx (the sources) there is nothing to keep. A folder that cannot be written leaves the
 * cache off: Node reports it and the start goes on.
 */
if (import.meta.url.endsWith('.js')) enableCompileCache(fileURLToPath(new URL('../.compile-cache', import.meta.url)));
await import('./run.js');
