/**
 * An action's change summary without a new snapshot when the page is quiet: only field values (and the
 * focus) changed, so the answer names them; anything else the page shows differently (DOM, text, a
 * panel that CSS reveals, a change inside a shadow root, a field a script set) is not called quiet.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient

// A page with each kind of change an action can cause.
const PAGE = `<!doctype html><html><head><title>quiet</title><style>
  .panel { display: none } #reveal:checked ~ .panel { display: block }
</style></head><body>
  <label for="name">Name</label><input id="name">
  <label for="slug">Slug</label><input id="slug">
  <input type="checkbox" id="reveal" aria-label="Reveal"><div class="panel">Secret panel</div>
  <button id="noop">Nothing</button>
  <button id="text" onclick="document.getElementById('out').textContent = 'clicked'">Text</button><p id="out">idle</p>
  <x-box id="box"></x-box>
  <input id="f1" aria-label="F1"><input id="f2" aria-label="F2"><input id="f3" aria-label="F3"><input id="f4" aria-label="F4">
  <button id="many" onclick="for (const id of ['f1', 'f2', 'f3', 'f4']) document.getElementById(id).value = 'many'">Many</button>
  <script>
    // As zone.js (Angular) does: MutationObserver wrapped to run the app's change detection after each
    // callback, the original kept under __zone_symbol__MutationObserver.
    window.__zone_symbol__MutationObserver = MutationObserver
    window.wrappedCallbacks = 0
    window.MutationObserver = class extends window.__zone_symbol__MutationObserver {
      constructor(callback) { super((...args) => { window.wrappedCallbacks++; callback(...args) }) }
    }
    document.getElementById('name').addEventListener('input', (e) => { if (e.target.value.startsWith('auto')) document.getElementById('slug').value = e.target.value.toLowerCase() + '-slug' })
    customElements.define('x-box', class extends HTMLElement {
      constructor() { super(); const root = this.attachShadow({ mode: 'open' }); root.innerHTML = '<button>Shadow</button><span>before</span>'; root.querySelector('button').onclick = () => { root.querySelector('span').textContent = 'after' } }
    })
  </script>
</body></html>`

beforeAll(async () => {
  mcp = await inMemoryClient({ allowEval: ["renderer"] })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const loaded = await mcp.call("electron_navigate", { url: `data:text/html,${encodeURIComponent(PAGE)}` })
  expect(loaded.isError, loaded.text).toBe(false)
  const snapshot = await mcp.call("electron_snapshot", {})
  expect(snapshot.isError, snapshot.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("change summaries of a quiet page", () => {
  it("a fill that changes only its field names the field, its value and the focus", async () => {
    const filled = await mcp.call("electron_fill", { target: "#name", value: "Ada" })
    expect(filled.isError, filled.text).toBe(false)
    expect(filled.text).toContain('Only fields changed: "Name" = "Ada" (focused).')
    expect(filled.text).not.toContain("Changes (")
  })

  it("a field a script sets during the action is named too", async () => {
    const filled = await mcp.call("electron_fill", { target: "#name", value: "auto Name" })
    // The focus stayed on Name since the last answer, so it is not mentioned again.
    expect(filled.text).toContain('Only fields changed: "Name" = "auto Name"; "Slug" = "auto name-slug".')
  })

  it("a click that changes nothing says so, and the next one compares with the page as told", async () => {
    const clicked = await mcp.call("electron_click", { target: "#noop" })
    expect(clicked.isError, clicked.text).toBe(false)
    expect(clicked.text).toContain('No change in the page besides the focus: now on "Nothing".')
    const again = await mcp.call("electron_click", { target: "#noop" })
    expect(again.text).toContain("No change in the page.")
  })

  it("a checkbox that reveals a panel through CSS alone is not quiet: the summary shows the panel", async () => {
    const checked = await mcp.call("electron_check", { target: "#reveal", checked: true })
    expect(checked.isError, checked.text).toBe(false)
    expect(checked.text).not.toContain("Only fields changed")
    expect(checked.text).toContain("Secret panel")
    // The diff is against the last snapshot: it holds the fields the quiet answers above named, and says so.
    expect(checked.text).toContain("Changes since the last snapshot, with the fields earlier answers named (")
    expect(checked.text).toMatch(/textbox "Slug".*auto name-slug/s)
  })

  it("a DOM change is not quiet: the summary shows the new text", async () => {
    const clicked = await mcp.call("electron_click", { target: "#text" })
    expect(clicked.text).not.toContain("Only fields changed")
    expect(clicked.text).toContain("clicked")
    // No field was named since the last snapshot (the one the previous summary took): a plain diff.
    expect(clicked.text).toContain("\nChanges (")
    expect(clicked.text).not.toContain("Slug")
  })

  it("a change inside an open shadow root is not quiet", async () => {
    const clicked = await mcp.call("electron_click", { target: "role=button[name=Shadow]" })
    expect(clicked.isError, clicked.text).toBe(false)
    expect(clicked.text).not.toContain("Only fields changed")
    expect(clicked.text).toContain("after")
  })

  it("the page's watch uses the MutationObserver zone.js keeps aside, so it never runs an app's change detection", async () => {
    const counted = await mcp.call("electron_eval_renderer", { function: "() => window.wrappedCallbacks" })
    expect(counted.isError, counted.text).toBe(false)
    // DOM changes happened above (the text, the shadow root) while the page was watched.
    expect(counted.structured.value).toBe(0)
    const watched = await mcp.call("electron_eval_renderer", {
      function: "() => Object.getOwnPropertySymbols(window).some((s) => s.description === 'stagewright.page-changes')"
    })
    expect(watched.structured.value).toBe(true)
  })

  it("a script that changes more fields than a summary names is not quiet: the snapshot diff shows them", async () => {
    const clicked = await mcp.call("electron_click", { target: "#many" })
    expect(clicked.isError, clicked.text).toBe(false)
    expect(clicked.text).not.toContain("Only fields changed")
    expect(clicked.text).toContain("Changes (")
    expect(clicked.text.match(/textbox "F\d" \[ref=\w+\]: many/g)?.length, clicked.text).toBe(4)
  })
})
