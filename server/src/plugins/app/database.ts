import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../db/database.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
  }
}

/** Makes the database available as `app.db` and closes it when the app closes. */
export default fp(
  async function database(app: FastifyInstance, options: { database: Database }) {
    app.decorate('db', options.database);
    app.addHook('onClose', async () => {
      await options.database.close();
    });
  },
  { name: 'database' },
);
