import { setUpDatabaseServerForRun } from './database-server.js';

export default async function setup() {
  return setUpDatabaseServerForRun();
}
