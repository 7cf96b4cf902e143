/** The "Visit Campaign ↗" line of a card that opens another site. */
export function VisitIndicator({ label }: { label: string }) {
  return (
    <span className="card__cta">
      {label} <span aria-hidden="true">↗</span>
    </span>
  );
}
