import { useRef, useState, type FormEvent } from 'react';
import type { DeskStaff } from '../../../../contract/desk-api';
import {
  MAX_SECTION_DESCRIPTION,
  MAX_SECTION_NAME,
  SECTION_LISTS,
  type SectionLists,
} from '../../../../contract/section-rules';
import {
  SECTION_COLORS,
  freeSectionColor,
  sectionPath,
  type SiteSection,
} from '../../../../contract/sections';
import { ConfirmBox } from './confirm-box';
import { LoadedView } from './loaded-view';
import { OutcomeLines, useListOutcome, type RowReport } from './outcome';
import { DeleteWithPosts } from './section-delete-dialog';
import { SectionPodcast } from './section-podcast';
import { changeSection, createSection, deleteSection, fetchSections } from './sections-api';
import sectionsCss from './sections-page.css?inline';
import {
  AddForm,
  MoveButtons,
  OrderedRows,
  TextField,
  postsWord,
  run,
  type ListRowProps,
} from './sections-parts';
import { LinkList, NewLink } from './site-links-list';
import { useDeskData } from './use-desk-data';
import { LabelledOptions } from '../../components/labelled-options';

const LISTS_LABELS: Record<SiteSection['lists'], string> = {
  articles: 'Articles',
  campaigns: 'The campaigns',
  boycotts: 'The boycotts',
  resources: 'The learning resources',
};

/** "Culture & Arts" → "culture-arts": the address a new section is offered. */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * /desk/sections (owners): the site's sections in the menu's order, to add, rename, describe, move,
 * show or hide and delete, and a section of articles to make a podcast; and the links the navbar and the footer show besides them. Every change
 * shows on the site at once; a section whose address changes leaves a redirect behind.
 */
export function SectionsPage({ staff }: { staff: DeskStaff }) {
  const [navigation, reload] = useDeskData('sections', (signal) => fetchSections(signal));
  const { outcome, report } = useListOutcome(reload);
  const mayChange = staff.canChange;
  return (
    <section aria-labelledby="sections-title" className="desk-sections">
      <style>{sectionsCss}</style>
      <h1 id="sections-title">Sections and navigation</h1>
      <p className="desk__lede">
        The sections in the site’s menu, in this order, and the links the navbar and the footer show
        besides them. A section hidden from the menu keeps its page. Changing a section’s address
        leaves a redirect from the old one.
      </p>
      <OutcomeLines outcome={outcome} />
      <LoadedView data={navigation}>
        {({ sections, links, postCounts }) => (
          <>
            <OrderedRows
              className="desk-topics"
              label="Sections"
              items={sections}
              keyOf={(section) =>
                `${section.id}-${section.position}-${section.slug}-${section.name}`
              }
              row={(section, place) => (
                <>
                  <SectionRow
                    section={section}
                    posts={postCounts[String(section.id)] ?? 0}
                    others={sections.filter(
                      (other) => other.id !== section.id && other.lists === section.lists,
                    )}
                    {...place}
                    mayChange={mayChange}
                    report={report}
                  />
                  {section.lists === 'articles' && (mayChange || section.podcast) && (
                    <SectionPodcast
                      key={JSON.stringify(section.podcast)}
                      section={section}
                      mayChange={mayChange}
                      report={report}
                    />
                  )}
                </>
              )}
            />
            {mayChange && (
              <NewSection
                report={report}
                taken={sections.map((section) => section.color)}
                listed={sections.map((section) => section.lists)}
              />
            )}
            <h2 className="desk-sections__heading">Links</h2>
            {(['navbar', 'footer'] as const).map((placement) => (
              <LinkList
                key={placement}
                placement={placement}
                links={links.filter((link) => link.placement === placement)}
                mayChange={mayChange}
                report={report}
              />
            ))}
            {mayChange && <NewLink report={report} />}
          </>
        )}
      </LoadedView>
    </section>
  );
}
function SectionRow({
  section,
  posts,
  others,
  first,
  last,
  mayChange,
  report,
}: ListRowProps & {
  section: SiteSection;
  /** How many posts it lists (drafts included). */
  posts: number;
  /** The other sections listing the same kind: where its posts may go. */
  others: SiteSection[];
}) {
  const [name, setName] = useState(section.name);
  const [slug, setSlug] = useState(section.slug);
  const [description, setDescription] = useState(section.description);
  const [color, setColor] = useState(section.color);
  const [confirming, setConfirming] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const id = `section-${section.id}`;
  const change = (body: Parameters<typeof changeSection>[1], done: string) =>
    run(report, done, () => changeSection(section.id, body));

  function save(event: FormEvent) {
    event.preventDefault();
    void change(
      {
        ...(name !== section.name && { name }),
        ...(slug !== section.slug && { slug }),
        ...(description !== section.description && { description }),
        ...(color !== section.color && { color }),
      },
      `Saved ${name}.`,
    );
  }

  return (
    <form className="desk-topic" onSubmit={save} aria-labelledby={`${id}-name`}>
      <h2 id={`${id}-name`} className="desk-topic__name">
        <a href={sectionPath(section)}>{section.name}</a>{' '}
        <span className="desk__small">
          {LISTS_LABELS[section.lists]} · {postsWord(posts)} ·{' '}
          {section.inMenu ? 'in the menu' : 'hidden from the menu'}
        </span>
      </h2>
      <div className="desk-sections__fields">
        <TextField
          label="Name"
          value={name}
          maxLength={MAX_SECTION_NAME}
          readOnly={!mayChange}
          onChange={setName}
        />
        <TextField
          label="Address"
          value={slug}
          maxLength={60}
          readOnly={!mayChange}
          onChange={setSlug}
        />
      </div>
      <label className="desk-field">
        <span>Description</span>
        <textarea
          value={description}
          maxLength={MAX_SECTION_DESCRIPTION}
          readOnly={!mayChange}
          onChange={(event) => setDescription(event.target.value)}
        />
      </label>
      <ColorChoice name={`${id}-color`} value={color} onChange={setColor} disabled={!mayChange} />
      {mayChange && (
        <p className="desk-topic__actions">
          <button className="button" type="submit">
            Save
          </button>
          <button
            className="button button--outline"
            type="button"
            onClick={() =>
              void change(
                { inMenu: !section.inMenu },
                section.inMenu
                  ? `${section.name} is hidden from the menu; its page stays.`
                  : `${section.name} is in the menu.`,
              )
            }
          >
            {section.inMenu ? 'Hide from menu' : 'Show in menu'}
          </button>
          <MoveButtons
            label={section.name}
            first={first}
            last={last}
            onMove={(by) =>
              void change({ position: section.position + by }, `Moved ${section.name}.`)
            }
          />
          <button
            ref={deleteButton}
            className="button button--outline"
            type="button"
            aria-expanded={confirming}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        </p>
      )}
      {confirming && posts === 0 && (
        <ConfirmBox
          confirmLabel={`Delete ${section.name}`}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void run(report, `Deleted ${section.name}.`, () => deleteSection(section.id));
          }}
        >
          Delete the section {section.name}? It lists no post; its page goes.
        </ConfirmBox>
      )}
      {confirming && posts > 0 && (
        <DeleteWithPosts
          section={section}
          posts={posts}
          others={others}
          onCancel={() => {
            setConfirming(false);
            deleteButton.current?.focus();
          }}
          onConfirm={(choice, where) => {
            setConfirming(false);
            void run(report, `Deleted ${section.name}; ${where}.`, () =>
              deleteSection(section.id, choice),
            );
          }}
        />
      )}
    </form>
  );
}

