import { useEffect, useId, useState } from 'react';
import { fetchTopics } from '../desk-api';
import { SelectField } from './select-field';
import type { FieldSpec } from '../../../../../contract/post-editor-fields';
import { listText, parseList } from './post-form';

/** One of the fields a kind has beside its title and body, drawn as its spec says. */
export function KindField({
  spec,
  value,
  onChange,
}: {
  spec: FieldSpec;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  switch (spec.type) {
    case 'text':
    case 'url':
    case 'date':
      return (
        <label className="desk-field">
          <span>{spec.label}</span>
          <input
            type={spec.type}
            value={text}
            placeholder={spec.hint}
            onChange={(e) => onChange(e.target.value)}
          />
        </label>
      );
    case 'textarea':
      return (
        <label className="desk-field">
          <span>{spec.label}</span>
          <textarea value={text} maxLength={spec.max} onChange={(e) => onChange(e.target.value)} />
        </label>
      );
    case 'number':
      return <NumberField spec={spec} text={text} onChange={onChange} />;
    case 'select':
      return <SelectField spec={spec} text={text} onChange={onChange} />;
    case 'checkbox':
      return (
        <label className="desk-check">
          <input
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
          />{' '}
          {spec.label}
        </label>
      );
    case 'list':
      return (
        <ListField
          label={spec.label}
          hint={spec.hint}
          suggestions={spec.suggests === 'topics' ? 'topics' : null}
          value={Array.isArray(value) ? value : []}
          onChange={onChange}
        />
      );
    case 'rows': {
      const rows = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
      const setRow = (index: number, name: string, cell: unknown) =>
        onChange(rows.map((row, i) => (i === index ? { ...row, [name]: cell } : row)));
      return (
        <fieldset className="desk-rows">
          <legend>{spec.label}</legend>
          {spec.hint && <p className="desk__small">{spec.hint}</p>}
          {rows.map((row, index) => (
            <div key={index} className="desk-rows__row">
              {spec.columns.map((column) => (
                <label key={column.name} className="desk-field">
                  <span>
                    {column.label} {index + 1}
                  </span>
                  <input
                    type={column.type}
                    value={row[column.name] === undefined ? '' : String(row[column.name])}
                    onChange={(e) =>
                      setRow(
                        index,
                        column.name,
                        column.type === 'number' ? Number(e.target.value) : e.target.value,
                      )
                    }
                  />
                </label>
              ))}
              <button
                type="button"
                className="button button--outline"
                onClick={() => onChange(rows.filter((_, i) => i !== index))}
              >
                Remove {index + 1}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="button button--outline"
            onClick={() => onChange([...rows, {}])}
          >
            Add
          </button>
        </fieldset>
      );
    }
  }
}

/** A number, with its hint under it (read as its description, not its name). */
function NumberField({
  spec,
  text,
  onChange,
}: {
  spec: Extract<FieldSpec, { type: 'number' }>;
  text: string;
  onChange: (value: unknown) => void;
}) {
  const id = useId();
  return (
    <div className="desk-field">
      <label htmlFor={id}>{spec.label}</label>
      <input
        id={id}
        type="number"
        min={spec.min}
        max={spec.max}
        value={text}
        aria-describedby={spec.hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value === '' ? '' : Number(e.target.value))}
      />
      {spec.hint && (
        <small id={`${id}-hint`} className="post-editor__hint">
          {spec.hint}
        </small>
      )}
    </div>
  );
}

/** The topics the site's posts carry (GET /api/desk/topics), to suggest; none until they load. */
function useTopicNames(wanted: boolean): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    fetchTopics(controller.signal).then(
      ({ topics }) => setNames(topics.map((topic) => topic.name)),
      // Suggestions are a help, not the field: without them, topics are typed as before.
      () => setNames([]),
    );
    return () => controller.abort();
  }, [wanted]);
  return names;
}

/** The most suggestions shown at once. */
const MAX_SUGGESTIONS = 6;

/**
 * A list typed as text: what the writer types stays as typed (a comma at its end too, where the
 * next item begins) while it means the list the post has. With suggestions (the site's topics),
 * the item being typed offers the existing ones that match, to take by click or by the arrow keys
 * and Enter (a combobox and its listbox).
 */
function ListField({
  label,
  hint,
  suggestions,
  value,
  onChange,
}: {
  label: string;
  hint?: string;
  suggestions: 'topics' | null;
  value: readonly unknown[];
  onChange: (value: string[]) => void;
}) {
  const listId = useId();
  const names = useTopicNames(suggestions === 'topics');
  const [text, setText] = useState(() => listText(value));
  const [open, setOpen] = useState(false);
  /** The suggestion the arrow keys are on; -1 before they move. */
  const [active, setActive] = useState(-1);
  // Another list arrived (the post loaded, a revision restored): show it.
  if (listText(parseList(text)) !== listText(value)) setText(listText(value));

  const comma = text.lastIndexOf(',');
  const typing = text
    .slice(comma + 1)
    .trim()
    .toLowerCase();
  const chosen = new Set(parseList(text.slice(0, comma + 1)).map((item) => item.toLowerCase()));
  const matches =
    typing === ''
      ? []
      : names
          .filter((name) => !chosen.has(name.toLowerCase()))
          .filter((name) => name.toLowerCase().includes(typing) && name.toLowerCase() !== typing)
          .slice(0, MAX_SUGGESTIONS);
  const shown = open && matches.length > 0;

  const write = (next: string) => {
    setText(next);
    onChange(parseList(next));
  };
  const take = (name: string) => {
    write(`${comma < 0 ? '' : `${text.slice(0, comma + 1)} `}${name}, `.replace(/^\s+/, ''));
    setOpen(false);
  };
  const optionId = (index: number) => `${listId}-${index}`;

  return (
    <div className="desk-field post-editor__list-field">
      <label htmlFor={`${listId}-input`}>{label}</label>
      <input
        id={`${listId}-input`}
        value={text}
        placeholder={hint}
        autoComplete="off"
        {...(suggestions && {
          role: 'combobox',
          'aria-autocomplete': 'list' as const,
          'aria-expanded': shown,
          'aria-controls': listId,
          ...(shown &&
            active >= 0 && {
              'aria-activedescendant': optionId(Math.min(active, matches.length - 1)),
            }),
        })}
        onChange={(e) => {
          write(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (!shown) return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            const last = matches.length - 1;
            const at = Math.min(active, last);
            if (e.key === 'ArrowDown') setActive(at >= last ? 0 : at + 1);
            else setActive(at <= 0 ? last : at - 1);
          } else if (e.key === 'Enter' && active >= 0) {
            e.preventDefault();
            const name = matches[Math.min(active, matches.length - 1)];
            if (name) take(name);
          } else if (e.key === 'Escape') {
            setOpen(false);
          }
        }}
      />
      {suggestions && (
        <ul id={listId} role="listbox" aria-label="Suggestions" hidden={!shown}>
          {matches.map((name, index) => (
            <li
              key={name}
              id={optionId(index)}
              role="option"
              aria-selected={index === Math.min(active, matches.length - 1)}
              // Before the input's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                take(name);
              }}
            >
              {name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
