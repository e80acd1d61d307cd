/**
 * What counts as running caller code, decided in one place. Each classifier looks at one kind of input
 * an agent can hand the server (a URL to open, a launch switch, an environment variable, a body served
 * to a page) and answers with a decision: safe, code in a target (allowed only by `--allow-eval`), or
 * refused whatever the flags. EvalPolicy turns the decisions into answers; tools never decide themselves.
 * Pure functions of their input: this room imports nothing of ours.
 */
import type { EvalTarget } from "./EvalPolicy.js"

export type CodeDecision =
  | { readonly kind: "safe" }
  | { readonly kind: "eval"; readonly target: EvalTarget; readonly what: string }
  | { readonly kind: "refused"; readonly what: string; readonly hint: string }

const SAFE: CodeDecision = { kind: "safe" }
const needs = (target: EvalTarget, what: string): CodeDecision => ({ kind: "eval", target, what })
const refused = (what: string, hint: string): CodeDecision => ({ kind: "refused", what, hint })

// ---------------------------------------------------------------------------------------------------
// URLs a window is told to open
// ---------------------------------------------------------------------------------------------------

/** Schemes whose document is the caller's own text: opening one runs whatever script it holds. */
const CALLER_DOCUMENT_SCHEMES = new Set(["javascript", "data", "blob", "filesystem"])

/** The scheme of an absolute URL as a browser reads it (control characters and spaces dropped), lower-cased. */
export const urlScheme = (url: string): string | undefined => {
  // Browsers strip leading/trailing C0 controls and spaces and remove tabs and newlines anywhere.
  // eslint-disable-next-line no-control-regex
  const cleaned = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "")
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(cleaned)
  return match?.[1]!.toLowerCase()
}

/**
 * Browser-internal pages: DevTools front-ends and chrome: pages can attach to debuggers and run code
 * anywhere the app's processes reach, so they are main-process power.
 */
const INTERNAL_SCHEMES = new Set(["devtools", "chrome", "chrome-untrusted", "view-source"])

/**
 * Navigation is an allow-list: http(s), file (confinement is the caller's next check) and about:blank.
 * Caller-written documents (javascript:, data:, blob:) are renderer code; browser-internal pages
 * (devtools:, chrome:, view-source:) need --allow-eval main; any other scheme (external protocol
 * handlers, other about: pages) is never opened for an agent.
 */
