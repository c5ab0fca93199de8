import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import type { ProxyOptions } from 'vite';
import { precompress } from './precompress.js';
import { describePageSizes, overBudget, PAGE_BUDGET_BYTES, pageSizes, type ChunkFacts } from './pageSizes.js';

type ProxyServer = Parameters<NonNullable<ProxyOptions['configure']>>[0];

// The gateway's Connect HTTP server serves web/dist at its root and answers the
// RPCs at the same origin. `npm run dev` proxies those RPCs to a local gateway.
const gatewayUrl = 'http://127.0.0.1:8080';

/** Prints what each page loads (gzip -9, as a server would send it) and fails the build when a page is over the budget. */
function pageSizeReport(): Plugin {
  let report = '';
  return {
    name: 'page-size-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkFacts>();
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.set(output.fileName, {
          file: output.fileName,
          name: output.name,
          gzipBytes: gzipSync(output.code, { level: 9 }).length,
          isEntry: output.isEntry,
          imports: output.imports,
          dynamicImports: output.dynamicImports,
        });
      }
      const sizes = pageSizes(chunks);
      report = describePageSizes(sizes);
      const over = overBudget(sizes);
      if (over.length)
        this.error(
          `over the budget of ${PAGE_BUDGET_BYTES} bytes of gzipped JavaScript: ${over.map((page) => `${page.page} (${page.totalBytes} in all)`).join(', ')}\n${describePageSizes(sizes)}`,
        );
    },
    // After Vite's own table of chunks, which it prints as the files are written.
    closeBundle() {
      if (report) console.log(`\n${report}\n`);
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [react(), pageSizeReport(), precompress()],
  resolve: {
    // ../gen/es imports these too; resolve them from web/ so the bundle has one copy.
    dedupe: ['@bufbuild/protobuf', '@connectrpc/connect'],
  },
  server: {
    // The app imports the gateway's own PIX key rules and role table from shared/ (pure modules), not copies.
    fs: { allow: ['.', '../gen/es', '../shared'] },
    // The gateway refuses session calls from another origin; behind this proxy the page's origin is Vite's, so the header is dropped.
    proxy: Object.fromEntries(
      ['^/gateway\\.v1\\.', '^/auth/'].map((path) => [
        path,
        { target: gatewayUrl, changeOrigin: true, configure: (proxy: ProxyServer) => proxy.on('proxyReq', (request) => request.removeHeader('origin')) },
      ]),
    ),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
