import { useState } from 'react';
import type { PerkRedemption } from '../../../../contract/api';
import type { Perk } from '../../../../contract/perks';
import { ExternalLink } from '../../components/external-link';
import { describeFailure } from '../../lib/api-client';
import { formatDate } from '../../lib/format-date';
import { redeemPerk } from './perks-api';

/**
 * One partner's offer. Everyone reads what it is; a member also reads how to redeem it and asks
 * the server for the code or link (never in the page before that).
 */
export function PerkCard({ perk, isMember }: { perk: Perk; isMember: boolean }) {
  const titleId = `perk-${perk.id}`;
  return (
    <article className="perk" aria-labelledby={titleId}>
      <p className="perk__partner">
        {perk.partner}
        {perk.sample && <span className="perk__sample">Sample partner</span>}
      </p>
      <h3 id={titleId} className="perk__offer">
        {perk.offer}
      </h3>
      <p className="perk__terms">{perk.terms}</p>
      <p className="perk__meta">
        Until {formatDate(perk.expiresOn)} ·{' '}
        <ExternalLink href={perk.website}>{new URL(perk.website).host}</ExternalLink>
      </p>
      {isMember ? (
        <Redeem perk={perk} />
      ) : (
        <p className="perk__locked">Members only: join to see how to redeem it.</p>
      )}
    </article>
  );
}

function Redeem({ perk }: { perk: Perk }) {
  const [redemption, setRedemption] = useState<PerkRedemption | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function reveal() {
    setBusy(true);
    setProblem(null);
    try {
      setRedemption(await redeemPerk(perk.id));
    } catch (error) {
      setProblem(describeFailure(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="perk__redeem">
      <p className="perk__how">
        <strong>How to redeem:</strong> {perk.howToRedeem}
      </p>
      {redemption && 'code' in redemption ? (
        <RevealedCode code={redemption.code} />
      ) : redemption && 'link' in redemption ? (
        <ExternalLink href={redemption.link} className="button button--accent">
          Open the offer
        </ExternalLink>
      ) : (
        <button type="button" className="button button--accent" disabled={busy} onClick={reveal}>
          {busy ? 'One moment…' : 'Show my code'}
        </button>
      )}
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
    </div>
  );
}

function RevealedCode({ code }: { code: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }
  return (
    <div className="perk__code-row">
      <code className="perk__code" aria-label="Your code">
        {code}
      </code>
      <button type="button" className="button" onClick={() => void copy()}>
        Copy
      </button>
      <span role="status" className="perk__copied">
        {copied === true ? 'Copied' : copied === false ? 'Select the code to copy it' : ''}
      </span>
    </div>
  );
}