export const classifyNavigation = (url: string): CodeDecision => {
  const scheme = urlScheme(url)
  if (scheme === undefined) return refused(`"${url.slice(0, 80)}" is not an absolute URL`, "Use http://…, https://…, file:///path or about:blank.")
  if (scheme === "http" || scheme === "https" || scheme === "file") return SAFE
  if (scheme === "about") {
    return /^about:blank(?:[?#].*)?$/is.test(url.trim())
      ? SAFE
      : refused(`${url.slice(0, 40)} is not a page an agent opens`, "Use about:blank, or an http(s) or file URL.")
  }
  if (CALLER_DOCUMENT_SCHEMES.has(scheme)) return needs("renderer", `A ${scheme}: URL (its content is code written by the caller)`)
  if (INTERNAL_SCHEMES.has(scheme)) return needs("main", `A ${scheme}: page (browser-internal pages can attach debuggers and run code)`)
  return refused(
    `${scheme}: URLs are not opened (only http, https, file and about:blank)`,
    "Open the app's page with an http(s) or file URL, or let the app navigate itself (click its link)."
  )
}

// ---------------------------------------------------------------------------------------------------
// Responses the server makes up (mocked routes)
// ---------------------------------------------------------------------------------------------------

/** Request types whose response the page runs or renders as a document of its own. */
const EXECUTED_RESOURCES = new Set(["document", "script", "worker", "sharedworker", "serviceworker"])
/** Content types a browser runs or renders as an active document. */
const ACTIVE_CONTENT =
  /^\s*(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/(x-)?javascript|application\/ecmascript|text\/ecmascript|application\/wasm|text\/xsl)/i

/**
 * A body written by the caller and served to the app: data for fetch/XHR, images, styles and fonts are
 * safe; served to a document, a frame, a script or a worker (or with an active content type) it is
 * renderer code.
 */
export const classifyServedBody = (resourceType: string, contentType: string | undefined): CodeDecision =>
  EXECUTED_RESOURCES.has(resourceType) || (contentType !== undefined && ACTIVE_CONTENT.test(contentType))
    ? needs("renderer", `A mocked response served to a ${resourceType} request${contentType !== undefined ? ` as ${contentType.split(";")[0]}` : ""}`)
    : SAFE

// ---------------------------------------------------------------------------------------------------
// Launch arguments
// ---------------------------------------------------------------------------------------------------

/**
 * Switches of Node, Electron and Chromium that load code, open a debugger or a REPL, run a command,
 * or turn a security boundary off. Chromium and Node accept one or two leading dashes and a value
 * after "=" or as the next argument; names are compared without dashes, in lower case. A name ending in
 * "*" is a prefix. Running code in the main process is what `--allow-eval main` allows; with it, these
 * pass. Documented in docs/SECURITY.md.
 */
export const CODE_SWITCHES: ReadonlyArray<readonly [name: string, why: string]> = [
  ["r", "preloads a module (Node/Electron --require)"],
  ["require", "preloads a module"],
  ["import", "preloads an ES module"],
  ["loader", "installs a module loader"],
  ["experimental-loader", "installs a module loader"],
  ["e", "evaluates a script"],
  ["eval", "evaluates a script"],
  ["p", "evaluates a script"],
  ["print", "evaluates a script"],
  ["i", "opens a REPL in the main process"],
  ["interactive", "opens a REPL in the main process"],
  ["env-file*", "loads environment variables (NODE_OPTIONS among them) from a file"],
  ["openssl-config", "loads OpenSSL engines (native code)"],
  ["openssl-shared-config", "loads OpenSSL engines (native code)"],
  ["snapshot-blob", "starts from a caller-chosen heap snapshot"],
  ["build-snapshot", "runs a script to build a snapshot"],
  ["inspect", "opens the Node inspector (a debugger that runs code in main)"],
  ["inspect-brk", "opens the Node inspector"],
  ["inspect-brk-node", "opens the Node inspector"],
  ["inspect-wait", "opens the Node inspector"],
  ["inspect-port", "opens the Node inspector"],
  ["inspect-publish-uid", "publishes the Node inspector's address"],
  ["debug-port", "opens the Node inspector (an alias of --inspect-port)"],
  ["debug-brk", "opens a debugger"],
  ["remote-debugging-*", "opens Chromium's DevTools protocol (runs code in every page)"],
  ["remote-allow-origins", "lets web pages connect to the DevTools protocol"],
  ["js-flags", "passes V8 flags (natives syntax, unsafe modes)"],
  ["*-cmd-prefix", "runs a command before every child process"],
  ["*-launcher", "runs a command to start a child process"],
  ["browser-subprocess-path", "runs another executable as Chromium's child processes"],
  ["load-extension", "loads a browser extension"],
  ["disable-extensions-except", "loads a browser extension"],
  ["register-pepper-plugins", "loads native plugins"],
  ["no-sandbox", "turns the renderer sandbox off"],
  ["disable-*sandbox", "turns a sandbox off"],
  ["no-zygote", "turns process isolation off"],
  ["disable-web-security", "turns the same-origin policy off"],
  ["allow-file-access-from-files", "lets file pages read any file"],
  ["allow-running-insecure-content", "lets pages run insecure scripts"],
  ["disable-site-isolation-trials", "turns site isolation off"],
  ["log-file", "writes a file at a caller-chosen path"],
  ["trace-startup-file", "writes a file at a caller-chosen path"],
  ["redirect-warnings", "writes a file at a caller-chosen path"],
  ["diagnostic-dir", "writes files at a caller-chosen path"],
  ["report-*", "writes diagnostic reports at a caller-chosen path"],
  ["cpu-prof*", "writes profiles at a caller-chosen path"],
  ["heap-prof*", "writes profiles at a caller-chosen path"]
]

const matchesName = (pattern: string, name: string): boolean => {
  if (!pattern.includes("*")) return pattern === name
  const [head, tail] = pattern.split("*") as [string, string]
  return name.length >= head.length + tail.length && name.startsWith(head) && name.endsWith(tail)
}

/** The switch name of an argument (`--Inspect-Brk=9229` -> `inspect-brk`), or undefined for a plain argument. */
export const switchName = (arg: string): string | undefined => {
  // eslint-disable-next-line no-control-regex
  const trimmed = arg.replace(/^[\s\u0000-\u001f]+/, "")
  if (!/^-{1,2}[^-]/.test(trimmed)) return undefined
  return trimmed
    .replace(/^-{1,2}/, "")
    .split("=")[0]!
    .toLowerCase()
    .replace(/_/g, "-")
}

/**
 * Switches of Electron, Chromium and Node whose value names a path, an app or a program: what they name
 * is resolved and confined to --app-root like a positional argument (src/tools/policy/launch-policy.ts), with
 * symlinks resolved. Switches that run code or write at a caller-chosen path (above) need --allow-eval
 * main first; with it, their path values are confined the same way. Documented in docs/SECURITY.md.
 */
export const PATH_SWITCHES: ReadonlyArray<readonly [name: string, what: string]> = [
  ["app", "the app Electron runs"],
  ["app-path", "the app folder"],
  ["user-data-dir", "the profile folder (written)"],
  ["disk-cache-dir", "the cache folder (written)"],
  ["media-cache-dir", "the media cache folder (written)"],
  ["crash-dumps-dir", "the crash dump folder (written)"],
  ["homedir", "the home folder"],
  ["profile-directory", "the profile folder (written)"],
  ["log-file", "the log file (written)"],
  ["log-net-log", "the network log (written)"],
  ["ssl-key-log-file", "the TLS key log (written)"],
  ["trace-startup-file", "the trace file (written)"],
  ["trace-to-file-name", "the trace file (written)"],
  ["icu-data-dir", "ICU data (read)"],
  ["ppapi-flash-path", "a native plugin (run)"],
  ["load-extension", "a browser extension (run)"],
  ["disable-extensions-except", "a browser extension (run)"],
  ["browser-subprocess-path", "a program (run)"],
  ["proxy-pac-url", "a PAC script (run)"],
  ["require", "a module (run)"],
  ["r", "a module (run)"],
  ["import", "a module (run)"],
  ["loader", "a module loader (run)"],
  ["experimental-loader", "a module loader (run)"],
  ["env-file*", "an environment file (read)"],
  ["openssl-config", "an OpenSSL configuration (read)"],
  ["snapshot-blob", "a heap snapshot (read)"],
  ["redirect-warnings", "a log file (written)"],
  ["diagnostic-dir", "the diagnostics folder (written)"],
  ["report-directory", "the report folder (written)"],
  ["report-filename", "the report file (written)"],
  ["cpu-prof-dir", "the profile folder (written)"],
  ["heap-prof-dir", "the profile folder (written)"],
  ["tls-keylog", "the TLS key log (written)"],
  ["watch-path", "a watched path"]
]

/** Whether a switch name (from `switchName`) takes a path, an app or a program as its value. */
export const takesPath = (name: string): boolean => PATH_SWITCHES.some(([pattern]) => matchesName(pattern, name))

/** The value of a switch given as `--name=value` (undefined without `=`). */
export const switchValue = (arg: string): string | undefined => {
  const at = arg.indexOf("=")
  return at < 0 || switchName(arg) === undefined ? undefined : arg.slice(at + 1)
}

/** One launch argument: a switch that runs code or opens a debugger needs --allow-eval main. */
export const classifyLaunchArg = (arg: string): CodeDecision => {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000]/.test(arg)) return refused("a launch argument contains a NUL character", "Remove it.")
  const name = switchName(arg)
  if (name === undefined) return SAFE
  const hit = CODE_SWITCHES.find(([pattern]) => matchesName(pattern, name))
  return hit ? needs("main", `The launch switch ${arg.split("=")[0]} (${hit[1]})`) : SAFE
}

