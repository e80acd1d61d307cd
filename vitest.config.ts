import { defineConfig } from "vitest/config"

// Chromium processes are heavy and the machines have two cores: keep file parallelism modest.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    poolOptions: { forks: { minForks: 1, maxForks: 2 } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000
  }
})
