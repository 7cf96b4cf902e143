import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// Prisma's own schema parser, compiled to WebAssembly: it reads schema.prisma exactly as
// `prisma generate` does, without the schema engine binary this machine cannot download.
const require = createRequire(import.meta.url);
const schemaWasm = require('@prisma/prisma-schema-wasm') as { get_dmmf(params: string): string };

export interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'enum' | 'object' | 'unsupported';
  type: string;
  isList: boolean;
  isRequired: boolean;
  isId: boolean;
  isUnique: boolean;
  isUpdatedAt: boolean;
  nativeType?: [string, string[]] | null;
  default?: unknown;
  relationName?: string;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}

export interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
  primaryKey: { name: string | null; fields: string[] } | null;
}

export interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  dbName?: string | null;
  fields: { name: string }[];
}

export interface DmmfEnum {
  name: string;
  dbName?: string | null;
  values: { name: string; dbName?: string | null }[];
}

export interface Datamodel {
  models: DmmfModel[];
  enums: DmmfEnum[];
  indexes: DmmfIndex[];
}

export const schemaPath = fileURLToPath(new URL('../../prisma/schema.prisma', import.meta.url));

export function readDatamodel(path = schemaPath): Datamodel {
  const schema = readFileSync(path, 'utf8');
  const dmmf = JSON.parse(
    schemaWasm.get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', schema]] })),
  ) as { datamodel: Datamodel };
  return dmmf.datamodel;
}

/** A field of a type Prisma has no name for (`Unsupported("tsvector")`). */
export interface UnsupportedField {
  /** The model's table (its `@@map`, else its name). */
  table: string;
  /** The column (the field's `@map`, else its name). */
  column: string;
  /** The database type, as written in `Unsupported("…")`. */
  type: string;
  isRequired: boolean;
}

/**
 * Prisma's DMMF leaves out `Unsupported(…)` fields (the client cannot read them), so they are read
 * from the schema's text: one per line, inside a model.
 */
export function readUnsupportedFields(path = schemaPath): UnsupportedField[] {
  const schema = readFileSync(path, 'utf8');
  const fields: UnsupportedField[] = [];
  for (const [, name = '', block = ''] of schema.matchAll(/^model (\w+) \{\n([\s\S]*?)\n\}/gm)) {
    const table = /@@map\("([^"]+)"\)/.exec(block)?.[1] ?? name;
    for (const [line = '', field = '', type = '', optional] of block.matchAll(
      /^\s*(\w+)\s+Unsupported\("([^"]+)"\)(\?)?.*$/gm,
    )) {
      fields.push({
        table,
        column: /@map\("([^"]+)"\)/.exec(line)?.[1] ?? field,
        type,
        isRequired: optional === undefined,
      });
    }
  }
  return fields;
}
