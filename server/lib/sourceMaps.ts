import { setSourceMapsSupport } from 'node:module';

/**
 * Stack traces of the gateway's own compiled files mapped back to `server/….ts`, and not those of node_modules.
 *
 * `--enable-source-maps` turns maps on for node_modules too, and Node keeps every map it loads for the life of the
 * process (grpc-js alone ships 168). With only the gateway's own maps, the embedded gateway as `npm start` runs it held
 * 182–184 MB idle against 194–199 MB with the flag, and peaked at 227–229 MB against 229–235 MB under the memory
 * bench's load (docs/decisions.md). A package's trace still names the files it ships.
 *
 * A module loaded before this call has no map, and an ES module's static imports all load before its body runs. So
 * each entry point (server/main.ts, the SANDBOX PSP's thread) imports only this module statically, calls it first,
 * and imports everything else dynamically afterwards (tests/unit/sourceMaps.test.ts).
 */
export function mapOwnStackTraces(): void {
  setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
}
