/**
 * Secret placeholders: the agent writes `{{secret:NAME}}` in a value it types or asserts (electron_fill,
 * electron_type, electron_fill_form, electron_expect_value) and the value of the operator's secret NAME
 * (`--secrets FILE`) is put in its place only where it is handed to the page. The agent never sees the
 * value: the arguments the record keeps hold the placeholder, and every answer has each secret value
 * replaced by its placeholder again (`hideSecrets`, applied by the Dispatcher to every result).
 */
import { Effect } from "effect"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { markSecret } from "./call-secrets.js"
import { InvalidArgument } from "../contract/errors.js"

export const SECRET_PLACEHOLDER = /\{\{secret:([^{}]{0,80})\}\}/g

/** `text` with each `{{secret:NAME}}` replaced by the secret's value; an unknown name is INVALID_ARGUMENT. */
export const withSecrets = (text: string): Effect.Effect<string, InvalidArgument, ServerConfig> =>
  !text.includes("{{secret:")
    ? Effect.succeed(text)
    : Effect.flatMap(ServerConfig, (config) => {
        const secrets = new Map(config.secrets ?? [])
        const unknown = [...text.matchAll(SECRET_PLACEHOLDER)].map((m) => m[1]!).find((name) => !secrets.has(name))
        if (unknown !== undefined) {
          const known = [...secrets.keys()]
          return Effect.fail(
            new InvalidArgument({
              message: `no secret named ${JSON.stringify(unknown.slice(0, 64))}${known.length > 0 ? ` (secrets: ${known.slice(0, 30).join(", ")})` : " (this server has no secrets)"}`,
              hint: "Use {{secret:NAME}} with a name the operator gave in --secrets FILE (NAME=value lines)."
            })
          )
        }
        const values = [...text.matchAll(SECRET_PLACEHOLDER)].map((m) => secrets.get(m[1]!)!)
        return Effect.as(
          Effect.forEach(values, markSecret, { discard: true }),
          text.replace(SECRET_PLACEHOLDER, (_, name: string) => secrets.get(name)!)
        )
      })

export { hideSecrets } from "../../layers/config/secrets-file.js"
