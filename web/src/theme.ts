//! The one theme file: dark by default, light on request, and a high-contrast variant of each for
//! presenter mode (projectors wash out greys and hairlines).
import { createTheme, type Theme } from '@mui/material/styles'

export type Mode = 'dark' | 'light'

declare module '@mui/material/styles' {
  interface Theme {
    /** How the canvas draws: edges are this many times their normal width (1 when absent). */
    canvas?: { edgeScale: number }
  }
  interface ThemeOptions {
    canvas?: { edgeScale: number }
  }
}

/** Stronger text, dividers (node borders) and secondary text than the normal palette. */
const HIGH_CONTRAST = {
  dark: {
    text: { primary: '#FFFFFF', secondary: 'rgba(255, 255, 255, 0.88)' },
    divider: 'rgba(255, 255, 255, 0.6)',
    background: { default: '#000000', paper: '#0B0E13' },
  },
  light: {
    text: { primary: '#000000', secondary: 'rgba(0, 0, 0, 0.85)' },
    divider: 'rgba(0, 0, 0, 0.6)',
    background: { default: '#FFFFFF', paper: '#FFFFFF' },
  },
} as const

export function makeTheme(mode: Mode, highContrast = false): Theme {
  return createTheme({
    palette: {
      mode,
      primary: { main: mode === 'dark' ? '#40E0FF' : '#00838F' },
      secondary: { main: '#B388FF' },
      ...(mode === 'dark' ? { background: { default: '#0E1116', paper: '#161B22' } } : {}),
      ...(highContrast ? HIGH_CONTRAST[mode] : {}),
    },
    shape: { borderRadius: 6 },
    typography: { fontSize: 13 },
    canvas: { edgeScale: highContrast ? 2 : 1 },
    components: {
      MuiButton: { defaultProps: { size: 'small' }, styleOverrides: { root: { textTransform: 'none' } } },
      MuiTextField: { defaultProps: { size: 'small' } },
    },
  })
}

export const monoFont = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace'
