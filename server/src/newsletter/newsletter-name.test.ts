import { describe, expect, it } from 'vitest';
import { TEST_ISSUE, TEST_SITE } from '#test/newsletter-fixtures';
import { theNewsletterOf } from '../../../contract/newsletter-name.js';
import { renderIssue } from './render-issue.js';
import { signUpMail } from './sign-up-mail.js';

// A site named "The Daily Planet" gets "The Daily Planet newsletter", never "the The Daily Planet
// newsletter", in the issue's footer and in the sign-up mails; a site named "Cohort" still gets
// "the Cohort newsletter".

const THE_SITE = { ...TEST_SITE, siteName: 'The Daily Planet' };

describe("the newsletter's name in a sentence", () => {
  it('adds "the" to a name without an article, and none to a name that has one', () => {
    expect(theNewsletterOf('Cohort')).toBe('the Cohort newsletter');
    expect(theNewsletterOf('The Daily Planet')).toBe('The Daily Planet newsletter');
    expect(theNewsletterOf('the verge')).toBe('the verge newsletter');
    // A word that only starts like the article is no article.
    expect(theNewsletterOf('Theatre Weekly')).toBe('the Theatre Weekly newsletter');
    expect(theNewsletterOf('Cohort', true)).toBe('The Cohort newsletter');
    expect(theNewsletterOf('The Daily Planet', true)).toBe('The Daily Planet newsletter');
  });

  it("says it once in an issue's footer, in the HTML and the text", () => {
    const planet = renderIssue(TEST_ISSUE, THE_SITE);
    const cohort = renderIssue(TEST_ISSUE, TEST_SITE);
    for (const part of [planet.html, planet.text]) {
      expect(part).toContain('You get this because you subscribed to The Daily Planet newsletter.');
      expect(part).not.toMatch(/the The/i);
    }
    for (const part of [cohort.html, cohort.text]) {
      expect(part).toContain('You get this because you subscribed to the Cohort newsletter.');
    }
  });

  it('says it once in the confirmation and the "already subscribed" mails', () => {
    const confirm = signUpMail(THE_SITE, 'reader@example.com', { kind: 'confirm', token: 'tok' });
    expect(confirm.subject).toBe('Confirm your subscription to The Daily Planet newsletter');
    expect(confirm.text).toContain('asked for The Daily Planet newsletter at this address');
    const already = signUpMail(THE_SITE, 'reader@example.com', { kind: 'already-subscribed' });
    expect(already.subject).toBe('You are already on The Daily Planet newsletter');
    const cohort = signUpMail(TEST_SITE, 'reader@example.com', { kind: 'already-subscribed' });
    expect(cohort.subject).toBe('You are already on the Cohort newsletter');
    expect(cohort.text).toContain('asked for the Cohort newsletter at this address');
  });
});
