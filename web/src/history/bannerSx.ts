//! The past run banner's lines: words then buttons, the buttons moving under the words on a
//! narrow canvas rather than squeezing them.
export const lineSx = { display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, rowGap: 0.25 } as const
export const textSx = { flex: '1 1 280px', minWidth: 0 } as const
