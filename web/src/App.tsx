import CssBaseline from '@mui/material/CssBaseline'
import { ThemeProvider } from '@mui/material/styles'
import Canvas from './canvas/Canvas'
import { makeTheme } from './theme'

const theme = makeTheme('dark')

export default function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <main aria-label="Canvas" style={{ height: '100vh' }}>
        <Canvas />
      </main>
    </ThemeProvider>
  )
}
