import { badRequest } from './ghost-error.js';

/**
 * The part of Ghost's filter language (NQL) that tools send, for `?filter=` (docs/ghost-api.md):
 * `field:value`, `field:-value` (not), `field:[a,b]` (any of), `field:-[a,b]`, `field:>value`,
 * `>=`, `<`, `<=` (dates and numbers), values bare or in single or double quotes, `+` for AND,
 * `,` for OR (AND binds first) and parentheses. Anything else is a 400 `BadRequestError` that says
 * what was not understood; a field the resource does not have is one too.
 */

/** A record's values for a field: one for most, several for `tags` and `authors`. */
export type FieldValues = (field: string) => readonly (string | number | boolean | null)[];

export type Filter = (values: FieldValues) => boolean;

type Op = '=' | '!=' | '>' | '>=' | '<' | '<=';

interface Condition {
  field: string;
  op: Op;
  values: string[];
}

type Node = { type: 'and' | 'or'; children: Node[] } | { type: 'condition'; condition: Condition };

const MAX_FILTER_CHARS = 2_000;

/** Parses `text` into a filter over records with these fields (aliases already resolved). */
export function parseFilter(text: string, fields: ReadonlySet<string>): Filter {
  if (text.length > MAX_FILTER_CHARS) {
    throw badRequest(`A filter is at most ${MAX_FILTER_CHARS} characters.`);
  }
  const parser = new Parser(text, fields);
  const node = parser.parse();
  return (values) => evaluate(node, values);
}

class Parser {
  private at = 0;
  constructor(
    private readonly text: string,
    private readonly fields: ReadonlySet<string>,
  ) {}

  parse(): Node {
    const node = this.or();
    this.skipSpace();
    if (this.at < this.text.length) this.fail(`unexpected "${this.text.slice(this.at)}"`);
    return node;
  }

  private fail(what: string): never {
    throw badRequest(
      `Error parsing filter: ${what}.`,
      'Supported: field:value, field:-value, field:[a,b], field:>value (>=, <, <=), + for AND, , for OR, parentheses.',
    );
  }

  private skipSpace() {
    while (this.text[this.at] === ' ') this.at += 1;
  }

  private or(): Node {
    return this.joined('or', ',', () => this.and());
  }

  private and(): Node {
    return this.joined('and', '+', () => this.atom());
  }

  /** One or more `operand`s between `separator`s: the operand alone, or their `type` node. */
  private joined(type: 'or' | 'and', separator: string, operand: () => Node): Node {
    const children = [operand()];
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== separator) break;
      this.at += 1;
      children.push(operand());
    }
    return children.length === 1 && children[0] ? children[0] : { type, children };
  }

  private atom(): Node {
    this.skipSpace();
    if (this.text[this.at] === '(') {
      this.at += 1;
      const node = this.or();
      this.skipSpace();
      if (this.text[this.at] !== ')') this.fail('a "(" is not closed');
      this.at += 1;
      return node;
    }
    const field = /^[a-z_][a-z0-9_.]*/i.exec(this.text.slice(this.at))?.[0];
    if (!field) this.fail(`expected a field name at "${this.text.slice(this.at) || 'the end'}"`);
    this.at += field.length;
    if (this.text[this.at] !== ':') this.fail(`expected ":" after "${field}"`);
    this.at += 1;
    const name = field.toLowerCase();
    if (!this.fields.has(name)) {
      throw badRequest(
        `Cannot filter by "${field}".`,
        `Filterable fields here: ${[...this.fields].join(', ')}.`,
      );
    }
    let op: Op = '=';
    for (const candidate of ['>=', '<=', '>', '<', '-'] as const) {
      if (this.text.startsWith(candidate, this.at)) {
        op = candidate === '-' ? '!=' : candidate;
        this.at += candidate.length;
        break;
      }
    }
    if (this.text[this.at] === '~') this.fail('"~" (contains) is not supported');
    if (this.text[this.at] === '[') {
      if (op !== '=' && op !== '!=') this.fail('a list takes no comparison');
      this.at += 1;
      const values = [this.value()];
      for (;;) {
        this.skipSpace();
        const next = this.text[this.at];
        if (next === ']') break;
        if (next !== ',') this.fail('a "[" list is not closed');
        this.at += 1;
        values.push(this.value());
      }
      this.at += 1;
      return { type: 'condition', condition: { field: name, op, values } };
    }
    return { type: 'condition', condition: { field: name, op, values: [this.value()] } };
  }

  private value(): string {
    this.skipSpace();
    const quote = this.text[this.at];
    if (quote === "'" || quote === '"') {
      let value = '';
      this.at += 1;
      while (this.at < this.text.length && this.text[this.at] !== quote) {
        if (this.text[this.at] === '\\' && this.at + 1 < this.text.length) this.at += 1;
        value += this.text[this.at];
        this.at += 1;
      }
      if (this.text[this.at] !== quote) this.fail('a quoted value is not closed');
      this.at += 1;
      return value;
    }
    const bare = /^[^,+()[\]'"\s]+/.exec(this.text.slice(this.at))?.[0];
    if (!bare) this.fail(`expected a value at "${this.text.slice(this.at) || 'the end'}"`);
    this.at += bare.length;
    return bare;
  }
}

/** A value as the record's value is compared with it: dates as times, the rest as lower-case text. */
function comparable(value: string | number | boolean | null): string | number | null {
  if (value === null) return null;
  if (typeof value === 'number') return value;
  return String(value).toLowerCase();
}

const asTime = (value: string) => {
  const time = Date.parse(/^\d{4}-\d{2}-\d{2} /.test(value) ? value.replace(' ', 'T') : value);
  return Number.isNaN(time) ? null : time;
};

function matches(condition: Condition, values: FieldValues): boolean {
  const held = values(condition.field);
  const wanted = condition.values.map((value) => (value === 'null' ? null : value));
  if (condition.op === '=' || condition.op === '!=') {
    const found = held.some((value) => {
      const mine = comparable(value);
      return wanted.some((want) => (want === null ? mine === null : mine === comparable(want)));
    });
    const none = held.length === 0 && wanted.includes(null);
    return condition.op === '=' ? found || none : !(found || none);
  }
  const [want] = wanted;
  if (want === null || want === undefined) return false;
  return held.some((value) => {
    if (value === null) return false;
    const [mine, theirs] =
      typeof value === 'number'
        ? [value, Number(want)]
        : [asTime(String(value)) ?? String(value), asTime(want) ?? want];
    if (typeof mine !== typeof theirs) return false;
    switch (condition.op) {
      case '>':
        return mine > theirs;
      case '>=':
        return mine >= theirs;
      case '<':
        return mine < theirs;
      default:
        return mine <= theirs;
    }
  });
}

function evaluate(node: Node, values: FieldValues): boolean {
  if (node.type === 'condition') return matches(node.condition, values);
  return node.type === 'and'
    ? node.children.every((child) => evaluate(child, values))
    : node.children.some((child) => evaluate(child, values));
}
