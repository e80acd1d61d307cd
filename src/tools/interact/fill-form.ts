/**
 * electron_fill_form: many fields in one call, in order, each by its kind (text, select, checkbox or
 * radio). Each field waits for its element in slices and is then filled within what is left of the call
 * (the driver's runAction), so a cancelled call leaves no field half way. A web dialog a field opens is
 * not this tool's result: it blocks the call, which answers DIALOG_OPEN (tools/pipeline/guard.ts).
 */
import { Effect, Schema } from "effect"
import { InvalidArgument } from "../contract/errors.js"
import { DEFAULT_ACTION_TIMEOUT, Target, TimeoutMs } from "../contract/shapes.js"
import { stepCode } from "../contract/step-code.js"
import { markSecret, REDACTED_CODE } from "../policy/call-secrets.js"
import { withSecrets } from "../policy/secret-values.js"
import { defineTool } from "../contract/Tool.js"
import { callHandle } from "../contract/handle.js"
import { answer } from "../contract/respond.js"

const FormValue = Schema.Union(Schema.String.pipe(Schema.maxLength(100_000)), Schema.Boolean, Schema.Array(Schema.String))

type Kind = "select" | "check" | "text" | "password"

export const fillForm = defineTool({
  name: "electron_fill_form",
  description:
    "Fill in a whole form (enter many fields) in one call, in order: text-like fields take a string, selects a string or list (value or label), checkboxes and radios true/false. Stops at the first field that fails and says which.",
  type: "interact",
  idempotent: true,
  targets: ["fields[].target"],
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({
    fields: Schema.Array(Schema.Struct({ target: Target, value: FormValue })).pipe(Schema.minItems(1), Schema.maxItems(100)),
    timeoutMs: TimeoutMs(DEFAULT_ACTION_TIMEOUT)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(undefined, { input: true })
      const done: Array<string> = []
      for (const [index, field] of input.fields.entries()) {
        const locator = yield* call.locate(entry, field.target)
        const code = yield* stepCode(entry, field.target, locator)
        // {{secret:NAME}} becomes the operator's secret here only (the recorded step hides it again).
        const value = typeof field.value === "string" ? yield* withSecrets(field.value) : field.value
        let step = ""
        let seen: Kind | undefined
        yield* call
          .runAction<Kind>({
            what: `fields[${index}] ${field.target}`,
            timeoutMs: input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT,
            reportsDialogs: false,
            // The field's kind, read once it is there (the probe), decides the action.
            ready: (timeout) =>
              locator.evaluate(
                (el): Kind => {
                  const tag = el.tagName.toLowerCase()
                  const type = (el.getAttribute("type") ?? "").toLowerCase()
                  return tag === "select"
                    ? "select"
                    : tag === "input" && (type === "checkbox" || type === "radio")
                      ? "check"
                      : tag === "input" && type === "password"
                        ? "password"
                        : "text"
                },
                undefined,
                { timeout }
              ),
            perform: async (timeout, kind) => {
              seen = kind
              if (kind === "check") {
                if (typeof value !== "boolean") throw new Error(`expects true or false for a checkbox or radio`)
                await locator.setChecked(value, { timeout })
                step = `await window.${code}.setChecked(${value})`
                return
              }
              if (kind === "select") {
                const values = typeof value === "string" ? [value] : Array.isArray(value) ? [...value] : undefined
                if (!values) throw new Error(`expects a string or list for a select`)
                await locator.selectOption(values, { timeout })
                step = `await window.${code}.selectOption(${JSON.stringify(values)})`
                return
              }
              if (typeof value !== "string") throw new Error(`expects a string for a text field`)
              await locator.fill(value, { timeout })
              step = `await window.${code}.fill(${kind === "password" && value === field.value ? REDACTED_CODE : JSON.stringify(value)})`
            }
          })
          .pipe(
            Effect.mapError((error) =>
              error._tag === "OperationFailed"
                ? new InvalidArgument({
                    message: `fields[${index}] (${field.target}): ${error.message.replace(/^[^:]*: /, "")}`,
                    hint: "Checkboxes take true/false, selects a string or list, other fields a string."
                  })
                : error
            ),
            // A value typed into a password field (or a field whose kind was never read) is secret in the call's record.
            Effect.ensuring(Effect.suspend(() => (typeof value === "string" && (seen === undefined || seen === "password") ? markSecret(value) : Effect.void)))
          )
        yield* call.record({ window: entry.id, code: step })
        done.push(code)
      }
      return yield* call.answer(answer(`Filled ${done.length} field${done.length === 1 ? "" : "s"}: ${done.join(", ")}.`, { window: entry.id, filled: done }), {
        changesOf: entry
      })
    })
})
