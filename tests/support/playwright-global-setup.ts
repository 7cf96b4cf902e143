import { setUpDatabaseServerForRun } from './database-server.js';

export default async function globalSetup() {
  return setUpDatabaseServerForRun();
}
