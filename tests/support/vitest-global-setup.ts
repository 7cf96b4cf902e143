import { setUpTestRun } from './test-run.js';

export default async function setup() {
  return setUpTestRun();
}
