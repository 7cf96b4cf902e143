// The checks an XML export passes before any parser sees it. Entity declarations are how an
// XML bomb (billion laughs) multiplies a small file into gigabytes and how an external entity
// reads a file off the server, so a document type with an internal subset or an external id is
// refused outright, as are names whose namespace prefixes are invalid or undeclared. Errors say
// where, by line and column, so a publisher can open the file and look.
import { XMLValidator } from 'fast-xml-parser';
import { ImportFileError } from './source.js';

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';
const NC_NAME = /^[\p{L}_][\p{L}\p{N}._\u00B7-]*$/u;

/** Namespaces the caller reads by prefix: a prefix bound elsewhere would pass off other data as theirs. */
export type ExpectedNamespaces = Record<string, RegExp>;

class Position {
  private readonly lineStarts: number[] = [0];
  constructor(text: string) {
    for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) {
      this.lineStarts.push(index + 1);
    }
  }
  /** `line 12, column 4`, both counted from 1. */
  of(offset: number): string {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((this.lineStarts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return `line ${low + 1}, column ${offset - (this.lineStarts[low] as number) + 1}`;
  }
}

function refuse(message: string, position: Position, offset: number): never {
  throw new ImportFileError(message, position.of(offset));
}

/** Skip from `start` past `end`; refuse when the file stops first. */
function skipPast(
  text: string,
  start: number,
  end: string,
  what: string,
  position: Position,
): number {
  const at = text.indexOf(end, start);
  if (at < 0) refuse(`${what} is never closed`, position, start);
  return at + end.length;
}

function checkDoctype(doctype: string, position: Position, offset: number): void {
  if (doctype.includes('[') || /<!ENTITY/i.test(doctype)) {
    refuse(
      'Entity declarations are not allowed (the document type has an internal subset)',
      position,
      offset,
    );
  }
  if (/\b(SYSTEM|PUBLIC)\b/.test(doctype)) {
    refuse(
      'External entities are not allowed (the document type names an external file)',
      position,
      offset,
    );
  }
}

interface OpenElement {
  name: string;
  offset: number;
  /** Prefixes this element declared, with what they hid, to restore at its end. */
  declared: [string, string | undefined][];
}

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/gy;

/**
 * Refuses a file that is not safe or not well-formed XML, saying where. `expected` binds prefixes
 * the reader relies on to the namespaces they must mean.
 */
export function checkXml(text: string, expected: ExpectedNamespaces = {}): void {
  const position = new Position(text);
  const scopes = new Map<string, string>([['xml', XML_NAMESPACE]]);
  const open: OpenElement[] = [];
  let rootSeen = false;
  let index = 0;
  while (index < text.length) {
    const lt = text.indexOf('<', index);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      index = skipPast(text, lt + 4, '-->', 'A comment', position);
    } else if (text.startsWith('<![CDATA[', lt)) {
      if (open.length === 0) refuse('Character data outside the root element', position, lt);
      index = skipPast(text, lt + 9, ']]>', 'A CDATA section', position);
    } else if (text.startsWith('<?', lt)) {
      index = skipPast(text, lt + 2, '?>', 'A processing instruction', position);
    } else if (text.startsWith('<!', lt)) {
      if (!/^<!DOCTYPE\s/i.test(text.slice(lt, lt + 10)) || rootSeen) {
        refuse('Declarations are not allowed here', position, lt);
      }
      // A document type ends at the first `>` unless it has an internal subset, which is refused.
      const end = text.indexOf('>', lt);
      checkDoctype(text.slice(lt, end < 0 ? text.length : end + 1), position, lt);
      if (end < 0) refuse('The document type is never closed', position, lt);
      index = end + 1;
    } else if (text.startsWith('</', lt)) {
      const end = skipPast(text, lt, '>', 'An end tag', position);
      const name = text.slice(lt + 2, end - 1).trim();
      const element = open.pop();
      if (!element) refuse(`The end tag </${name}> closes nothing`, position, lt);
      if (element.name !== name) {
        refuse(
          `The end tag </${name}> does not match <${element.name}> (${position.of(element.offset)})`,
          position,
          lt,
        );
      }
      for (const [prefix, hidden] of element.declared.reverse()) {
        if (hidden === undefined) scopes.delete(prefix);
        else scopes.set(prefix, hidden);
      }
      index = end;
    } else {
      if (rootSeen && open.length === 0) refuse('Content after the root element', position, lt);
      rootSeen = true;
      index = readStartTag(text, lt, scopes, open, expected, position);
    }
  }
  const unclosed = open.at(-1);
  if (unclosed) {
    refuse(
      `The element <${unclosed.name}> is never closed (the file ends first)`,
      position,
      unclosed.offset,
    );
  }
  if (!rootSeen) refuse('The file has no XML element', position, 0);

  // The scan above covers structure and namespaces; the validator covers the rest of XML's
  // grammar (attribute syntax, stray characters). Its column is kept as it reports it.
  const result = XMLValidator.validate(text);
  if (result !== true) {
    throw new ImportFileError(
      `Not well-formed XML: ${result.err.msg}`,
      `line ${result.err.line}, column ${result.err.col}`,
    );
  }
}