// ---------------------------------------------------------------------------------------------------
// Environment variables
// ---------------------------------------------------------------------------------------------------

/** A portable environment variable name: what a shell can export. Anything else is refused. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * Variables that make Node, Electron, the dynamic loader, a shell or a toolkit (GTK, GStreamer, Qt,
 * GL/Vulkan loaders) load or run code, or that the runtime reads as a program path (the
 * stand-in's STAGEWRIGHT_CHROMIUM, STAGEWRIGHT_ELECTRON; BROWSER, EDITOR, VISUAL).
 */
const CODE_ENV =
  /^(STAGEWRIGHT_CHROMIUM|STAGEWRIGHT_ELECTRON|CHROME_WRAPPER|GTK_MODULES|GTK3_MODULES|GTK_PATH|GTK_EXE_PREFIX|GIO_EXTRA_MODULES|GIO_MODULE_DIR|GST_PLUGIN_.*|GST_REGISTRY.*|QT_PLUGIN_PATH|LIBGL_DRIVERS_PATH|__EGL_VENDOR_LIBRARY_.*|VK_ICD_FILENAMES|VK_LAYER_PATH|VK_ADD_LAYER_PATH|BROWSER|EDITOR|VISUAL|NODE_OPTIONS|NODE_PATH|NODE_REPL_EXTERNAL_MODULE|NODE_V8_COVERAGE|ELECTRON_RUN_AS_NODE|ELECTRON_OVERRIDE_DIST_PATH|LD_.*|DYLD_.*|GCONV_PATH|BASH_ENV|ENV|SHELLOPTS|PS4|PROMPT_COMMAND|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|PERL5LIB|RUBYOPT|CHROME_DEVEL_SANDBOX|OPENSSL_CONF|OPENSSL_ENGINES)$/i

export const classifyEnvKey = (key: string): CodeDecision => {
  if (!ENV_NAME.test(key)) {
    return refused(
      `env: ${JSON.stringify(key.slice(0, 60))} is not a variable name`,
      "Names are letters, digits and _ (not starting with a digit); pass the value as the value."
    )
  }
  return CODE_ENV.test(key) ? needs("main", `The environment variable ${key} (it makes the app load or run other code)`) : SAFE
}

/** An environment value with a NUL cannot be passed to a process: refused before anything starts. */
export const classifyEnvValue = (key: string, value: string): CodeDecision =>
  value.includes("\u0000") ? refused(`env: the value of ${key} contains a NUL character`, "Remove it.") : SAFE
