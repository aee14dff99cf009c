import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// Vendor code is split so the entry chunk stays small and libraries cache across releases.
function manualChunks(id: string): string | undefined {
  if (!id.includes('node_modules')) return undefined
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
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rollupOptions: { output: { manualChunks } },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: playground, changeOrigin: true, ws: true, headers: { Origin: playground } },
    },
  },
})
