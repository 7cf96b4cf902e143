// Every route's path lives in contract/, where the server reads it too.
export * from '../../../contract/site-paths.js';
