// `npm run dev`: the API server restarting on change (tsx watch) and Vite's dev server with hot
// reload, which proxies API paths to it. Open http://localhost:5173.
import './require-node.mjs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadDotEnv } from './load-env.mjs';

loadDotEnv(fileURLToPath(new URL('..', import.meta.url)));

const children = [
  spawn('npx', ['--no-install', 'tsx', 'watch', '--clear-screen=false', 'server/src/server.ts'], {
    stdio: 'inherit',
    env: { ...process.env, SITE_URL: process.env.SITE_URL ?? 'http://localhost:5173' },
  }),
  spawn('npx', ['--no-install', 'vite'], { stdio: 'inherit' }),
];

function stop(signal) {
  for (const child of children) child.kill(signal);
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children) {
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exitCode = code ?? 0;
  });
}
