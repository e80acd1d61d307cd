/**
 * How a failed command line ends: a usage error (the parser's, an unknown option, a flag value the
 * server cannot use) exits 2, anything else that stopped the start exits 1; each is one line naming the
 * setting at fault.
 */
import { ValidationError } from "@effect/cli"
import { Cause, Option } from "effect"

interface Tagged {
  readonly _tag: string
  readonly message?: string
  readonly plugin?: string
}

const failureOf = (cause: Cause.Cause<unknown>): unknown => Option.getOrUndefined(Cause.failureOption(cause))

const isTagged = (u: unknown): u is Tagged => typeof u === "object" && u !== null && typeof (u as { _tag?: unknown })._tag === "string"

/** Failures that are the operator's command line, not the machine: exit 2. */
const USAGE = new Set(["UsageError", "InvalidFlag"])

export const exitCodeOf = (cause: Cause.Cause<unknown>): number => {
  const failure = failureOf(cause)
  if (ValidationError.isValidationError(failure)) return 2
  return isTagged(failure) && USAGE.has(failure._tag) ? 2 : 1
}

/** The first line of a message (a cause's stack is for a bug report, not for a host's log). */
const firstLine = (text: string) => text.split("\n")[0]!.trim()

/** The one line a start-up failure prints; undefined when the parser already printed it. */
export const startupLine = (cause: Cause.Cause<unknown>): string | undefined => {
  const failure = failureOf(cause)
  if (ValidationError.isValidationError(failure)) return undefined
  if (isTagged(failure) && failure._tag === "UsageError") return undefined
  if (failure === undefined) {
    const defect = Cause.squash(cause)
    return `stagewright: stopped by an internal error: ${firstLine(defect instanceof Error ? defect.message : String(defect))}`
  }
  const message = firstLine(failure instanceof Error ? failure.message : isTagged(failure) && failure.message !== undefined ? failure.message : String(failure))
  // A plugin's failure names the flag that loaded it, unless its message already does.
  const setting = isTagged(failure) && failure.plugin !== undefined && !message.startsWith("--") ? `--plugin ${failure.plugin}: ` : ""
  return `stagewright: ${setting}${message}`
}
