import { fireEvent, screen, within } from '@testing-library/react'
import type { ReactElement } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { createApp } from '../../app/createApp'
import { renderWithApp } from '../../test/renderWithApp'
import { tools } from '../test/fixtures'
import Palette from './Palette'

/** Renders in an app whose catalog has loaded the fixture tools. */
function render(ui: ReactElement) {
  const app = createApp()
  app.stores.catalog.setState({
    tools,
    categories: [
      { id: 'retrieval', label: 'Retrieval', color: '#40E0FF' },
      { id: 'control_flow', label: 'Control flow', color: '#90A4AE' },
      { id: 'utility', label: 'Utility', color: '#90A4AE' },
    ],
    loaded: true,
  })
  return renderWithApp(ui, app)
}

describe('Palette', () => {
  it('lists tools by category with their labels', () => {
    render(<Palette onPick={() => {}} />)
    const list = screen.getByRole('list', { name: 'Tools' })
    expect(within(list).getByText('Retrieval')).toBeTruthy()
    expect(within(list).getByRole('button', { name: 'Add Query step' })).toBeTruthy()
    expect(within(list).getAllByRole('button')).toHaveLength(Object.keys(tools).length)
  })

  it('filters by the search and adds the first match with Enter', () => {
    const onPick = vi.fn()
    render(<Palette onPick={onPick} />)
    const search = screen.getByRole('searchbox', { name: 'Search steps' })
    fireEvent.change(search, { target: { value: 'merge' } })
    expect(screen.getAllByRole('button', { name: /^Add / }).map((b) => b.getAttribute('aria-label'))).toEqual(['Add Merge step'])
    fireEvent.keyDown(search, { key: 'Enter' })
    expect(onPick).toHaveBeenCalledWith('merge')
  })

  it('moves into the list with the arrow keys and adds the focused tool', () => {
    const onPick = vi.fn()
    render(<Palette onPick={onPick} />)
    const search = screen.getByRole('searchbox', { name: 'Search steps' })
    fireEvent.keyDown(search, { key: 'ArrowDown' })
    const first = screen.getByRole('button', { name: 'Add Query step' })
    expect(document.activeElement).toBe(first)
    fireEvent.keyDown(first, { key: 'ArrowDown' })
    const second = document.activeElement as HTMLElement
    expect(second.getAttribute('aria-label')).toBe('Add Merge step')
    fireEvent.click(second)
    expect(onPick).toHaveBeenCalledWith('merge')
  })

  it('says when nothing matches', () => {
    render(<Palette onPick={() => {}} />)
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search steps' }), { target: { value: 'zzz' } })
    expect(screen.getByText('No tool matches.')).toBeTruthy()
  })
})
