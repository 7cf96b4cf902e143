import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readDatamodel,
  readUnsupportedFields,
  type Datamodel,
  type DmmfField,
  type DmmfModel,
} from '#test/prisma-schema';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';

// Migrations are written by hand (the schema engine cannot be downloaded here), so this test is
// what keeps them honest: the database they build must be exactly what schema.prisma describes.

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp(3) without time zone',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  Json: 'jsonb',
  Bytes: 'bytea',
};

const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  Uuid: () => 'uuid',
  Text: () => 'text',
  VarChar: ([n]) => (n ? `character varying(${n})` : 'character varying'),
  Char: ([n]) => `character(${n ?? 1})`,
  Integer: () => 'integer',
  SmallInt: () => 'smallint',
  BigInt: () => 'bigint',
  Timestamptz: ([p]) => `timestamp(${p ?? 3}) with time zone`,
  Timestamp: ([p]) => `timestamp(${p ?? 3}) without time zone`,
  Date: () => 'date',
  JsonB: () => 'jsonb',
  Inet: () => 'inet',
};

interface Column {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
  default: string | null;
}

interface Index {
  table: string;
  name: string;
  columns: string[];
  unique: boolean;
  primary: boolean;
}

interface ForeignKey {
  table: string;
  name: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  onDelete: string;
  onUpdate: string;
}

const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
/** How PostgreSQL prints a type name: bare when it is a plain lower-case identifier. */
const quoteIdent = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name}"`);
const columnOf = (field: DmmfField) => field.dbName ?? field.name;

function expectedType(field: DmmfField, datamodel: Datamodel): string {
  if (field.kind === 'enum') {
    const enumDef = datamodel.enums.find((e) => e.name === field.type);
    return quoteIdent(enumDef?.dbName ?? field.type);
  }
  if (field.nativeType) {
    const [name, args] = field.nativeType;
    const map = NATIVE_TYPES[name];
    if (!map) throw new Error(`Add native type ${name} to this test's table`);
    return map(args);
  }
  const type = SCALAR_TYPES[field.type];
  if (!type) throw new Error(`Add scalar type ${field.type} to this test's table`);
  return field.isList ? `${type}[]` : type;
}

function expectedDefault(field: DmmfField, model: DmmfModel, datamodel: Datamodel): string | null {
  const value = field.default;
  if (value === undefined) return null;
  if (typeof value === 'object' && value !== null && 'name' in value) {
    const fn = value as { name: string; args: unknown[] };
    if (fn.name === 'now') return 'CURRENT_TIMESTAMP';
    if (fn.name === 'autoincrement') {
      // SERIAL's sequence, as PostgreSQL names and prints it.
      return `nextval('${quoteIdent(`${tableOf(model)}_${columnOf(field)}_seq`)}'::regclass)`;
    }
    if (fn.name === 'dbgenerated') return String(fn.args[0]);
    return null; // uuid(), cuid(): made by the client, not the database
  }
  if (field.kind === 'enum') {
    const enumDef = datamodel.enums.find((e) => e.name === field.type);
    return `'${String(value)}'::${quoteIdent(enumDef?.dbName ?? field.type)}`;
  }
  // An empty list, as Prisma writes `@default([])` for a list of text or of integers.
  if (Array.isArray(value) && value.length === 0) {
    return `ARRAY[]::${field.type === 'Int' ? 'integer' : 'text'}[]`;
  }
  if (typeof value === 'string') return `'${value}'::${field.type === 'Json' ? 'jsonb' : 'text'}`;
  return String(value);
}

async function readCatalog(client: pg.Client) {
  const columns = await client.query<Column>(`
    SELECT c.relname AS table, a.attname AS column,
           format_type(a.atttypid, a.atttypmod) AS type,
           a.attnotnull AS "notNull", pg_get_expr(d.adbin, d.adrelid) AS default
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid AND c.relkind = 'r'
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relname <> '_prisma_migrations'`);
  const indexes = await client.query<Index>(`
    SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique,
           ix.indisprimary AS primary,
           array(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                 ORDER BY k.ord)::text[] AS columns
    FROM pg_index ix
    JOIN pg_class t ON t.oid = ix.indrelid
    JOIN pg_class i ON i.oid = ix.indexrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
    WHERE t.relname <> '_prisma_migrations'`);
  const foreignKeys = await client.query<ForeignKey>(`
    SELECT t.relname AS table, con.conname AS name, r.relname AS "refTable",
           array(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
                 ORDER BY k.ord)::text[] AS columns,
           array(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum
                 ORDER BY k.ord)::text[] AS "refColumns",
           con.confdeltype AS "onDelete", con.confupdtype AS "onUpdate"
    FROM pg_constraint con
    JOIN pg_class t ON t.oid = con.conrelid
    JOIN pg_class r ON r.oid = con.confrelid
    WHERE con.contype = 'f'`);
  const enums = await client.query<{ name: string; values: string[] }>(`
    SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS values
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`);
  return {
    columns: columns.rows,
    indexes: indexes.rows,
    foreignKeys: foreignKeys.rows,
    enums: enums.rows,
  };
}

