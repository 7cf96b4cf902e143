import type { ResourceGroup } from '../types';
import { ResourceCard } from './resource-card';

/** One Empowerment group: its name, what it offers, and a card per resource. */
export function ResourceGroupSection({ group }: { group: ResourceGroup }) {
  const titleId = `${group.slug}-title`;
  return (
    <section className="resource-group" id={group.slug} aria-labelledby={titleId}>
      <h2 id={titleId}>{group.category}</h2>
      <p className="resource-group__description">{group.description}</p>
      <ul className="card-grid" role="list">
        {group.resources.map((resource) => (
          <li key={resource.id}>
            <ResourceCard resource={resource} />
          </li>
        ))}
      </ul>
    </section>
  );
}
