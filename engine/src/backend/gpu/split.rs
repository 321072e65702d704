//! Elementwise kernels over tensors larger than one storage binding.
//!
//! A kernel binds buffers whole, and an adapter caps each binding (`max_storage_buffer_binding_size`:
//! 128 MiB by default in WebGPU, whatever the adapter allows natively). A larger tensor is still
//! one buffer range; a kernel over it is cut into chunks of the output's outermost (coalesced)
//! dimension, and each chunk binds only the window of each buffer it reads or writes, starting at
//! an offset the adapter accepts for a binding.

use super::elementwise::{Elementwise, Operand, Output, coalesce};
use super::{GpuBuffer, GpuContext, GpuError};
use crate::backend::cpu::elementwise::LaneKind;
use crate::dtype::DType;
use crate::layout::contiguous_strides;

/// Bytes past a window's last element that a binding may round up to (whole words, at least one
/// 8-byte element).
const SLACK: u64 = 8;

impl GpuBuffer {
    /// The part of this buffer holding its elements `first..=last` (of `size` bytes), starting
    /// at a multiple of `align` bytes of its segment; and where element `first` sits in it.
    fn window(&self, first: usize, last: usize, size: usize, align: u64) -> (GpuBuffer, usize) {
        let from = self.offset() + (first * size) as u64;
        let start = from - from % align;
        let end = self.offset() + ((last + 1) * size) as u64;
        let window = GpuBuffer::part(self, start, end - start);
        (window, ((from - start) / size as u64) as usize)
    }
}

/// The elements a walk of `rows` rows (then the `rest` of the shape) reaches with `strides`, from
/// its first: the last one's distance, plus one.
fn reach(rows: usize, rest: &[usize], strides: &[usize]) -> usize {
    let outer = rows.saturating_sub(1) * strides[0];
    let inner: usize = rest
        .iter()
        .zip(&strides[1..])
        .map(|(&n, &s)| n.saturating_sub(1) * s)
        .sum();
    outer + inner + 1
}

/// One elementwise launch to split: the op, and its operands' and output's buffers and dtypes.
struct Split<'a> {
    op: Elementwise,
    compute: LaneKind,
    inputs: &'a [Operand<'a>],
    out: Output<'a>,
    max: u64,
    align: u64,
}

impl GpuContext {
    /// Queues `op` over `shape` in chunks whose every binding fits (see the module's docs). The
    /// output is written through its strides (row-major ones where it has none), so that a chunk
    /// may start inside a word of packed elements.
    pub(super) fn launch_split(
        &self,
        op: Elementwise,
        compute: LaneKind,
        shape: &[usize],
        inputs: &[Operand],
        out: Output,
    ) -> Result<(), GpuError> {
        let out_strides = out
            .strides
            .map_or_else(|| contiguous_strides(shape), <[usize]>::to_vec);
        let mut all: Vec<&[usize]> = inputs.iter().map(|o| o.strides.as_slice()).collect();
        all.push(&out_strides);
        let (shape, strides) = coalesce(shape, &all);
        let offsets: Vec<usize> = inputs
            .iter()
            .map(|o| o.offset)
            .chain([out.offset])
            .collect();
        let split = Split {
            op,
            compute,
            inputs,
            out,
            max: self.max_binding(),
            align: u64::from(self.device.limits().min_storage_buffer_offset_alignment),
        };
        self.split_rows(&split, &shape, &strides, &offsets)
    }

    /// Cuts `shape`'s outermost dimension into chunks of rows whose windows fit; where not even
    /// one row's do, each row is split the same way along the next dimension.
    fn split_rows(
        &self,
        split: &Split,
        shape: &[usize],
        strides: &[Vec<usize>],
        offsets: &[usize],
    ) -> Result<(), GpuError> {
        let too_large = || GpuError::BufferTooLarge {
            bytes: split.out.buffer.len(),
            max_bytes: split.max,
        };
        let Some((&rows, rest)) = shape.split_first() else {
            return Err(too_large());
        };
        let dtypes: Vec<DType> = split
            .inputs
            .iter()
            .map(|o| o.dtype)
            .chain([split.out.dtype])
            .collect();
        // The most rows a chunk may take so that every window, with its alignment and slack,
        // fits in one binding; 0 where one row does not.
        let mut chunk = rows;
        for (s, dtype) in strides.iter().zip(&dtypes) {
            let room = split.max.saturating_sub(split.align + SLACK) / dtype.size() as u64;
            let one_row = reach(1, rest, s) as u64;
            if one_row > room {
                chunk = 0;
                break;
            }
            if s[0] > 0 {
                chunk = chunk.min(((room - one_row) / s[0] as u64) as usize + 1);
            }
        }
        if chunk == 0 {
            if rest.is_empty() {
                return Err(too_large());
            }
            let inner: Vec<Vec<usize>> = strides.iter().map(|s| s[1..].to_vec()).collect();
            for row in 0..rows {
                let at: Vec<usize> = offsets
                    .iter()
                    .zip(strides)
                    .map(|(o, s)| o + row * s[0])
                    .collect();
                self.split_rows(split, rest, &inner, &at)?;
            }
            return Ok(());
        }
        for start in (0..rows).step_by(chunk) {
            let taken = chunk.min(rows - start);
            let chunk_shape: Vec<usize> =
                std::iter::once(taken).chain(rest.iter().copied()).collect();
            // Each window starts at the chunk's first element and reaches its last.
            let buffers = split
                .inputs
                .iter()
                .map(|o| o.buffer)
                .chain([split.out.buffer]);
            let windows: Vec<(GpuBuffer, usize)> = buffers
                .zip(strides)
                .zip(offsets)
                .zip(&dtypes)
                .map(|(((buffer, s), offset), dtype)| {
                    let first = offset + start * s[0];
                    let last = first + reach(taken, rest, s) - 1;
                    buffer.window(first, last, dtype.size(), split.align)
                })
                .collect();
            // Every window fits by construction; checked, so that a chunk never splits again.
            self.check_bindings(windows.iter().map(|(b, _)| b))?;
            let chunk_inputs: Vec<Operand> = split
                .inputs
                .iter()
                .zip(strides)
                .zip(&windows)
                .map(|((o, s), (buffer, offset))| Operand {
                    buffer,
                    dtype: o.dtype,
                    offset: *offset,
                    strides: s.clone(),
                    kind: o.kind,
                })
                .collect();
            let (out_window, out_offset) = &windows[split.inputs.len()];
            let chunk_out = Output {
                buffer: out_window,
                dtype: split.out.dtype,
                offset: *out_offset,
                strides: Some(&strides[split.inputs.len()]),
            };
            self.elementwise(
                split.op,
                split.compute,
                &chunk_shape,
                &chunk_inputs,
                chunk_out,
            )?;
        }
        Ok(())
    }
}
