import { setUpTestRun } from './test-run.js';

export default async function globalSetup() {
  return setUpTestRun();
}
