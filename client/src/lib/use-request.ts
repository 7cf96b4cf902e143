import { useState } from 'react';
import { describeFailure } from './api-client';

/**
 * A request the reader starts (a button, a form): `busy` while it runs, and `problem` says why
 * the last one failed (`unreachable` when no answer came). `run` hands the answer to `onAnswer`.
 */
export function useRequest(unreachable?: string) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run<T>(request: () => Promise<T>, onAnswer: (answer: T) => void) {
    setBusy(true);
    setProblem(null);
    try {
      onAnswer(await request());
    } catch (error) {
      setProblem(describeFailure(error, unreachable));
    } finally {
      setBusy(false);
    }
  }

  return { problem, setProblem, busy, run };
}

/** A request the server answers with a sentence for the reader (`{ message }`), kept in `done`. */
export function useMessageRequest() {
  const [done, setDone] = useState<string | null>(null);
  const { problem, busy, run } = useRequest();
  const send = (request: () => Promise<{ message: string }>) =>
    run(request, (answer) => setDone(answer.message));
  return { done, problem, busy, send };
}
