import { useState, type FormEvent } from 'react';
import { MAX_EMAIL_LENGTH } from '../../../../contract/account-rules';
import {
  MAX_PODCAST_AUTHOR,
  MIN_COVER_SIZE,
  PODCAST_CATEGORIES,
  podcastCategoryValue,
  podcastCoverProblem,
} from '../../../../contract/podcasts';
import type { DeskSection } from '../../../../contract/sections-api';
import { sectionPath } from '../../../../contract/sections';
import { ImageUploadButton } from './image-upload-button';
import type { RowReport } from './outcome';
import { changeSection } from './sections-api';
import { TextField, run } from './sections-parts';
import { CheckField } from './check-field';

/**
 * A section of articles as a podcast (contract/podcasts.ts): off, a line and a button; on, or
 * being turned on, its author, category, explicit, cover and the owner's address, saved together.
 * Its feed is the section's own (`/<slug>/rss.xml`), the address to give Apple and Spotify.
 */
export function SectionPodcast({
  section,
  mayChange,
  report,
}: {
  section: DeskSection;
  mayChange: boolean;
  report: RowReport;
}) {
  const { podcast } = section;
  const [open, setOpen] = useState(podcast !== null);
  const [author, setAuthor] = useState(podcast?.author ?? '');
  const [category, setCategory] = useState(podcast?.category ?? '');
  const [explicit, setExplicit] = useState(podcast?.explicit ?? false);
  const [image, setImage] = useState(podcast?.image ?? '');
  const [email, setEmail] = useState(podcast?.email ?? '');
  const feed = `${sectionPath(section)}/rss.xml`;

  function save(event: FormEvent) {
    event.preventDefault();
    void run(
      report,
      podcast
        ? `Saved the podcast ${section.name}.`
        : `${section.name} is a podcast: its feed is ${feed}.`,
      () =>
        changeSection(section.id, {
          podcast: { author, category, explicit, image, email: email.trim() || null },
        }),
    );
  }

  function stop() {
    void run(report, `${section.name} is no longer a podcast.`, () =>
      changeSection(section.id, { podcast: null }),
    );
  }

  return (
    <form
      className="desk-topic desk-sections__podcast"
      onSubmit={save}
      aria-label={`${section.name} as a podcast`}
    >
      <h3 className="desk-sections__podcast-title">
        Podcast{' '}
        <span className="desk-sections__podcast-state">
          {podcast ? (
            <>
              on · its feed: <a href={feed}>{feed}</a>
            </>
          ) : (
            'off'
          )}
        </span>
      </h3>
      {!open && (
        <p className="desk-topic__actions">
          <span className="desk__note">
            A podcast’s feed carries each post’s audio or video, for Apple Podcasts and Spotify.
          </span>
          {mayChange && (
            <button className="button button--outline" type="button" onClick={() => setOpen(true)}>
              Make it a podcast
            </button>
          )}
        </p>
      )}
      {open && (
        <>
          <div className="desk-sections__fields">
            <TextField
              label="Author"
              value={author}
              required
              maxLength={MAX_PODCAST_AUTHOR}
              readOnly={!mayChange}
              onChange={setAuthor}
            />
            <label className="desk-field">
              <span>Category</span>
              <select
                value={category}
                required
                disabled={!mayChange}
                onChange={(event) => setCategory(event.target.value)}
              >
                <option value="">Choose Apple’s category…</option>
                {Object.entries(PODCAST_CATEGORIES).map(([top, subs]) => (
                  <optgroup key={top} label={top}>
                    <option value={top}>{top}</option>
                    {subs.map((sub) => (
                      <option key={sub} value={podcastCategoryValue(top, sub)}>
                        {top} › {sub}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </label>
          </div>
          <CoverInput value={image} onChange={setImage} disabled={!mayChange} />
          <TextField
            label="Owner’s email (optional)"
            value={email}
            maxLength={MAX_EMAIL_LENGTH}
            readOnly={!mayChange}
            onChange={setEmail}
          />
          <span className="desk__note">
            Spotify sends its check that the show is yours here; the feed shows it.
          </span>
          <CheckField checked={explicit} readOnly={!mayChange} onChange={setExplicit}>
            Explicit: its episodes hold explicit language or content
          </CheckField>
          {mayChange && (
            <p className="desk-topic__actions">
              <button className="button" type="submit">
                {podcast ? 'Save podcast' : 'Make it a podcast'}
              </button>
              {podcast ? (
                <button className="button button--outline" type="button" onClick={stop}>
                  Stop the podcast
                </button>
              ) : (
                <button
                  className="button button--outline"
                  type="button"
                  onClick={() => setOpen(false)}
                >
                  Cancel
                </button>
              )}
            </p>
          )}
        </>
      )}
    </form>
  );
}

/** The cover: an upload, shown small, with what Apple asks of it said before it is saved. */
function CoverInput({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (url: string) => void;
  disabled: boolean;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const problem = failed ?? (value ? podcastCoverProblem(value) : null);
  return (
    <div className="desk-field">
      <span>Cover</span>
      <span className="desk-sections__cover">
        {value ? (
          <img src={value} alt="The podcast’s cover as uploaded" width={96} height={96} />
        ) : (
          <span className="desk__note">None yet.</span>
        )}
        <span className="desk__note">
          Square, at least {MIN_COVER_SIZE}×{MIN_COVER_SIZE} pixels, as Apple Podcasts asks.
        </span>
        {!disabled && (
          <ImageUploadButton
            replacing={Boolean(value)}
            accept="image/jpeg,image/png,image/webp,image/avif"
            aria-label={value ? 'Replace the cover' : 'Upload a cover'}
            onUploaded={onChange}
            onFailed={setFailed}
          />
        )}
      </span>
      {problem && (
        <span role="alert" className="form-error">
          The cover {problem}.
        </span>
      )}
    </div>
  );
}
