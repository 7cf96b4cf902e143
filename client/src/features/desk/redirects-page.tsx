import { useState, type ChangeEvent, type FormEvent } from 'react';
import { FormError } from '../../components/form-field';
import type { DeskStaff } from '../../../../contract/desk-api';
import type { RedirectFormat, Redirects } from '../../../../contract/redirects-api';
import { formatDateTime } from './desk-format';
import { OutcomeLines, type Outcome } from './outcome';
import { fetchRedirects, saveRedirects } from './redirects-api';
import redirectsCss from './redirects-page.css?inline';
import { describeError, useDeskData, useDeskRequest } from './use-desk-data';

const EXAMPLES: Record<RedirectFormat, string> = {
  yaml: '301:\n  /old-post/: /new-post/\n  ^/blog/(.*)$: /$1\n\n302:\n  /sale/: /join\n',
  json: '[\n  { "from": "/old-post/", "to": "/new-post/", "permanent": true }\n]\n',
};

/**
 * /desk/redirects (owners): the site's own redirects, written as Ghost writes them, so a
 * `redirects.yaml` or `redirects.json` from Ghost can be uploaded as it is. They are tried, in
 * order, on an address no post or page answers; the list below the form is what the site follows.
 */
export function RedirectsPage({ staff }: { staff: DeskStaff }) {
  const [loaded, reload] = useDeskData('redirects', (signal) => fetchRedirects(signal));
  // Above the form, which starts again from what was saved each time the list is read again.
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  return (
    <section aria-labelledby="redirects-title" className="desk-redirects">
      <style>{redirectsCss}</style>
      <h1 id="redirects-title">Redirects</h1>
      <p className="desk__lede">
        Send old addresses somewhere: an address no post or page answers is tried against these, in
        order. Paste or upload Ghost’s <code>redirects.yaml</code> (its <code>301:</code> and{' '}
        <code>302:</code> lists) or <code>redirects.json</code>. A <em>from</em> is a regular
        expression; <code>$1</code> in <em>to</em> puts in what its first brackets matched. A{' '}
        <em>to</em> is a path on this site (<code>/new-post</code>) or a full address you write (
        <code>https://…</code>).
      </p>
      <OutcomeLines outcome={outcome} />
      {loaded.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {loaded.state === 'error' && <p role="alert">{describeError(loaded.error)}</p>}
      {loaded.state === 'ready' && (
        <RedirectsForm
          key={loaded.data.updatedAt ?? 'none'}
          saved={loaded.data}
          mayChange={staff.canChange}
          onOutcome={setOutcome}
          onSaved={reload}
        />
      )}
    </section>
  );
}

function RedirectsForm({
  saved,
  mayChange,
  onOutcome,
  onSaved,
}: {
  saved: Redirects;
  mayChange: boolean;
  onOutcome: (outcome: Outcome | null) => void;
  onSaved: () => void;
}) {
  const [format, setFormat] = useState<RedirectFormat>(saved.format ?? 'yaml');
  const [file, setFile] = useState(saved.file);
  const { problem, setProblem, busy, run } = useDeskRequest();

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    setFormat(/\.json$/i.test(chosen.name) ? 'json' : 'yaml');
    setFile(await chosen.text());
    setProblem(null);
    onOutcome({ ok: true, text: `Read ${chosen.name}: save to use it.` });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    onOutcome(null);
    void run(
      () => saveRedirects({ format, file }),
      (answer) => {
        const count = answer.redirects.length;
        onOutcome({
          ok: true,
          text: `Saved: ${count} ${count === 1 ? 'redirect' : 'redirects'} in use.`,
        });
        onSaved();
      },
    );
  }

  return (
    <>
      <form className="desk-redirects__form" onSubmit={submit}>
        <fieldset className="desk-redirects__format" disabled={!mayChange}>
          <legend>Written as</legend>
          {(['yaml', 'json'] as const).map((each) => (
            <label key={each}>
              <input
                type="radio"
                name="format"
                value={each}
                checked={format === each}
                onChange={() => setFormat(each)}
              />
              {each === 'yaml' ? 'redirects.yaml' : 'redirects.json'}
            </label>
          ))}
        </fieldset>
        {mayChange && (
          <label className="desk-field">
            <span>Upload a file</span>
            <input
              type="file"
              accept=".yaml,.yml,.json,application/json,text/yaml"
              onChange={(event) => void upload(event)}
            />
          </label>
        )}
        <label className="desk-field">
          <span>Redirects file</span>
          <textarea
            value={file}
            rows={12}
            spellCheck={false}
            readOnly={!mayChange}
            placeholder={EXAMPLES[format]}
            aria-describedby={problem ? 'redirects-problem' : undefined}
            onChange={(event) => setFile(event.target.value)}
          />
        </label>
        <FormError id="redirects-problem" message={problem} />
        {mayChange && (
          <p>
            <button type="submit" className="button" disabled={busy}>
              {busy ? 'Saving…' : 'Save the redirects'}
            </button>
          </p>
        )}
      </form>
      <RedirectList saved={saved} />
    </>
  );
}

/** What the site follows now, in the order it tries them. */
function RedirectList({ saved }: { saved: Redirects }) {
  const count = saved.redirects.length;
  return (
    <section aria-labelledby="redirects-in-use" className="desk-redirects__in-use">
      <h2 id="redirects-in-use">In use ({count})</h2>
      {saved.updatedAt && (
        <p className="desk-redirects__when">Last changed {formatDateTime(saved.updatedAt)}.</p>
      )}
      {count === 0 ? (
        <p>None yet.</p>
      ) : (
        <ol className="desk-redirects__list">
          {saved.redirects.map((redirect, index) => (
            <li key={`${index} ${redirect.from}`}>
              <code>{redirect.from}</code>
              <span aria-hidden="true"> → </span>
              <span className="visually-hidden"> to </span>
              <code>{redirect.to}</code>
              <span className="desk-redirects__status">
                {redirect.permanent ? '301 permanent' : '302 temporary'}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
