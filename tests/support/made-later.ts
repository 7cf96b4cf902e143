/**
 * A stand-in, handed out when a describe is declared, for what its `beforeAll` makes later (the
 * site's app, a member): every read is passed on to the made value, so a test file names the site's
 * app and members in one `const` and uses them in its tests, where the hook has run. Read before
 * then, it throws, naming what is not made yet. Answers the stand-in, the call that puts the made
 * value behind it, and one that reads the made value, if any (an `afterAll` after a failed start).
 */
export function madeLater<T extends object>(
  name: string,
): [standIn: T, make: (made: T) => T, made: () => T | undefined] {
  let made: T | undefined;
  const real = (): T => {
    if (!made) throw new Error(`${name} is made in the describe's beforeAll: read it in a test`);
    return made;
  };
  const value = new Proxy({} as T, {
    get(_, key) {
      const target = real();
      const property: unknown = Reflect.get(target, key, target);
      // A method runs on the made value, whose own fields (a class's) it reads and writes.
      return typeof property === 'function' ? property.bind(target) : property;
    },
    set: (_, key, property) => Reflect.set(real(), key, property),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // The stand-in's own target has none of these fields: a proxy may only report them configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  const make = (next: T): T => (made = next);
  return [value, make, () => made];
}
