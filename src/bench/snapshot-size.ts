/**
 * `npm run bench:snapshot`: what the tasks board's snapshot costs an agent, in o200k BPE (the runtime only
 * estimates tokens as characters / 4). It takes the snapshot `npm start` (src/demo.ts) takes — launch the
 * tasks app, wait for the late panel, electron_snapshot { compact: true } — folded (the default) and with
 * expand: "all" (every row, as before folding), plus the non-compact forms, and checks that every button on
 * the board has a ref in the folded text. Writes bench/out/snapshot-size.json (ignored) and bench/snapshot-size.md.
 *
 * Target (issue 28 item 5): the folded compact snapshot at most 1,500 BPE, every button reachable by ref.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import { createServer } from "../index.js"
import { sampleAppPath } from "../samples.js"
import { repoRoot } from "./repo-root.js"

process.env.STAGEWRIGHT_ELECTRON ||= "standin"

const TARGET_BPE = 1_500
const bpe = (text: string) => countTokens(text, { disallowedSpecial: new Set<string>() })

interface Measure {
  readonly form: string
  readonly args: Record<string, unknown>
  readonly chars: number
  readonly approxTokens: number
  readonly bpe: number
  /** The text and the structured fields (JSON, without the copy of the text), each fact once, as `npm start` counts chars. */
  readonly bpeWithStructured: number
}

const main = async () => {
  const userData = mkdtempSync(join(tmpdir(), "stagewright-snapshot-size-"))
  const server = await createServer({ toolProfile: "full" })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: "stagewright-snapshot-size", version: "1.0.0" })
  await client.connect(clientTransport)
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as {
      content?: Array<{ type: string; text?: string }>
      isError?: boolean
      structuredContent?: Record<string, unknown>
    }
    const text = (result.content ?? [])
      .filter((c) => c.type === "text")
      .map((c) => c.text ?? "")
      .join("\n")
    if (result.isError === true) throw new Error(`${name} failed: ${text}`)
    return { text, structured: result.structuredContent }
  }
  try {
    await call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: userData } })
    await call("electron_wait_for", { target: "testid=late-panel" })
    const forms: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
      ["npm start (compact, folded)", { compact: true }],
      ['compact, every row (expand: "all")', { compact: true, expand: "all" }],
      ["folded", {}],
      ['every row (expand: "all")', { expand: "all" }]
    ]
    const measures: Array<Measure> = []
    let demoText = ""
    for (const [form, args] of forms) {
      const { text, structured } = await call("electron_snapshot", args)
      if (measures.length === 0) demoText = text
      const { text: _copy, resultText: _copied, ...fields } = (structured ?? {}) as Record<string, unknown>
      const json = JSON.stringify(fields)
      measures.push({ form, args, chars: text.length, approxTokens: Math.ceil(text.length / 4), bpe: bpe(text), bpeWithStructured: bpe(text) + bpe(json) })
    }
    // Every button: on its own line or a ref of a folded row's Edit / Delete column.
    const lineRefs = Array.from(demoText.matchAll(/^\s*- '?button "(?:[^"\\]|\\.)*"[^\n]*?\[ref=(e\d+)\]/gm), (m) => m[1]!)
    const folded = Array.from(demoText.matchAll(/(?:^|; )[^;\n]*? e\d+ (e\d+) (e\d+)(?=;|$)/gm), (m) => [m[1]!, m[2]!]).flat()
    const reachable = new Set([...lineRefs, ...folded]).size
    const buttons = (await call("electron_find", { target: "role=button", limit: 1 })).structured?.["count"] as number
    await call("electron_close")
    const demo = measures[0]!
    const result = {
      generated: new Date().toISOString(),
      encoding: "o200k_base",
      command: "npm run bench:snapshot",
      measures,
      buttons,
      buttonsWithRef: reachable,
      target: { bpe: TARGET_BPE, met: demo.bpeWithStructured <= TARGET_BPE && reachable === buttons }
    }
    mkdirSync(join(repoRoot(), "bench", "out"), { recursive: true })
    writeFileSync(join(repoRoot(), "bench", "out", "snapshot-size.json"), `${JSON.stringify(result, null, 2)}\n`)
    const md = [
      "# Snapshot size: the tasks board",
      "",
      `Generated ${result.generated}; BPE is o200k_base; tokens ≈ chars / 4 is the runtime's estimate. Reproduce with \`npm run bench:snapshot\`.`,
      "",
      "| form | electron_snapshot arguments | text chars | ≈ tokens (chars/4) | text o200k BPE | text + structured fields |",
      "|---|---|---|---|---|---|",
      ...measures.map((m) => `| ${m.form} | \`${JSON.stringify(m.args)}\` | ${m.chars} | ${m.approxTokens} | ${m.bpe} | ${m.bpeWithStructured} |`),
      "",
      `Buttons on the board: ${buttons}; with a ref in the folded snapshot: ${reachable}.`,
      `Target: the npm start snapshot (text and structured content) at most ${TARGET_BPE} BPE with every button reachable by ref — ${result.target.met ? "met" : "NOT met"}.`,
      "Before folding (commit 4f55aed) the same snapshot was 23,672 text chars (≈ 5,918 tokens; 6,509 o200k BPE): the compact form without folding, as the table's second row measures it now, also drops pointer marks and plain-text refs.",
      ""
    ].join("\n")
    writeFileSync(join(repoRoot(), "bench", "snapshot-size.md"), md)
    process.stdout.write(md)
    if (!result.target.met) process.exitCode = 1
  } finally {
    await client.close().catch(() => undefined)
    await server.close().catch(() => undefined)
    rmSync(userData, { recursive: true, force: true })
  }
}

main().catch((error) => {
  process.stderr.write(`snapshot-size failed: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
