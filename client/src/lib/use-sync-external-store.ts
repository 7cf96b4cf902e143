// wouter imports useSyncExternalStore from the shim package for React 17 and older; React 19 has
// it, so the build points the shim here and the first load carries no copy of it.
export { useSyncExternalStore } from 'react';
