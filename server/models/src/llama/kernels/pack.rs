//! The weight matrices as the kernels read them: quantized blocks of 32 columns with sixteen rows
//! interleaved ([`QMatrix`]), so one SIMD load holds four weights of each of sixteen rows and one
//! product instruction advances sixteen dot products at once; and the plain f32 matrix
//! ([`Dense`]) of the reference path.
//!
//! A group of sixteen rows is stored block after block; groups follow one another. Rows past the
//! matrix's last (when its row count is not a multiple of sixteen) are zero.

use half::f16;

/// Rows interleaved in one block.
pub(crate) const ROWS: usize = 16;
/// Columns in one block (the GGUF block size of Q4_1 and Q8_0).
pub(crate) const COLS: usize = 32;

/// 32 columns of sixteen rows of a Q4_1 matrix: weight = d·q + m with q in 0..16.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Q4Block {
    /// Scale of each row, f16 bits.
    pub(crate) d: [u16; ROWS],
    /// Offset of each row (its block's minimum), f16 bits.
    pub(crate) m: [u16; ROWS],
    /// Byte `4r + i` of `q[c]`: column `4c + i` of row `r` in its low nibble, column
    /// `16 + 4c + i` in its high nibble — byte `4c + i` of the row's GGUF block, unchanged.
    pub(crate) q: [[u8; 64]; 4],
}

/// 32 columns of sixteen rows of a Q8_0 matrix: weight = d·(u − 128).
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Q8Block {
    /// Scale of each row, f16 bits.
    pub(crate) d: [u16; ROWS],
    /// Byte `4r + i` of `q[c]`: column `4c + i` of row `r`, as the GGUF's int8 plus 128 (the
    /// unsigned operand of the int8 product instructions).
    pub(crate) q: [[u8; 64]; 8],
}

/// The blocks of a quantized matrix, group after group.
pub(crate) enum Packed {
    Q4(Vec<Q4Block>),
    Q8(Vec<Q8Block>),
}

/// A quantized `rows × cols` matrix in the kernels' layout.
pub(crate) struct QMatrix {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) packed: Packed,
}

impl QMatrix {
    /// From GGUF Q4_1 blocks (20 bytes: f16 d, f16 m, 16 bytes of nibbles), row after row.
    pub(crate) fn from_q4_1(raw: &[u8], rows: usize, cols: usize) -> QMatrix {
        let empty = || Q4Block {
            d: [0; ROWS],
            m: [0; ROWS],
            q: [[0; 64]; 4],
        };
        let packed = repack(raw, rows, cols, 20, "Q4_1", empty, |out, r, src| {
            out.d[r] = u16::from_le_bytes([src[0], src[1]]);
            out.m[r] = u16::from_le_bytes([src[2], src[3]]);
            for (c, chunk) in out.q.iter_mut().enumerate() {
                chunk[4 * r..4 * r + 4].copy_from_slice(&src[4 + 4 * c..8 + 4 * c]);
            }
        });
        QMatrix {
            rows,
            cols,
            packed: Packed::Q4(packed),
        }
    }

    /// From GGUF Q8_0 blocks (34 bytes: f16 d, 32 int8), row after row.
    pub(crate) fn from_q8_0(raw: &[u8], rows: usize, cols: usize) -> QMatrix {
        let empty = || Q8Block {
            d: [0; ROWS],
            q: [[0x80; 64]; 8],
        };
        let packed = repack(raw, rows, cols, 34, "Q8_0", empty, |out, r, src| {
            out.d[r] = u16::from_le_bytes([src[0], src[1]]);
            for (c, chunk) in out.q.iter_mut().enumerate() {
                for i in 0..4 {
                    chunk[4 * r + i] = src[2 + 4 * c + i] ^ 0x80;
                }
            }
        });
        QMatrix {
            rows,
            cols,
            packed: Packed::Q8(packed),
        }
    }

    /// From f32 values, row after row, quantized to Q8_0 as ggml does (scale = max |x| / 127).
    pub(crate) fn from_f32(values: &[f32], rows: usize, cols: usize) -> QMatrix {
        assert_eq!(values.len(), rows * cols, "a {rows}×{cols} matrix");
        let mut raw = Vec::with_capacity(rows * cols / COLS * 34);
        for block in values.chunks_exact(COLS) {
            let amax = block.iter().fold(0f32, |m, v| m.max(v.abs()));
            let d = amax / 127.0;
            let id = if d > 0.0 { 1.0 / d } else { 0.0 };
            raw.extend_from_slice(&f16::from_f32(d).to_le_bytes());
            raw.extend(block.iter().map(|v| (v * id).round() as i8 as u8));
        }
        QMatrix::from_q8_0(&raw, rows, cols)
    }

    /// Blocks per row.
    pub(crate) fn blocks(&self) -> usize {
        self.cols / COLS
    }

    /// Groups of sixteen rows.
    pub(crate) fn groups(&self) -> usize {
        self.rows.div_ceil(ROWS)
    }

