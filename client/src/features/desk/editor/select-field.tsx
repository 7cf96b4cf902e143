import { useArticleSectionNames } from '../use-article-sections';
import type { FieldSpec } from '../../../../../contract/post-editor-fields';

/**
 * A field chosen from a list: its spec's options, or the site's sections of articles (GET
 * /api/desk/sections, in the menu's order) for an article's Section. A value not among them (a
 * section deleted since) stays shown, so opening a post never changes it.
 */
export function SelectField({
  spec,
  text,
  onChange,
}: {
  spec: Extract<FieldSpec, { type: 'select' }>;
  text: string;
  onChange: (value: unknown) => void;
}) {
  const sections = useArticleSectionNames(spec.optionsFrom === 'sections');
  const options = sections ?? spec.options;
  return (
    <label className="desk-field">
      <span>{spec.label}</span>
      <select value={text} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose…</option>
        {text !== '' && !options.includes(text) && <option key={text}>{text}</option>}
        {options.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
    </label>
  );
}
