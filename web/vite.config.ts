import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { ProxyOptions } from 'vite';

type ProxyServer = Parameters<NonNullable<ProxyOptions['configure']>>[0];

// The gateway's Connect HTTP server serves web/dist at its root and answers the
// RPCs at the same origin. `npm run dev` proxies those RPCs to a local gateway.
const gatewayUrl = 'http://127.0.0.1:8080';

export default defineConfig({
  base: './',
  plugins: [react()],
  resolve: {
    // ../gen/es imports these too; resolve them from web/ so the bundle has one copy.
    dedupe: ['@bufbuild/protobuf', '@connectrpc/connect'],
  },
  server: {
    // The payout form imports the gateway's own PIX key rules (a pure module), not a copy.
    fs: { allow: ['.', '../gen/es', '../server/lib/pixKeyRules.ts'] },
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
