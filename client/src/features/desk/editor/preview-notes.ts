import type { PublishWarning } from '../../../../../contract/post-editor-fields';

/**
 * A warning as the preview shows it, by the field's label: "Summary is required", "Body: raw HTML
 * is not allowed: <div>".
 */
export const describeWarning = ({ label, message }: Pick<PublishWarning, 'label' | 'message'>) =>
  /^(is|must) /.test(message) ? `${label} ${message}.` : `${label}: ${message}.`;
