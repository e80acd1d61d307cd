/**
 * The secrets a tool call handled, for the record observers get (src/server/observers.ts): a value typed
 * into a password field is secret, which only the tool that typed it can tell. While observers are loaded
 * the Dispatcher gives each call a set here; a text-entry tool adds the values it typed into a password
 * field (or could not tell), and the arguments recorded have them redacted. Outside an observed call the
 * set is undefined and tools skip the check.
 */
import { Effect, FiberRef } from "effect"
import { globalValue } from "effect/GlobalValue"
import type { Locator, Page } from "playwright-core"
import { pageFunction, shallowWithin } from "../../layers/driver/ElectronDriver.js"
import { codeString } from "../contract/step-code.js"

/**
 * Matches the locator's own element when it is not a password field (`type` is matched as HTML does, without
 * regard to case): one selector count, a single round trip, where an evaluation on the element takes about
 * eleven (it resolves, checks and releases a handle).
 */
const NOT_PASSWORD = ":scope:not(input[type=password])"

/** Whether the focused element (inside open shadow roots) is a password field or a frame (unknown: secret). Runs in the page. */
const focusIsSecret = pageFunction((): boolean => {
  let active: Element | null = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  if (active === null) return false
  return active.tagName === "IFRAME" || active.tagName === "FRAME" || (active.tagName === "INPUT" && (active as HTMLInputElement).type === "password")
})

export const CallSecrets = globalValue("stagewright/CallSecrets", () => FiberRef.unsafeMake<Set<string> | undefined>(undefined))

/** Whether the running call is observed (the check costs a page round trip, so it is made only then). */
export const secretsWatched: Effect.Effect<boolean> = Effect.map(FiberRef.get(CallSecrets), (set) => set !== undefined)

/** Marks `value` as secret for the running call's record. */
export const markSecret = (value: string): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(CallSecrets), (set) => Effect.sync(() => void (value !== "" && set?.add(value))))

/** How long the password check may take; a check that cannot answer counts the value as secret. */
const CHECK_MS = 1_000

/**
 * Marks `value` secret when `locator` is a password field, or when that cannot be told (the element gone,
 * the page navigated): a record never holds a password because a check failed. Only in an observed call.
 */
export const markIfPasswordField = (locator: Locator, value: string): Effect.Effect<void> =>
  Effect.flatMap(secretsWatched, (watched) =>
    !watched || value === "" ? Effect.void : Effect.flatMap(isPasswordField(locator), (secret) => (secret ? markSecret(value) : Effect.void))
  )

/** The same for what was typed into the focused element (inside open shadow roots; a frame counts as secret). */
export const markIfFocusedPassword = (page: Page, value: string): Effect.Effect<void> =>
  Effect.flatMap(secretsWatched, (watched) =>
    !watched || value === ""
      ? Effect.void
      : Effect.tryPromise((signal) => shallowWithin(CHECK_MS, () => page.evaluate(focusIsSecret), signal)).pipe(
          Effect.orElseSucceed(() => true),
          Effect.flatMap((secret) => (secret ? markSecret(value) : Effect.void))
        )
  )

/**
 * Whether `locator` is a password field, observed call or not: for recorded steps. Only one element there and
 * not a password field counts as not one; gone (the page navigated), ambiguous or unanswered counts as one.
 */
export const isPasswordField = (locator: Locator): Effect.Effect<boolean> =>
  Effect.tryPromise((signal) => shallowWithin(CHECK_MS, () => locator.locator(NOT_PASSWORD).count(), signal)).pipe(
    Effect.map((n) => n !== 1),
    Effect.orElseSucceed(() => true)
  )

/** Whether the focused element is a password field (or a frame, or unknown), observed call or not. */
export const focusIsPassword = (page: Page): Effect.Effect<boolean> =>
  Effect.tryPromise((signal) => shallowWithin(CHECK_MS, () => page.evaluate(focusIsSecret), signal)).pipe(Effect.orElseSucceed(() => true))

/**
 * What a recorded step (so the exported test) shows in place of a value typed into a password field
 * without a secret placeholder: the trace's mark, as a string, with a comment saying how to replay it.
 */
export const REDACTED_CODE = `/* a password: type it as {{secret:NAME}} to replay */ ${codeString("«redacted»")}`

/** `code` with every string literal of `value` replaced by REDACTED_CODE. */
export const redactInCode = (code: string, value: string): string => (value === "" ? code : code.split(codeString(value)).join(REDACTED_CODE))
