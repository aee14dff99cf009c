//! A step's Material icon by the name its tool declares, in the category colour.
import { createElement } from 'react'
import { iconFor } from './icons'

export default function StepIcon({ name, color }: { name: string; color: string }) {
  // createElement, not <Icon/>: the component comes from a fixed map, it is not created here.
  return createElement(iconFor(name), { sx: { fontSize: 18, color, flexShrink: 0 } })
}
