import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

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
    fs: { allow: ['.', '../gen/es'] },
    proxy: { '^/gateway\\.v1\\.': { target: gatewayUrl, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
