/**
 * Where a value from a request holds the NUL character (U+0000), as a field path (`title`,
 * `tags.1`), or null. PostgreSQL refuses it in text and jsonb, so a write carrying one would fail
 * with a 500: the stores look for it first and answer a 400 naming the field. Walked without
 * recursion, so no depth of nesting overflows the stack.
 */
export function findNulCharacter(value: unknown, name = ''): string | null {
  const stack: [unknown, string][] = [[value, name]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path;
    } else if (Array.isArray(item)) {
      item.forEach((child, index) => stack.push([child, join(path, String(index))]));
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        const at = join(path, key);
        if (key.includes('\u0000')) return at;
        stack.push([child, at]);
      }
    }
  }
  return null;
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** What a store says of a field that holds one. */
export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
