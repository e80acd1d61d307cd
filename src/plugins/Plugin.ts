/**
 * A plugin is a value: a name, a one-line purpose and its tools. First-party plugins live in
 * src/plugins/NAME/ and are registered in ./registry.ts; third-party plugins are modules whose
 * default (or `plugin`) export is such a value. Loaded only by `--plugin NAME`.
 */
import { Schema } from "effect"
import { ErrorCodes } from "../tools/errors.js"
import { OPERATION_TYPES, type Tool } from "../tools/Tool.js"

export interface Plugin {
  readonly name: string
  readonly purpose: string
  readonly tools: ReadonlyArray<Tool>
}

const isFunction = (u: unknown): u is (...args: ReadonlyArray<unknown>) => unknown => typeof u === "function"

/** What a plugin value must look like; checked when the plugin is loaded. */
export const PluginValue = Schema.Struct({
  name: Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9-]{1,39}$/, { message: () => "a lowercase name (letters, digits, -)" })),
  purpose: Schema.String.pipe(Schema.minLength(8), Schema.maxLength(200)),
  tools: Schema.Array(
    Schema.Struct({
      name: Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9_]{2,63}$/, { message: () => "a snake_case tool name" })),
      description: Schema.String.pipe(Schema.minLength(20)),
      input: Schema.declare((u): u is Schema.Schema.AnyNoContext => Schema.isSchema(u), {
        identifier: "EffectSchema",
        description: "an Effect Schema for the tool's input"
      }),
      type: Schema.Literal(...OPERATION_TYPES),
      evalTarget: Schema.optional(Schema.Literal("renderer", "main")),
      errors: Schema.Array(Schema.Literal(...Object.values(ErrorCodes))),
      destructive: Schema.optional(Schema.Boolean),
      openWorld: Schema.optional(Schema.Boolean),
      readOnly: Schema.optional(Schema.Boolean),
      handler: Schema.declare(isFunction, { identifier: "Function", description: "a function returning an Effect" })
    })
  ).pipe(Schema.minItems(1))
})
