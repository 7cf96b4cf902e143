import { useState, type FormEvent } from 'react';
import type { DeskStaff, DeskTopic } from '../../../../contract/desk-api';
import { MAX_TOPIC_DESCRIPTION, topicPath } from '../../../../contract/topics';
import { describeTopic, fetchTopics } from './desk-api';
import type { Outcome } from './outcome';
import { describeError, useDeskData } from './use-desk-data';

/**
 * /desk/topics: every topic the published articles and campaigns carry, with how many, and the
 * description its page shows, which editors and owners write here (empty: the page's own).
 */
export function TopicsPage({ staff }: { staff: DeskStaff }) {
  const [topics, reload] = useDeskData('topics', (signal) => fetchTopics(signal));
  const mayWrite = staff.role !== 'writer';
  return (
    <section aria-labelledby="topics-title">
      <h1 id="topics-title">Topics</h1>
      <p className="desk__lede">
        The tags of the published articles and campaigns, each with a page of its own. Tag a post in
        its Topics field; describe a topic here.
      </p>
      {topics.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {topics.state === 'error' && <p role="alert">{describeError(topics.error)}</p>}
      {topics.state === 'ready' &&
        (topics.data.topics.length === 0 ? (
          <p>No published post has a topic yet.</p>
        ) : (
          <ul className="desk-topics" role="list">
            {topics.data.topics.map((topic) => (
              <li key={topic.slug}>
                <TopicRow topic={topic} mayWrite={mayWrite} onSaved={reload} />
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}

function TopicRow({
  topic,
  mayWrite,
  onSaved,
}: {
  topic: DeskTopic;
  mayWrite: boolean;
  onSaved: () => void;
}) {
  const [text, setText] = useState(topic.written ? topic.description : '');
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const fieldId = `topic-${topic.slug}`;

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setOutcome(null);
    try {
      await describeTopic(topic.slug, text);
      setOutcome({ ok: true, text: 'Saved: the topic’s page says so now.' });
      onSaved();
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="desk-topic" onSubmit={save} aria-labelledby={`${fieldId}-name`}>
      <h2 id={`${fieldId}-name`} className="desk-topic__name">
        <a href={topicPath(topic.slug)}>{topic.name}</a>{' '}
        <span className="desk__small">{topic.count === 1 ? '1 post' : `${topic.count} posts`}</span>
      </h2>
      <label className="desk-field">
        <span>Description</span>
        <textarea
          value={text}
          maxLength={MAX_TOPIC_DESCRIPTION}
          placeholder={topic.written ? '' : topic.description}
          readOnly={!mayWrite}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      {mayWrite && (
        <p className="desk-topic__actions">
          <button className="button" type="submit" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          {outcome && (
            <span role={outcome.ok ? 'status' : 'alert'} className="desk__small">
              {outcome.text}
            </span>
          )}
        </p>
      )}
    </form>
  );
}
