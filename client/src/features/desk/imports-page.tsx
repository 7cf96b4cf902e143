import { useEffect, useId, useState, type FormEvent } from 'react';
import type { DeskImport, DeskImportReport, DeskImportSource } from '../../../../contract/desk-api';
import { fetchImport, fetchImports, ghostExportUrl, uploadImport } from './desk-api';
import { formatDateTime } from './desk-format';
import { DeskTable } from './desk-table';
import { ImportMappings, mappingFields, NO_MAPPINGS } from './import-mappings';
import { MissingImagesPanel } from './missing-images-panel';
import { describeError, useDeskData } from './use-desk-data';
import { useArticleSectionNames } from './use-article-sections';

/** Each platform, and the file it exports, as the owner will find it there. */
const PLATFORMS: { source: DeskImportSource; name: string; file: string; accept: string }[] = [
  {
    source: 'ghost',
    name: 'Ghost',
    file: 'the .json export (Settings → Advanced → Import/Export), or the .zip with its images',
    accept: '.json,.zip,application/json,application/zip',
  },
  {
    source: 'wordpress',
    name: 'WordPress',
    file: 'the .xml export (Tools → Export → All content)',
    accept: '.xml,text/xml,application/xml',
  },
  {
    source: 'substack',
    name: 'Substack',
    file: 'the export .zip (Settings → Exports): posts.csv and the posts folder',
    accept: '.zip,application/zip',
  },
  {
    source: 'medium',
    name: 'Medium',
    file: 'the export .zip (Settings → Security and apps → Download your information)',
    accept: '.zip,application/zip',
  },
  {
    source: 'members',
    name: 'Members list',
    file: 'a .csv: Ghost’s members export, or Substack’s subscribers or sign-ups',
    accept: '.csv,text/csv',
  },
];

const PHASES: Record<string, string> = {
  starting: 'Starting',
  reading: 'Reading the file',
  images: 'Storing images',
  posts: 'Writing posts and pages',
  members: 'Writing members',
};

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

type Stage =
  | { state: 'idle' }
  | { state: 'uploading'; sent: number; total: number }
  | { state: 'importing'; id: string }
  | { state: 'failed'; message: string };

/** The platforms whose files may bring paying members (their Stripe customers). */
const WITH_MEMBERS: readonly DeskImportSource[] = ['ghost', 'substack', 'members'];

/**
 * /desk/imports (owners): bring posts, pages and members from Ghost, WordPress, Substack or Medium,
 * or a members list, with what `npm run import` takes (a dry run, tags to sections, Stripe prices
 * to plans). The file uploads with its progress shown, then the import's progress (asked every
 * second), then its report; an import still running when the page opens is followed too. Each
 * earlier import's whole report opens from the list. And leaving: everything as a Ghost export.
 */
