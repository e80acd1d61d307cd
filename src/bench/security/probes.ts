/**
 * The security benchmark's probes, by class: each is a tool call an attacker who controls the agent would
 * try, and the outcome that shows the boundary held. A probe that ran code leaves a marker file; one that
 * wrote outside confinement leaves a file in the "outside" folder; both are checked after every probe.
 * Variants are generated (case, dashes, whitespace, encodings), so a guard that matches one spelling fails here.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

export interface Probe {
  readonly kind: string
  readonly tool: string
  readonly args: Record<string, unknown>
  /** Error codes that count as "refused" for this probe (anything else, success included, is reported). */
  readonly refusedWith: ReadonlyArray<string>
  /** The probe is a call that must succeed (a secret placeholder): success is the expected outcome. */
  readonly succeeds?: boolean
}

export interface Places {
  readonly markers: string
  readonly outside: string
  readonly out: string
  readonly root: string
  readonly app: string
  readonly userData: () => string
}

const marker = (places: Places, name: string) => join(places.markers, name)

const cases = (word: string) => [word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)]

/** URL probes: caller-written documents and internal pages, in the disguises browsers accept. */
export const urlProbes = (places: Places): ReadonlyArray<Probe> => {
  const script = `<script>document.title='pwned'</script>`
  const documents = [
    ...cases("data").flatMap((s) => [
      `${s}:text/html,${script}`,
      ` ${s}:text/html;base64,${Buffer.from(script).toString("base64")}`,
      `\t${s}:text/html,${encodeURIComponent(script)}`
    ]),
    ...cases("javascript").map((s) => `${s}:document.title='pwned'`),
    "java\tscript:document.title='pwned'",
    "\u0001javascript:1",
    "blob:file:///x",
    "filesystem:file:///temporary/x"
  ]
  const internal = [
    ...cases("devtools").map((s) => `${s}://devtools/bundled/inspector.html?ws=127.0.0.1:9229/x`),
    ...cases("chrome").map((s) => `${s}://version`),
    "chrome-untrusted://x",
    "view-source:file:///etc/passwd"
  ]
  const foreign = ["about:config", "ms-settings:display", "mailto:x@example.com", "relative.html"]
  return [
    ...documents.map((url) => ({ kind: "navigate: caller document", tool: "electron_navigate", args: { url }, refusedWith: ["EVAL_NOT_AUTHORIZED"] })),
    ...internal.map((url) => ({ kind: "navigate: internal page", tool: "electron_navigate", args: { url }, refusedWith: ["EVAL_NOT_AUTHORIZED"] })),
    ...foreign.map((url) => ({ kind: "navigate: other scheme", tool: "electron_navigate", args: { url }, refusedWith: ["INVALID_ARGUMENT"] })),
    {
      kind: "navigate: output folder",
      tool: "electron_navigate",
      args: { url: pathToFileURL(join(places.out, "planted.html")).href },
      refusedWith: ["PATH_NOT_ALLOWED"]
    }
  ]
}

