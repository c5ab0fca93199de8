import { setSourceMapsSupport } from 'node:module';

/**
 * Preloaded by every start script (`node --import ./dist/server/sourceMaps.js …`): stack traces of the gateway's own
 * compiled files mapped back to `server/….ts`, and not those of node_modules.
 *
 * `--enable-source-maps` turns maps on for node_modules too, and Node keeps every map it loads for the life of the
 * process (grpc-js alone ships 168). With only the gateway's own maps, the embedded gateway as `npm start` runs it held
 * 182–184 MB idle against 194–199 MB with the flag, and peaked at 227–229 MB against 229–235 MB under the memory
 * bench's load (docs/decisions.md). A package's trace still names the files it ships.
 *
 * A preload, because a module loaded before the switch has no map, the entry point included; worker threads (the
 * SANDBOX PSP's) run it too, and their switch is their own (tests/unit/sourceMaps.test.ts).
 */
setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
