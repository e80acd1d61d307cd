/**
 * Type-only check that `npm run typecheck` (tsconfig.json includes test/) runs: a tool that declares an error
 * code its handler cannot raise is not a Tool. If `defineTool` stopped checking, the @ts-expect-error below
 * would be unused, which fails the typecheck. (test/unit/error-registry.test.ts checks the same on a fixture.)
 */
import { Effect, Schema } from "effect"
import { AppNotRunning } from "../../src/tools/contract/errors.js"
import { defineTool, type Tool } from "../../src/tools/contract/Tool.js"

const overDeclared = defineTool({
  name: "types_over_declared",
  description: "Declares NEEDS_MAIN_PROCESS, which its handler cannot raise.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({}),
  handler: () => Effect.fail(new AppNotRunning({ message: "no app" }))
})

// @ts-expect-error HandlerCannotRaise<"NEEDS_MAIN_PROCESS"> is not a Tool
export const refused: ReadonlyArray<Tool> = [overDeclared]
