// The Fastify instance every route file registers on: its handlers get `body`, `params` and
// `query` typed by the route's TypeBox schemas (Static<schema>), so a handler reads its input
// without a cast. Types only: `withTypeProvider` answers the instance it is called on, and
// nothing here is left in the bundle (scripts/build.mjs).
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { Static, TSchema } from "@sinclair/typebox";

/**
 * Input typed by its schema; answers left untyped. The types are as true as validation makes
 * them: http/validation.ts checks every part that has a schema (query and path text converted
 * first). Answers are not typed because their schemas only document them (app.ts: answers are
 * JSON.stringify'd, never filtered by a schema), so a handler answers what its service returns.
 * @fastify/type-provider-typebox types answers too, which is why it is not used.
 */
export interface TypeBoxInput extends FastifyTypeProvider {
  readonly validator: this["schema"] extends TSchema ? Static<this["schema"]> : unknown;
  readonly serializer: unknown;
}

/** What a route file registers on. */
export type TypedFastify = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxInput
>;

/** The same instance, typed for route files. */
export function typedRoutes(app: FastifyInstance): TypedFastify {
  return app.withTypeProvider<TypeBoxInput>();
}
