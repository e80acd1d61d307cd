/**
 * The classifiers of src/eval-policy/code-paths.ts: every disguise of an input that runs code is
 * recognised, and the everyday inputs stay safe.
 */
import { describe, expect, it } from "@effect/vitest"
import { classifyEnvKey, classifyLaunchArg, classifyNavigation, classifyServedBody } from "../../src/eval-policy/code-paths.js"

const kind = (d: { kind: string; target?: string }) => (d.kind === "eval" ? `eval:${d.target}` : d.kind)

describe("navigation URLs", () => {
  it("allows http(s), file and about:blank only", () => {
    for (const url of ["http://127.0.0.1:8080/", "HTTPS://example.com/a?b#c", "file:///tmp/x.html", "about:blank", "about:blank#top"]) {
      expect(kind(classifyNavigation(url)), url).toBe("safe")
    }
  })
  it("puts caller-written documents behind --allow-eval renderer, in every disguise", () => {
    for (const url of [
      "javascript:alert(1)",
      " JaVaScRiPt:1",
      "java\tscript:1",
      "\u0001data:text/html,<script>1</script>",
      "DATA:text/html;base64,PHNjcmlwdD4=",
      "blob:http://x/1",
      "filesystem:http://x/temporary/a"
    ]) {
      expect(kind(classifyNavigation(url)), JSON.stringify(url)).toBe("eval:renderer")
    }
  })
  it("puts browser-internal pages behind --allow-eval main", () => {
    for (const url of [
      "devtools://devtools/bundled/inspector.html?ws=127.0.0.1:9229/x",
      "chrome://version",
      " CHROME://crash",
      "Chrome-Untrusted://x",
      "view-source:http://x"
    ]) {
      expect(kind(classifyNavigation(url)), url).toBe("eval:main")
    }
  })
  it("refuses other schemes and anything that is not an absolute URL", () => {
    for (const url of ["about:config", "ms-settings:display", "mailto:a@b", "relative/page.html", "//host/x"]) {
      expect(kind(classifyNavigation(url)), url).toBe("refused")
    }
  })
})

describe("launch arguments", () => {
  it("switches that run code, open debuggers or lift a sandbox need --allow-eval main, however they are written", () => {
    const risky = [
      "--inspect",
      "--inspect=127.0.0.1:9229",
      "--INSPECT-BRK=0",
      "-inspect-port=1",
      "--debug-port=9",
      "-r",
      "--require=x.js",
      "--import=data:x",
      "--renderer-cmd-prefix=/bin/sh -c id",
      "-renderer-cmd-prefix=x",
      "--utility-cmd-prefix=x",
      "--gpu-launcher=x",
      "--js-flags=--allow-natives-syntax",
      "--remote-debugging-port=9222",
      "--remote-debugging-pipe",
      "--remote_debugging_address=0.0.0.0",
      "--no-sandbox",
      "--disable-gpu-sandbox",
      "--disable-setuid-sandbox",
      "--env-file=.env",
      "--load-extension=/x",
      "--browser-subprocess-path=/x",
      "-e",
      "--interactive",
      "--log-file=/etc/x"
    ]
    for (const arg of risky) expect(kind(classifyLaunchArg(arg)), arg).toBe("eval:main")
  })
  it("leaves the app's own switches and plain arguments alone", () => {
    for (const arg of [
      "--lang=fr",
      "--enable-logging",
      "--profile=dev",
      "--window-size=800,600",
      "file.txt",
      "-",
      "--",
      "--disable-gpu",
      "--inspector-theme=dark"
    ]) {
      expect(kind(classifyLaunchArg(arg)), arg).toBe("safe")
    }
  })
})

describe("environment variables", () => {
  it("refuses names that are not names; code-loading variables need --allow-eval main", () => {
    for (const key of ["NODE_OPTIONS=--import=data:x", "A B", "9LIVES", "", "X\u0000"]) expect(kind(classifyEnvKey(key)), JSON.stringify(key)).toBe("refused")
    for (const key of ["NODE_OPTIONS", "node_options", "ELECTRON_RUN_AS_NODE", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "NODE_PATH", "BASH_ENV"])
      expect(kind(classifyEnvKey(key)), key).toBe("eval:main")
    for (const key of ["SAMPLE_APP_USER_DATA", "DEBUG", "NODE_ENV", "ELECTRON_ENABLE_LOGGING", "_X1"]) expect(kind(classifyEnvKey(key)), key).toBe("safe")
  })
})

describe("mocked bodies", () => {
  it("a body served to a document or script, or as active content, is renderer code", () => {
    expect(kind(classifyServedBody("document", undefined))).toBe("eval:renderer")
    expect(kind(classifyServedBody("script", "application/json"))).toBe("eval:renderer")
    expect(kind(classifyServedBody("fetch", "text/html; charset=utf-8"))).toBe("eval:renderer")
    expect(kind(classifyServedBody("xhr", "image/svg+xml"))).toBe("eval:renderer")
    expect(kind(classifyServedBody("fetch", "application/json"))).toBe("safe")
    expect(kind(classifyServedBody("image", undefined))).toBe("safe")
  })
})
