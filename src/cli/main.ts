/**
 * The `stagewright` command: `serve` (the default), `tools [--json]`, `doctor [--json]` and `replay <trace.jsonl>`.
 */
import { Args, Command, HelpDoc, Options } from "@effect/cli"
import { Effect } from "effect"
import { flagsOf, type Commands } from "./argv.js"
import { defaultServerConfig, XVFB_MODES } from "../layers/config/ServerConfig.js"
import { PROFILE_NAMES, PROFILES, DEFAULT_PROFILE } from "../profile/profiles.js"
import { VERSION } from "../version.js"
import type { ServeFlags, TransportFlags } from "./flags.js"
import { productionCommand } from "./production.js"

/** `essential 19, testing 47, …`: the sizes of the named lists, so the help never goes stale. */
const profileSizes = PROFILE_NAMES.map((name) => `${name} ${PROFILES[name].size}`).join(", ")
const toolProfile = Options.choice("tool-profile", PROFILE_NAMES).pipe(
  Options.withDescription(`Named tool list to expose (default ${DEFAULT_PROFILE}): ${profileSizes} tools`),
  Options.optional
)
const allowEval = Options.text("allow-eval").pipe(
  Options.withPseudoName("TARGET"),
  Options.withDescription("Allow eval tools for a target: renderer, main or all (repeatable)"),
  Options.repeated
)
const allowProfileSwitch = Options.boolean("allow-profile-switch").pipe(
  Options.withDescription("List electron_profile, which switches the active tool profile at run time (tools/list_changed follows)")
)
const plugin = Options.text("plugin").pipe(
  Options.withPseudoName("NAME"),
  Options.withDescription("Load a plugin: a first-party name, a module path or a package (repeatable)"),
  Options.repeated
)
const pluginConfig = Options.keyValueMap(Options.text("plugin-config").pipe(Options.withPseudoName("NAME=JSON"))).pipe(
  Options.withDescription("Configure a loaded plugin: NAME=<json>, decoded with the plugin's schema at start-up (repeatable)"),
  Options.optional
)
const screenshotDir = Options.text("screenshot-dir").pipe(
  Options.withPseudoName("DIR"),
  Options.withDescription("Also save screenshots in this folder (names cannot leave it)"),
  Options.optional
)
const visualDir = Options.text("visual-dir").pipe(
  Options.withPseudoName("DIR"),
  Options.withDescription("Baseline folder of the visual plugin (default <output-dir>/visual-baselines)"),
  Options.optional
)
const outputDir = Options.text("output-dir").pipe(
  Options.withPseudoName("DIR"),
  Options.withDescription("Folder for traces, exported tests and oversized results"),
  Options.withDefault(defaultServerConfig.outputDir)
)
const operationTimeoutMs = Options.integer("operation-timeout-ms").pipe(
  Options.withPseudoName("MS"),
  Options.withDescription(
    "Cap of one tool call in milliseconds: a call's own timeoutMs governs up to it (tools/list says the cap; more is refused); a call that does not settle ends with a retryable TIMEOUT"
  ),
  Options.withDefault(defaultServerConfig.operationTimeoutMs)
)
const appRoot = Options.text("app-root").pipe(
  Options.withPseudoName("DIR"),
  Options.withDescription("Confine launch paths, cwd, uploaded files and dialog-stub file answers to this folder (symlinks resolved)"),
  Options.optional
)
const maxResponseChars = Options.integer("max-response-chars").pipe(
  Options.withPseudoName("N"),
  Options.withDescription("Cut results longer than this; the full result is written under the output dir and linked"),
  Options.withDefault(defaultServerConfig.maxResponseChars)
)
const xvfb = Options.choice("xvfb", XVFB_MODES).pipe(
  Options.withDescription("Private Xvfb display for headed launches on Linux: auto (only when DISPLAY and WAYLAND_DISPLAY are unset), always, never"),
  Options.withDefault("auto" as const)
)
const json = Options.boolean("json").pipe(Options.withDescription("Print JSON"))
const port = Options.integer("port").pipe(
  Options.withPseudoName("PORT"),
  Options.withDescription("Serve Streamable HTTP on this port (0 picks one) instead of stdio"),
  Options.optional
)
const host = Options.text("host").pipe(
  Options.withPseudoName("ADDRESS"),
  Options.withDescription("Address to bind with --port (default 127.0.0.1; anything but loopback is reachable from other machines)"),
  Options.withDefault("127.0.0.1")
)
const authTokenEnv = Options.text("auth-token-env").pipe(
  Options.withPseudoName("VAR"),
  Options.withDescription("Require `Authorization: Bearer <token>` over HTTP, the token read from this environment variable"),
  Options.optional
)
const authTokenFile = Options.text("auth-token-file").pipe(
  Options.withPseudoName("FILE"),
  Options.withDescription("Require `Authorization: Bearer <token>` over HTTP, the token read from this file (first line; it never enters the environment)"),
  Options.optional
)
const allowedHost = Options.text("allowed-host").pipe(
  Options.withPseudoName("HOST:PORT"),
  Options.withDescription("Also accept this Host header (host:port) over HTTP (repeatable)"),
  Options.repeated
)
const allowedOrigin = Options.text("allowed-origin").pipe(
  Options.withPseudoName("ORIGIN"),
  Options.withDescription("Also accept this Origin (scheme://host:port) over HTTP (repeatable)"),
  Options.repeated
)