/**
 * A section's colour, one of the palette's (contract/sections.ts): each readable on the site's
 * backgrounds, so no choice can make its headings and labels hard to read.
 */
function ColorChoice({
  name,
  value,
  onChange,
  disabled,
}: {
  name: string;
  value: string;
  onChange: (color: string) => void;
  disabled: boolean;
}) {
  return (
    <fieldset className="desk-sections__colors" disabled={disabled}>
      <legend>Colour</legend>
      {SECTION_COLORS.map((color) => (
        <label key={color.value} className="desk-sections__color" title={color.name}>
          <input
            type="radio"
            name={name}
            value={color.value}
            checked={value === color.value}
            onChange={() => onChange(color.value)}
          />
          <span
            className="desk-sections__swatch"
            style={{ background: color.value }}
            aria-hidden="true"
          />
          <span className="visually-hidden">{color.name}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** What a new section may list: articles, or a special kind no section lists now. */
const NEW_LISTS_LABELS: Record<SectionLists, string> = {
  articles: 'Articles',
  campaigns: 'The campaigns (no section lists them now)',
  boycotts: 'The boycotts (no section lists them now)',
  resources: 'The learning resources (no section lists them now)',
};

function NewSection({
  report,
  taken,
  listed,
}: {
  report: RowReport;
  taken: string[];
  /** What the sections there are list. */
  listed: SectionLists[];
}) {
  const free = SECTION_LISTS.filter((kind) => kind === 'articles' || !listed.includes(kind));
  const [chosenLists, setLists] = useState<SectionLists>('articles');
  const lists = free.includes(chosenLists) ? chosenLists : 'articles';
  const [name, setName] = useState('');
  const [slug, setSlug] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [inMenu, setInMenu] = useState(true);
  // The palette's first colour no section has, until the owner picks one.
  const [chosenColor, setColor] = useState<string | null>(null);
  const color = chosenColor ?? freeSectionColor(taken);
  const address = slug ?? slugOf(name);

  function add(event: FormEvent) {
    event.preventDefault();
    void run(report, `Added ${name}: its page is /${address}.`, async () => {
      await createSection({
        name,
        slug: address,
        description,
        inMenu,
        color,
        ...(lists !== 'articles' && { lists }),
      });
      setName('');
      setSlug(null);
      setDescription('');
      setColor(null);
    });
  }

  return (
    <AddForm title="Add a section" onSubmit={add} submit="Add section">
      <div className="desk-sections__fields">
        <TextField
          label="Name"
          value={name}
          required
          maxLength={MAX_SECTION_NAME}
          onChange={setName}
        />
        <TextField label="Address" value={address} required maxLength={60} onChange={setSlug} />
        {free.length > 1 && (
          <label className="desk-field">
            <span>Lists</span>
            <select
              value={lists}
              onChange={(event) => setLists(event.target.value as SectionLists)}
            >
              <LabelledOptions values={free} labels={NEW_LISTS_LABELS} />
            </select>
          </label>
        )}
      </div>
      <label className="desk-field">
        <span>Description</span>
        <textarea
          value={description}
          maxLength={MAX_SECTION_DESCRIPTION}
          onChange={(event) => setDescription(event.target.value)}
        />
      </label>
      <ColorChoice name="new-section-color" value={color} onChange={setColor} disabled={false} />
      <label className="desk-check">
        <input
          type="checkbox"
          checked={inMenu}
          onChange={(event) => setInMenu(event.target.checked)}
        />{' '}
        Show in the menu
      </label>
    </AddForm>
  );
}
