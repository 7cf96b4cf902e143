import { useState } from 'react';
import {
  MAX_LINK_ADDRESS,
  MAX_LINK_LABEL,
  type LinkPlacement,
} from '../../../../contract/section-rules';
import type { SiteLink } from '../../../../contract/sections';
import type { RowReport } from './outcome';
import { changeLink, createLink, deleteLink } from './sections-api';
import {
  AddForm,
  OrderedRows,
  RowActions,
  TextField,
  run,
  type ListRowProps,
} from './sections-parts';
import { LabelledOptions } from '../../components/labelled-options';

const PLACEMENT_LABELS: Record<LinkPlacement, string> = {
  navbar: 'Navbar (beside Sign in)',
  footer: 'Footer (More)',
};

/** The links one place (the navbar or the footer) shows, in order, each to edit, move or delete. */
export function LinkList({
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
        <OrderedRows
          className="desk-sections__links"
          label={PLACEMENT_LABELS[placement]}
          items={links}
          keyOf={(link) => `${link.id}-${link.position}-${link.label}-${link.address}`}
          row={(link, place) => (
            <LinkRow link={link} {...place} mayChange={mayChange} report={report} />
          )}
        />
      )}
    </>
  );
}

function LinkRow({ link, first, last, mayChange, report }: ListRowProps & { link: SiteLink }) {
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
        <RowActions
          label={link.label}
          place={{ first, last }}
          onMove={(by) => void change({ position: link.position + by }, `Moved ${link.label}.`)}
        >
          <button
            className="button button--outline"
            type="button"
            onClick={() =>
              void run(report, `Deleted the link ${link.label}.`, () => deleteLink(link.id))
            }
          >
            Delete
          </button>
        </RowActions>
      )}
    </form>
  );
}

/** The form that adds a link to the navbar or the footer. */
export function NewLink({ report }: { report: RowReport }) {
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
            <LabelledOptions values={['navbar', 'footer'] as const} labels={PLACEMENT_LABELS} />
          </select>
        </label>
      </div>
    </AddForm>
  );
}
