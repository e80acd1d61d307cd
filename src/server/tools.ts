/**
 * The tools that describe the server itself: its state (electron_status) and its plugins
 * (electron_plugins), and electron_profile (only with --allow-profile-switch). They read server-side
 * services, so they live here rather than among the app tools.
 */
import { Effect, Redacted, Schema } from "effect"
import { EvalPolicy } from "../eval-policy/EvalPolicy.js"
import { ServerConfig } from "../layers/config/ServerConfig.js"
import { AppLifecycle, type AppSession } from "../layers/driver/ElectronDriver.js"
import { describeDisplay } from "../layers/driver/display.js"
import { LoadedPlugins } from "../plugins/PluginLoader.js"
import { PROFILE_SWITCH_TOOL, ProfileSelector } from "../profile/ProfileSelector.js"
import { PROFILE_NAMES, PROFILES } from "../profile/profiles.js"
import { InvalidArgument } from "../tools/contract/errors.js"
import { describeWindows, windowLines } from "../tools/app/app.js"
import { answerAdvice, describeDialog, dialogFields, openDialogs } from "../tools/modal/dialogs.js"
import { groupTools } from "../tools/index.js"
import { defineTool, type Tool, type ToolServices } from "../tools/contract/Tool.js"
import { ServerState } from "./ServerState.js"

/** What the server-describing tools read beyond the services every tool may use. */
export type ServerServices = ToolServices | ServerState | ProfileSelector | LoadedPlugins

export const status = defineTool({
  name: "electron_status",
  touchesPage: false,
  description:
    "Server and app state: start time, last error, tool profile, eval policy, loaded plugins, whether an app runs, its windows and open web dialogs. Cheap; call it when something fails unexpectedly.",
  type: "read",
  errors: [],
  input: Schema.Struct({}),
  handler: () =>
    Effect.gen(function* () {
      const state = yield* ServerState
      const profile = yield* ProfileSelector
      const policy = yield* EvalPolicy
      const plugins = yield* LoadedPlugins
      const lifecycle = yield* AppLifecycle
      const lastError = yield* state.lastError
      const calls = yield* state.calls
      const session = yield* lifecycle.current
      const sessions = yield* lifecycle.sessions
      const stateOf = (s: AppSession) => (s.exit ? (s.exit.expected ? "closed" : "crashed") : "running")
      const appState = session === undefined ? "none" : session.exit ? (session.exit.expected ? "closed" : "crashed") : "running"
      const windows = session && !session.exit ? yield* describeWindows(session) : []
      const dialogs = session && !session.exit ? openDialogs(session) : []
      const advice = dialogs.length > 0 ? yield* answerAdvice : ""
      const structured = {
        server: { startedAt: state.startedAt.toISOString(), calls: calls.total, failed: calls.failed, lastError: lastError ?? null },
        profile: profile.active,
        allowEval: policy.allowed,
        plugins: plugins.plugins.map((p) => p.name),
        app: {
          state: appState,
          ...(session ? { kind: session.kind, pid: session.pid ?? null, mainProcess: session.hasMainProcess } : {}),
          ...(session?.launch?.display && !session.exit ? { display: session.launch.display } : {}),
          ...(session?.exit ? { exit: session.exit } : {}),
          windows,
          ...(dialogs.length > 0 ? { dialogs: dialogs.map(dialogFields) } : {})
        },
        sessions: sessions.map((s) => ({ name: s.name, active: s.active, state: stateOf(s.session), kind: s.session.kind, pid: s.session.pid ?? null }))
      }
      const lines = [
        `server: started ${structured.server.startedAt}, ${calls.total} calls, ${calls.failed} failed`,
        `last_error: ${lastError ? `${lastError.at} ${lastError.tool} ${lastError.code}: ${lastError.message}` : "none"}`,
        `profile: ${profile.active}; eval: ${policy.allowed.length > 0 ? policy.allowed.join(", ") : "off"}; plugins: ${structured.plugins.join(", ") || "none"}`,
        ...(sessions.length > 1
          ? [
              `sessions: ${sessions.map((s) => `${s.active ? "*" : ""}${s.name} ${stateOf(s.session)}${s.session.pid ? ` (pid ${s.session.pid})` : ""}`).join(", ")}`
            ]
          : []),
        `app: ${appState}${session?.pid ? ` (pid ${session.pid})` : ""}${sessions.length > 0 ? `, session ${sessions.find((s) => s.active)?.name}` : ""}${session?.exit ? ` — ${session.exit.detail}` : ""}${session?.launch?.display && !session.exit ? `; ${describeDisplay(session.launch.display)}` : ""}`,
        ...(windows.length > 0 ? [windowLines(windows)] : []),
        ...dialogs.map((d) => `dialog open: ${describeDialog(d)}`),
        ...(dialogs.length > 0 ? [advice] : [])
      ]
      return { text: lines.join("\n"), structured }
    })
})