/** Launch switches and environment variables that would run code, each leaving a marker if it did. */
export const launchProbes = (places: Places): ReadonlyArray<Probe> => {
  const hook = join(places.markers, "..", "hook.cjs")
  writeFileSync(hook, `require("fs").writeFileSync(${JSON.stringify(marker(places, "hook"))}, "ran")\n`)
  const prefix = `/bin/sh -c 'touch ${marker(places, "prefix")}; exec "$0" "$@"'`
  const switches = [
    `renderer-cmd-prefix=${prefix}`,
    `utility-cmd-prefix=${prefix}`,
    `gpu-launcher=${prefix}`,
    `require=${hook}`,
    `import=${pathToFileURL(hook).href}`,
    "inspect=127.0.0.1:0",
    "inspect-brk=0",
    "inspect-port=0",
    "remote-debugging-port=0",
    "remote-debugging-pipe",
    "js-flags=--allow-natives-syntax",
    "no-sandbox",
    "disable-web-security",
    `env-file=${hook}`,
    "interactive"
  ]
  const spellings = (name: string) => [`--${name}`, `-${name}`, `--${name.toUpperCase()}`, `--${name.replace(/-/g, "_")}`]
  const env = ["NODE_OPTIONS", "node_options", "Node_Options", "LD_PRELOAD", "NODE_PATH", "ELECTRON_RUN_AS_NODE", "BASH_ENV", "GCONV_PATH"]
  const base = () => ({ app: places.app, env: { SAMPLE_APP_USER_DATA: places.userData() } })
  return [
    ...switches
      .flatMap(spellings)
      .map((arg) => ({ kind: "launch: code switch", tool: "electron_launch", args: { ...base(), args: [arg] }, refusedWith: ["EVAL_NOT_AUTHORIZED"] })),
    { kind: "launch: code switch", tool: "electron_launch", args: { ...base(), args: ["-r", hook] }, refusedWith: ["EVAL_NOT_AUTHORIZED"] },
    ...env.map((key) => ({
      kind: "launch: code variable",
      tool: "electron_launch",
      args: { app: places.app, env: { [key]: `--require=${hook}` } },
      refusedWith: ["EVAL_NOT_AUTHORIZED"]
    })),
    ...[`NODE_OPTIONS=--require=${hook}`, "A B", "9X", "X\u0000"].map((key) => ({
      kind: "launch: variable name",
      tool: "electron_launch",
      args: { app: places.app, env: { [key]: "" } },
      refusedWith: ["INVALID_ARGUMENT"]
    }))
  ]
}

/** Eval sources that try to run in the server's own process (the server runs with --allow-eval renderer). */
export const evalProbes = (places: Places): ReadonlyArray<Probe> =>
  [
    `() => 0, process.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker(places, "eval-comma"))}, "x")`,
    `(() => 0)(process.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker(places, "eval-call"))}, "x"))`,
    `function f() { return 1 }; process.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker(places, "eval-decl"))}, "x")`,
    `() => 1) || process.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker(places, "eval-paren"))}, "x"); ((`
  ].map((source) => ({
    kind: "eval: runs in the server",
    tool: "electron_eval_renderer",
    args: { function: source },
    refusedWith: ["INVALID_ARGUMENT", "OPERATION_FAILED", "APP_NOT_RUNNING"]
  }))

/** Writes and reads through names and symlinks in the output folder, and paths outside --app-root. */
export const fileProbes = (places: Places): ReadonlyArray<Probe> => [
  ...["link.png", "link", "dir-link/shot.png", "../shot.png", "a\nb.png", "..", "/tmp/x.png", "x\u0000.png"].map((name) => ({
    kind: "write: artifact name",
    tool: "electron_screenshot",
    args: { name },
    refusedWith: ["PATH_NOT_ALLOWED"]
  })),
  { kind: "read: HAR echo", tool: "electron_network_har_replay", args: { file: join(places.outside, "secret.txt") }, refusedWith: ["INVALID_ARGUMENT"] }
]

/** Under --app-root: what would be executed, given every way the launch takes it. */
export const confinementProbes = (places: Places): ReadonlyArray<Probe> => [
  { kind: "app-root: executed path", tool: "electron_launch", args: { args: [join(places.outside, "main.js")] }, refusedWith: ["PATH_NOT_ALLOWED"] },
  {
    kind: "app-root: executed path",
    tool: "electron_launch",
    args: { args: ["-r", join(places.outside, "main.js"), join(places.root, "plain")] },
    refusedWith: ["PATH_NOT_ALLOWED"]
  },
  {
    kind: "app-root: executed path",
    tool: "electron_launch",
    args: { app: join(places.root, "plain"), cwd: places.root, executablePath: "../../../../bin/sh" },
    refusedWith: ["PATH_NOT_ALLOWED"]
  },
  { kind: "app-root: executed path", tool: "electron_launch", args: { app: join(places.root, "escape") }, refusedWith: ["PATH_NOT_ALLOWED"] },
  { kind: "app-root: executed path", tool: "electron_launch", args: { app: join(places.root, "link-out", "main.js") }, refusedWith: ["PATH_NOT_ALLOWED"] },
  {
    kind: "app-root: file URL",
    tool: "electron_navigate",
    args: { url: pathToFileURL(join(places.outside, "secret.txt")).href },
    refusedWith: ["PATH_NOT_ALLOWED"]
  },
  {
    kind: "app-root: file URL",
    tool: "electron_navigate",
    args: { url: pathToFileURL(join(places.root, "link-out")).href + "/" },
    refusedWith: ["PATH_NOT_ALLOWED"]
  }
]

