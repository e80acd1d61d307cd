/**
 * playwright-core rejections mapped onto the driver's errors. The agent reads the first line in the
 * message; the whole original text stays in `cause` (logged, never sent).
 */
import {
  AmbiguousLocator,
  AppCrashed,
  ElementNotFound,
  InvalidArgument,
  NotInteractable,
  OperationFailed,
  RefStale,
  Timeout,
  WindowNotFound,
  type PlaywrightError
} from "./errors.js"
import type { AppSession } from "./session.js"

/**
 * Whether the call's last wait for an element never found one: a drag resolves its source, then waits
 * for its target, so only what follows the last "waiting for" counts.
 */
const lastWaitUnresolved = (message: string) => {
  const waits = [...message.matchAll(/waiting for (?:locator|getBy)/g)]
  const last = waits[waits.length - 1]
  return last !== undefined && !/locator resolved to/.test(message.slice(last.index))
}

/** Maps a playwright-core rejection onto the shared error vocabulary. */
/**
 * Whether Playwright's log shows an action started and not done when the time ran out: the last "performing …
 * action" (or keys typed) has no "… action done" after it. A drag whose source step is done ("move and down action
 * done") and whose target is still awaited is a wait for the target, which the target's own error says.
 */
/** A line of Playwright's log that says an action began: its pointer events sent, or keys typed. */
export const ACTION_BEGUN = /performing .+ action|elementHandle\.(?:type|press)\(/

const underWay = (message: string): boolean => {
  const lines = message.split("\n")
  let last = -1
  lines.forEach((line, i) => {
    if (ACTION_BEGUN.test(line)) last = i
  })
  return last >= 0 && !lines.slice(last + 1).some((line) => /\baction done\b/.test(line))
}

export const fromPlaywright = (error: unknown, what: string, session?: Pick<AppSession, "exit">): PlaywrightError => {
  const message = error instanceof Error ? error.message : String(error)
  const firstLine = message.split("\n")[0] ?? message
  if (session?.exit && !session.exit.expected) {
    return new AppCrashed({ message: `${what}: the app exited (${session.exit.detail})`, cause: message })
  }
  if (/Target page, context or browser has been closed|Target closed|has been closed|Browser has been closed/i.test(message)) {
    if (session?.exit) return new AppCrashed({ message: `${what}: the app exited (${session.exit.detail})`, cause: message })
    return new WindowNotFound({ message: `${what}: the window closed during the call`, cause: message })
  }
  if (/strict mode violation/.test(message)) {
    const count = /resolved to (\d+) elements/.exec(message)?.[1]
    return new AmbiguousLocator({ message: `${what}: the target matches ${count ?? "several"} elements`, details: { playwright: firstLine }, cause: message })
  }
  // The action itself ran (Playwright logs "… action done"), then its target was replaced (the page re-rendered
  // it) before Playwright could confirm the result: neither a success nor a plain timeout.
  if (/Timeout/.test(message) && /\b(click|fill|check|select|press|type|hover|tap|drag and drop) action done\b/.test(message)) {
    return new OperationFailed({
      message: `${what}: the action was performed, then the element was replaced (the page re-rendered it) before its result could be confirmed`,
      hint: "It may have taken effect: check with electron_snapshot or electron_expect_state before repeating it.",
      details: { performed: true },
      cause: message
    })
  }
  // The action was under way (pointer events sent, keys typed) when the time ran out: it may have partly taken
  // effect, so it is no stale ref or plain timeout an agent would repeat (a repeat types the text twice).
  if (/Timeout/.test(message) && underWay(message)) {
    return new OperationFailed({
      message: `${what}: the action started but did not finish in time; it may have partly taken effect`,
      hint: "Check with electron_snapshot before repeating it.",
      details: { performed: true },
      cause: message
    })
  }
  if (/aria-ref=/.test(message) && /Timeout/.test(message)) {
    return new RefStale({ message: `${what}: the ref no longer points to an element on the page`, cause: message })
  }
  if (/Timeout \d+ms exceeded|TimeoutError/.test(message) || (error instanceof Error && error.name === "TimeoutError")) {
    if (/element is not (visible|enabled|editable|stable)|intercepts pointer events|element is outside of the viewport|not attached/.test(message)) {
      // The first of "element is not …" and the line up to "intercepts pointer events" (found by lines: a pattern
      // over the whole message restarted from each character of a long line).
      const not = /element is not (?:visible|enabled|editable|stable)/.exec(message)
      const at = message.indexOf("intercepts pointer events")
      const intercepts = at < 0 ? undefined : message.slice(message.lastIndexOf("\n", at) + 1, at + "intercepts pointer events".length)
      const reason = (not !== null && (intercepts === undefined || not.index < at) ? not[0] : intercepts) ?? "not interactable"
      return new NotInteractable({ message: `${what}: ${reason.trim()}`, cause: message })
    }
    if (lastWaitUnresolved(message)) {
      const waited = /Timeout (\d+)ms exceeded/.exec(message)?.[1]
      return new ElementNotFound({ message: `${what}: no element matched the target${waited ? ` within ${waited} ms` : ""}`, cause: message })
    }
    return new Timeout({ message: `${what}: ${firstLine}`, cause: message })
  }
  if (/Unknown engine|Unexpected token|is not a valid selector|Malformed/.test(message)) {
    return new InvalidArgument({ message: `${what}: invalid selector: ${firstLine}`, cause: message })
  }
  return new OperationFailed({ message: `${what}: ${firstLine}`, cause: message })
}
