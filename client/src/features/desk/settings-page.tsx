import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  COLOR_SCHEMES,
  FONT_PAIRINGS,
  SETTINGS_LIMITS,
  type ColorScheme,
  type SiteSettings,
  type SocialLink,
} from '../../../../contract/site-settings';
import { keepSiteSettings } from '../../lib/settings-store';
import { ImageUploadButton } from './image-upload-button';
import { OutcomeLines, type Outcome } from './outcome';
import { fieldProblems, fetchSettings, saveSettings, type IdentitySettings } from './settings-api';
import settingsCss from './settings-page.css?inline';
import { SettingsPreview } from './settings-preview';
import { describeError, useDeskData } from './use-desk-data';

/** Language tags offered as the language is typed (any other BCP 47 tag is taken too). */
const LANGUAGES = [
  ['en', 'English'],
  ['en-GB', 'English (UK)'],
  ['en-US', 'English (US)'],
  ['es', 'Spanish'],
  ['fr', 'French'],
  ['de', 'German'],
  ['it', 'Italian'],
  ['nl', 'Dutch'],
  ['pt', 'Portuguese'],
  ['pt-BR', 'Portuguese (Brazil)'],
  ['sv', 'Swedish'],
  ['da', 'Danish'],
  ['nb', 'Norwegian'],
  ['fi', 'Finnish'],
  ['pl', 'Polish'],
  ['cs', 'Czech'],
  ['tr', 'Turkish'],
  ['el', 'Greek'],
  ['ru', 'Russian'],
  ['uk', 'Ukrainian'],
  ['ar', 'Arabic'],
  ['he', 'Hebrew'],
  ['hi', 'Hindi'],
  ['ja', 'Japanese'],
  ['ko', 'Korean'],
  ['zh-Hans', 'Chinese (Simplified)'],
  ['zh-Hant', 'Chinese (Traditional)'],
] as const;

const SCHEMES: Record<ColorScheme, { name: string; about: string }> = {
  light: { name: 'Light', about: 'Dark text on a light page.' },
  dark: { name: 'Dark', about: 'Light text on a dark page.' },
  auto: { name: 'The reader’s own', about: 'Light or dark, as each reader’s system is set.' },
};

/** The settings written as text, each within its limit. */
type LimitedText = 'title' | 'description' | 'footerText' | 'signupText' | 'customCss';

/** The time zones this browser knows, with the one saved even if it knows it by another name. */
function timeZones(saved: string): string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes(saved) ? known : [saved, ...known];
}

/** Everything but the home page (the Home page's), as the form holds it. */
function identityOf(settings: SiteSettings): IdentitySettings {
  const identity: Partial<SiteSettings> = { ...settings };
  delete identity.home;
  return identity as IdentitySettings;
}

/**
 * /desk/settings (owners): the publication's name, words and look (contract/site-settings.ts),
 * with a preview of the settings not saved yet beside the form (below it on a phone). Saved, they
 * are on every page, feed and mail at once.
 */
