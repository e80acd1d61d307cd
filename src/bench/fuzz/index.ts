/**
 * The fuzz generator and oracle shared by the fuzz tests (test/fuzz/) and the reliability benchmark
 * (../reliability/). It lives here, not in test/support, because the benchmark uses it too and nothing
 * in src/ may import test/ (deps:check); tests may import src/bench. It depends on `effect` (Schema,
 * Arbitrary and FastCheck) and the MCP SDK's request schema, both runtime dependencies, so `src/`
 * carries no test-only dependency.
 *
 * - Valid-shaped calls: `Arbitrary.make(tool.input)`, encoded with the tool's Schema, sometimes with a
 *   field swapped for an "interesting" value (empty, unicode, path tricks, boundary selectors, ...) as
 *   long as the call still decodes.
 * - Malformed calls: random JSON values (`FastCheck.jsonValue()`, `FastCheck.anything()` kept to what JSON
 *   can carry), a wrong type in one field, extra keys, strings over the schema's maxLength, deep
 *   nesting, a required field left out, and names that are not tools.
 * - The oracle (`checkResult`): a call resolves to a result; an error result carries a known
 *   `structuredContent.error.code`, its text starts with `CODE: `, and the code is never INTERNAL_ERROR
 *   (a defect).
 *
 * Generation is deterministic for a seed: the same seed gives the same calls, in the same order.
 */
export * from "./shapes.js"
export * from "./generate.js"
export * from "./oracle.js"
