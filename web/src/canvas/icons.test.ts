import { describe, expect, it } from 'vitest'
import Extension from '@mui/icons-material/Extension'
import { iconFor } from './icons'

// The tools' declarations, read as text: every `icon: "Name"` a tool (or the server's fallback
// for unknown tools) declares must have a component.
const sources = import.meta.glob(['../../../server/tools/src/**/*.rs', '../../../server/workflow/src/control.rs', '../../../server/http/src/graph.rs'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>

function declaredIcons(): string[] {
  const names = new Set<string>()
  for (const text of Object.values(sources)) {
    for (const m of text.matchAll(/icon: "([A-Za-z0-9]+)"/g)) names.add(m[1])
    for (const m of text.matchAll(/"(HelpOutline)"/g)) names.add(m[1])
  }
  return [...names].sort()
}

describe('tool icons', () => {
  it('reads the declarations', () => {
    expect(declaredIcons().length).toBeGreaterThan(15)
  })

  it('has a component for every icon name the catalog declares', () => {
    const missing = declaredIcons().filter((name) => iconFor(name) === Extension)
    expect(missing).toEqual([])
  })
})
