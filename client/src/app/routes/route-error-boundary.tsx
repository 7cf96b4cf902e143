import { Component, type ReactNode } from 'react';
import { PageMasthead } from '../../components/page-masthead';
import { useDocumentHead } from '../../lib/document-head';

/**
 * What a screen shows when it cannot be drawn (a chunk that did not load, a bug): a way to try
 * again, inside the navbar and footer. Keyed by the path in the layout, so navigating resets it.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <LoadFailed /> : this.props.children;
  }
}

function LoadFailed() {
  useDocumentHead('Something went wrong');
  return (
    <>
      <PageMasthead
        eyebrow="Error"
        title="Something went wrong"
        lede="This page could not be loaded. Check your connection, then try again."
      />
      <div className="page-body">
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </div>
    </>
  );
}