export function ImportsPage() {
  const [list, reload] = useDeskData('imports', (signal) => fetchImports(signal));
  const [source, setSource] = useState<DeskImportSource>('ghost');
  // The site's sections of articles (the desk's Sections page), the first chosen until one is.
  const sections = useArticleSectionNames(true) ?? [];
  const [chosenSection, setSection] = useState<string | null>(null);
  const section = chosenSection ?? sections[0] ?? '';
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(false);
  const [mappings, setMappings] = useState(NO_MAPPINGS);
  const [openedId, setOpenedId] = useState<string | null>(null);
  const [stage, setStage] = useState<Stage>({ state: 'idle' });
  const platform = PLATFORMS.find((each) => each.source === source) ?? PLATFORMS[0];
  const maxBytes = list.state === 'ready' ? list.data.maxBytes : null;

  // An import already running (started in another tab, or before a reload) is followed here.
  const runningId =
    list.state === 'ready'
      ? list.data.imports.find((job) => job.status === 'running' || job.status === 'queued')?.id
      : undefined;
  const followedId =
    stage.state === 'importing' ? stage.id : stage.state === 'idle' ? (runningId ?? null) : null;
  const [polled, setPolled] = useState<DeskImport | null>(null);
  const job = polled && polled.id === followedId ? polled : null;
  const over = job?.status === 'done' || job?.status === 'failed';
  useEffect(() => {
    if (!followedId || over) return;
    const controller = new AbortController();
    const ask = () =>
      fetchImport(followedId, controller.signal).then(
        ({ import: now }) => {
          setPolled(now);
          // Followed from here on, whatever the list says once it is over.
          setStage({ state: 'importing', id: followedId });
          if (now.status === 'done' || now.status === 'failed') reload();
        },
        (error: unknown) => {
          if (!controller.signal.aborted) {
            setStage({ state: 'failed', message: describeError(error) });
          }
        },
      );
    void ask();
    const timer = setInterval(() => void ask(), 1000);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [followedId, over, reload]);

  const busy = stage.state === 'uploading' || (stage.state === 'importing' && !over);
  const withTags = source !== 'members';
  const withPrices = WITH_MEMBERS.includes(source);
  const opened =
    list.state === 'ready' ? list.data.imports.find((each) => each.id === openedId) : undefined;

  async function upload(event: FormEvent) {
    event.preventDefault();
    if (!file) return;
    if (maxBytes !== null && file.size > maxBytes) {
      setStage({
        state: 'failed',
        message: `The file is ${megabytes(file.size)}: an import from the desk takes at most ${megabytes(maxBytes)} (IMPORT_MAX_MB). Import it on the server with npm run import.`,
      });
      return;
    }
    setStage({ state: 'uploading', sent: 0, total: file.size });
    try {
      const { import: started } = await uploadImport(
        {
          source,
          section: withTags ? section : '',
          file,
          dryRun,
          mappings: mappingFields({
            map: withTags ? mappings.map : [],
            prices: withPrices ? mappings.prices : [],
          }),
        },
        (sent, total) => setStage({ state: 'uploading', sent, total }),
      );
      setStage({ state: 'importing', id: started.id });
    } catch (error) {
      setStage({ state: 'failed', message: describeError(error) });
    }
  }

  return (
    <section aria-labelledby="import-title">
      <h1 id="import-title">Import</h1>
      <p className="desk__lede">
        Bring your posts, pages and members from another platform. Running the same file again
        changes nothing: what an import brought is recognised, and posts edited here are left as
        they are.
      </p>

      <form className="desk-import" onSubmit={(event) => void upload(event)}>
        <fieldset className="desk-import__platforms">
          <legend>Where it comes from</legend>
          {PLATFORMS.map((each) => (
            <label key={each.source} className="desk-import__platform">
              <input
                type="radio"
                name="source"
                value={each.source}
                checked={source === each.source}
                disabled={busy}
                onChange={() => setSource(each.source)}
              />
              <span>
                <strong>{each.name}</strong>
                <span className="desk__note">{each.file}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="desk-import__fields">
          {source !== 'members' && (
            <label className="desk-field">
              <span>Section for the posts</span>
              <select
                value={section}
                disabled={busy}
                onChange={(event) => setSection(event.target.value)}
              >
                {sections.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="desk-field">
            <span>
              File
              {maxBytes !== null && <span className="desk__note">up to {megabytes(maxBytes)}</span>}
            </span>
            <input
              type="file"
              accept={platform?.accept}
              required
              disabled={busy}
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            />
          </label>
        </div>
        <ImportMappings
          value={mappings}
          onChange={setMappings}
          sections={sections}
          withTags={withTags}
          withPrices={withPrices}
          disabled={busy}
        />
        <label className="desk-import__platform">
          <input
            type="checkbox"
            checked={dryRun}
            disabled={busy}
            onChange={(event) => setDryRun(event.target.checked)}
          />
          <span>
            <strong>Dry run</strong>
            <span className="desk__note">
              Read everything and report what the import would do, writing nothing: try it first.
            </span>
          </span>
        </label>
        <p className="button-row">
          <button type="submit" className="button" disabled={busy || !file}>
            {stage.state === 'uploading'
              ? 'Uploading…'
              : dryRun
                ? 'Upload and try (dry run)'
                : 'Upload and import'}
          </button>
        </p>
      </form>

      <ImportStatus stage={stage} following={followedId !== null} job={job} />

      <section className="desk-section" aria-labelledby="leave-title">
        <h2 id="leave-title">Leave with everything</h2>
        <p>
          Your posts, pages, sections, topics, authors, comments and members as one Ghost export, a
          zip with your images in it, as Ghost’s own export is. Ghost imports its posts, pages, tags
          and authors (members go to Ghost as a CSV: the Members page’s Export CSV); another Cohort
          imports all of it, each post in its section. Members-only posts are in it in full, with
          every member’s address and Stripe customer: keep the file as safe as your members list.
        </p>
        <p className="button-row">
          <a className="button button--outline" href={ghostExportUrl} download>
            Download everything as a Ghost export (.zip)
          </a>
        </p>
      </section>

      <section className="desk-section" aria-labelledby="earlier-title">
        <h2 id="earlier-title">Earlier imports</h2>
        {list.state === 'loading' && <p className="desk__loading">Loading…</p>}
        {list.state === 'error' && <p role="alert">{describeError(list.error)}</p>}
        {list.state === 'ready' &&
          (list.data.imports.length === 0 ? (
            <p className="desk__empty">No imports yet.</p>
          ) : (
            <DeskTable
              caption="The last imports, newest first"
              captionHidden
              columns={['Started', 'From', 'File', 'Outcome', 'Report']}
              cards
            >
              {list.data.imports.map((job) => (
                <tr key={job.id}>
                  <td data-label="Started">{formatDateTime(job.createdAt)}</td>
                  <td data-label="From">
                    {PLATFORMS.find((each) => each.source === job.source)?.name ?? job.source}
                  </td>
                  <td data-label="File" className="desk-import__file">
                    {job.fileName ?? '—'}
                  </td>
                  <td data-label="Outcome">{describeOutcome(job)}</td>
                  <td data-label="Report">
                    {(job.report || job.error) && (
                      <button
                        type="button"
                        className="button button--outline"
                        aria-expanded={openedId === job.id}
                        aria-label={`${openedId === job.id ? 'Close' : 'Open'} the report of ${job.fileName ?? 'the import'}, ${formatDateTime(job.createdAt)}`}
                        onClick={() => setOpenedId(openedId === job.id ? null : job.id)}
                      >
                        {openedId === job.id ? 'Close' : 'Open'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </DeskTable>
          ))}
        {opened && <PastImport job={opened} />}
      </section>
    </section>
  );
}

function describeOutcome(job: DeskImport): string {
  if (job.status === 'failed') return `Failed: ${job.error ?? 'no reason given'}`;
  if (job.status !== 'done' || !job.report) return 'Running';
  const { posts, pages, members } = job.report;
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const counts = `${count(posts.created, 'post')}, ${count(pages.created, 'page')}, ${count(members.created, 'member')}`;
  return job.report.dryRun ? `Dry run: would create ${counts}` : `Done: ${counts} created`;
}

/** An earlier import opened from the list: its whole report as it was kept, or why it failed. */
function PastImport({ job }: { job: DeskImport }) {
  const titleId = useId();
  const name = `${job.fileName ?? 'The import'}, ${formatDateTime(job.createdAt)}`;
  return (
    <section className="desk-section desk-import__past" aria-labelledby={titleId}>
      <h2 id={titleId} className="desk-import__file">
        {name}
      </h2>
      {job.report ? (
        <ImportReport report={job.report} level={3} />
      ) : (
        <p role="alert" className="form-error">
          The import failed: {job.error ?? 'no reason given'}
        </p>
      )}
    </section>
  );
}

function ImportStatus({
  stage,
  following,
  job,
}: {
  stage: Stage;
  /** An import is followed (just uploaded, or found running). */
  following: boolean;
  job: DeskImport | null;
}) {
  if (!following && stage.state === 'idle') return <p role="status" className="desk__done" />;
  if (stage.state === 'failed') {
    return (
      <p role="alert" className="form-error">
        {stage.message}
      </p>
    );
  }
  if (stage.state === 'uploading') {
    const percent = stage.total > 0 ? Math.round((stage.sent / stage.total) * 100) : 0;
    return (
      <div className="desk-import__progress" role="status">
        <p>Uploading the file: {percent}%</p>
        <progress max={100} value={percent} aria-label="Upload" />
      </div>
    );
  }
  if (job?.status === 'failed') {
    return (
      <p role="alert" className="form-error">
        The import failed: {job.error ?? 'no reason given'}
      </p>
    );
  }
  if (job?.status === 'done' && job.report) return <ImportReport report={job.report} />;
  const { phase = 'starting', done = 0, total = 0, message } = job?.progress ?? {};
  return (
    <div className="desk-import__progress" role="status">
      <p>
        Importing: {PHASES[phase] ?? phase}
        {total > 0 && ` (${done} of ${total})`}
        {message && <span className="desk__note">{message}</span>}
      </p>
      {total > 0 ? (
        <progress max={total} value={done} aria-label="Import" />
      ) : (
        <progress aria-label="Import" />
      )}
    </div>
  );
}

const COUNT_ROWS = [
  ['posts', 'Posts'],
  ['pages', 'Pages'],
  ['members', 'Members'],
] as const;

function ImportReport({ report, level = 2 }: { report: DeskImportReport; level?: 2 | 3 }) {
  const titleId = useId();
  const skipped = COUNT_ROWS.flatMap(([key, name]) =>
    report[key].skipped.map((each) => ({ ...each, kind: name })),
  );
  const Title = level === 2 ? 'h2' : 'h3';
  const Sub = level === 2 ? 'h3' : 'h4';
  return (
    <section className="desk-section desk-import__report" aria-labelledby={titleId}>
      <Title id={titleId}>
        {report.dryRun
          ? `Dry run in ${report.seconds} s: nothing was written`
          : `Imported in ${report.seconds} s`}
      </Title>
      {report.dryRun && (
        <p className="desk__note">
          This is what the import would do. Upload the file again without the dry run to import it.
        </p>
      )}
      <DeskTable
        caption="Created, updated, unchanged and skipped"
        captionHidden
        columns={['What', 'Created', 'Updated', 'Unchanged', 'Skipped']}
        cards
      >
        {COUNT_ROWS.map(([key, name]) => (
          <tr key={key}>
            <th scope="row">{name}</th>
            <td data-label="Created">{report[key].created}</td>
            <td data-label="Updated">{report[key].updated}</td>
            <td data-label="Unchanged">{report[key].unchanged}</td>
            <td data-label="Skipped">{report[key].skipped.length}</td>
          </tr>
        ))}
      </DeskTable>
      <ul className="desk-figures" aria-label="Also">
        <li>
          <strong>{report.drafts}</strong> drafts
        </li>
        <li>
          <strong>{report.scheduled}</strong> scheduled
        </li>
        <li>
          <strong>{report.topics}</strong> new topics
        </li>
        <li>
          <strong>{report.redirects}</strong> old addresses redirected
        </li>
        <li>
          <strong>{report.images.stored}</strong> images stored
        </li>
        {report.comments.imported > 0 && (
          <li>
            <strong>{report.comments.imported}</strong> comments
          </li>
        )}
        {report.comments.skipped > 0 && (
          <li>
            <strong>{report.comments.skipped}</strong> comments not imported (held for approval,
            pingbacks, or on a post not imported)
          </li>
        )}
      </ul>
      {skipped.length > 0 && (
        <>
          <Sub>Skipped</Sub>
          <ul className="desk-import__list">
            {skipped.map((each, index) => (
              <li key={index}>
                <strong>{each.item}</strong> ({each.kind.toLowerCase()}): {each.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.notes && report.notes.length > 0 && (
        <>
          <Sub>Notes</Sub>
          <ul className="desk-import__list">
            {report.notes.map((note, index) => (
              <li key={index}>{note}</li>
            ))}
          </ul>
        </>
      )}
      {report.images.notFetched.length > 0 && (
        <>
          <Sub>Images not fetched</Sub>
          <p className="desk__note">
            Each stays an image in its post, shown from its old address until it is fetched again.
          </p>
          <ul className="desk-import__list">
            {report.images.notFetched.map((each) => (
              <li key={each.url}>
                <span className="desk-import__file">{each.url}</span>: {each.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {!report.dryRun && <MissingImagesPanel heading={Sub} />}
      {report.unmappedPrices.length > 0 && (
        <>
          <Sub>Prices not mapped to a plan</Sub>
          <p className="desk__note">
            Members paying these Stripe prices were given nothing: map each to a plan under “Stripe
            prices to plans” above and import the file again (or{' '}
            <code>npm run import -- members … --price &lt;price&gt;=&lt;plan&gt;</code>).
          </p>
          <ul className="desk-import__list">
            {report.unmappedPrices.map((price) => (
              <li key={price} className="desk-import__file">
                {price}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
