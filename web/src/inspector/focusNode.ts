//! Moving the selection to a node (from a template reference, a diagnostic or the plan view):
//! the canvas selects it and brings it into view.
export { focusNode } from '../canvas/useCanvasStore'
