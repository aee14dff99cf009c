import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../app/createApp'
import { renderWithApp } from '../test/renderWithApp'
import type { StepNode } from '../api/types'
import { definition, graph } from '../test/fakeServer'
import { toolView } from '../test/toolView'
import StepInspector from './StepInspector'

const explain = { topic: 'vector-search', title: 'Vector search', text: 'This step asks the vector index for the closest chunks.' }

function stepNode(id: string): StepNode {
  const node = graph.nodes.find((n) => n.id === id)
  if (node?.kind !== 'step') throw new Error(id)
  return node
}

describe('StepInspector', () => {
  let app: App
  beforeEach(() => {
    app = createApp()
    app.stores.catalog.setState({ tools: { search: toolView('search', { explain }), merge: toolView('merge') }, categories: [], loaded: true })
    app.stores.workflow.setState({ current: { key: 'builtin:two', label: 'Two Steps', text: '', definition }, graph })
  })

  it('says what a step of its tool is doing, and which topic vai explain has', () => {
    renderWithApp(<StepInspector node={stepNode('search')} />, app)
    const heading = screen.getByRole('heading', { name: 'What is happening here' })
    const section = heading.closest('section')
    expect(section).not.toBeNull()
    const inside = within(section as HTMLElement)
    expect(inside.getByText(explain.text)).toBeTruthy()
    expect(inside.getByText('vai explain vector-search')).toBeTruthy()
    expect(section?.textContent).toContain('More on Vector search:')
  })

  it('shows no such section for a tool without a note', () => {
    renderWithApp(<StepInspector node={stepNode('merge')} />, app)
    expect(screen.getByRole('heading', { name: 'Merge it' })).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'What is happening here' })).toBeNull()
  })
})
