// The shapes of the site's content live in contract/, where the server reads them too.
export * from '../../../../contract/content-types.js';
