import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isValidEmail, normalizeEmail } from '../../../../contract/account-rules.js';
import { ErrorResponseSchema, UserResponseSchema } from '../../../../contract/api.js';
import { cleanLine, cleanProse } from '../../../../contract/text-hygiene.js';
import {
  GIFT_SEND_AHEAD_DAYS,
  GiftBodySchema,
  GiftPaymentSchema,
  GiftPreviewSchema,
  GiftTokenBodySchema,
} from '../../../../contract/gifts.js';
import { withTransaction } from '../../db/transaction.js';
import { previewGift } from '../../gifts/gifts.js';
import { givenTier } from '../../gifts/given-tier.js';
import { HttpError } from '../../http/errors.js';
import { accountOf, sessionOf } from '../../plugins/app/route-access.js';
import { hashLinkToken } from '../../mail/link-tokens.js';
import { claimGift } from '../../gifts/gift-ledger.js';
import { createGiftPayment } from '../../stripe/membership-checkout.js';
import { findSessionUser, toUser } from '../../users/users.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  410: ErrorResponseSchema,
  502: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

const DAY_MS = 24 * 3600 * 1000;
/** A send date this far in the past is a mistake, not a clock's drift: refused. */
const PAST_TOLERANCE_MS = 10 * 60 * 1000;

/** The giver's name or message as the site's text rule cleans it; null when nothing is left. */
function cleanText(value: string | undefined, kind: 'name' | 'message'): string | null {
  const text = kind === 'name' ? cleanLine(value ?? '') : cleanProse(value ?? '');
  return text === '' ? null : text;
}

function requireEmail(value: string, field: string): string {
  const email = normalizeEmail(value);
  if (!isValidEmail(email)) {
    throw new HttpError(400, 'invalid_email', `The ${field} is not a valid email address.`);
  }
  return email;
}

/** When the recipient is mailed: null for now (no date, or a date that is now). */
function sendDate(value: string | undefined, now: number): Date | null {
  if (!value) return null;
  const at = new Date(value).getTime();
  if (at < now - PAST_TOLERANCE_MS) {
    throw new HttpError(400, 'invalid_send_date', 'The send date is in the past.');
  }
  if (at > now + GIFT_SEND_AHEAD_DAYS * DAY_MS) {
    throw new HttpError(
      400,
      'invalid_send_date',
      `A gift can be sent at most ${GIFT_SEND_AHEAD_DAYS} days ahead.`,
    );
  }
  return at <= now ? null : new Date(at);
}

/**
 * Gifts (docs/payments.md#gifts): anyone buys a year of a tier for someone else's address; once
 * paid (the webhook), the recipient is mailed a claim link at the send date, and claims it signed
 * in.
 */
const giftRoutes: FastifyPluginAsyncTypebox<{ graceDays: number }> = async (app, { graceDays }) => {
  app.post(
    '/api/gifts',
    {
      schema: { body: GiftBodySchema, response: { 200: GiftPaymentSchema, ...errors } },
      config: { access: 'session', changesState: true, needsPayments: true },
    },
    async (request) => {
      const payments = app.requirePayments();
      const session = sessionOf(request);
      const body = request.body;
      const recipientEmail = requireEmail(body.recipientEmail, 'recipient’s address');
      const buyerEmail =
        session.user?.email ??
        (body.buyerEmail ? requireEmail(body.buyerEmail, 'your address') : null);
      // A gift is a year of its tier, at that tier's year paid once now.
      const given = givenTier(await app.plans.catalog(), body.tier, 'given');
      const gift = {
        buyerUserId: session.userId,
        buyerEmail,
        recipientEmail,
        fromName: cleanText(body.fromName, 'name'),
        message: cleanText(body.message, 'message'),
        sendAt: sendDate(body.sendAt, Date.now()),
        tierId: given.tier.id,
      };
      const price = { priceCents: given.yearCents, currency: given.currency };
      const { clientSecret, giftId } = await createGiftPayment(payments, {
        gift,
        // The publication's name now: the desk may have renamed it since start-up.
        siteName: app.siteContent.current().settings.title,
        price,
      });
      return {
        clientSecret,
        giftId,
        amountCents: price.priceCents,
        currency: price.currency,
        tier: given.tier.slug,
      };
    },
  );

  /** What the claim page shows before its button: who gave it, their message, whether claimed. */
  app.post(
    '/api/gifts/preview',
    {
      schema: { body: GiftTokenBodySchema, response: { 200: GiftPreviewSchema, ...errors } },
      config: { access: 'session', changesState: false },
    },
    async (request) => {
      const session = sessionOf(request);
      const preview = await previewGift(app.db.pool, request.body.token, session.userId);
      if (!preview) throw giftNotFound();
      if (typeof preview === 'string') throw claimRefused(preview);
      return preview;
    },
  );

  app.post(
    '/api/gifts/claim',
    {
      schema: { body: GiftTokenBodySchema, response: { 200: UserResponseSchema, ...errors } },
      config: {
        access: 'signed-in',
        changesState: true,
        refusal: {
          status: 401,
          code: 'sign_in_required',
          message:
            'Sign in, or create an account, to claim your gift: the year is kept on your account.',
        },
      },
    },
    async (request) => {
      const session = accountOf(request);
      const result = await withTransaction(app.db.pool, (tx) =>
        claimGift(
          tx,
          {
            tokenHash: hashLinkToken(request.body.token),
            userId: session.userId,
            now: new Date(),
          },
          { graceDays },
        ),
      );
      if (result.claimed) app.giving.deliverSoon();
      else if (!result.byYou) throw claimRefused(result.why);
      return { user: toUser(session.userId, await findSessionUser(app, session.userId)) };
    },
  );
};

const giftNotFound = () =>
  new HttpError(
    404,
    'gift_not_found',
    'This gift link is not valid: check that it is the whole link from the newest mail.',
  );

function claimRefused(why: 'unknown' | 'taken' | 'refunded' | 'disputed'): HttpError {
  switch (why) {
    case 'taken':
      return new HttpError(409, 'gift_claimed', 'This gift was claimed already.');
    case 'refunded':
      return new HttpError(
        410,
        'gift_refunded',
        'This gift was refunded to the person who bought it, so it can no longer be claimed.',
      );
    case 'disputed':
      return new HttpError(
        409,
        'gift_unavailable',
        'This gift’s payment is being checked: try again in a few days.',
      );
    default:
      return giftNotFound();
  }
}

export default giftRoutes;