export function SettingsPage() {
  const [loaded] = useDeskData('settings', (signal) => fetchSettings(signal));
  return (
    <section aria-labelledby="settings-title" className="desk-settings">
      <style>{settingsCss}</style>
      <h1 id="settings-title">Settings</h1>
      <p className="desk__lede">
        Your publication’s name, words and look. The preview shows your changes before you save;
        saved, they are on every page, feed and mail at once.
      </p>
      {loaded.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {loaded.state === 'error' && <p role="alert">{describeError(loaded.error)}</p>}
      {loaded.state === 'ready' && <SettingsForm saved={identityOf(loaded.data)} />}
    </section>
  );
}

function SettingsForm({ saved }: { saved: IdentitySettings }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState(saved);
  const [problems, setProblems] = useState<Map<string, string>>(new Map());
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const [zones] = useState(() => timeZones(saved.timezone));

  const change = (patch: Partial<IdentitySettings>) => setDraft((was) => ({ ...was, ...patch }));
  const field = (name: string) => ({
    id: `${id}-${name}`,
    problem: problems.get(name),
  });
  /** A text setting's field, at its length limit. */
  const textField = (name: LimitedText) => ({
    ...field(name),
    value: draft[name],
    maxLength: SETTINGS_LIMITS[name],
    onChange: (value: string) => change({ [name]: value }),
  });
  const changeLink = (at: number, patch: Partial<SocialLink>) =>
    change({
      socialLinks: draft.socialLinks.map((link, index) =>
        index === at ? { ...link, ...patch } : link,
      ),
    });
  const moveLink = (at: number, by: -1 | 1) => {
    const links = [...draft.socialLinks];
    const [link] = links.splice(at, 1);
    if (link) links.splice(at + by, 0, link);
    change({ socialLinks: links });
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const settings = await saveSettings(draft);
      setDraft(identityOf(settings));
      setProblems(new Map());
      setOutcome({ ok: true, text: 'Saved: your site shows these settings now.' });
      // The desk's own name follows at once.
      keepSiteSettings(settings);
    } catch (error) {
      const found = fieldProblems(error);
      setProblems(found);
      const general = found.get('');
      setOutcome({
        ok: false,
        text:
          found.size === 0
            ? describeError(error)
            : general
              ? `Not saved: ${general}`
              : 'Not saved: see the fields marked below.',
      });
      // The first field to fix takes the focus (after the errors are drawn).
      requestAnimationFrame(() =>
        form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="desk-settings__layout">
      <form
        ref={form}
        className="desk-settings__form"
        aria-label="Settings"
        noValidate
        onSubmit={(event) => void save(event)}
      >
        <fieldset className="desk-part">
          <legend>Identity</legend>
          <TextField {...textField('title')} label="Title" />
          <TextField
            {...textField('description')}
            label="Tagline"
            hint="A sentence or two: the home page, the feed and share cards describe the site with it."
            rows={2}
          />
          <div className="desk-settings__pair">
            <TextField
              {...field('language')}
              label="Language"
              hint="A language tag: en, en-GB, pt-BR…"
              value={draft.language}
              list={`${id}-languages`}
              onChange={(language) => change({ language })}
            />
            <datalist id={`${id}-languages`}>
              {LANGUAGES.map(([tag, name]) => (
                <option key={tag} value={tag}>
                  {name}
                </option>
              ))}
            </datalist>
            <Field {...field('timezone')} label="Time zone">
              {(describedBy, invalid) => (
                <select
                  id={`${id}-timezone`}
                  value={draft.timezone}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(event) => change({ timezone: event.target.value })}
                >
                  {zones.map((zone) => (
                    <option key={zone} value={zone}>
                      {zone.replaceAll('_', ' ')}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        </fieldset>

        <fieldset className="desk-part">
          <legend>Images</legend>
          <ImageInput
            {...field('logo')}
            label="Logo"
            hint="Beside the name in the navbar."
            value={draft.logo}
            onChange={(logo) => change({ logo })}
          />
          <ImageInput
            {...field('icon')}
            label="Icon"
            hint="A square image: the browser tab’s icon and the app icon."
            value={draft.icon}
            onChange={(icon) => change({ icon })}
          />
          <ImageInput
            {...field('coverImage')}
            label="Cover image"
            hint="Shown when the site itself is shared."
            value={draft.coverImage}
            onChange={(coverImage) => change({ coverImage })}
          />
        </fieldset>

        <fieldset className="desk-part">
          <legend>Words</legend>
          <TextField
            {...textField('footerText')}
            label="Footer text"
            hint="Plain text under the name in every page’s footer; a blank line starts a new paragraph."
            rows={3}
          />
          <TextField
            {...textField('signupText')}
            label="Newsletter sign-up words"
            hint="Above the newsletter’s email box. Left empty: “New posts by email. Unsubscribe in one click.”"
            rows={2}
          />
        </fieldset>

        <fieldset className="desk-part">
          <legend>Social links</legend>
          <p className="desk__note" id={`${id}-social-about`}>
            Your profiles elsewhere, in the footer (the first one in the navbar too), each opening
            in a new tab.
          </p>
          {problems.get('socialLinks') && (
            <p className="form-error" id={`${id}-socialLinks-error`}>
              {problems.get('socialLinks')}
            </p>
          )}
          <ol className="desk-settings__links" aria-label="Social links">
            {draft.socialLinks.map((link, at) => (
              <li key={at} className="desk-settings__link">
                <TextField
                  {...field(`socialLinks.${at}.label`)}
                  label={`Link ${at + 1} name`}
                  value={link.label}
                  maxLength={SETTINGS_LIMITS.socialLabel}
                  onChange={(label) => changeLink(at, { label })}
                />
                <TextField
                  {...field(`socialLinks.${at}.url`)}
                  label={`Link ${at + 1} address`}
                  type="url"
                  value={link.url}
                  onChange={(url) => changeLink(at, { url })}
                />
                <p className="desk-settings__row-actions">
                  <button
                    type="button"
                    className="button button--outline desk__small"
                    disabled={at === 0}
                    aria-label={`Move link ${at + 1} up`}
                    onClick={() => moveLink(at, -1)}
                  >
                    Up
                  </button>
                  <button
                    type="button"
                    className="button button--outline desk__small"
                    disabled={at === draft.socialLinks.length - 1}
                    aria-label={`Move link ${at + 1} down`}
                    onClick={() => moveLink(at, 1)}
                  >
                    Down
                  </button>
                  <button
                    type="button"
                    className="button button--outline desk__small"
                    aria-label={`Remove link ${at + 1}`}
                    onClick={() =>
                      change({ socialLinks: draft.socialLinks.filter((_, index) => index !== at) })
                    }
                  >
                    Remove
                  </button>
                </p>
              </li>
            ))}
          </ol>
          {draft.socialLinks.length < SETTINGS_LIMITS.socialLinks && (
            <p>
              <button
                type="button"
                className="button button--outline desk__small"
                onClick={() =>
                  change({ socialLinks: [...draft.socialLinks, { label: '', url: '' }] })
                }
              >
                Add a link
              </button>
            </p>
          )}
        </fieldset>

        <fieldset className="desk-part">
          <legend>Look</legend>
          <Field {...field('accentColor')} label="Accent colour">
            {(describedBy, invalid) => (
              <span className="desk-settings__colour">
                <input
                  type="color"
                  aria-label="Accent colour picker"
                  value={
                    /^#[0-9a-fA-F]{6}$/.test(draft.accentColor) ? draft.accentColor : '#000000'
                  }
                  onChange={(event) => change({ accentColor: event.target.value })}
                />
                <input
                  id={`${id}-accentColor`}
                  value={draft.accentColor}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  spellCheck={false}
                  onChange={(event) => change({ accentColor: event.target.value.trim() })}
                />
              </span>
            )}
          </Field>
          <fieldset className="desk-settings__choices">
            <legend>Colour scheme</legend>
            {COLOR_SCHEMES.map((scheme) => (
              <label key={scheme}>
                <input
                  type="radio"
                  name={`${id}-scheme`}
                  value={scheme}
                  checked={draft.colorScheme === scheme}
                  onChange={() => change({ colorScheme: scheme })}
                />
                <span>
                  <strong>{SCHEMES[scheme].name}</strong> {SCHEMES[scheme].about}
                </span>
              </label>
            ))}
          </fieldset>
          <fieldset className="desk-settings__choices">
            <legend>Fonts</legend>
            {FONT_PAIRINGS.map((pairing) => (
              <label key={pairing.value} className="desk-settings__font">
                <input
                  type="radio"
                  name={`${id}-fonts`}
                  value={pairing.value}
                  checked={draft.fonts === pairing.value}
                  onChange={() => change({ fonts: pairing.value })}
                />
                {/* Each pairing in its own fonts (styles/theme.css, [data-look]). */}
                <span data-look="" data-fonts={pairing.value} className="desk-settings__sample">
                  <strong className="desk-settings__sample-heading">{pairing.name}</strong>
                  <span className="desk-settings__sample-body">
                    {pairing.headings} headings, {pairing.body} text
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <TextField
            {...textField('customCss')}
            label="Custom CSS"
            hint="Your own stylesheet, after the site’s on every page (no scripts). The preview leaves it out: save to see it on the site."
            rows={6}
            code
          />
        </fieldset>

        <div className="desk-settings__save">
          <button type="submit" className="button button--accent" disabled={busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
          <OutcomeLines outcome={outcome} />
        </div>
      </form>
      <SettingsPreview settings={draft} />
    </div>
  );
}

interface FieldProps {
  id: string;
  label: string;
  hint?: string;
  problem?: string;
}

/** A labelled control with its hint and its error, both read out with it. */
function Field({
  id,
  label,
  hint,
  problem,
  children,
}: FieldProps & {
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
}) {
  const describedBy =
    [hint && `${id}-hint`, problem && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="desk-field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <span id={`${id}-hint`} className="desk__note">
          {hint}
        </span>
      )}
      {children(describedBy, Boolean(problem))}
      {problem && (
        <span id={`${id}-error`} className="form-error">
          {label}: {problem}
        </span>
      )}
    </div>
  );
}

/** Text on one line, or on `rows` of them (`code`: set as code, and not spell-checked). */
function TextField({
  value,
  onChange,
  maxLength,
  list,
  type = 'text',
  rows,
  code = false,
  ...field
}: FieldProps & {
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
  list?: string;
  type?: 'text' | 'url';
  rows?: number;
  code?: boolean;
}) {
  return (
    <Field {...field}>
      {(describedBy, invalid) => {
        const control = {
          id: field.id,
          value,
          maxLength,
          'aria-describedby': describedBy,
          'aria-invalid': invalid,
        };
        return rows ? (
          <textarea
            {...control}
            rows={rows}
            className={code ? 'desk-settings__code' : undefined}
            spellCheck={!code}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <input
            {...control}
            type={type}
            list={list}
            onChange={(event) => onChange(event.target.value)}
          />
        );
      }}
    </Field>
  );
}

/** An uploaded image (`/uploads/…`) with its preview, a button to upload another and Remove. */
function ImageInput({
  value,
  onChange,
  ...field
}: FieldProps & { value: string | null; onChange: (value: string | null) => void }) {
  const [failed, setFailed] = useState<string | null>(null);
  const problem = failed ?? field.problem;
  return (
    <Field {...field} problem={problem ?? undefined}>
      {(describedBy, invalid) => (
        <span className="desk-settings__image">
          {value ? (
            <img src={value} alt={`${field.label} as uploaded`} className="desk-settings__thumb" />
          ) : (
            <span className="desk__note">None.</span>
          )}
          <span className="button-row">
            <ImageUploadButton
              id={field.id}
              replacing={Boolean(value)}
              accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onUploaded={onChange}
              onFailed={setFailed}
            />
            {value && (
              <button
                type="button"
                className="button button--outline desk__small"
                aria-label={`Remove the ${field.label.toLowerCase()}`}
                onClick={() => onChange(null)}
              >
                Remove
              </button>
            )}
          </span>
        </span>
      )}
    </Field>
  );
}
