import { useState, type FormEvent } from 'react';
import {
  authorPath,
  MAX_AUTHOR_BIO,
  MAX_AUTHOR_LINKS,
  MAX_AUTHOR_NAME,
  MAX_AUTHOR_SLUG,
  type DeskProfile,
} from '../../../../contract/authors';
import { uploadImage } from './editor/post-api';
import profileCss from './profile-page.css?inline';
import { OutcomeLines, type Outcome } from './outcome';
import { fetchProfile, saveProfile } from './profile-api';
import { StaffTokenPanel } from './staff-token-panel';
import { describeError, useDeskData } from './use-desk-data';

/**
 * /desk/profile: the signed-in staff member's own author profile (every role): the name and
 * picture their bylines and page show, the page's address, a short bio and a few links.
 */
export function ProfilePage() {
  const [profile] = useDeskData('profile', (signal) => fetchProfile(signal));
  return (
    <section aria-labelledby="profile-title">
      <style>{profileCss}</style>
      <h1 id="profile-title">Your profile</h1>
      <p className="desk__lede">
        What readers see of you as an author: on the byline of each post you write and on your page,
        with your published articles and a feed of them.
      </p>
      {profile.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {profile.state === 'error' && <p role="alert">{describeError(profile.error)}</p>}
      {profile.state === 'ready' && <ProfileForm profile={profile.data.profile} />}
      <StaffTokenPanel />
    </section>
  );
}

function ProfileForm({ profile }: { profile: DeskProfile }) {
  const [name, setName] = useState(profile.name);
  const [slug, setSlug] = useState(profile.slug);
  const [bio, setBio] = useState(profile.bio);
  const [picture, setPicture] = useState(profile.picture);
  const [links, setLinks] = useState(profile.links.join('\n'));
  const [saved, setSaved] = useState(profile);
  const [busy, setBusy] = useState<'saving' | 'uploading' | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function upload(file: File | undefined) {
    if (!file) return;
    setBusy('uploading');
    setOutcome(null);
    try {
      setPicture((await uploadImage(file)).url);
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setBusy(null);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy('saving');
    setOutcome(null);
    try {
      const { profile: now } = await saveProfile({
        name,
        slug,
        bio,
        picture,
        links: links
          .split('\n')
          .map((link) => link.trim())
          .filter(Boolean),
      });
      setSaved(now);
      setName(now.name);
      setBio(now.bio);
      setLinks(now.links.join('\n'));
      setOutcome({ ok: true, text: 'Saved: your bylines and your page say so now.' });
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <form className="desk-profile" onSubmit={save}>
      <div className="desk-profile__picture">
        {picture ? (
          <img src={picture} alt="" width={96} height={96} />
        ) : (
          <span className="desk-profile__none" aria-hidden="true">
            {name.trim().charAt(0).toUpperCase() || '?'}
          </span>
        )}
        <label className="desk-field">
          <span>Picture</span>
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            disabled={busy !== null}
            onChange={(event) => void upload(event.target.files?.[0])}
          />
        </label>
        {picture && (
          <button type="button" className="button button--outline" onClick={() => setPicture(null)}>
            Remove picture
          </button>
        )}
        {busy === 'uploading' && <p className="desk-profile__hint">Uploading…</p>}
      </div>
      <label className="desk-field">
        <span>Name</span>
        <input
          value={name}
          required
          maxLength={MAX_AUTHOR_NAME}
          autoComplete="name"
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      <label className="desk-field">
        <span>Address of your page</span>
        <input
          value={slug}
          required
          maxLength={MAX_AUTHOR_SLUG}
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          aria-describedby="profile-slug-help"
          onChange={(event) => setSlug(event.target.value)}
        />
        <small id="profile-slug-help" className="desk-profile__hint">
          {authorPath(slug || '…')}: lower-case words joined by hyphens.{' '}
          {saved.slug !== slug && 'Posts name you by it: the old address stops answering.'}
        </small>
      </label>
      <label className="desk-field">
        <span>Short bio</span>
        <textarea value={bio} maxLength={MAX_AUTHOR_BIO} onChange={(e) => setBio(e.target.value)} />
      </label>
      <label className="desk-field">
        <span>Links (one a line, up to {MAX_AUTHOR_LINKS})</span>
        <textarea
          value={links}
          placeholder="https://example.com/you"
          onChange={(event) => setLinks(event.target.value)}
        />
      </label>
      <p className="desk-profile__actions">
        <button className="button" type="submit" disabled={busy !== null}>
          {busy === 'saving' ? 'Saving…' : 'Save profile'}
        </button>
        <a href={authorPath(saved.slug)}>Your page</a>
        <span className="desk-profile__hint">(once a post of yours is published)</span>
      </p>
      <OutcomeLines outcome={outcome} />
    </form>
  );
}
