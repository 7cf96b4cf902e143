// The desk's editor (@tiptap/react) imports useSyncExternalStore from the shim package for React 17
// and older; React 19 has it, so the build points the shim here and the editor carries no copy.
export { useSyncExternalStore } from 'react';
