/**
 * Dispatcher: the one MCP tool contract.
 *
 * - `list()` returns the visible tools sorted by name (core tools in the profile, eval tools whose
 *   target is allowed, loaded plugin tools), as the MCP tools/list entries.
 * - `call()` resolves the name and its availability first (unknown, excluded by the profile, eval
 *   target not allowed, plugin not loaded: each with its hint, before any argument is looked at),
 *   then decodes the arguments with the tool's Schema, runs the handler through the call's stages
 *   (tools/pipeline/guard.ts: the same for every tool) under the operation timeout, records failures in
 *   ServerState and turns every outcome, defects included, into a tool result. Loaded plugins' call
 *   observers see every call, may add a note to its answer or refuse it first (./observers.ts). Given a progress sink (the request carried a progress token), the run sends progress
 *   while it lasts (./progress.ts).
 */
import { Cause, Context, Effect, Either, FiberRef, Layer, Option, ParseResult, Schema } from "effect"
import { ServerConfig } from "../layers/config/ServerConfig.js"
import { EvalPolicy } from "../eval-policy/EvalPolicy.js"
import { LoadedPlugins, pluginOfToolName } from "../plugins/PluginLoader.js"
import { PROFILE_SWITCH_TOOL, ProfileSelector, type Selection } from "../profile/ProfileSelector.js"
import { isCoreToolName } from "../profile/profiles.js"
import { withinCallBound } from "../tools/contract/call-bounds.js"
import { errorCode, InvalidArgument, Timeout } from "../tools/contract/errors.js"
import { stagesOf } from "../tools/pipeline/guard.js"
import { inputJsonSchema, toListedTool, type ListedTool } from "../tools/pipeline/json-schema.js"
import { ANSWER_GRACE_MS, capTimeoutSchema, timeoutOverCap } from "./timeouts.js"
import { isReadOnly, touchesPage, type Tool, type ToolServices } from "../tools/contract/Tool.js"
import { argumentsTooLarge, formatDecodeError, isArgumentObject } from "./decode.js"
import { cancelledCall, PluginNotLoaded, unexpectedFailure, UnknownTool, type ServerError } from "./errors.js"
import { callLimitMs, describeCall, withProgress, type ProgressSink } from "./progress.js"
import { byName, nearMisses } from "./resolve.js"
import { makeTurns, type Ticket, type TurnHolder } from "./turns.js"
import { capResult, errorResult, successResult, type CallResult } from "./results.js"
import { ServerState } from "./ServerState.js"
import { makeObserverRunner } from "./observers.js"
import type { CallRefused } from "../plugins/observer.js"
import { coreTools, profileSwitch, type ServerServices } from "./tools.js"
import { cut } from "../tools/contract/respond.js"
import { hideSecrets } from "../layers/config/secrets-file.js"
import { spanned } from "../layers/driver/ElectronDriver.js"

/** Whether a url argument is a javascript: URL (anything but a string is not). */
const isJavascriptUrl = (url: unknown): boolean => typeof url === "string" && /^\s*javascript:/i.test(url)

export type { CallResult, Content } from "./results.js"
export type { ListedTool } from "../tools/pipeline/json-schema.js"
export type { ProgressSink, ProgressUpdate } from "./progress.js"

/** A call that changes the app timed out waiting for its turn (./turns.ts): what it waited for. */
const notStarted = (tool: string, limitMs: number, holder: TurnHolder | undefined) =>
  new Timeout({
    message: `${tool} did not start within ${limitMs} ms: it waited for ${holder === undefined ? "the calls before it" : `${holder.tool} (running for ${Math.round((Date.now() - holder.since) / 100) / 10} s) and the calls before it`}. Calls that change the app run one at a time, in the order they came.`,
    hint: "Call it again once the calls before it have answered; if one is stuck, electron_status shows the app's state and electron_close ends it."
  })

/** A tool of any group: core (driver services), server-describing or plugin. */
type AnyTool = Tool<any, ToolServices | ServerServices>

export interface CallOptions {
  /** Where progress goes while the call runs; without it none is made. */
  readonly progress?: ProgressSink | undefined
}

