import { theNewsletterOf } from '../../../contract/newsletter-name.js';
import { NEWSLETTER_CONFIRM_DAYS, NEWSLETTER_PATHS } from '../../../contract/newsletters.js';
import type { Mail } from '../mail/mailer.js';
import type { SubscribeOutcome } from './subscribers.js';

/** What a sign-up asks to mail (subscribers.ts): the confirmation link, or a reminder. */
export type SignUpMailKind = NonNullable<
  Extract<SubscribeOutcome, { kind: 'check-inbox' }>['mail']
>;

/**
 * The mail a sign-up sends its address, whoever asked for it (the site's form, the Admin API): a
 * link to confirm (double opt-in), or word that the address is already on the list.
 */
export function signUpMail(
  site: { siteUrl: string; siteName: string },
  email: string,
  mail: SignUpMailKind,
): Mail {
  const { siteUrl, siteName } = site;
  const newsletter = theNewsletterOf(siteName);
  const asked = `Someone (hopefully you) asked for ${newsletter} at this address.\n\n`;
  if (mail.kind === 'already-subscribed') {
    return {
      to: email,
      subject: `You are already on ${newsletter}`,
      text:
        asked +
        `This address is already subscribed: nothing more to do. Every issue has a one-click unsubscribe link at the bottom.\n`,
    };
  }
  return {
    to: email,
    subject: `Confirm your subscription to ${newsletter}`,
    text:
      asked +
      `Open this link and press the button to confirm. It works for ${NEWSLETTER_CONFIRM_DAYS} days:\n\n` +
      `${siteUrl}${NEWSLETTER_PATHS.confirm}#token=${mail.token}\n\n` +
      `If it was not you, ignore this mail: you will get nothing more.\n`,
  };
}
