import type { CSSProperties } from 'react';
import { accentProperties } from '../../../../contract/site-look';
import { DEFAULT_SIGNUP_TEXT } from '../../../../contract/site-settings';
import { SiteLogo } from '../../components/site-logo';
import { paragraphsOf } from '../../lib/plain-text';
import type { IdentitySettings } from './settings-api';

/**
 * The settings not saved yet, as a reader would see them: a small page (the navbar with the logo
 * and the name, an opening, a card in the accent, the newsletter box and the footer) in the
 * chosen colour scheme and fonts, drawn with the site's own variables (styles/theme.css,
 * `[data-look]`). Nothing in it is a link: it is a picture of the site, not a way into it.
 */
export function SettingsPreview({ settings }: { settings: IdentitySettings }) {
  const style = Object.fromEntries(accentProperties(settings.accentColor)) as CSSProperties;
  const footer = paragraphsOf(settings.footerText);
  return (
    <figure className="settings-preview" aria-labelledby="settings-preview-caption">
      <figcaption id="settings-preview-caption" className="settings-preview__caption">
        Preview, before saving
      </figcaption>
      {/* The accent on a box of its own, as <html> carries it, so that the scheme inside it may
          darken the accent's tint (styles/theme.css). */}
      <div className="settings-preview__accent" style={style}>
        <div
          className="settings-preview__page"
          data-look=""
          data-color-scheme={settings.colorScheme}
          data-fonts={settings.fonts}
          data-testid="settings-preview"
        >
          <div className="settings-preview__bar">
            <span className="settings-preview__brand">
              {settings.logo && <SiteLogo src={settings.logo} />}
              <span>{settings.title || 'Your publication'}</span>
            </span>
            <span className="settings-preview__join">Join</span>
          </div>
          <div className="settings-preview__hero">
            <p className="settings-preview__eyebrow">Latest</p>
            <p className="settings-preview__heading">{settings.title || 'Your publication'}</p>
            {settings.description && (
              <p className="settings-preview__lede">{settings.description}</p>
            )}
          </div>
          <div className="settings-preview__body">
            <div className="settings-preview__card">
              <p className="settings-preview__card-eyebrow">An article</p>
              <p className="settings-preview__card-title">How a story looks on your site</p>
              <p className="settings-preview__prose">
                The words of an article, set in the body font, with{' '}
                <span className="settings-preview__link">a link</span> in the text.
              </p>
              <span className="settings-preview__button">Read more</span>
            </div>
            <div className="settings-preview__newsletter">
              <p className="settings-preview__card-title">Get the newsletter</p>
              <p className="settings-preview__signup">
                {settings.signupText.trim() || DEFAULT_SIGNUP_TEXT}
              </p>
            </div>
          </div>
          <div className="settings-preview__footer">
            <p className="settings-preview__footer-brand">{settings.title || 'Your publication'}</p>
            {footer.map((paragraph, at) => (
              <p key={at} className="settings-preview__footer-text">
                {paragraph}
              </p>
            ))}
            {settings.socialLinks.some((link) => link.label.trim()) && (
              <p className="settings-preview__social">
                {settings.socialLinks
                  .filter((link) => link.label.trim())
                  .map((link, at) => (
                    <span key={at}>{link.label}</span>
                  ))}
              </p>
            )}
          </div>
        </div>
      </div>
    </figure>
  );
}
