import type { PostForm } from './post-form';

/** What search engines and shared links show of the post, when it should differ from the page. */
export function SearchAndSharing({
  form,
  onChange,
}: {
  form: Pick<PostForm, 'seoTitle' | 'seoDescription'>;
  onChange: (patch: Pick<PostForm, 'seoTitle'> | Pick<PostForm, 'seoDescription'>) => void;
}) {
  return (
    <details className="post-editor__seo">
      <summary>Search and sharing</summary>
      <label className="desk-field">
        <span>SEO title</span>
        <input
          value={form.seoTitle}
          maxLength={120}
          onChange={(event) => onChange({ seoTitle: event.target.value })}
        />
      </label>
      <label className="desk-field">
        <span>SEO description</span>
        <textarea
          value={form.seoDescription}
          maxLength={300}
          onChange={(event) => onChange({ seoDescription: event.target.value })}
        />
      </label>
    </details>
  );
}
