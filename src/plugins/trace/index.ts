/**
 * The trace plugin: the record of a session. Its observer (recorder.ts) sees every tool call, redacted, and
 * appends it to a JSONL trace file in the output folder (format.ts; `stagewright replay` re-runs it
 * headless); its tools say where the tokens went and set a token budget (state.ts), which warns past a soft
 * limit and refuses, with CALL_REFUSED, a call that would pass the hard one.
 */
import { definePlugin } from "../Plugin.js"
import { recorder } from "./recorder.js"
import { TraceSettings } from "./state.js"
import { traceBudget, traceReport } from "./tools.js"

export default definePlugin({
  name: "trace",
  purpose: "The record of a session: every call to a JSONL trace file (replayable), where the tokens went, a token budget",
  stagewright: ">=0.1.0 <1",
  config: TraceSettings,
  observers: [recorder],
  tools: [traceReport, traceBudget]
})
