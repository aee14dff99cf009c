//! The one theme file: dark by default, light on request.
import { createTheme, type Theme } from '@mui/material/styles'

export type Mode = 'dark' | 'light'

export function makeTheme(mode: Mode): Theme {
  return createTheme({
    palette: {
      mode,
      primary: { main: mode === 'dark' ? '#40E0FF' : '#00838F' },
      secondary: { main: '#B388FF' },
      ...(mode === 'dark' ? { background: { default: '#0E1116', paper: '#161B22' } } : {}),
    },
    shape: { borderRadius: 6 },
    typography: { fontSize: 13 },
    components: {
      MuiButton: { defaultProps: { size: 'small' }, styleOverrides: { root: { textTransform: 'none' } } },
      MuiTextField: { defaultProps: { size: 'small' } },
    },
  })
}

export const monoFont = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace'
