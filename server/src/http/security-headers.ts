import { EMBED_FRAME_HOSTS } from '../../../contract/embeds.js';

/**
 * The Content-Security-Policy of every page and answer, the same one nginx.conf sends (a test holds
 * the two together). The only third parties are Stripe.js (its script, its iframes for card
 * fields and 3-D Secure, its API) and the players of the providers a post embeds, framed only once
 * the reader asks (contract/embeds.ts). Styles may be inline because the Payment Element sets them.
 */
export const CONTENT_SECURITY_POLICY: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'],
  'frame-src': [
    "'self'",
    'https://js.stripe.com',
    'https://*.js.stripe.com',
    'https://hooks.stripe.com',
    ...EMBED_FRAME_HOSTS.map((host) => `https://${host}`),
  ],
  'connect-src': ["'self'", 'https://api.stripe.com'],
  // Any https image: a post an import left pointing at an image it could not fetch shows it from
  // its old address (with no referrer) until "Try the missing images again" stores it here.
  'img-src': ["'self'", 'data:', 'https:'],
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
