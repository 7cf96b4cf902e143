/**
 * The Content-Security-Policy of every page and answer, the same one nginx.conf sends (a test holds
 * the two together). The only third party is Stripe.js: its script, its iframes (card fields,
 * 3-D Secure) and its API. Styles may be inline because the Payment Element sets them.
 */
export const CONTENT_SECURITY_POLICY: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'],
  'frame-src': [
    "'self'",
    'https://js.stripe.com',
    'https://*.js.stripe.com',
    'https://hooks.stripe.com',
  ],
  'connect-src': ["'self'", 'https://api.stripe.com'],
  'img-src': ["'self'", 'data:', 'https://*.stripe.com'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  // The desk shows a post's preview in a frame of the site's own: no other site may frame a page.
  'frame-ancestors': ["'self'"],
};

/** Powerful browser features the site never uses, off; Payment Request only for Stripe.js. */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")';
