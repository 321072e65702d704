//! Reductions (`sum`, `prod`, `amax`, `amin`) over any set of dimensions of a strided tensor.
//!
//! The input is seen as `outer × inner`: the kept dimensions first, the reduced ones last (a
//! permuted view, so nothing is copied). Each workgroup reduces one slice of `inner` in two
//! stages: every thread folds a strided share into a register, then the workgroup folds the
//! registers in shared memory. A long `inner` (a full reduction of a large tensor) is first cut
//! into chunks, one workgroup each, whose partial results a second pass reduces the same way.

use std::fmt::Write;

use wgpu::util::DeviceExt;

use super::elementwise::{PRELUDE_F64, convert, wgsl_type};
use super::format::Format;
use super::grid::Grid;
use super::{GpuBuffer, GpuContext, GpuError};
use crate::backend::cpu::elementwise::LaneKind;
use crate::backend::cpu::reduce::Reduction;
use crate::dtype::DType;

/// Threads per workgroup, and the slots of its shared-memory tree.
const WORKGROUP_SIZE: u32 = 256;

/// Elements one workgroup folds before a second pass takes over.
const CHUNK: usize = 1 << 16;

/// The lanes a reduction accumulates in: bools count (and take min/max) as int64.
pub fn accumulator(input: DType) -> LaneKind {
    match LaneKind::of(input) {
        LaneKind::Bool => LaneKind::I64,
        kind => kind,
    }
}

/// A strided input seen as `outer × inner`.
#[derive(Debug, Clone)]
pub struct ReduceInput<'a> {
    pub buffer: &'a GpuBuffer,
    pub dtype: DType,
    pub offset: usize,
    /// Kept dimensions first, then reduced ones.
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
    pub outer: usize,
    pub inner: usize,
}

fn combine(op: Reduction, acc: LaneKind) -> (&'static str, &'static str) {
    use LaneKind as K;
    match (op, acc) {
        (Reduction::Sum, K::F32) => ("0.0", "a + b"),
        (Reduction::Sum, K::F64) => ("f64(0.0)", "a + b"),
        (Reduction::Sum, _) => ("vec2<u32>(0u, 0u)", "i64_add(a, b)"),
        (Reduction::Prod, K::F32) => ("1.0", "a * b"),
        (Reduction::Prod, K::F64) => ("f64(1.0)", "a * b"),
        (Reduction::Prod, _) => ("vec2<u32>(1u, 0u)", "i64_mul(a, b)"),
        // NaN wins, as in PyTorch: once the accumulator is NaN it stays NaN.
        (Reduction::Max, K::F32) => ("-infinity()", "select(a, b, f32_is_nan(b) || b > a)"),
        (Reduction::Max, K::F64) => ("f64(-infinity())", "select(a, b, f64_is_nan(b) || b > a)"),
        (Reduction::Max, _) => ("vec2<u32>(0u, 0x80000000u)", "i64_max(a, b)"),
        (Reduction::Min, K::F32) => ("infinity()", "select(a, b, f32_is_nan(b) || b < a)"),
        (Reduction::Min, K::F64) => ("f64(infinity())", "select(a, b, f64_is_nan(b) || b < a)"),
        (Reduction::Min, _) => ("vec2<u32>(0xffffffffu, 0x7fffffffu)", "i64_min(a, b)"),
    }
}

