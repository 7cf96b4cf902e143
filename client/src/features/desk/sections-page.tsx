import { useState, type FormEvent, type ReactNode } from 'react';
import type { DeskStaff } from '../../../../contract/desk-api';
import {
  MAX_LINK_ADDRESS,
  MAX_LINK_LABEL,
  MAX_SECTION_DESCRIPTION,
  MAX_SECTION_NAME,
  type LinkPlacement,
} from '../../../../contract/section-rules';
import {
  SECTION_COLORS,
  freeSectionColor,
  sectionPath,
  type SiteLink,
  type SiteSection,
} from '../../../../contract/sections';
import { ConfirmBox } from './confirm-box';
import { OutcomeLines, useListOutcome, type RowReport } from './outcome';
import {
  changeLink,
  changeSection,
  createLink,
  createSection,
  deleteLink,
  deleteSection,
  fetchSections,
} from './sections-api';
import sectionsCss from './sections-page.css?inline';
import { describeError, useDeskData } from './use-desk-data';

const LISTS_LABELS: Record<SiteSection['lists'], string> = {
  articles: 'Articles',
  campaigns: 'The campaigns',
  boycotts: 'The boycotts',
  resources: 'The learning resources',
};

const PLACEMENT_LABELS: Record<LinkPlacement, string> = {
  navbar: 'Navbar (beside Sign in)',
  footer: 'Footer (More)',
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
 * show or hide and delete; and the links the navbar and the footer show besides them. Every change
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
      {navigation.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {navigation.state === 'error' && <p role="alert">{describeError(navigation.error)}</p>}
      {navigation.state === 'ready' && (
        <>
          <ol className="desk-topics" aria-label="Sections">
            {navigation.data.sections.map((section, index, all) => (
              <li key={`${section.id}-${section.position}-${section.slug}`}>
                <SectionRow
                  section={section}
                  first={index === 0}
                  last={index === all.length - 1}
                  mayChange={mayChange}
                  report={report}
                />
              </li>
            ))}
          </ol>
          {mayChange && (
            <NewSection
              report={report}
              taken={navigation.data.sections.map((section) => section.color)}
            />
          )}
          <h2 className="desk-sections__heading">Links</h2>
          {(['navbar', 'footer'] as const).map((placement) => (
            <LinkList
              key={placement}
              placement={placement}
              links={navigation.data.links.filter((link) => link.placement === placement)}
              mayChange={mayChange}
              report={report}
            />
          ))}
          {mayChange && <NewLink report={report} />}
        </>
      )}
    </section>
  );
}

/** Runs a change and says how it went on the page's one line. */
async function run(report: RowReport, done: string, change: () => Promise<unknown>) {
  report.start();
  try {
    await change();
    report.done({ ok: true, text: done });
  } catch (error) {
    report.done({ ok: false, text: describeError(error) });
  }
}

function SectionRow({
  section,
  first,
  last,
  mayChange,
  report,
}: {
  section: SiteSection;
  first: boolean;
  last: boolean;
  mayChange: boolean;
  report: RowReport;
}) {
  const [name, setName] = useState(section.name);
  const [slug, setSlug] = useState(section.slug);
  const [description, setDescription] = useState(section.description);
  const [color, setColor] = useState(section.color);
  const [confirming, setConfirming] = useState(false);
  const special = section.lists !== 'articles';
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
          {LISTS_LABELS[section.lists]} · {section.inMenu ? 'in the menu' : 'hidden from the menu'}
        </span>
      </h2>
      <div className="desk-sections__fields">
        <TextField
          label="Name"
          value={name}
          maxLength={MAX_SECTION_NAME}
          readOnly={!mayChange || special}
          onChange={setName}
        />
        <TextField
          label="Address"
          value={slug}
          maxLength={60}
          readOnly={!mayChange || special}
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
      {special && (
        <p className="desk__small">
          {section.name} lists the site’s {section.lists}: its name and address stay.
        </p>
      )}
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
          {!special && (
            <button
              className="button button--outline"
              type="button"
              onClick={() => setConfirming(true)}
            >
              Delete
            </button>
          )}
        </p>
      )}
      {confirming && (
        <ConfirmBox
          confirmLabel={`Delete ${section.name}`}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void run(report, `Deleted ${section.name}.`, () => deleteSection(section.id));
          }}
        >
          Delete the section {section.name}? Its page goes; a section with posts cannot be deleted.
        </ConfirmBox>
      )}
    </form>
  );
}