export interface DispatcherShape {
  /** The visible tools, sorted by name (read now: a profile switch changes them). */
  readonly tools: ReadonlyArray<AnyTool>
  readonly list: () => ReadonlyArray<ListedTool>
  readonly call: (name: string, args: unknown, options?: CallOptions) => Effect.Effect<CallResult>
}

export class Dispatcher extends Context.Tag("stagewright/Dispatcher")<Dispatcher, DispatcherShape>() {
  static readonly layer = Layer.scoped(
    Dispatcher,
    Effect.gen(function* () {
      const profile = yield* ProfileSelector
      const policy = yield* EvalPolicy
      const plugins = yield* LoadedPlugins
      const config = yield* ServerConfig
      const state = yield* ServerState
      const context = yield* Effect.context<ToolServices | ServerServices>()
      const observers = yield* makeObserverRunner(plugins.observers)

      const capListed = (listed: ListedTool): ListedTool => ({ ...listed, inputSchema: capTimeoutSchema(listed.inputSchema, config.operationTimeoutMs) })

      const known = new Map<string, AnyTool>()
      // electron_profile exists only with --allow-profile-switch: without it the name is unknown.
      const switchTools = config.allowProfileSwitch === true ? [profileSwitch] : []
      for (const tool of [...coreTools, ...switchTools, ...plugins.tools]) known.set(tool.name, tool)

      const isVisible = (tool: AnyTool) =>
        (tool.evalTarget === undefined || policy.isAllowed(tool.evalTarget)) &&
        (tool.plugin !== undefined || tool.evalTarget !== undefined || tool.name === PROFILE_SWITCH_TOOL || profile.isActive(tool.name))

      // The visible tools follow the current selection (a profile switch changes it); built once per selection.
      let view: { readonly selection: Selection; readonly visible: ReadonlyArray<AnyTool>; readonly listed: ReadonlyArray<ListedTool> } | undefined
      const currentView = () => {
        const selection = profile.current()
        if (view === undefined || view.selection !== selection) {
          const visible = [...known.values()].filter(isVisible).sort(byName)
          // A timeoutMs is listed up to the cap this server has (./timeouts.ts).
          view = { selection, visible, listed: visible.map((tool) => capListed(toListedTool(tool))) }
        }
        return view
      }

      const resolveTool = (name: string): Effect.Effect<AnyTool, ServerError> =>
        Effect.gen(function* () {
          // A catalog name outside the selection is answered as such, whatever else is true of it.
          if (isCoreToolName(name)) yield* profile.check(name)
          const tool = known.get(name)
          if (tool === undefined) {
            const plugin = pluginOfToolName(name, plugins.available)
            if (plugin !== undefined) {
              return yield* new PluginNotLoaded({
                message: `${name} belongs to the ${plugin} plugin, which is not loaded`,
                hint: `restart with --plugin ${plugin}`,
                tool: name,
                plugin
              })
            }
            const shown = cut(name, 80)
            const suggestions =
              name.length > 80
                ? []
                : nearMisses(
                    name,
                    [...known.keys()].filter((n) => isVisible(known.get(n)!))
                  )
            return yield* new UnknownTool({
              message: `There is no tool named ${shown}`,
              hint: suggestions.length > 0 ? `Did you mean ${suggestions.join(" or ")}?` : "Call one of the tools from tools/list.",
              tool: shown,
              suggestions
            })
          }
          if (tool.evalTarget !== undefined) yield* policy.authorize(tool.name, tool.evalTarget)
          return tool
        })

      // The usual call names a visible tool that runs no caller code: told at once, without an Effect of its own
      // (the same answer resolveTool gives; anything else goes there for its error).
      const resolveKnown = (name: string): Effect.Effect<AnyTool, ServerError> => {
        const tool = known.get(name)
        return tool !== undefined && tool.evalTarget === undefined && (!isCoreToolName(name) || profile.isActive(name)) ? Either.right(tool) : resolveTool(name)
      }

      // Schema.Struct({}) accepts any object; a tool without parameters must still reject unknown ones.
      const takesNothing = new Set(
        [...known.values()].filter((t) => Object.keys((inputJsonSchema(t).properties as object | undefined) ?? {}).length === 0).map((t) => t.name)
      )

      // Each tool's pipeline (its stages: tools/pipeline/guard.ts) is built once, from what it declares.
      const pipelines = new Map<string, ReturnType<typeof stagesOf<ToolServices | ServerServices>>>()
      const pipelineOf = (tool: AnyTool) => {
        let pipeline = pipelines.get(tool.name)
        if (pipeline === undefined) {
          pipeline = stagesOf(tool)
          pipelines.set(tool.name, pipeline)
        }
        return pipeline
      }

      // Each tool's decoder is built once, not on every call. It decodes synchronously, to an Either (no fiber
      // work on every call); a schema that can only be decoded asynchronously (a plugin's) is decoded as an Effect.
      const invalid = (tool: AnyTool, error: ParseResult.ParseError) =>
        new InvalidArgument({
          message: `${tool.name}: ${formatDecodeError(error)}`,
          hint: "Fix the named argument; the tool's inputSchema gives the expected form and defaults."
        })
      const decoders = new Map<string, (args: unknown) => Effect.Effect<unknown, InvalidArgument>>()
      const decoderOf = (tool: AnyTool) => {
        let decoder = decoders.get(tool.name)
        if (decoder === undefined) {
          const schema = tool.input as Schema.Schema<any, unknown, never>
          const options = { onExcessProperty: "error", errors: "all" } as const
          const now = Schema.decodeUnknownEither(schema, options)
          const later = Schema.decodeUnknown(schema, options)
          decoder = (args) => {
            const decoded = now(args)
            if (Either.isRight(decoded)) return Either.right(decoded.right)
            const error = decoded.left
            return ParseResult.ArrayFormatter.formatIssueSync(error.issue).some((i) => i._tag === "Forbidden")
              ? Effect.mapError(later(args), (e) => invalid(tool, e))
              : Either.left(invalid(tool, error))
          }
          decoders.set(tool.name, decoder)
        }
        return decoder
      }

      const decode = (tool: AnyTool, args: unknown): Effect.Effect<unknown, InvalidArgument> => {
        const problem = argumentsTooLarge(args)
        if (problem !== undefined)
          return Either.left(
            new InvalidArgument({ message: `${tool.name}: ${problem}`, hint: "Send plain, reasonably sized JSON arguments as the inputSchema describes." })
          )
        if (!isArgumentObject(args))
          return Either.left(
            new InvalidArgument({
              message: `${tool.name}: arguments must be a JSON object, not ${Array.isArray(args) ? "an array" : typeof args}`,
              hint: "Send the arguments as an object, {} when there are none."
            })
          )
        if (takesNothing.has(tool.name) && args !== null && typeof args === "object" && Object.keys(args).length > 0)
          return Either.left(
            new InvalidArgument({
              message: `${tool.name}: ${Object.keys(args).join(", ")}: unexpected, this tool takes no arguments`,
              hint: "Call it with {}."
            })
          )
        return decoderOf(tool)(args ?? {})
      }

      // Calls that change the app run one at a time, in the order they came (./turns.ts).
      const turns = makeTurns()
      const changesApp = (tool: AnyTool) => touchesPage(tool) && !isReadOnly(tool)

      // One rule (./timeouts.ts): the call's own timeoutMs governs, up to the cap; the bound leaves its own timeout
      // the time to answer with what it waited for. Every tool, core, eval, plugin or third-party, runs through the
      // same stages (files confined, held to web dialogs, hints on DIALOG_OPEN and ELEMENT_NOT_FOUND:
      // tools/pipeline/guard.ts) inside one bound.
      const bounded = (tool: AnyTool, input: unknown, options: CallOptions | undefined) => {
        const over = timeoutOverCap(input, config.operationTimeoutMs)
        if (over !== undefined) {
          return Effect.fail(
            new InvalidArgument({
              message: `timeoutMs ${over} is over this server's cap of ${config.operationTimeoutMs} ms (--operation-timeout-ms)`,
              hint: `Pass timeoutMs ${config.operationTimeoutMs} or less, or ask the operator to restart the server with a larger --operation-timeout-ms.`
            })
          )
        }
        const limitMs = callLimitMs(input, config.operationTimeoutMs)
        const own = (input as { timeoutMs?: unknown } | null)?.timeoutMs === limitMs
        const staged = pipelineOf(tool)(input)
        const ticket: Ticket = { waiting: false }
        const run = withinCallBound(
          inServices(changesApp(tool) ? turns.inTurn(tool.name, ticket, staged) : staged),
          limitMs + ANSWER_GRACE_MS,
          () =>
            ticket.waiting
              ? notStarted(tool.name, limitMs, turns.holder())
              : new Timeout({
                  message: `${tool.name} did not finish within ${limitMs} ms (${own ? "its timeoutMs" : "--operation-timeout-ms"})`,
                  hint: "Retry; if the app is stuck, electron_status shows its state and electron_close ends it."
                }),
          // A call's own timeoutMs bounds its waits, the grace after it is for its answer (./timeouts.ts); a wait with no
          // bound of its own (timeoutMs 0, none given) ends at the cap, before that grace.
          own ? limitMs + ANSWER_GRACE_MS : limitMs
        )
        const sink = options?.progress
        return sink === undefined ? run : withProgress(run, { tool: tool.name, limitMs, activity: describeCall(input, isReadOnly(tool)), sink })
      }

      // The Dispatcher's services under the caller's (as Effect.provide merges them), merged once per caller
      // context (a server runs its calls in one runtime, whose context does not change) and set in the call's own
      // fiber (the bound's: call-bounds.ts), the only place they are needed, instead of scoped around the call.
      let merged: { readonly parent: Context.Context<never>; readonly context: Context.Context<never> } | undefined
      const servicesUnder = (parent: Context.Context<never>) => {
        if (merged === undefined || merged.parent !== parent) merged = { parent, context: Context.merge(parent, context) }
        return merged.context
      }
      const inServices = <A, E>(effect: Effect.Effect<A, E, ToolServices | ServerServices>): Effect.Effect<A, E> =>
        Effect.zipRight(FiberRef.update(FiberRef.currentContext, servicesUnder), effect) as unknown as Effect.Effect<A, E>

      // Observers (plugins' call observers: ./observers.ts) see every call; `gate` runs their `before`
      // once the name and arguments are checked, and may refuse the call (CALL_REFUSED).
      // The operator's secrets (--secrets) never reach an answer: each value is shown as {{secret:NAME}}.
      const call = (name: string, args: unknown, options?: CallOptions): Effect.Effect<CallResult> =>
        Effect.map(
          observers.observe(name, args, (gate) => answer(name, args, gate, options)),
          (result) => hideSecrets(result, config.secrets)
        )

      const answer = (name: string, args: unknown, gate: Effect.Effect<void, CallRefused>, options?: CallOptions): Effect.Effect<CallResult> =>
        state.recordCall.pipe(
          Effect.zipRight(resolveKnown(name)),
          Effect.flatMap((tool) =>
            Effect.flatMap(decode(tool, args), (input) =>
              observers.active ? Effect.zipRight(gate, bounded(tool, input, options)) : bounded(tool, input, options)
            )
          ),
          Effect.map((result) => successResult(capResult(name, hideSecrets(result, config.secrets), config.maxResponseChars, config.outputDir))),
          Effect.catchAllCause((cause) => {
            const failure = Cause.failureOption(cause)
            const error: ServerError = Option.isSome(failure)
              ? failure.value
              : Cause.isInterruptedOnly(cause)
                ? cancelledCall(name)
                : unexpectedFailure(name, cause)
            const logDefect = error._tag === "InternalError" ? Effect.logError(`defect in ${name}`, cause) : Effect.void
            const tool = known.get(name)
            const breadcrumb = {
              tool: name,
              code: errorCode(error),
              message: hideSecrets(error.message, config.secrets),
              args,
              // Only a string url can be a javascript: URL (String() of a deeply nested array would overflow the stack).
              runsCallerCode: tool?.evalTarget !== undefined || isJavascriptUrl((args as { url?: unknown } | null)?.url)
            }
            return Effect.as(Effect.zipRight(logDefect, state.recordFailure(breadcrumb)), errorResult(error))
          }),
          // One span a call, named with its tool, only under a tracer an integrator installed (driver/spans.ts).
          spanned("Dispatcher.call", { tool: name })
        )

      return Dispatcher.of({
        get tools() {
          return currentView().visible
        },
        list: () => currentView().listed,
        call
      })
    })
  )
}
