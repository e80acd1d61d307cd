/**
 * McpServer: binds the Dispatcher to the MCP SDK's low-level Server (tools/list, tools/call; and
 * resources/list, resources/read over ./resources.ts) and connects it to a transport: stdio (the
 * default), or any SDK transport such as the in-memory linked pair used by tests and the benchmark. Tool failures are tool results; a cancelled request
 * (notifications/cancelled) interrupts the fiber running it.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  type JSONRPCMessage,
  type LoggingLevel
} from "@modelcontextprotocol/sdk/types.js"
import { Cause, Context, Data, Deferred, Effect, Exit, Layer, Runtime, type Scope } from "effect"
import { EvalPolicy } from "../eval-policy/EvalPolicy.js"
import { LoadedPlugins } from "../plugins/PluginLoader.js"
import { ProfileSelector } from "../profile/ProfileSelector.js"
import { Dispatcher } from "./Dispatcher.js"
import { serverInstructions } from "./instructions.js"
import { cancelledCall, unexpectedFailure } from "./errors.js"
import { mcpProgressSink } from "./progress.js"
import { makeResources, toMcpError, type ResourceError } from "./resources.js"
import { errorResult } from "./results.js"
import { LineLimiter, STDIO_MAX_MESSAGE_BYTES, type OversizedMessage } from "./stdio-limit.js"
import { stderrLogger } from "./stderr-logger.js"
import { VERSION } from "../version.js"

export interface McpServerShape {
  readonly server: Server
  /** Connects a transport; the connection is closed with the enclosing scope. Resolves once connected. */
  readonly connect: (transport: Transport) => Effect.Effect<void, McpConnectFailed, Scope.Scope>
  /** Completes when the connected transport closes (the client went away). */
  readonly closed: Effect.Effect<void>
}

/** The SDK could not connect the transport (already started, closed, or failed to open). */
export class McpConnectFailed extends Data.TaggedError("McpConnectFailed")<{ readonly cause: unknown }> {
  override get message() {
    return `Could not connect the MCP transport: ${this.cause instanceof Error ? this.cause.message : String(this.cause)}`
  }
}

/** MCP's log levels, least severe first. */
const LOG_LEVELS: ReadonlyArray<LoggingLevel> = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]

