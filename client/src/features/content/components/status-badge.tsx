import type { BoycottStatus } from '../types';

/** A boycott's status; its class is the lower-case status (`ongoing`, `success`), as in the seed. */
export function StatusBadge({ status }: { status: BoycottStatus }) {
  return <span className={`status-badge ${status.toLowerCase()}`}>{status}</span>;
}