const REFERENTIAL_ACTIONS: Record<string, string> = {
  Cascade: 'c',
  Restrict: 'r',
  NoAction: 'a',
  SetNull: 'n',
  SetDefault: 'd',
};

function referentialAction(action: string): string {
  const code = REFERENTIAL_ACTIONS[action];
  if (!code) throw new Error(`Add referential action ${action} to this test's table`);
  return code;
}

describe('the migrated database matches schema.prisma', () => {
  const datamodel = readDatamodel();
  const unsupported = readUnsupportedFields();
  let database: TestDatabase;
  let catalog: Awaited<ReturnType<typeof readCatalog>>;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    const client = new pg.Client(database.url);
    await client.connect();
    try {
      catalog = await readCatalog(client);
    } finally {
      await client.end();
    }
  });
  afterAll(() => database?.drop());

  it('has exactly one table per model and one column per scalar field', () => {
    const expected = datamodel.models.flatMap((model) =>
      model.fields
        .filter((field) => field.kind === 'scalar' || field.kind === 'enum')
        .map((field) => `${tableOf(model)}.${columnOf(field)}`),
    );
    expected.push(...unsupported.map((field) => `${field.table}.${field.column}`));
    const actual = catalog.columns.map((column) => `${column.table}.${column.column}`);
    expect(actual.sort()).toEqual(expected.sort());
  });

  it('gives every column the type, nullability and default of its field', () => {
    for (const model of datamodel.models) {
      for (const field of model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum')) {
        const column = catalog.columns.find(
          (c) => c.table === tableOf(model) && c.column === columnOf(field),
        );
        const where = `${model.name}.${field.name}`;
        expect({ where, type: column?.type, notNull: column?.notNull }).toEqual({
          where,
          type: expectedType(field, datamodel),
          notNull: field.isRequired,
        });
        expect({ where, default: column?.default ?? null }).toEqual({
          where,
          default: expectedDefault(field, model, datamodel),
        });
      }
    }
  });

  it('gives every Unsupported("…") field its database type and nullability', () => {
    expect(unsupported.length).toBeGreaterThan(0);
    for (const field of unsupported) {
      const column = catalog.columns.find(
        (c) => c.table === field.table && c.column === field.column,
      );
      const where = `${field.table}.${field.column}`;
      expect({ where, type: column?.type, notNull: column?.notNull }).toEqual({
        where,
        type: field.type,
        notNull: field.isRequired,
      });
    }
  });

  it('has the primary keys, unique constraints and indexes the schema declares, by Prisma name', () => {
    const expected = datamodel.indexes.map((index) => {
      const model = datamodel.models.find((m) => m.name === index.model);
      if (!model) throw new Error(`Index on unknown model ${index.model}`);
      const table = tableOf(model);
      const columns = index.fields.map((f) => {
        const field = model.fields.find((mf) => mf.name === f.name);
        return field ? columnOf(field) : f.name;
      });
      const suffix = index.type === 'id' ? 'pkey' : index.type === 'unique' ? 'key' : 'idx';
      const defaultName =
        index.type === 'id' ? `${table}_pkey` : `${table}_${columns.join('_')}_${suffix}`;
      return {
        table,
        name: index.dbName ?? (index.type === 'id' ? model.primaryKey?.name : null) ?? defaultName,
        columns,
        unique: index.type !== 'normal',
        primary: index.type === 'id',
      };
    });
    const sortKey = (i: Index) => `${i.table}.${i.name}`;
    expect([...catalog.indexes].sort((a, b) => sortKey(a).localeCompare(sortKey(b)))).toEqual(
      expected.sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
    );
  });

  it('has the foreign keys of every relation, with their referential actions', () => {
    const expected = datamodel.models.flatMap((model) =>
      model.fields
        .filter((field) => field.kind === 'object' && (field.relationFromFields?.length ?? 0) > 0)
        .map((field) => {
          const target = datamodel.models.find((m) => m.name === field.type);
          if (!target) throw new Error(`Relation to unknown model ${field.type}`);
          const columns = (field.relationFromFields ?? []).map((name) => {
            const f = model.fields.find((mf) => mf.name === name);
            return f ? columnOf(f) : name;
          });
          const optional = !field.isRequired;
          return {
            table: tableOf(model),
            name: `${tableOf(model)}_${columns.join('_')}_fkey`,
            columns,
            refTable: tableOf(target),
            refColumns: (field.relationToFields ?? []).map((name) => {
              const f = target.fields.find((tf) => tf.name === name);
              return f ? columnOf(f) : name;
            }),
            onDelete: referentialAction(
              field.relationOnDelete ?? (optional ? 'SetNull' : 'Restrict'),
            ),
            onUpdate: referentialAction(field.relationOnUpdate ?? 'Cascade'),
          };
        }),
    );
    const byName = (a: ForeignKey, b: ForeignKey) => a.name.localeCompare(b.name);
    expect([...catalog.foreignKeys].sort(byName)).toEqual(expected.sort(byName));
  });

  it('has every enum with its values in order', () => {
    const expected = datamodel.enums.map((e) => ({
      name: e.dbName ?? e.name,
      values: e.values.map((v) => v.dbName ?? v.name),
    }));
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect([...catalog.enums].sort(byName)).toEqual(expected.sort(byName));
  });
});
