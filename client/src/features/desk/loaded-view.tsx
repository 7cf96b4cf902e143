import type { ReactNode } from 'react';
import { describeError, type Loaded } from './use-desk-data';

/** What a desk screen shows of its data (`useDeskData`): a line while it loads, why it failed, or `children` drawing it. */
export function LoadedView<T>({
  data,
  children,
}: {
  data: Loaded<T>;
  children: (data: T) => ReactNode;
}) {
  if (data.state === 'loading') return <p className="desk__loading">Loading…</p>;
  if (data.state === 'error') return <p role="alert">{describeError(data.error)}</p>;
  return children(data.data);
}