const maxApps = Options.integer("max-apps").pipe(
  Options.withPseudoName("N"),
  Options.withDescription("Most app sessions (launched or attached apps) held at once (default 4); a launch of a new session over it fails"),
  Options.optional
)
const secrets = Options.text("secrets").pipe(
  Options.withPseudoName("FILE"),
  Options.withDescription("Secrets the agent may type by name, {{secret:NAME}}, without ever seeing them: a dotenv file of NAME=value lines"),
  Options.optional
)
const serveOptions = {
  toolProfile,
  allowEval,
  allowProfileSwitch,
  plugin,
  pluginConfig,
  screenshotDir,
  visualDir,
  outputDir,
  operationTimeoutMs,
  appRoot,
  maxResponseChars,
  xvfb,
  maxApps,
  secrets
}
const maxSessions = Options.integer("max-sessions").pipe(
  Options.withPseudoName("N"),
  Options.withDescription(
    "Most HTTP sessions open at once (default 16); at the cap a new client closes the least recently used idle session (503 only when every one is live)"
  ),
  Options.optional
)
const sessionIdleTimeoutMs = Options.integer("session-idle-timeout-ms").pipe(
  Options.withPseudoName("MS"),
  Options.withDescription("Close an HTTP session (and its app) with no request in flight and no open stream after this many ms (default 600000)"),
  Options.optional
)
const maxConnections = Options.integer("max-connections").pipe(
  Options.withPseudoName("N"),
  Options.withDescription("Most TCP connections open at once over HTTP (default 128)"),
  Options.optional
)
const transportOptions = { port, host, authTokenEnv, authTokenFile, allowedHost, allowedOrigin, maxSessions, sessionIdleTimeoutMs, maxConnections }

/**
 * Each command's work loads when the command runs: `--help` and flag parsing load only the command
 * line, `serve` the server (and the HTTP transport only with --port), `tools` and `doctor` the manifest.
 */
const serve = (flags: ServeFlags & TransportFlags) =>
  Effect.flatMap(
    Effect.promise(() => import("./serve.js")),
    (m) => m.serve(flags)
  )

const serveCommand = Command.make("serve", { ...serveOptions, ...transportOptions }, serve).pipe(
  Command.withDescription("Serve MCP over stdio (the default command), or over Streamable HTTP with --port")
)

const toolsCommand = Command.make("tools", { json, plugin }, (flags) =>
  Effect.flatMap(
    Effect.promise(() => import("./inspect.js")),
    (m) => m.printTools(flags)
  )
).pipe(Command.withDescription("Print the documentation manifest of every tool (name, type, eval target, profiles, plugin, error codes), sorted"))

