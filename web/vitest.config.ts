import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

// Files that replace a module with vi.mock need a module registry of their own; every other
// file shares its worker's modules and jsdom (isolate: false), which halves the suite's time.
// src/test/setup.ts empties the document and storage after each test, so nothing leaks.
const mocking = ['src/App.test.tsx', 'src/chat/ChatPanel.test.tsx', 'src/editor/canvas/EditorFlow.test.tsx', 'src/shell/AccessDenied.test.tsx']

export default defineConfig({
  plugins: [react()],
  // Drift tests read the server's declarations (e.g. the tools' icon names) from the repository.
  server: { fs: { allow: ['..'] } },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    pool: 'threads',
    // Room for testing-library's 5 s waits (src/test/setup.ts) on a loaded machine.
    testTimeout: 20_000,
    // One worker per core: vitest's default leaves one core idle, half of this machine's two.
    maxWorkers: availableParallelism(),
    projects: [
      { extends: true, test: { name: 'mocking', include: mocking } },
      { extends: true, test: { name: 'shared', include: ['src/**/*.test.{ts,tsx}'], exclude: mocking, isolate: false } },
    ],
  },
})
