import { useState } from 'react';
import { listText, parseList, type FieldSpec } from './post-form';

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
      return (
        <label className="desk-field">
          <span>{spec.label}</span>
          <input
            type="number"
            min={spec.min}
            max={spec.max}
            value={text}
            onChange={(e) => onChange(e.target.value === '' ? '' : Number(e.target.value))}
          />
        </label>
      );
    case 'select':
      return (
        <label className="desk-field">
          <span>{spec.label}</span>
          <select value={text} onChange={(e) => onChange(e.target.value)}>
            <option value="">Choose…</option>
            {spec.options.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </label>
      );
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

/**
 * A list typed as text: what the writer types stays as typed (a comma at its end too, where the
 * next item begins) while it means the list the post has.
 */
function ListField({
  label,
  hint,
  value,
  onChange,
}: {
  label: string;
  hint?: string;
  value: readonly unknown[];
  onChange: (value: string[]) => void;
}) {
  const [text, setText] = useState(() => listText(value));
  // Another list arrived (the post loaded, a revision restored): show it.
  if (listText(parseList(text)) !== listText(value)) setText(listText(value));
  return (
    <label className="desk-field">
      <span>{label}</span>
      <input
        value={text}
        placeholder={hint}
        onChange={(e) => {
          setText(e.target.value);
          onChange(parseList(e.target.value));
        }}
      />
    </label>
  );
}
