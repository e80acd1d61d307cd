/**
 * The network plugin's configuration (`--plugin-config network={"redactHeaders":["X-Api-Key"]}`): header
 * names a capture records as <redacted>, beside Authorization, Proxy-Authorization, Cookie and Set-Cookie.
 */
import { Schema } from "effect"

const HeaderName = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, { message: () => "an HTTP header name" }))

export const NetworkConfig = Schema.Struct({
  redactHeaders: Schema.optionalWith(Schema.Array(HeaderName).pipe(Schema.maxItems(100)), { default: () => [] }).annotations({
    description: "more header names to redact in captures"
  })
})
