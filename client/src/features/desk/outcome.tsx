import { useState } from 'react';

/** What a change from the desk came to, in words: done, or why not. */
export interface Outcome {
  ok: boolean;
  text: string;
}

/**
 * The line a change's outcome is said on. The status line stays in the page, empty until there is
 * something to say, so screen readers announce what is written into it; a failure is an alert.
 */
export function OutcomeLines({ outcome }: { outcome: Outcome | null }) {
  return (
    <>
      <p role="status" className="desk__done">
        {outcome?.ok ? outcome.text : ''}
      </p>
      {outcome && !outcome.ok && (
        <p role="alert" className="form-error">
          {outcome.text}
        </p>
      )}
    </>
  );
}

/** A form's outcome under its fields, in the form's own small type. */
export function OutcomeNote({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null;
  return (
    <p role={outcome.ok ? 'status' : 'alert'} className="desk-plan__about">
      {outcome.text}
    </p>
  );
}

/** How a row's action reports to its list, whose one line says how the last action went. */
export interface RowReport {
  /** An action begins: the last one's line goes. */
  start(): void;
  /** An action ended, well or not: its line, and the list read again. */
  done(outcome: Outcome): void;
}

/** The outcome of a list's row actions, said once above the list, and how rows report to it. */
export function useListOutcome(reload: () => void): { outcome: Outcome | null; report: RowReport } {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  return {
    outcome,
    report: {
      start: () => setOutcome(null),
      done: (result) => {
        setOutcome(result);
        reload();
      },
    },
  };
}
