/**
 * The main process's console, as playwright-core (`electronApp.on('console')`) or the Node inspector
 * (`Runtime.consoleAPICalled`) reports it. Besides the app's own messages it carries two warnings that
 * Electron's Node prints through `console.error`, the same way on Electron and on the stand-in:
 *
 * - `(node:<pid>) electron: Failed to load URL: <url> with error: <ERR_…>`, which Electron emits for every
 *   main-frame load that fails (except ERR_ABORTED), next to `did-fail-load`;
 * - `(node:<pid>) UnhandledPromiseRejectionWarning: <reason stack>`, Node's report of an unhandled rejection
 *   in the `warn-with-error-code` mode Electron runs it in (followed by a generic "Unhandled promise
 *   rejection. This error originated…" line, which says nothing new).
 *
 * Reading them here observes the app without adding a listener that could change how it behaves.
 */
import type { ErrorEntry } from "./buffers.js"
import { MODALS_CHANGED } from "./main-modals.js"
import type { AppSession } from "./session.js"
import { keptText } from "./buffers.js"

/** Chromium's numbers for the network errors a load most often ends in (net/base/net_error_list.h). */
const NET_ERRORS: Readonly<Record<string, number>> = {
  ERR_FAILED: -2,
  ERR_FILE_NOT_FOUND: -6,
  ERR_TIMED_OUT: -7,
  ERR_ACCESS_DENIED: -10,
  ERR_BLOCKED_BY_CLIENT: -20,
  ERR_BLOCKED_BY_RESPONSE: -27,
  ERR_CONNECTION_CLOSED: -100,
  ERR_CONNECTION_RESET: -101,
  ERR_CONNECTION_REFUSED: -102,
  ERR_CONNECTION_ABORTED: -103,
  ERR_CONNECTION_FAILED: -104,
  ERR_NAME_NOT_RESOLVED: -105,
  ERR_INTERNET_DISCONNECTED: -106,
  ERR_SSL_PROTOCOL_ERROR: -107,
  ERR_ADDRESS_INVALID: -108,
  ERR_ADDRESS_UNREACHABLE: -109,
  ERR_CONNECTION_TIMED_OUT: -118,
  ERR_NAME_RESOLUTION_FAILED: -137,
  ERR_CERT_COMMON_NAME_INVALID: -200,
  ERR_CERT_DATE_INVALID: -201,
  ERR_CERT_AUTHORITY_INVALID: -202,
  ERR_INVALID_URL: -300,
  ERR_UNKNOWN_URL_SCHEME: -302,
  ERR_TOO_MANY_REDIRECTS: -310,
  ERR_UNSAFE_PORT: -312,
  ERR_INVALID_RESPONSE: -320,
  ERR_EMPTY_RESPONSE: -324,
  ERR_HTTP_RESPONSE_CODE_FAILURE: -379
}

const LOAD_FAILED = /^\([^)\n]*\) electron: Failed to load URL: (\S+) with error: ([A-Z][A-Z0-9_]*)/
const REJECTION = /^\([^)\n]*\) UnhandledPromiseRejectionWarning: ([\s\S]*)$/
const REJECTION_FOOTER = /^Unhandled promise rejection\. This error originated/
/** Node appends this hint to the first warning of a process. */
const TRACE_HINT = /\n\(Use `[^`]*--trace-warnings[^`]*` to show where the warning was created\)\s*$/

/** The error a main-process console message reports, if it is one of the warnings above. */
export const mainConsoleError = (text: string): Omit<ErrorEntry, "at"> | undefined => {
  const load = LOAD_FAILED.exec(text)
  if (load) {
    const [, url, error] = load as unknown as [string, string, string]
    const code = NET_ERRORS[error]
    return {
      kind: "load-failed",
      message: `Failed to load ${url}: ${error}${code !== undefined ? ` (${code})` : ""}`,
      url,
      error,
      ...(code !== undefined ? { code } : {})
    }
  }
  const rejection = REJECTION.exec(text)
  if (rejection) {
    const reason = rejection[1]!.replace(TRACE_HINT, "").trimEnd()
    if (REJECTION_FOOTER.test(reason)) return undefined
    const [first = "", ...rest] = reason.split("\n")
    return {
      kind: "rejection",
      message: `unhandled promise rejection in main: ${first}`,
      ...(rest.some((line) => /^\s+at /.test(line)) ? { stack: reason } : {})
    }
  }
  return undefined
}

/**
 * Records a main-process console message, and the error it reports (a failed load, an unhandled rejection).
 * The held-dialogs hook's MODALS_CHANGED (./main-modals.ts) is no message of the app's: it tells the modal
 * room that its next answer must read the main process.
 */
export const recordMainConsole = (session: AppSession, level: string, whole: string): void => {
  if (whole === MODALS_CHANGED) return session.modals.nativeChanged()
  const text = keptText(whole)
  const at = Date.now()
  session.console.push({ at, source: "main", level, text })
  const error = mainConsoleError(text)
  if (error) session.errors.push({ at, ...error })
}
