import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

interface ModuleGraph {
  getModuleInfo(id: string): { isEntry: boolean; importers: readonly string[]; dynamicImporters: readonly string[] } | null
}

/**
 * Whether every way to `id` passes through a dynamic import (the builder, loaded when editing
 * starts). Such library modules stay with the lazy chunk instead of joining the vendor chunks
 * every page loads.
 */
function onlyLazy(id: string, graph: ModuleGraph, memo: Map<string, boolean>): boolean {
  const known = memo.get(id)
  if (known !== undefined) return known
  memo.set(id, true) // a cycle back here decides nothing
  const info = graph.getModuleInfo(id)
  const lazy =
    info !== null &&
    !info.isEntry &&
    info.importers.every((importer) => onlyLazy(importer, graph, memo)) &&
    (info.importers.length > 0 || info.dynamicImporters.length > 0)
  memo.set(id, lazy)
  return lazy
}

let lazyMemo = new Map<string, boolean>()

// Vendor code is split so the entry chunk stays small and libraries cache across releases.
function manualChunks(id: string, graph: ModuleGraph): string | undefined {
  if (!id.includes('node_modules')) return undefined
  if (onlyLazy(id, graph, lazyMemo)) return undefined
  if (id.includes('@xyflow') || id.includes('@dagrejs') || id.includes('d3-')) return 'flow'
  if (id.includes('@mui/icons-material')) return 'icons'
  if (id.includes('@mui') || id.includes('@emotion') || id.includes('@popperjs')) return 'mui'
  if (id.includes('/react') || id.includes('/scheduler/') || id.includes('zustand')) return 'react'
  return 'vendor'
}

// `npm run dev` proxies the API to a running `vai playground` (port 3333 unless VAI_PORT says
// otherwise). The playground refuses foreign origins, so the proxy presents the playground's own.
const playground = `http://127.0.0.1:${process.env.VAI_PORT ?? '3333'}`

export default defineConfig({
  base: '/',
  plugins: [react(), { name: 'vai-lazy-memo', buildStart: () => void (lazyMemo = new Map()) }],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      output: {
        manualChunks: (id: string, graph: ModuleGraph) => manualChunks(id, graph),
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: playground, changeOrigin: true, ws: true, headers: { Origin: playground } },
    },
  },
})
