//! Text styles shared by the node components.
export const ellipsis = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 } as const
export const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 11 } as const
/** A node's title (step name, "Inputs", "Output"); fit-to-view keeps it legible (legibleFit.ts). */
export const TITLE_PX = 13
export const title = { fontWeight: 600, fontSize: TITLE_PX } as const
/** A step's title: up to two lines in the node's narrow width, then an ellipsis. */
export const clampedTitle = {
  ...title,
  lineHeight: 1.2,
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
  overflowWrap: 'anywhere',
  minWidth: 0,
} as const