    /// Row `r`, dequantized into `out` (`cols` values).
    pub(crate) fn row(&self, r: usize, out: &mut [f32]) {
        let (g, lane) = (r / ROWS, r % ROWS);
        let blocks = self.blocks();
        let out = out[..self.cols].chunks_exact_mut(COLS);
        match &self.packed {
            Packed::Q4(packed) => {
                for (blk, out) in packed[g * blocks..(g + 1) * blocks].iter().zip(out) {
                    let (d, m) = (f32_of(blk.d[lane]), f32_of(blk.m[lane]));
                    for (c, chunk) in blk.q.iter().enumerate() {
                        for i in 0..4 {
                            let byte = chunk[4 * lane + i];
                            out[4 * c + i] = d * f32::from(byte & 0x0F) + m;
                            out[16 + 4 * c + i] = d * f32::from(byte >> 4) + m;
                        }
                    }
                }
            }
            Packed::Q8(packed) => {
                for (blk, out) in packed[g * blocks..(g + 1) * blocks].iter().zip(out) {
                    let d = f32_of(blk.d[lane]);
                    for (c, chunk) in blk.q.iter().enumerate() {
                        for i in 0..4 {
                            out[4 * c + i] = d * f32::from((chunk[4 * lane + i] ^ 0x80) as i8);
                        }
                    }
                }
            }
        }
    }
}

/// An f16 held as its bits, widened.
pub(crate) fn f32_of(bits: u16) -> f32 {
    f16::from_bits(bits).to_f32()
}

/// A plain f32 `rows × cols` matrix, row after row: the reference the quantized path is checked
/// against.
pub(crate) struct Dense {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) values: Vec<f32>,
}

impl Dense {
    /// `out[t][r]` = row `r` · `x[t]`, in f32, the rows split among the pool's threads.
    pub(crate) fn matmul(&self, x: &[f32], out: &mut [f32]) {
        use rayon::prelude::*;
        for (out, x) in out.chunks_mut(self.rows).zip(x.chunks_exact(self.cols)) {
            out.par_iter_mut()
                .zip(self.values.par_chunks_exact(self.cols))
                .for_each(|(o, w)| *o = w.iter().zip(x).map(|(w, x)| w * x).sum());
        }
    }
}

/// GGUF blocks of `bytes` each (row after row, `cols / COLS` per row) regrouped by [`ROWS`] rows:
/// one packed block per group of rows and block column, each row written into it by `fill`
/// (rows past the matrix's last stay as `empty` made them).
fn repack<B>(
    raw: &[u8],
    rows: usize,
    cols: usize,
    bytes: usize,
    kind: &str,
    empty: impl Fn() -> B,
    fill: impl Fn(&mut B, usize, &[u8]),
) -> Vec<B> {
    let blocks = cols / COLS;
    assert_eq!(
        raw.len(),
        rows * blocks * bytes,
        "{kind} data of a {rows}×{cols} matrix"
    );
    let mut packed = Vec::with_capacity(rows.div_ceil(ROWS) * blocks);
    for g in 0..rows.div_ceil(ROWS) {
        for b in 0..blocks {
            let mut out = empty();
            for r in 0..ROWS.min(rows - g * ROWS) {
                let at = ((g * ROWS + r) * blocks + b) * bytes;
                fill(&mut out, r, &raw[at..at + bytes]);
            }
            packed.push(out);
        }
    }
    packed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GGUF Q4_1 row of one block whose weight `j` is `j % 16` scaled by 0.5, offset by -1.
    fn q4_1_row(seed: u8) -> Vec<u8> {
        let mut raw = Vec::new();
        raw.extend_from_slice(&f16::from_f32(0.5).to_le_bytes());
        raw.extend_from_slice(&f16::from_f32(-1.0).to_le_bytes());
        raw.extend((0..16u8).map(|j| ((j + seed) % 16) | (((15 - j + seed) % 16) << 4)));
        raw
    }

    #[test]
    fn packed_rows_read_back_as_the_gguf_blocks_they_came_from() {
        let rows = 19; // a group and a partial one
        let raw: Vec<u8> = (0..rows as u8).flat_map(q4_1_row).collect();
        let m = QMatrix::from_q4_1(&raw, rows, COLS);
        assert_eq!(m.groups(), 2);
        let mut row = vec![0.0; COLS];
        for r in 0..rows {
            m.row(r, &mut row);
            let seed = r as u8;
            for j in 0..16u8 {
                assert_eq!(row[j as usize], 0.5 * f32::from((j + seed) % 16) - 1.0);
                let high = (15 - j + seed) % 16;
                assert_eq!(row[16 + j as usize], 0.5 * f32::from(high) - 1.0);
            }
        }

        let values: Vec<f32> = (0..3 * 64).map(|i| (i as f32 - 90.0) / 16.0).collect();
        let m = QMatrix::from_f32(&values, 3, 64);
        for r in 0..3 {
            let mut row = vec![0.0; 64];
            m.row(r, &mut row);
            for (got, want) in row.iter().zip(&values[r * 64..]) {
                assert!((got - want).abs() < 0.03, "{got} vs {want}");
            }
        }
    }
}