const doctorApp = Options.text("app").pipe(
  Options.withPseudoName("DIR"),
  Options.withDescription("Also check one app folder (or packaged build): its Electron, the binary's Node ABI, native addons, display and fuses"),
  Options.optional
)

const doctorCommand = Command.make("doctor", { json, app: doctorApp, ...serveOptions }, (flags) =>
  Effect.flatMap(
    Effect.promise(() => import("./inspect.js")),
    (m) => m.doctor(flags)
  )
).pipe(
  Command.withDescription(
    "Check Node, playwright-core, Chromium, Electron or the stand-in, display, paths and policy (with --app, one app's launch too); exits non-zero when a required check fails"
  )
)

const traceFile = Args.text({ name: "trace.jsonl" }).pipe(Args.withDescription("A trace file the trace plugin wrote (--plugin trace)"))
const replayApp = Options.text("app").pipe(
  Options.withPseudoName("DIR"),
  Options.withDescription("Launch this app folder in place of each recorded electron_launch's app"),
  Options.optional
)
const replayExecutable = Options.text("executable-path").pipe(
  Options.withPseudoName("PATH"),
  Options.withDescription("Run each launch with this executable (a trace's own executablePath is never run)"),
  Options.optional
)
const replayEnv = Options.keyValueMap(Options.text("env").pipe(Options.withPseudoName("NAME=VALUE"))).pipe(
  Options.withDescription("NAME=VALUE for a launch's environment variable whose value was redacted in the trace (repeatable)"),
  Options.optional
)
const replayCommand = Command.make(
  "replay",
  { trace: traceFile, app: replayApp, appRoot, executablePath: replayExecutable, env: replayEnv, allowEval, plugin, outputDir, operationTimeoutMs },
  (flags) =>
    Effect.flatMap(
      Effect.promise(() => import("./replay.js")),
      (m) => m.replay(flags)
    )
).pipe(
  Command.withDescription(
    "Re-run a recorded session headless against a fresh launch, one line per step; exits non-zero when a step that was ok in the trace now fails (steps with redacted arguments are skipped)"
  )
)

export const rootCommand = Command.make("stagewright", { ...serveOptions, ...transportOptions }, serve).pipe(
  Command.withDescription(
    "MCP server that lets an AI agent launch or attach to an Electron app and drive, test and debug it. With no command it serves (the options below are serve's): stagewright --app-root . --plugin production"
  ),
  Command.withSubcommands([serveCommand, toolsCommand, doctorCommand, productionCommand, replayCommand])
)

/** Each command's options, for src/cli/argv.ts (a command of subcommands is left to the parser). */
export const commandTable: Commands = {
  commands: new Map([
    ["serve", flagsOf(Command.getUsage(serveCommand))],
    ["tools", flagsOf(Command.getUsage(toolsCommand))],
    ["doctor", flagsOf(Command.getUsage(doctorCommand))],
    ["production", null],
    ["replay", flagsOf(Command.getUsage(replayCommand))]
  ]),
  fromEnv: new Set(["serve", "doctor"])
}

const footer = HelpDoc.blocks([
  HelpDoc.h1("ENVIRONMENT"),
  HelpDoc.p(
    "Every option of serve can also come from an environment variable: STAGEWRIGHT_ and the option's name in capitals, dashes as underscores (STAGEWRIGHT_APP_ROOT=/path/to/app for --app-root). The command line wins. A repeatable option takes a comma-separated list (STAGEWRIGHT_PLUGIN=production,storage), --plugin-config one NAME=JSON a line, a switch 1/true or 0/false. STAGEWRIGHT_ELECTRON (the Electron binary) and STAGEWRIGHT_CHROMIUM keep their own meaning."
  )
])

export const cli = Command.run(rootCommand, { name: "stagewright", version: VERSION, footer })
