import type { StaticDecode, TSchema } from 'typebox';
import type { TLocalizedValidationError } from 'typebox/error';
import { Settings } from 'typebox/system';
import { DecodeUnsafe, Value } from 'typebox/value';

// TypeBox is the one schema language of the contract and the server. A schema says what is wrong
// in its own words: `errorMessage` on it, one text for any keyword that fails or one per keyword
// (`{type: 'must be text', maxLength: 'must be at most 200 characters'}`; `required` on a property
// names it missing); a refinement (`Type.Refine`) carries its own. This module reads a value by a
// schema and names each problem as `{field, message}`: the desk's posts, content files and the
// configuration all speak through it.

/** Every problem of a value, not TypeBox's first eight: a file is fixed in one pass. */
Settings.Set({ maxErrors: 1000 });

export type ErrorMessage = string | Partial<Record<string, string>>;

export interface FieldProblem {
  /** A dotted path (`updates.1.date`), or the name the caller gives the whole value. */
  field: string;
  message: string;
}

export type SchemaReading<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

export interface ReadOptions {
  /** Fill in the schemas' `default`s for what is left out (a whole file); off for a change. */
  defaults?: boolean;
  /** What a problem with the whole value is called: `body`, `front matter`. */
  whole?: string;
}

/**
 * Reads `input` by `schema`: the value as its codecs make it (trimmed text, numbers from the
 * environment's text…), or every problem, each in the schema's words. Unknown fields come last.
 */
export function readBySchema<T extends TSchema>(
  schema: T,
  input: unknown,
  options: ReadOptions = {},
): SchemaReading<StaticDecode<T>> {
  const copy = Value.Clone(input);
  const value = options.defaults === false ? copy : Value.Default(schema, copy);
  const errors = Value.Errors(schema, value);
  if (errors.length === 0) {
    return { ok: true, value: DecodeUnsafe({}, schema, value) as StaticDecode<T> };
  }
  const problems = new ErrorReader(schema, value, options.whole ?? 'body').read(errors);
  return {
    ok: false,
    problems: [
      ...problems.filter((problem) => !problem.unknown),
      ...problems.filter((problem) => problem.unknown),
    ].map(({ field, message }) => ({ field, message })),
  };
}

type Problem = FieldProblem & { unknown?: boolean };
type ValidationError = TLocalizedValidationError;

/** Keywords that say a value is not of a union's branch at all, rather than wrong inside it. */
const MISMATCH = new Set(['type', 'const', 'enum']);

class ErrorReader {
  constructor(
    private readonly schema: TSchema,
    private readonly value: unknown,
    private readonly whole: string,
  ) {}

  read(errors: ValidationError[]): Problem[] {
    const unions = errors.filter((error) => error.keyword === 'anyOf');
    const outer = unions.filter((union) => !unions.some((other) => within(union, other)));
    return errors.flatMap((error) => {
      if (outer.some((union) => within(error, union))) return [];
      if (error.keyword === 'anyOf') {
        return this.union(
          error,
          errors.filter((inner) => within(inner, error)),
        );
      }
      return this.keyword(error);
    });
  }

  private keyword(error: ValidationError): Problem[] {
    const { instancePath, schemaPath } = error;
    switch (error.keyword) {
      case 'required':
        return error.params.requiredProperties.map((key) => ({
          field: this.field(`${instancePath}/${key}`),
          message:
            declared(this.schemaAt(`${schemaPath}/properties/${key}`), 'required') ?? 'is required',
        }));
      case 'additionalProperties':
        return error.params.additionalProperties.map((key) => ({
          field: this.field(`${instancePath}/${key}`),
          message: 'is not a known field',
          unknown: true,
        }));
      case 'boolean':
        // `additionalProperties: false` failing for one key: told once, by additionalProperties.
        return schemaPath.endsWith('/additionalProperties') ? [] : this.plain(error);
      case '~refine':
        return [{ field: this.field(instancePath), message: error.params.message }];
      default:
        return this.plain(error);
    }
  }

  private plain(error: ValidationError): Problem[] {
    const message = declared(this.schemaAt(error.schemaPath), error.keyword) ?? error.message;
    return [{ field: this.field(error.instancePath), message }];
  }

  /**
   * A union that no branch took: the branch its discriminator names (a post's `kind`), else the
   * one branch the value was meant for (not a mismatch of type), else the union's own message.
   */
  private union(union: ValidationError, inner: ValidationError[]): Problem[] {
    const schema = this.schemaAt(union.schemaPath) as { anyOf: TSchema[]; discriminator?: string };
    const branch = (index: number) => inner.filter((error) => within(error, union, index));
    const own = declared(schema, 'anyOf');
    if (typeof schema.discriminator === 'string') {
      const key = schema.discriminator;
      const tag = field(this.valueAt(union.instancePath), key);
      const index = schema.anyOf.findIndex(
        (option) => field(field(field(option, 'properties'), key), 'const') === tag,
      );
      if (index >= 0) return this.read(branch(index));
      return [{ field: this.field(`${union.instancePath}/${key}`), message: own ?? union.message }];
    }
    const meant = schema.anyOf
      .map((_, index) => branch(index))
      .filter(
        (errors) =>
          !errors.every(
            (error) => error.instancePath === union.instancePath && MISMATCH.has(error.keyword),
          ),
      );
    if (meant.length === 1 && meant[0]) return this.read(meant[0]);
    const first = this.read(branch(0))[0]?.message;
    return [{ field: this.field(union.instancePath), message: own ?? first ?? union.message }];
  }

  private field(pointer: string): string {
    if (pointer === '') return this.whole;
    return pointer
      .slice(1)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .join('.');
  }

  private schemaAt(schemaPath: string): unknown {
    return Value.Pointer.Get(this.schema, schemaPath.replace(/^#/, ''));
  }

  private valueAt(pointer: string): unknown {
    return Value.Pointer.Get(this.value, pointer);
  }
}

/** Whether `error` comes from inside `union`'s branches (or from its branch `index`). */
function within(error: ValidationError, union: ValidationError, index?: number): boolean {
  const prefix = `${union.schemaPath}/anyOf/${index ?? ''}`;
  if (!error.schemaPath.startsWith(prefix)) return false;
  if (index === undefined) return error !== union;
  const rest = error.schemaPath.slice(prefix.length);
  return rest === '' || rest.startsWith('/');
}

/** The message a schema declares for a keyword, if any. */
function declared(schema: unknown, keyword: string): string | undefined {
  const message = field(schema, 'errorMessage');
  if (typeof message === 'string') return keyword === 'required' ? undefined : message;
  const own = field(message, keyword);
  return typeof own === 'string' ? own : undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
