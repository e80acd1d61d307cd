// A third-party Stagewright plugin in plain JavaScript: one tool and a configuration Schema with a secret.
//
//   stagewright serve --plugin ./examples/plugin-hello/index.js \
//     --plugin-config 'hello={"greeting":"Howdy","token":"s3cret"}'
//
// In your own package, import from "stagewright". Inside this repository the package cannot import itself
// (it has no "exports" map), so the example imports the build (npm run build) the CLI itself runs from;
// `effect` resolves from the repository's node_modules.
import { Effect, Schema } from "effect"
import { callHandle, definePlugin, defineTool, pluginSettings } from "../../dist/index.js"

/** --plugin-config hello=<json>, decoded at start-up: a bad value stops the server, naming the field. */
export const Settings = Schema.Struct({
  greeting: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(40)), { default: () => "Hello" }),
  // A secret: electron_plugins shows it as <redacted>, and it never appears in an answer.
  token: Schema.optional(Schema.Redacted(Schema.String))
})

const greet = defineTool({
  name: "electron_hello_greet",
  description: "Greets someone with the configured greeting and says whether an app is running and whether a token is configured.",
  type: "read",
  errors: [],
  input: Schema.Struct({
    name: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))).annotations({ description: "who to greet, default world" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const settings = yield* pluginSettings("hello", Settings)
      // The call's handle (the same for core and plugin tools): the app, its surfaces, the page, the main process.
      const call = yield* callHandle
      const session = yield* call.current
      const app = session === undefined || session.exit ? "no app is running" : `an app is running (${session.windows.length} window(s))`
      const token = settings.token !== undefined ? "a token is configured" : "no token is configured"
      return {
        text: `${settings.greeting}, ${input.name ?? "world"}! (${app}; ${token})`,
        structured: {
          greeting: settings.greeting,
          name: input.name ?? "world",
          appRunning: session !== undefined && !session.exit,
          token: settings.token !== undefined
        }
      }
    })
})

export default definePlugin({
  name: "hello",
  purpose: "An example third-party plugin: a configured greeting.",
  stagewright: ">=0.1.0 <1",
  config: Settings,
  tools: [greet]
})
