import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../../config.js';

/** The configuration the app serves with: a session secret is there (buildApp checks it). */
export type ServingConfig = AppConfig & { sessionSecret: string };

declare module 'fastify' {
  interface FastifyInstance {
    /** The validated configuration (config.ts), decorated once: each area reads what it needs. */
    config: ServingConfig;
  }
}

export default fp(
  async function config(app: FastifyInstance, options: { config: ServingConfig }) {
    app.decorate('config', options.config);
  },
  { name: 'config' },
);