/** A configuration value as electron_plugins shows it: Redacted values (secrets) never appear. */
const showSetting = (value: unknown): unknown => {
  if (Redacted.isRedacted(value)) return "<redacted>"
  if (Array.isArray(value)) return value.map(showSetting)
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, showSetting(v)]))
  return value
}

export const plugins = defineTool({
  name: "electron_plugins",
  touchesPage: false,
  description: "Loaded plugins with their tools, and the first-party plugins that --plugin NAME can load.",
  type: "read",
  errors: [],
  input: Schema.Struct({}),
  handler: () =>
    Effect.gen(function* () {
      const loaded = yield* LoadedPlugins
      const config = yield* ServerConfig
      const available = loaded.available
      const described = loaded.plugins.map((p) => {
        const evalTargets = [...new Set(p.tools.flatMap((t) => (t.evalTarget ? [t.evalTarget] : [])))]
        const settings = showSetting(loaded.settings[p.name])
        return { name: p.name, purpose: p.purpose, tools: p.tools.map((t) => t.name), evalTargets, ...(p.config ? { config: settings } : {}) }
      })
      const lines = described.map(
        (p) =>
          `${p.name}: ${p.purpose}\n  ${p.tools.join(", ")}` +
          (p.evalTargets.length > 0 ? `\n  needs --allow-eval ${p.evalTargets.join(", ")}` : "") +
          ("config" in p ? `\n  config: ${JSON.stringify(p.config)}` : "")
      )
      if (lines.length === 0) lines.push("No plugins loaded.")
      if (available.length > 0) lines.push(`Available with --plugin NAME: ${available.join(", ")}`)
      return { text: lines.join("\n"), structured: { loaded: described, available, requested: config.plugins } }
    })
})

/**
 * Switches the active tool profile at run time. Listed only with --allow-profile-switch (it is not in
 * serverTools or coreTools, so the default tools/list and the documentation manifest do not change).
 * The MCP binding sends notifications/tools/list_changed after a switch that changed the list.
 */
export const profileSwitch = defineTool({
  name: PROFILE_SWITCH_TOOL,
  touchesPage: false,
  description:
    "Switch the active tool profile (essential, testing, debug, full); the tool list changes (tools/list_changed). Call it when a tool answers TOOL_NOT_IN_PROFILE, then call that tool again.",
  type: "lifecycle",
  errors: ["INVALID_ARGUMENT"],
  input: Schema.Struct({
    profile: Schema.Literal(...PROFILE_NAMES).annotations({ description: "The profile to make active" })
  }),
  handler: ({ profile }) =>
    Effect.gen(function* () {
      const selector = yield* ProfileSelector
      const change = yield* selector
        .switchTo(profile)
        .pipe(Effect.mapError((error) => new InvalidArgument({ message: error.message, hint: "Restart the server with --allow-profile-switch." })))
      const size = PROFILES[profile].size
      const structured = {
        profile,
        previous: change.from,
        changed: change.added.length + change.removed.length > 0 || change.from !== profile,
        tools: size,
        added: change.added,
        removed: change.removed
      }
      const text = !structured.changed
        ? `profile ${profile} is already active (${size} core tools); the tool list is unchanged`
        : [
            `profile: ${change.from} -> ${profile} (${size} core tools): ${change.added.length} added, ${change.removed.length} removed; tools/list changed`,
            ...(change.added.length > 0 ? [`added: ${change.added.join(", ")}`] : []),
            ...(change.removed.length > 0 ? [`removed: ${change.removed.join(", ")}`] : [])
          ].join("\n")
      return { text, structured }
    })
})

export const serverTools: ReadonlyArray<Tool<any, ServerServices>> = [status, plugins]

/** The whole core catalog: every core tool group, the server-describing tools and the eval tools. */
export const coreTools: ReadonlyArray<Tool<any, any>> = [...serverTools, ...groupTools]
