/**
 * EvalPolicy: the single place that decides whether caller-supplied code may run, per target.
 * Eval tools, plugin tools that declare a target and `javascript:` URLs all ask it.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { errorFields } from "../errors/fields.js"

export const EVAL_TARGETS = ["renderer", "main"] as const
export type EvalTarget = (typeof EVAL_TARGETS)[number]

/** Parses `--allow-eval` values: `renderer`, `main` or `all`, repeatable, comma lists accepted. */
export const parseAllowEval = (values: ReadonlyArray<string>): ReadonlyArray<EvalTarget> | { readonly invalid: string } => {
  const out = new Set<EvalTarget>()
  for (const raw of values.flatMap((v) => v.split(","))) {
    const value = raw.trim()
    if (value === "") continue
    if (value === "all") EVAL_TARGETS.forEach((t) => out.add(t))
    else if ((EVAL_TARGETS as ReadonlyArray<string>).includes(value)) out.add(value as EvalTarget)
    else return { invalid: value }
  }
  return EVAL_TARGETS.filter((t) => out.has(t))
}

/** A call that would run caller-supplied code in a target this server does not allow. */
export class EvalNotAuthorized extends Schema.TaggedError<EvalNotAuthorized>()("EvalNotAuthorized", {
  ...errorFields("EvalNotAuthorized"),
  tool: Schema.String,
  target: Schema.String,
  flag: Schema.String
}) {}

export const evalFlag = (target: EvalTarget): string => `--allow-eval ${target}`

export interface EvalPolicyShape {
  readonly allowed: ReadonlyArray<EvalTarget>
  readonly isAllowed: (target: EvalTarget) => boolean
  /** Succeeds when `target` is allowed; otherwise fails naming the flag that allows it. */
  readonly authorize: (tool: string, target: EvalTarget, what?: string) => Effect.Effect<void, EvalNotAuthorized>
}

export class EvalPolicy extends Context.Tag("stagewright/EvalPolicy")<EvalPolicy, EvalPolicyShape>() {
  static readonly make = (allowed: ReadonlyArray<EvalTarget>): EvalPolicyShape => {
    const set = new Set(allowed)
    return {
      allowed: EVAL_TARGETS.filter((t) => set.has(t)),
      isAllowed: (target) => set.has(target),
      authorize: (tool, target, what) =>
        set.has(target)
          ? Effect.void
          : Effect.fail(
              new EvalNotAuthorized({
                message: `${what ?? tool} runs caller-supplied code in the ${target} ${target === "main" ? "process" : "page"}, which this server does not allow`,
                hint: `Restart the server with ${evalFlag(target)} (or --allow-eval all) to allow it.`,
                tool,
                target,
                flag: evalFlag(target)
              })
            )
    }
  }

  static readonly layer = (allowed: ReadonlyArray<EvalTarget>) => Layer.succeed(EvalPolicy, EvalPolicy.make(allowed))
}