function readStartTag(
  text: string,
  lt: number,
  scopes: Map<string, string>,
  open: OpenElement[],
  expected: ExpectedNamespaces,
  position: Position,
): number {
  const nameMatch = /[^\s/>]+/y;
  nameMatch.lastIndex = lt + 1;
  const name = nameMatch.exec(text)?.[0];
  if (!name) refuse('A tag has no name', position, lt);
  let cursor = lt + 1 + name.length;
  const attributes: [string, string][] = [];
  for (;;) {
    while (cursor < text.length && /\s/.test(text[cursor] as string)) cursor += 1;
    if (text.startsWith('/>', cursor) || text[cursor] === '>') break;
    ATTRIBUTE.lastIndex = cursor;
    const attribute = ATTRIBUTE.exec(text);
    if (!attribute) refuse(`The tag <${name}> has a malformed attribute`, position, cursor);
    attributes.push([attribute[1] as string, attribute[3] ?? attribute[4] ?? '']);
    cursor = ATTRIBUTE.lastIndex;
  }
  const selfClosing = text.startsWith('/>', cursor);
  const element: OpenElement = { name, offset: lt, declared: [] };

  for (const [attribute, value] of attributes) {
    if (attribute === 'xmlns') continue;
    if (!attribute.startsWith('xmlns:')) continue;
    const prefix = attribute.slice(6);
    if (!NC_NAME.test(prefix)) refuse(`Invalid namespace prefix "${prefix}"`, position, lt);
    if (prefix === 'xmlns') refuse('The prefix "xmlns" cannot be declared', position, lt);
    if (prefix === 'xml' && value !== XML_NAMESPACE)
      refuse('The prefix "xml" cannot be rebound', position, lt);
    if (prefix !== 'xml' && (value === XML_NAMESPACE || value === XMLNS_NAMESPACE)) {
      refuse(`The prefix "${prefix}" cannot be bound to a reserved namespace`, position, lt);
    }
    if (value === '')
      refuse(`The prefix "${prefix}" is declared with an empty namespace`, position, lt);
    const wanted = expected[prefix];
    if (wanted && !wanted.test(value)) {
      refuse(
        `The prefix "${prefix}" is bound to ${value}, not the namespace it must name`,
        position,
        lt,
      );
    }
    element.declared.push([prefix, scopes.get(prefix)]);
    scopes.set(prefix, value);
  }
  const names = [
    name,
    ...attributes
      .map(([attribute]) => attribute)
      .filter((attribute) => attribute !== 'xmlns' && !attribute.startsWith('xmlns:')),
  ];
  for (const qualified of names) {
    const parts = qualified.split(':');
    if (parts.length > 2 || parts.some((part) => !NC_NAME.test(part))) {
      refuse(`Invalid name "${qualified}"`, position, lt);
    }
    if (parts.length === 2 && !scopes.has(parts[0] as string)) {
      refuse(`The namespace prefix "${parts[0]}" of <${qualified}> is not declared`, position, lt);
    }
  }
  const end = text.indexOf('>', cursor);
  if (selfClosing) {
    for (const [prefix, hidden] of element.declared.reverse()) {
      if (hidden === undefined) scopes.delete(prefix);
      else scopes.set(prefix, hidden);
    }
  } else {
    open.push(element);
  }
  return end + 1;
}