function MoveButtons({
  label,
  first,
  last,
  onMove,
}: {
  label: string;
  first: boolean;
  last: boolean;
  onMove: (by: -1 | 1) => void;
}) {
  return (
    <>
      <button
        className="button button--outline desk-sections__move"
        type="button"
        disabled={first}
        aria-label={`Move ${label} up`}
        onClick={() => onMove(-1)}
      >
        ↑
      </button>
      <button
        className="button button--outline desk-sections__move"
        type="button"
        disabled={last}
        aria-label={`Move ${label} down`}
        onClick={() => onMove(1)}
      >
        ↓
      </button>
    </>
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

function NewSection({ report, taken }: { report: RowReport; taken: string[] }) {
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
      await createSection({ name, slug: address, description, inMenu, color });
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

function AddForm({
  title,
  submit,
  onSubmit,
  children,
}: {
  title: string;
  submit: string;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <form className="desk-topic desk-sections__add" onSubmit={onSubmit} aria-label={title}>
      <h2 className="desk-topic__name">{title}</h2>
      {children}
      <p className="desk-topic__actions">
        <button className="button button--accent" type="submit">
          {submit}
        </button>
      </p>
    </form>
  );
}

function LinkList({
  placement,
  links,
  mayChange,
  report,
}: {
  placement: LinkPlacement;
  links: SiteLink[];
  mayChange: boolean;
  report: RowReport;
}) {
  return (
    <>
      <h3 className="desk-sections__placement">{PLACEMENT_LABELS[placement]}</h3>
      {links.length === 0 ? (
        <p className="desk__small">No links here.</p>
      ) : (
        <ol className="desk-sections__links" aria-label={PLACEMENT_LABELS[placement]}>
          {links.map((link, index) => (
            <li key={`${link.id}-${link.position}-${link.label}-${link.address}`}>
              <LinkRow
                link={link}
                first={index === 0}
                last={index === links.length - 1}
                mayChange={mayChange}
                report={report}
              />
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

function LinkRow({
  link,
  first,
  last,
  mayChange,
  report,
}: {
  link: SiteLink;
  first: boolean;
  last: boolean;
  mayChange: boolean;
  report: RowReport;
}) {
  const [label, setLabel] = useState(link.label);
  const [address, setAddress] = useState(link.address);
  const change = (body: Parameters<typeof changeLink>[1], done: string) =>
    run(report, done, () => changeLink(link.id, body));
  return (
    <form
      className="desk-sections__link"
      aria-label={link.label}
      onSubmit={(event) => {
        event.preventDefault();
        void change({ label, address }, `Saved the link ${label}.`);
      }}
    >
      <TextField
        label="Label"
        value={label}
        maxLength={MAX_LINK_LABEL}
        readOnly={!mayChange}
        onChange={setLabel}
      />
      <TextField
        label="Address"
        value={address}
        maxLength={MAX_LINK_ADDRESS}
        readOnly={!mayChange}
        onChange={setAddress}
      />
      {mayChange && (
        <p className="desk-topic__actions">
          <button className="button" type="submit">
            Save
          </button>
          <MoveButtons
            label={link.label}
            first={first}
            last={last}
            onMove={(by) => void change({ position: link.position + by }, `Moved ${link.label}.`)}
          />
          <button
            className="button button--outline"
            type="button"
            onClick={() =>
              void run(report, `Deleted the link ${link.label}.`, () => deleteLink(link.id))
            }
          >
            Delete
          </button>
        </p>
      )}
    </form>
  );
}

function NewLink({ report }: { report: RowReport }) {
  const [label, setLabel] = useState('');
  const [address, setAddress] = useState('');
  const [placement, setPlacement] = useState<LinkPlacement>('footer');
  return (
    <AddForm
      title="Add a link"
      submit="Add link"
      onSubmit={(event) => {
        event.preventDefault();
        void run(report, `Added the link ${label}.`, async () => {
          await createLink({ label, address, placement });
          setLabel('');
          setAddress('');
        });
      }}
    >
      <div className="desk-sections__fields">
        <TextField
          label="Label"
          value={label}
          required
          maxLength={MAX_LINK_LABEL}
          onChange={setLabel}
        />
        <TextField
          label="Address"
          value={address}
          required
          placeholder="/about or https://…"
          maxLength={MAX_LINK_ADDRESS}
          onChange={setAddress}
        />
        <label className="desk-field">
          <span>Where</span>
          <select
            value={placement}
            onChange={(event) => setPlacement(event.target.value as LinkPlacement)}
          >
            {(['navbar', 'footer'] as const).map((each) => (
              <option key={each} value={each}>
                {PLACEMENT_LABELS[each]}
              </option>
            ))}
          </select>
        </label>
      </div>
    </AddForm>
  );
}

/** A labelled one-line text box of this page's forms. */
function TextField({
  label,
  value,
  onChange,
  maxLength,
  required = false,
  readOnly = false,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  required?: boolean;
  readOnly?: boolean;
  placeholder?: string;
}) {
  return (
    <label className="desk-field">
      <span>{label}</span>
      <input
        value={value}
        required={required}
        placeholder={placeholder}
        maxLength={maxLength}
        readOnly={readOnly}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
