/**
 * Tools ask the one policy before they hand anything that could run code to the app: each input is
 * classified by src/eval-policy/code-paths.ts, an eval decision goes to EvalPolicy (allowed only by
 * `--allow-eval <target>`), and a refused one answers INVALID_ARGUMENT with the reason.
 */
import { Effect } from "effect"
import type { CodeDecision } from "../../eval-policy/code-paths.js"
import { EvalPolicy, type EvalNotAuthorized } from "../../eval-policy/EvalPolicy.js"
import { InvalidArgument } from "../contract/errors.js"

export const gateCode = (tool: string, decisions: Iterable<CodeDecision>): Effect.Effect<void, EvalNotAuthorized | InvalidArgument, EvalPolicy> =>
  Effect.gen(function* () {
    const policy = yield* EvalPolicy
    for (const decision of decisions) {
      if (decision.kind === "refused") return yield* new InvalidArgument({ message: decision.what, hint: decision.hint })
      if (decision.kind === "eval") yield* policy.authorize(tool, decision.target, decision.what)
    }
  })

/** Whether a decision would pass under the server's flags (for checks made later, inside a route handler). */
export const allowsCode = (decision: CodeDecision): Effect.Effect<boolean, never, EvalPolicy> =>
  Effect.map(EvalPolicy, (policy) => decision.kind === "safe" || (decision.kind === "eval" && policy.isAllowed(decision.target)))
