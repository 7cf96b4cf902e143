import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const serverUrl = process.env.COHORT_SERVER_URL ?? 'http://127.0.0.1:3000';
const serverPaths = ['/api', '/webhooks', '/create-payment-intent', '/healthz', '/readyz'];

export default defineConfig({
  root: fileURLToPath(new URL('./client', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(serverPaths.map((path) => [path, serverUrl])),
  },
});
