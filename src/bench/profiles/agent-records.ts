/**
 * What the scripted agent (agent.ts) shares with the tasks and the runner: the switch tool, giving up, the
 * records of its steps and calls, and which tools only read.
 */
import { Data, type Effect } from "effect"

/** The server tool that switches the active profile (listed only with --allow-profile-switch). */
export const PROFILE_SWITCH = "electron_profile"

/** The profile a TOOL_NOT_IN_PROFILE answer tells the agent to switch to, when it names electron_profile. */
export const switchHint = (text: string): string | undefined =>
  /TOOL_NOT_IN_PROFILE/.test(text) ? /call electron_profile \{ "profile": "([a-z]+)" \}/.exec(text)?.[1] : undefined

/** The agent stops: a tool it needs is not listed (and no fallback is), or the app did not do what it expected. */
export class GiveUp extends Data.TaggedError("GiveUp")<{ readonly reason: string; readonly missingTool?: string }> {
  override get message() {
    return this.missingTool === undefined ? this.reason : `${this.reason} (missing ${this.missingTool})`
  }
}

/** Gives up (a typed failure): `return yield* giveUp(reason, missingTool)`. */
export const giveUp = (reason: string, missingTool?: string): GiveUp => new GiveUp(missingTool === undefined ? { reason } : { reason, missingTool })

/** A request to the server failed (a protocol error, the SDK's per-call timeout, the transport closed). */
export class CallFailed extends Data.TaggedError("CallFailed")<{ readonly tool: string; readonly cause: unknown }> {
  override get message() {
    return this.cause instanceof Error ? this.cause.message : String(this.cause)
  }
}

/** What an agent operation can fail with. */
export type AgentError = GiveUp | CallFailed

/** An agent operation, or a task's step or script: an Effect that gives up or fails a call in its error channel. */
export type AgentEffect<A> = Effect.Effect<A, AgentError>

/** One step of a task as the selection proxy scores it: the plain-words intent and the tool the step used. */
export interface StepRecord {
  readonly intent: string
  readonly tool: string
  /** The profile in force when the step ran (changes only in the switch variant). */
  readonly profile?: string
}

export interface CallOutcome {
  readonly text: string
  readonly isError: boolean
}

/** Tools whose answers describe the page without changing it: reading them adds to what the agent sees. */
export const READ_ONLY = new Set([
  "electron_find",
  "electron_windows",
  "electron_console",
  "electron_errors",
  "electron_menu",
  "electron_inspect",
  "electron_status",
  "electron_expect_text",
  "electron_dialog_stub",
  "electron_native_notifications"
])

/** Each step's intent with the tool that did it: its first call that is not locating (else its first call but a switch). */
export const principalSteps = (
  stepOf: ReadonlyMap<number, { readonly step: number; readonly intent: string; readonly locate: boolean; readonly profile?: string }>,
  calls: ReadonlyArray<{ readonly tool: string }>
): ReadonlyArray<StepRecord> => {
  const byStep = new Map<number, Array<{ readonly tool: string; readonly intent: string; readonly locate: boolean; readonly profile?: string }>>()
  for (const [index, info] of stepOf) {
    const tool = calls[index]?.tool
    if (tool === undefined) continue
    byStep.set(info.step, [...(byStep.get(info.step) ?? []), { tool, ...info }])
  }
  const out: Array<StepRecord> = []
  for (const list of byStep.values()) {
    const principal = list.find((c) => !c.locate) ?? list.find((c) => c.tool !== PROFILE_SWITCH)
    if (principal === undefined) continue
    out.push({ intent: principal.intent, tool: principal.tool, ...(principal.profile !== undefined ? { profile: principal.profile } : {}) })
  }
  return out
}