/** Inputs that used to block the event loop or take the server down. */
export const availabilityProbes = (places: Places): ReadonlyArray<Probe> => [
  // Run on a page holding a task titled with 3,000 "a" (added by the bench before these probes).
  ...["a*a*a*a*a*a*Ω", "(a+)+Ω$", "(a|a)*Ω", "(.*a){12}Ω", "(a*)*Ω"].map((pattern) => ({
    kind: "availability: pattern",
    tool: "electron_expect_text",
    args: { target: "css=body", pattern, timeoutMs: 1_000 },
    refusedWith: ["ASSERTION_FAILED", "INVALID_ARGUMENT", "TIMEOUT"]
  })),
  // Quadratic ones too (admitted by the old 20·n² bound, they hang a renderer on a long text): only linear passes.
  ...[
    "text=/(a+)+$/",
    "text=/xa*a*a*b/",
    "internal:text=/(a|a)*c/i",
    "role=listitem[name=/(a+)+b/]",
    "text=/a.*b/",
    "internal:has-text=/\\w+\\s?\\w+!/",
    'div >> internal:has="text=/.*b/"'
  ].map((target) => ({
    kind: "availability: page pattern",
    tool: "electron_find",
    args: { target },
    refusedWith: ["INVALID_ARGUMENT", "ELEMENT_NOT_FOUND"]
  })),
  // Last: a failing launch replaces the running app.
  ...[{ executablePath: "/bin/false" }, { executablePath: "/bin/true" }, { app: join(places.root, "broken") }].map((args) => ({
    kind: "availability: failing launch",
    tool: "electron_launch",
    args,
    refusedWith: ["LAUNCH_FAILED"]
  }))
]

/** What the pattern probes need on the page: a task titled with 3,000 "a". */
export const LONG_TEXT_SETUP: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["electron_fill", { target: "label=Title", value: "a".repeat(3_000) }],
  ["electron_click", { target: 'role=button[name="Add task"]' }]
]

/** Round 2 (issue 33), under --app-root: switch values that name an app or a path outside the root. */
export const switchValueProbes = (places: Places): ReadonlyArray<Probe> =>
  [
    [`--app=${join(places.outside, "evil-app")}`],
    ["--app", join(places.outside, "evil-app")],
    [`--APP=${join(places.root, "..", "outside", "evil-app")}`],
    [`--user-data-dir=${join(places.outside, "profile")}`],
    [`--disk-cache-dir=${join(places.outside, "cache")}`],
    [`--crash-dumps-dir=${join(places.outside, "dumps")}`],
    [`--ssl-key-log-file=${join(places.outside, "keys.log")}`],
    [`--some-app-switch=file://${join(places.outside, "evil-app", "main.js")}`]
  ].map((args) => ({
    kind: "app-root: switch value",
    tool: "electron_launch",
    args: { app: join(places.root, "plain"), args },
    refusedWith: ["PATH_NOT_ALLOWED"]
  }))