export class McpServer extends Context.Tag("stagewright/McpServer")<McpServer, McpServerShape>() {
  static readonly layer = Layer.scoped(
    McpServer,
    Effect.gen(function* () {
      const dispatcher = yield* Dispatcher
      const runtime = yield* Effect.runtime<never>()
      const closed = yield* Deferred.make<void>()
      const resources = yield* makeResources
      const profile = yield* ProfileSelector
      const policy = yield* EvalPolicy
      const loaded = yield* LoadedPlugins
      const instructions = serverInstructions({ profile: profile.active, plugins: loaded.plugins.map((p) => p.name), allowEval: policy.allowed })
      const server = new Server(
        { name: "stagewright", version: VERSION },
        { capabilities: { tools: profile.switchable ? { listChanged: true } : {}, resources: { listChanged: true }, logging: {} }, instructions }
      )
      // Logging: a failed tool call is also reported as notifications/message (warning; error for a defect),
      // once the client asked for messages (logging/setLevel) and its level admits it. Server logs stay on stderr.
      let logLevel: LoggingLevel | undefined = undefined
      server.setRequestHandler(SetLevelRequestSchema, async (request) => {
        logLevel = request.params.level
        Runtime.runFork(runtime)(Effect.logDebug(`client log level: ${logLevel}`))
        return {}
      })
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...dispatcher.list()] }))
      server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
        // With a progress token the call sends notifications/progress while it runs (./progress.ts).
        const progress = mcpProgressSink(request.params._meta?.progressToken, extra.sendNotification)
        const selection = profile.current()
        const exit = await Runtime.runPromiseExit(runtime)(dispatcher.call(request.params.name, request.params.arguments ?? {}, { progress }), {
          signal: extra.signal
        })
        // A call that wrote into the output folders changed resources/list (./resources.ts).
        if (resources.changed()) await extra.sendNotification({ method: "notifications/resources/list_changed" }).catch(() => undefined)
        // A profile switch (electron_profile, --allow-profile-switch) changed tools/list.
        if (profile.current() !== selection) await server.sendToolListChanged().catch(() => undefined)
        if (Exit.isSuccess(exit)) {
          const error = exit.value.structuredContent?.error as { readonly code?: string; readonly message?: string } | undefined
          const level: LoggingLevel = error?.code === "INTERNAL_ERROR" ? "error" : "warning"
          if (error !== undefined && logLevel !== undefined && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(logLevel)) {
            await extra
              .sendNotification({
                method: "notifications/message",
                params: { level, logger: "stagewright", data: { tool: request.params.name, code: error.code, message: error.message } }
              })
              .catch(() => undefined)
          }
          return exit.value as any // CallResult's readonly arrays against the SDK's mutable result type
        }
        if (Cause.isInterruptedOnly(exit.cause)) {
          return errorResult(cancelledCall(request.params.name)) as any
        }
        // The dispatcher turns failures into results; anything else that escapes it is a defect.
        return errorResult(unexpectedFailure(request.params.name, exit.cause)) as any
      })
      // Resources: what the server wrote into its output folders, and its documents; a refused read is a JSON-RPC error.
      const answer = async <A>(effect: Effect.Effect<A, ResourceError>) => {
        const exit = await Runtime.runPromiseExit(runtime)(effect)
        if (Exit.isSuccess(exit)) return exit.value
        const failure = Cause.failureOption(exit.cause)
        throw failure._tag === "Some" ? toMcpError(failure.value) : new Error(Cause.pretty(exit.cause).split("\n")[0])
      }
      server.setRequestHandler(ListResourcesRequestSchema, (request) => answer(resources.list(request.params?.cursor)))
      server.setRequestHandler(ReadResourceRequestSchema, (request) => answer(resources.read(request.params.uri)))
      server.onclose = () => {
        Runtime.runSync(runtime)(Deferred.succeed(closed, undefined))
      }
      const connect = (transport: Transport) =>
        Effect.acquireRelease(Effect.tryPromise({ try: () => server.connect(transport), catch: (cause) => new McpConnectFailed({ cause }) }), () =>
          Effect.promise(() => server.close().catch(() => undefined))
        )
      return McpServer.of({ server, connect, closed: Deferred.await(closed) })
    })
  )

  /**
   * Serves over stdin/stdout until the client closes stdin. Nothing else may write to stdout, so it
   * installs the stderr logger itself (an integrator's default logger would print defects on stdout).
   * A message over STDIO_MAX_MESSAGE_BYTES is discarded and answered with an Invalid Request error
   * (./stdio-limit.ts); the server keeps serving.
   */
  static readonly serveStdio = Effect.gen(function* () {
    const mcp = yield* McpServer
    const runtime = yield* Effect.runtime<never>()
    const oversized = ({ bytes, id }: OversizedMessage) => {
      const message = `Message too large: ${bytes} bytes, over the stdio limit of ${STDIO_MAX_MESSAGE_BYTES} bytes; it was discarded`
      Runtime.runFork(runtime)(
        Effect.logError(message).pipe(
          // MCP's error response carries the request's id, or none when it could not be read.
          Effect.zipRight(
            Effect.promise(() => transport.send({ jsonrpc: "2.0", ...(id !== undefined ? { id } : {}), error: { code: -32600, message } } as JSONRPCMessage))
          )
        )
      )
    }
    const stdin = yield* Effect.acquireRelease(
      Effect.sync(() => process.stdin.pipe(new LineLimiter(STDIO_MAX_MESSAGE_BYTES, oversized))),
      (limited) =>
        Effect.sync(() => {
          process.stdin.unpipe(limited)
          process.stdin.pause()
          limited.destroy()
        })
    )
    // The limiter passes whole lines of at most the limit: the SDK's own buffer bound (which closes the
    // transport) can never be reached.
    const transport = new StdioServerTransport(stdin, process.stdout, { maxBufferSize: Number.MAX_SAFE_INTEGER })
    yield* mcp.connect(transport)
    const stdinEnded = Effect.async<void>((resume) => {
      const done = () => resume(Effect.void)
      process.stdin.once("end", done)
      process.stdin.once("close", done)
      return Effect.sync(() => {
        process.stdin.off("end", done)
        process.stdin.off("close", done)
      })
    })
    yield* Effect.raceFirst(mcp.closed, stdinEnded)
  }).pipe(Effect.scoped, Effect.provide(stderrLogger))
}
