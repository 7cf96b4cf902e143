import { useState } from 'react';
import type { Outcome } from '../outcome';
import { describeError } from '../use-desk-data';

export interface MemberAction {
  busy: boolean;
  outcome: Outcome | null;
  run(call: () => Promise<{ message: string }>): void;
}

/** One action at a time: its answer in words, and the member read again after it. */
export function useMemberAction(onDone: () => void): MemberAction {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  return {
    busy,
    outcome,
    run(call) {
      setBusy(true);
      setOutcome(null);
      call()
        .then(
          (result) => {
            setOutcome({ ok: true, text: result.message });
            onDone();
          },
          (failure: unknown) => setOutcome({ ok: false, text: describeError(failure) }),
        )
        .finally(() => setBusy(false));
    },
  };
}
