/** A Stripe id, linked to Stripe's Dashboard where the server gave its address. */
export function StripeLink({ id, url }: { id: string; url: string | null }) {
  if (!url) return <span className="desk__mono">{id}</span>;
  return (
    <a className="desk__mono desk__stripe" href={url} target="_blank" rel="noopener noreferrer">
      {id}
      <span className="visually-hidden"> (opens the Stripe Dashboard in a new tab)</span>
    </a>
  );
}
