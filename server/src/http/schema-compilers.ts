import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's own compilers (ajv for what comes in, fast-json-stringify for what goes out), kept
 * once for the process rather than made again by each app. An app compiles every route's schemas
 * when it starts; a process that builds many apps (the test suite builds hundreds, a benchmark
 * several) would compile the same schemas each time, which was most of an app's start. The
 * route schemas are module-level constants, never changed once made, so a schema object compiles
 * to the same function for every app: ajv keeps its compiled functions by schema object, and the
 * serializers are kept here the same way.
 */
const validators = AjvCompiler();
const serializers = SerializerSelector();

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type SerializerCompiler = ReturnType<SerializerFactory>;
type Serializer = ReturnType<SerializerCompiler>;

/** Compiled serializers by schema, then by the compiler's options and shared schemas. */
const compiledSerializers = new WeakMap<object, Map<string, Serializer>>();

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = serializers(externalSchemas, options);
  const key = JSON.stringify([externalSchemas ?? {}, options ?? {}]);
  return (route) => {
    const { schema } = route;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let byKey = compiledSerializers.get(schema);
    if (!byKey) compiledSerializers.set(schema, (byKey = new Map()));
    let serialize = byKey.get(key);
    if (!serialize) byKey.set(key, (serialize = compile(route)));
    return serialize;
  };
};

export const schemaController: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: { buildValidator: validators, buildSerializer },
};
