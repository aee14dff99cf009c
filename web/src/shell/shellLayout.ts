//! Sizes the app shell is laid out by.

/** From this viewport width (CSS px) the library, inspector and chat sit beside the canvas;
 * below it they open as drawers over it, so a 1024 px projector keeps the canvas. */
export const WIDE_MIN_PX = 1280
export const WIDE_QUERY = `(min-width: ${WIDE_MIN_PX}px)`
export const TOP_BAR_HEIGHT = 44