/// A kernel reducing `input` (of `dtype`) in `acc` lanes, writing accumulator-typed results.
fn source(format: Format, op: Reduction, dtype: DType, acc: LaneKind) -> String {
    let (identity, fold) = combine(op, acc);
    let ty = wgsl_type(acc);
    let acc_dtype = acc.dtype();
    let mut s = format.prelude();
    if dtype == DType::Float64 || acc == LaneKind::F64 {
        s.push_str(PRELUDE_F64);
    }
    let (raw, held) = format.load(dtype, "input");
    let _ = write!(
        s,
        r#"
@group(0) @binding(0) var<storage, read> dims: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<{out_type}>;
@group(0) @binding(2) var<storage, read_write> input: array<{in_type}>;
var<workgroup> partial: array<{ty}, {WORKGROUP_SIZE}>;

fn load_element(e: u32) -> {ty} {{ return {loaded}; }}
fn fold(a: {ty}, b: {ty}) -> {ty} {{ return {fold}; }}

// dims: [outer, row_stride, 0, rank, shape, offset, strides, inner, chunk, chunks]
@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {{
    let rank = dims[3];
    let tail = 5u + 2u * rank;
    let inner = dims[tail];
    let chunk = dims[tail + 1u];
    let chunks = dims[tail + 2u];
    let w = wid.y * dims[1] + wid.x;
    if w >= dims[0] * chunks {{
        return;
    }}
    let o = w / chunks;
    let start = (w % chunks) * chunk;
    let end = min(start + chunk, inner);
    var acc: {ty} = {identity};
    for (var r = start + lid; r < end; r += {WORKGROUP_SIZE}u) {{
        acc = fold(acc, load_element(element_offset(o * inner + r, 0u)));
    }}
    partial[lid] = acc;
    workgroupBarrier();
    for (var width = {half}u; width > 0u; width >>= 1u) {{
        if lid < width {{
            partial[lid] = fold(partial[lid], partial[lid + width]);
        }}
        workgroupBarrier();
    }}
    if lid == 0u {{
        {store}
    }}
}}
"#,
        out_type = format.binding_type(acc_dtype),
        in_type = format.binding_type(dtype),
        loaded = convert(&raw, held, acc),
        half = WORKGROUP_SIZE / 2,
        store = match acc {
            LaneKind::I64 =>
                "out[2u * w] = partial[0].x;\n        out[2u * w + 1u] = partial[0].y;",
            LaneKind::F32 => "out[w] = bitcast<u32>(partial[0]);",
            _ => "out[w] = partial[0];",
        },
    );
    s
}

impl GpuContext {
    /// Queues the reduction of `input`, writing `outer` accumulator-typed results (float32,
    /// float64 or int64, as [`accumulator`] says) into `out`.
    pub fn reduce(
        &self,
        op: Reduction,
        input: &ReduceInput,
        out: &GpuBuffer,
    ) -> Result<(), GpuError> {
        let acc = accumulator(input.dtype);
        if !self.can_reduce(input)? {
            return Ok(());
        }
        let chunks = input.inner.div_ceil(CHUNK).max(1);
        if chunks == 1 {
            return self.reduce_pass(op, input, acc, 1, out);
        }
        // First pass: one partial result per chunk, in a scratch buffer outside the allocator.
        let partials_len = input.outer * chunks;
        let scratch = self.scratch((partials_len * acc.dtype().size()) as u64);
        self.reduce_pass(op, input, acc, chunks, &scratch)?;
        let second = ReduceInput {
            buffer: &scratch,
            dtype: acc.dtype(),
            offset: 0,
            shape: vec![input.outer, chunks],
            strides: vec![chunks, 1],
            outer: input.outer,
            inner: chunks,
        };
        self.reduce_pass(op, &second, acc, 1, out)
    }

    /// Whether `input` has anything to reduce; an error where its dtype needs float64 lanes the
    /// adapter lacks.
    fn can_reduce(&self, input: &ReduceInput) -> Result<bool, GpuError> {
        if accumulator(input.dtype) == LaneKind::F64 && !self.report.shader_f64 {
            return Err(GpuError::Unsupported {
                what: "float64 reductions on this adapter".into(),
            });
        }
        Ok(input.outer > 0)
    }

    fn reduce_pass(
        &self,
        op: Reduction,
        input: &ReduceInput,
        acc: LaneKind,
        chunks: usize,
        out: &GpuBuffer,
    ) -> Result<(), GpuError> {
        let key = format!("reduce {op:?} {:?} {acc:?}", input.dtype);
        let pipeline = self.pipeline(&key, || source(self.format(), op, input.dtype, acc));
        // One workgroup per (output, chunk).
        let grid = Grid::cover(
            (input.outer * chunks) as u64,
            1,
            self.device.limits().max_compute_workgroups_per_dimension,
        )?;
        self.dispatch_over(&pipeline, "reduce", input, chunks, grid, out)
    }

    /// Queues the position of the largest (`largest`) or smallest element of every `inner` run of
    /// `input`: first occurrence on ties, the first NaN counting as the extreme (PyTorch's
    /// `argmax`/`argmin`), written as int64 into `out`.
    pub fn arg_extreme(
        &self,
        input: &ReduceInput,
        largest: bool,
        out: &GpuBuffer,
    ) -> Result<(), GpuError> {
        let acc = accumulator(input.dtype);
        if !self.can_reduce(input)? {
            return Ok(());
        }
        let key = format!("arg_extreme {:?} largest={largest}", input.dtype);
        let pipeline = self.pipeline(&key, || {
            arg_source(self.format(), input.dtype, acc, largest)
        });
        // One thread per output position.
        let grid = Grid::cover(
            input.outer as u64,
            ARG_WORKGROUP_SIZE,
            self.device.limits().max_compute_workgroups_per_dimension,
        )?;
        self.dispatch_over(&pipeline, "arg_extreme", input, 1, grid, out)
    }

