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