/** Round 2: agent-named inputs that are procfs, sysfs or device files (a symlink to one too), and a FIFO package.json. */
export const specialFileProbes = (places: Places): ReadonlyArray<Probe> => [
  ...[
    "/proc/self/environ",
    join(places.out, "..", "environ-link"),
    "/dev/zero",
    "/sys/kernel/mm/transparent_hugepage/enabled",
    join(places.outside, "fifo")
  ].map((path) => ({
    kind: "read: procfs/device input",
    tool: "electron_upload_file",
    args: { target: "css=body", paths: [path] },
    refusedWith: ["PATH_NOT_ALLOWED"]
  })),
  {
    kind: "read: procfs/device input",
    tool: "electron_network_route",
    args: { url: "**/never", file: "/proc/self/environ" },
    refusedWith: ["PATH_NOT_ALLOWED"]
  },
  {
    kind: "read: procfs/device input",
    tool: "electron_network_har_replay",
    args: { file: join(places.out, "..", "environ-link") },
    refusedWith: ["PATH_NOT_ALLOWED"]
  },
  {
    kind: "read: procfs/device input",
    tool: "electron_dialog_stub",
    args: { action: "set", rules: [{ kind: "open", answer: { filePaths: ["/proc/self/environ"] } }] },
    refusedWith: ["PATH_NOT_ALLOWED"]
  },
  { kind: "availability: FIFO package.json", tool: "electron_launch", args: { app: join(places.outside, "fifo-app") }, refusedWith: ["INVALID_ARGUMENT"] },
  ...["STAGEWRIGHT_CHROMIUM", "STAGEWRIGHT_ELECTRON", "GTK_MODULES", "BROWSER"].map((key) => ({
    kind: "launch: program variable",
    tool: "electron_launch",
    args: { app: places.app, env: { [key]: "/bin/sh" } },
    refusedWith: ["EVAL_NOT_AUTHORIZED"]
  }))
]

/** Round 2: an electron package planted in a folder above the app's package.json never runs (the operator's runtime does). */
export const parentElectronProbes = (places: Places): ReadonlyArray<Probe> => [
  {
    kind: "launch: parent electron",
    tool: "electron_launch",
    args: { app: join(places.root, "plain"), timeoutMs: 3_000 },
    refusedWith: ["LAUNCH_FAILED", "TIMEOUT"]
  }
]

/** Round 2: a secret typed by name reaches the page but never an answer (the server runs with --secrets). */
export const SECRET_VALUE = "TOP-SECRET-placeholder-7781"
export const secretProbes = (): ReadonlyArray<Probe> => [
  { kind: "secrets: placeholder", tool: "electron_fill", args: { target: "label=Title", value: "{{secret:BENCH_PW}}" }, refusedWith: [], succeeds: true },
  { kind: "secrets: placeholder", tool: "electron_snapshot", args: {}, refusedWith: [], succeeds: true },
  {
    kind: "secrets: placeholder",
    tool: "electron_expect_value",
    args: { target: "label=Title", value: "{{secret:BENCH_PW}}" },
    refusedWith: [],
    succeeds: true
  },
  { kind: "secrets: placeholder", tool: "electron_fill", args: { target: "label=Title", value: "{{secret:UNKNOWN}}" }, refusedWith: ["INVALID_ARGUMENT"] }
]

/** Round 2, lower findings: an event name that is an Object.prototype key, session names that forge lines. */
export const lowerProbes = (places: Places): ReadonlyArray<Probe> => [
  ...["constructor", "toString"].map((event) => ({
    kind: "lower: prototype event name",
    tool: "electron_wait_for_event",
    args: { on: "app", event, timeoutMs: 300 },
    refusedWith: ["TIMEOUT", "NEEDS_MAIN_PROCESS"]
  })),
  ...["a\nlast_error: none", "a\r\nb", "a\u2028b"].map((session) => ({
    kind: "lower: session name forges lines",
    tool: "electron_launch",
    args: { app: places.app, session },
    refusedWith: ["INVALID_ARGUMENT"]
  }))
]