    /// Dispatches a reduction-shaped kernel: its dims are
    /// `[outer, row_stride, 0, rank, shape, offset, strides, inner, chunk, chunks]`.
    fn dispatch_over(
        &self,
        pipeline: &wgpu::ComputePipeline,
        label: &str,
        input: &ReduceInput,
        chunks: usize,
        grid: Grid,
        out: &GpuBuffer,
    ) -> Result<(), GpuError> {
        let narrow = |v: usize| {
            u32::try_from(v).map_err(|_| GpuError::GridTooLarge {
                invocations: v as u64,
            })
        };
        let mut dims = vec![
            narrow(input.outer)?,
            grid.row_stride,
            0,
            narrow(input.shape.len())?,
        ];
        for &d in &input.shape {
            dims.push(narrow(d)?);
        }
        dims.push(narrow(input.offset)?);
        for &s in &input.strides {
            dims.push(narrow(s)?);
        }
        dims.push(narrow(input.inner)?);
        dims.push(narrow(input.inner.div_ceil(chunks))?);
        dims.push(narrow(chunks)?);
        let dims = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(&dims),
                usage: wgpu::BufferUsages::STORAGE,
            });
        self.dispatch(
            label,
            pipeline,
            &[
                dims.as_entire_binding(),
                out.binding(),
                input.buffer.binding(),
            ],
            grid,
        );
        Ok(())
    }
}

/// Threads per workgroup of the arg-extreme kernel.
const ARG_WORKGROUP_SIZE: u32 = 64;

/// The arg-extreme kernel: each thread walks one run, as the CPU backend's `arg_extreme` does.
fn arg_source(format: Format, dtype: DType, acc: LaneKind, largest: bool) -> String {
    let ty = wgsl_type(acc);
    let mut s = format.prelude();
    if dtype == DType::Float64 || acc == LaneKind::F64 {
        s.push_str(PRELUDE_F64);
    }
    let (raw, held) = format.load(dtype, "input");
    let (is_nan, better) = match (acc, largest) {
        (LaneKind::I64, true) => ("false", "i64_lt(best, v)"),
        (LaneKind::I64, false) => ("false", "i64_lt(v, best)"),
        (LaneKind::F64, true) => ("f64_is_nan(x)", "v > best"),
        (LaneKind::F64, false) => ("f64_is_nan(x)", "v < best"),
        (_, true) => ("f32_is_nan(x)", "v > best"),
        (_, false) => ("f32_is_nan(x)", "v < best"),
    };
    let _ = write!(
        s,
        r#"
@group(0) @binding(0) var<storage, read> dims: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<storage, read_write> input: array<{in_type}>;

fn load_element(e: u32) -> {ty} {{ return {loaded}; }}
fn is_nan(x: {ty}) -> bool {{ return {is_nan}; }}

@compute @workgroup_size({ARG_WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {{
    let o = gid.y * dims[1] + gid.x;
    if o >= dims[0] {{
        return;
    }}
    let inner = dims[5u + 2u * dims[3]];
    var position = 0u;
    var best = load_element(element_offset(o * inner, 0u));
    for (var r = 1u; r < inner && !is_nan(best); r++) {{
        let v = load_element(element_offset(o * inner + r, 0u));
        if is_nan(v) || {better} {{
            position = r;
            best = v;
        }}
    }}
    out[2u * o] = position;
    out[2u * o + 1u] = 0u;
}}
"#,
        in_type = format.binding_type(dtype),
        loaded = convert(&raw, held, acc),
    );
    s
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::super::elementwise::tests::{NATIVE, PACKED, validate};
    use super::*;

    #[test]
    fn every_arg_extreme_kernel_is_valid_wgsl() {
        for format in [PACKED, NATIVE] {
            for dtype in DType::ALL {
                for largest in [true, false] {
                    validate(&arg_source(format, dtype, accumulator(dtype), largest));
                }
            }
        }
    }

    #[test]
    fn every_reduction_of_every_dtype_generates_a_kernel_that_naga_accepts() {
        for op in [
            Reduction::Sum,
            Reduction::Prod,
            Reduction::Max,
            Reduction::Min,
        ] {
            for format in [PACKED, NATIVE] {
                for dtype in DType::ALL {
                    validate(&source(format, op, dtype, accumulator(dtype)));
                }
            }
        }
    }
}
