//! One generic elementwise kernel for every dtype and every pointwise op.
//!
//! A kernel is generated from four parts: how each operand is loaded (its dtype unpacked from the
//! buffer's words, at the offset its strides give, broadcast dimensions having stride 0), the
//! lane type the op computes in (the CPU backend's [`LaneKind`]), the op as one WGSL expression,
//! and how the result is packed into the output's dtype. Shapes and strides travel in a small
//! buffer, so one compiled pipeline serves every shape; pipelines are cached by the other parts.

use std::fmt::Write;
use std::rc::Rc;

use wgpu::util::DeviceExt;

use super::format::Format;
use super::grid::Grid;
use super::{GpuBuffer, GpuContext, GpuError};
use crate::backend::cpu::elementwise::{Binary, LaneKind};
use crate::backend::cpu::unary::Unary;
use crate::dtype::DType;

/// Threads per workgroup: a multiple of every GPU's SIMD width.
const WORKGROUP_SIZE: u32 = 64;

pub(crate) const PRELUDE: &str = include_str!("shaders/elementwise.wgsl");
pub(super) const PRELUDE_F64: &str = include_str!("shaders/elementwise_f64.wgsl");
pub(super) const PICK: &str = include_str!("shaders/pick.wgsl");

/// What an elementwise kernel computes from its operands `x0, x1, …`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Elementwise {
    Binary(Binary),
    Unary(Unary),
    /// `x0` converted to the output's dtype: `contiguous()`, `.to(dtype)`, strided copies.
    Copy,
    /// `torch.where(x0, x1, x2)`.
    Where,
    /// `torch.add(x0, x1, alpha=x2)`: `x0 + x2 · x1`, fused as PyTorch's kernels fuse it.
    AddScaled,
    /// `torch.arange`: element `k` is `x0 + k·x1`.
    Arange,
    /// `torch.linspace`: PyTorch's two-sided formula with fused multiply-adds, from `x0` up to
    /// the middle and from `x1` down past it, in steps of `x2`.
    Linspace,
    /// `torch.eye`: element `k` of rows `x0` long is 1 on the diagonal.
    Eye,
}

/// Where a kernel writes: `dtype` elements of `buffer` from element `offset` on, row-major (for
/// float16, bfloat16, uint8 and bool the offset must start a 4-byte word), or at the positions
/// `strides` give (a view: any offset).
#[derive(Debug, Clone, Copy)]
pub struct Output<'a> {
    pub buffer: &'a GpuBuffer,
    pub dtype: DType,
    pub offset: usize,
    pub strides: Option<&'a [usize]>,
}

impl<'a> Output<'a> {
    /// All of a fresh buffer.
    pub fn whole(buffer: &'a GpuBuffer, dtype: DType) -> Self {
        Output {
            buffer,
            dtype,
            offset: 0,
            strides: None,
        }
    }
}

/// How a kernel picks positions along one dimension of an operand through an int64 index:
/// `gather`, `index_select`, `t[idx]` and `embedding` read through it, and the scatter-adds of
/// their gradients write through it.
#[derive(Debug, Clone, Copy)]
pub struct Pick<'a> {
    /// Elements between neighbours along the picked dimension.
    pub stride: usize,
    /// The dimension's size: indices outside `0..size` fail the bounds check.
    pub size: usize,
    /// Negative indices count from the end (`t[idx]`) instead of failing (`gather`).
    pub wrap_negative: bool,
    /// An index that picks nothing and fails no check (`ignore_index`, `padding_idx`).
    pub ignore: Option<i64>,
    /// The flag a failed check raises, and the code it writes (0 writes nothing).
    pub flag: &'a GpuBuffer,
    pub code: u32,
}

impl Pick<'_> {
    /// The pick's tail of a kernel's `dims` (see `shaders/pick.wgsl`).
    pub(super) fn dims(&self) -> Result<[u32; 7], GpuError> {
        let ignore = self.ignore.unwrap_or(0) as u64;
        Ok([
            narrow(self.stride)?,
            narrow(self.size)?,
            u32::from(self.wrap_negative),
            u32::from(self.ignore.is_some()),
            ignore as u32,
            (ignore >> 32) as u32,
            self.code,
        ])
    }
}

/// A size or stride as the `u32` a kernel reads.
pub(super) fn narrow(v: usize) -> Result<u32, GpuError> {
    u32::try_from(v).map_err(|_| GpuError::GridTooLarge {
        invocations: v as u64,
    })
}

/// One input: a strided view of a GPU buffer, read as `kind` lanes.
#[derive(Debug, Clone)]
pub struct Operand<'a> {
    pub buffer: &'a GpuBuffer,
    pub dtype: DType,
    /// The first element, counted in elements of `dtype`.
    pub offset: usize,
    /// One stride per output dimension, 0 where the operand is broadcast.
    pub strides: Vec<usize>,
    pub kind: LaneKind,
}

impl Elementwise {
    /// The lane type of the result.
    fn result_kind(self, compute: LaneKind) -> LaneKind {
        match self {
            Elementwise::Binary(op) if op.is_comparison() => LaneKind::Bool,
            Elementwise::Eye => LaneKind::Bool,
            _ => compute,
        }
    }

    /// The op as a WGSL expression over `x0, x1, …` of lane type `compute`; `None` where WGSL
    /// has no such function for that type (float64 transcendentals).
    fn expression(self, compute: LaneKind) -> Option<&'static str> {
        use LaneKind as K;
        Some(match (self, compute) {
            (Elementwise::Copy, _) => "x0",
            (Elementwise::Where, _) => "select(x2, x1, x0)",
            (Elementwise::AddScaled, K::F32 | K::F64) => "fma(x2, x1, x0)",
            (Elementwise::AddScaled, K::I64) => "i64_add(x0, i64_mul(x2, x1))",
            (Elementwise::AddScaled, K::Bool) => "x0 || (x1 && x2)",
            (Elementwise::Arange, K::F32) => "x0 + f32(k) * x1",
            (Elementwise::Arange, K::F64) => "x0 + f64(k) * x1",
            (Elementwise::Arange, K::I64) => "i64_add(x0, i64_mul(vec2<u32>(k, 0u), x1))",
            (Elementwise::Linspace, K::F32) => {
                "select(fma(-x2, f32(dims[0] - 1u - k), x1), fma(x2, f32(k), x0), k < dims[0] / 2u)"
            }
            (Elementwise::Linspace, K::F64) => {
                "select(fma(-x2, f64(dims[0] - 1u - k), x1), fma(x2, f64(k), x0), k < dims[0] / 2u)"
            }
            (Elementwise::Eye, K::I64) => "(k / x0.x) == (k % x0.x)",
            (Elementwise::Arange | Elementwise::Linspace | Elementwise::Eye, _) => return None,
            (Elementwise::Binary(op), K::F32 | K::F64) => float_binary(op, compute)?,
            (Elementwise::Binary(op), K::I64) => int_binary(op),
            (Elementwise::Binary(op), K::Bool) => bool_binary(op),
            (Elementwise::Unary(op), K::F32) => f32_unary(op)?,
            (Elementwise::Unary(op), K::F64) => f64_unary(op)?,
            (Elementwise::Unary(op), K::I64) => match op {
                Unary::Neg => "i64_neg(x0)",
                Unary::Abs => "i64_abs(x0)",
                Unary::Relu => "select(x0, vec2<u32>(0u, 0u), i64_is_negative(x0))",
                Unary::Sign | Unary::Sgn => "i64_sign(x0)",
                Unary::BitNot => "~x0",
                Unary::Floor | Unary::Ceil | Unary::Trunc | Unary::Round => "x0",
                _ => return None,
            },
            (Elementwise::Unary(op), K::Bool) => match op {
                Unary::Abs
                | Unary::Relu
                | Unary::Sign
                | Unary::Sgn
                | Unary::Floor
                | Unary::Ceil
                | Unary::Trunc
                | Unary::Round => "x0",
                Unary::BitNot => "!x0",
                _ => return None,
            },
        })
    }
}

/// A unary op on float32 lanes; the functions WGSL lacks, or has without PyTorch's answers at the
/// edges (NaN outside the domain, accuracy near 0), are in `shaders/elementwise.wgsl`.
fn f32_unary(op: Unary) -> Option<&'static str> {
    Some(match op {
        Unary::Neg => "-x0",
        Unary::Abs => "abs(x0)",
        Unary::Exp => "exp(x0)",
        Unary::Exp2 => "exp2(x0)",
        Unary::Expm1 => "f32_expm1(x0)",
        Unary::Log => "f32_log(x0)",
        Unary::Log2 => "f32_log2(x0)",
        Unary::Log10 => "f32_log(x0) * 0.4342944819032518",
        Unary::Log1p => "f32_log1p(x0)",
        Unary::Sqrt => "f32_sqrt(x0)",
        Unary::Rsqrt => "1.0 / f32_sqrt(x0)",
        Unary::Reciprocal => "1.0 / x0",
        Unary::Relu => "f32_relu(x0)",
        Unary::Sigmoid => "f32_sigmoid(x0)",
        Unary::Sin => "f32_sincos(x0).x",
        Unary::Cos => "f32_sincos(x0).y",
        Unary::Tan => "f32_tan(x0)",
        Unary::Asin => "f32_asin(x0)",
        Unary::Acos => "f32_acos(x0)",
        Unary::Atan => "f32_atan(x0)",
        Unary::Sinh => "f32_sinh(x0)",
        Unary::Cosh => "f32_cosh(x0)",
        Unary::Tanh => "f32_tanh(x0)",
        Unary::Asinh => "f32_asinh(x0)",
        Unary::Acosh => "f32_acosh(x0)",
        Unary::Atanh => "f32_atanh(x0)",
        Unary::Erf => "f32_erf(x0)",
        Unary::Erfc => "f32_erfc(x0)",
        Unary::Erfinv => "f32_erfinv(x0)",
        Unary::Sign | Unary::Sgn => "f32_sign(x0)",
        Unary::Floor => "floor(x0)",
        Unary::Ceil => "ceil(x0)",
        Unary::Trunc => "trunc(x0)",
        // WGSL's round is half to even, as PyTorch's.
        Unary::Round => "round(x0)",
        Unary::Frac => "x0 - trunc(x0)",
        Unary::BitNot => return None,
    })
}

/// A unary op on float64 lanes: WGSL has no float64 transcendentals, so those (`None`) run on
/// the host, labelled so in the trace.
fn f64_unary(op: Unary) -> Option<&'static str> {
    Some(match op {
        Unary::Neg => "-x0",
        Unary::Abs => "abs(x0)",
        Unary::Sqrt => "sqrt(x0)",
        Unary::Rsqrt => "f64(1.0) / sqrt(x0)",
        Unary::Reciprocal => "f64(1.0) / x0",
        Unary::Relu => "select(x0, f64(0.0), x0 < f64(0.0))",
        Unary::Sign | Unary::Sgn => {
            "select(select(f64(0.0), f64(-1.0), x0 < f64(0.0)), f64(1.0), x0 > f64(0.0))"
        }
        Unary::Floor => "floor(x0)",
        Unary::Ceil => "ceil(x0)",
        Unary::Trunc => "trunc(x0)",
        Unary::Round => "round(x0)",
        Unary::Frac => "x0 - trunc(x0)",
        _ => return None,
    })
}

fn float_binary(op: Binary, compute: LaneKind) -> Option<&'static str> {
    let f64 = compute == LaneKind::F64;
    Some(match op {
        Binary::Add => "x0 + x1",
        Binary::Sub => "x0 - x1",
        Binary::Mul => "x0 * x1",
        Binary::Div => "x0 / x1",
        Binary::FloorDiv if f64 => "floor(x0 / x1)",
        Binary::Remainder if f64 => "x0 - floor(x0 / x1) * x1",
        Binary::FloorDiv => "f32_div_floor(x0, x1)",
        Binary::Remainder => "f32_remainder(x0, x1)",
        Binary::Pow if f64 => return None,
        Binary::Pow => "f32_pow(x0, x1)",
        Binary::Maximum if f64 => "select(x1, x0, f64_is_nan(x0) || x0 > x1)",
        Binary::Minimum if f64 => "select(x1, x0, f64_is_nan(x0) || x0 < x1)",
        Binary::Maximum => "select(x1, x0, f32_is_nan(x0) || x0 > x1)",
        Binary::Minimum => "select(x1, x0, f32_is_nan(x0) || x0 < x1)",
        Binary::Eq => "x0 == x1",
        // Unordered: NaN differs from everything, itself included.
        Binary::Ne => "!(x0 == x1)",
        Binary::Lt => "x0 < x1",
        Binary::Le => "x0 <= x1",
        Binary::Gt => "x0 > x1",
        Binary::Ge => "x0 >= x1",
        Binary::Atan2 if f64 => return None,
        Binary::Atan2 => "f32_atan2(x0, x1)",
        Binary::Hypot if f64 => return None,
        Binary::Hypot => "f32_hypot(x0, x1)",
        Binary::Fmod if f64 => "f64_fmod(x0, x1)",
        Binary::Fmod => "f32_fmod(x0, x1)",
        Binary::Fmax if f64 => "select(select(x1, x0, x0 >= x1), x0, f64_is_nan(x1))",
        Binary::Fmin if f64 => "select(select(x1, x0, x0 <= x1), x0, f64_is_nan(x1))",
        Binary::Fmax => "select(select(x1, x0, x0 >= x1), x0, f32_is_nan(x1))",
        Binary::Fmin => "select(select(x1, x0, x0 <= x1), x0, f32_is_nan(x1))",
        Binary::Copysign if f64 => return None,
        Binary::Copysign => {
            "bitcast<f32>((bitcast<u32>(x0) & 0x7fffffffu) | (bitcast<u32>(x1) & 0x80000000u))"
        }
        Binary::TruncDiv => "trunc(x0 / x1)",
        // Refused for floating dtypes before any kernel is built.
        Binary::BitAnd | Binary::BitOr | Binary::BitXor | Binary::Shl | Binary::Shr => return None,
    })
}

fn int_binary(op: Binary) -> &'static str {
    match op {
        Binary::Add => "i64_add(x0, x1)",
        Binary::Sub => "i64_sub(x0, x1)",
        Binary::Mul => "i64_mul(x0, x1)",
        Binary::Div => "i64_divmod_trunc(x0, x1)[0]",
        Binary::FloorDiv => "i64_floor_div(x0, x1)",
        Binary::Remainder => "i64_remainder(x0, x1)",
        Binary::Pow => "i64_pow(x0, x1)",
        Binary::Maximum => "i64_max(x0, x1)",
        Binary::Minimum => "i64_min(x0, x1)",
        Binary::Eq => "i64_eq(x0, x1)",
        Binary::Ne => "!i64_eq(x0, x1)",
        Binary::Lt => "i64_lt(x0, x1)",
        Binary::Le => "!i64_lt(x1, x0)",
        Binary::Gt => "i64_lt(x1, x0)",
        Binary::Ge => "!i64_lt(x0, x1)",
        // An int64 is two u32 words: bitwise ops work word by word.
        Binary::BitAnd => "x0 & x1",
        Binary::BitOr => "x0 | x1",
        Binary::BitXor => "x0 ^ x1",
        Binary::Shl => "i64_shl(x0, x1)",
        Binary::Shr => "i64_shr(x0, x1)",
        Binary::Fmod => "i64_divmod_trunc(x0, x1)[1]",
        Binary::TruncDiv => "i64_divmod_trunc(x0, x1)[0]",
        Binary::Fmax => "i64_max(x0, x1)",
        Binary::Fmin => "i64_min(x0, x1)",
        // Computed in float or refused for integers before any kernel is built.
        Binary::Atan2 | Binary::Hypot | Binary::Copysign => "x0",
    }
}

fn bool_binary(op: Binary) -> &'static str {
    match op {
        Binary::Add | Binary::Maximum | Binary::Fmax | Binary::BitOr => "x0 || x1",
        Binary::Mul | Binary::Minimum | Binary::Fmin | Binary::BitAnd => "x0 && x1",
        Binary::Eq => "x0 == x1",
        Binary::Ne | Binary::Sub | Binary::BitXor => "x0 != x1",
        Binary::Lt => "!x0 && x1",
        Binary::Le => "!x0 || x1",
        Binary::Gt => "x0 && !x1",
        Binary::Ge => "x0 || !x1",
        // Refused for bools, or computed in float, before any kernel is built.
        Binary::Div
        | Binary::Shl
        | Binary::Shr
        | Binary::Pow
        | Binary::FloorDiv
        | Binary::Remainder
        | Binary::Atan2
        | Binary::Hypot
        | Binary::Fmod
        | Binary::Copysign
        | Binary::TruncDiv => "x0",
    }
}

/// How a value is held between loading and computing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Raw {
    F32,
    F64,
    I32,
    /// A byte, zero-extended.
    U8,
    Bool,
    I64,
}

impl Raw {
    pub(super) fn of(kind: LaneKind) -> Raw {
        match kind {
            LaneKind::F32 => Raw::F32,
            LaneKind::F64 => Raw::F64,
            LaneKind::I64 => Raw::I64,
            LaneKind::Bool => Raw::Bool,
        }
    }
}

pub(super) fn wgsl_type(kind: LaneKind) -> &'static str {
    match kind {
        LaneKind::F32 => "f32",
        LaneKind::F64 => "f64",
        LaneKind::I64 => "vec2<u32>",
        LaneKind::Bool => "bool",
    }
}

/// `v` (held as `from`) converted to `to` lanes, as the CPU backend converts.
pub(super) fn convert(v: &str, from: Raw, to: LaneKind) -> String {
    use LaneKind as K;
    match (from, to) {
        (Raw::F32, K::F32) | (Raw::F64, K::F64) | (Raw::I64, K::I64) | (Raw::Bool, K::Bool) => {
            v.to_owned()
        }
        (Raw::F64 | Raw::I32 | Raw::U8, K::F32) => format!("f32({v})"),
        (Raw::I64, K::F32) => format!("i64_to_f32({v})"),
        (Raw::Bool, K::F32) => format!("select(0.0, 1.0, {v})"),
        (Raw::F32 | Raw::I32 | Raw::U8, K::F64) => format!("f64({v})"),
        (Raw::I64, K::F64) => format!("i64_to_f64({v})"),
        (Raw::Bool, K::F64) => format!("select(f64(0.0), f64(1.0), {v})"),
        (Raw::F32, K::I64) => format!("f32_to_i64({v})"),
        (Raw::F64, K::I64) => format!("f64_to_i64({v})"),
        (Raw::I32, K::I64) => format!("i64_from_i32({v})"),
        (Raw::U8, K::I64) => format!("vec2<u32>({v}, 0u)"),
        (Raw::Bool, K::I64) => format!("vec2<u32>(select(0u, 1u, {v}), 0u)"),
        (Raw::F32, K::Bool) => format!("!({v} == 0.0)"),
        (Raw::F64, K::Bool) => format!("!({v} == f64(0.0))"),
        (Raw::I32, K::Bool) => format!("({v} != 0)"),
        (Raw::U8, K::Bool) => format!("({v} != 0u)"),
        (Raw::I64, K::Bool) => format!("!i64_eq({v}, vec2<u32>(0u, 0u))"),
    }
}

/// One operand as a kernel sees it: its dtype, the lanes it is read as, and its binding slot
/// (operands in the same storage share one binding: browsers refuse two writable bindings of one
/// range). Slots are numbered densely in order of first use.
pub(super) type Signature = (DType, LaneKind, usize);

/// The binding slot of each operand: operands in one storage share the slot of the first.
pub(super) fn slots(buffers: &[&GpuBuffer]) -> Vec<usize> {
    let mut distinct: Vec<&GpuBuffer> = Vec::new();
    buffers
        .iter()
        .map(|b| match distinct.iter().position(|d| d.same_binding(b)) {
            Some(slot) => slot,
            None => {
                distinct.push(b);
                distinct.len() - 1
            }
        })
        .collect()
}

/// The declarations of the input bindings (from binding 2 on, one per slot), and the number of
/// the next free binding.
pub(super) fn input_bindings(s: &mut String, format: Format, inputs: &[Signature]) -> usize {
    let mut declared = 0;
    for &(dtype, _, slot) in inputs {
        if slot == declared {
            let _ = writeln!(
                s,
                "@group(0) @binding({}) var<storage, read_write> in{slot}: array<{}>;",
                slot + 2,
                format.binding_type(dtype)
            );
            declared += 1;
        }
    }
    declared + 2
}

/// The `failed` flag binding and the pick helpers, for a kernel with `operands` operand blocks.
pub(super) fn pick_bindings(s: &mut String, binding: usize, operands: usize) {
    let _ = writeln!(
        s,
        "@group(0) @binding({binding}) var<storage, read_write> failed: array<atomic<u32>>;\nconst OPERANDS: u32 = {operands}u;"
    );
    s.push_str(PICK);
}

/// The zero of `kind` lanes: what a gather gives where its index picks nothing.
fn zero(kind: LaneKind) -> &'static str {
    match kind {
        LaneKind::F32 => "0.0",
        LaneKind::F64 => "f64(0.0)",
        LaneKind::I64 => "vec2<u32>(0u, 0u)",
        LaneKind::Bool => "false",
    }
}

/// What one generated kernel is: the op, its lanes, its operands and output, and how it reads
/// and writes. Its `Debug` text is the pipeline cache's key.
#[derive(Debug, Clone, PartialEq)]
struct Kernel {
    format: Format,
    op: Elementwise,
    compute: LaneKind,
    inputs: Vec<Signature>,
    out: DType,
    /// Operand 0 is read through the pick of the last operand (an int64 index).
    picked: bool,
    /// The output is a strided view (one thread per element, at the position its strides
    /// give) rather than a row-major run.
    strided: bool,
}

/// The WGSL source of `kernel`, computing `expression` (its op's, in `compute` lanes).
fn source(kernel: &Kernel, expression: &str) -> String {
    let Kernel {
        format,
        op,
        compute,
        ref inputs,
        out,
        picked,
        strided,
    } = *kernel;
    let result = op.result_kind(compute);
    let mut s = format.prelude();
    let uses_f64 = out == DType::Float64
        || compute == LaneKind::F64
        || inputs
            .iter()
            .any(|&(d, k, _)| d == DType::Float64 || k == LaneKind::F64);
    if uses_f64 {
        s.push_str(PRELUDE_F64);
    }
    let per = format.packing(out);
    // A strided write of packed elements shares its words with elements other threads write:
    // it changes only its own bits, atomically.
    let atomic = strided && per > 1;
    let _ = writeln!(
        s,
        "@group(0) @binding(0) var<storage, read> dims: array<u32>;"
    );
    let _ = writeln!(
        s,
        "@group(0) @binding(1) var<storage, read_write> out: array<{}>;",
        if atomic {
            "atomic<u32>"
        } else {
            format.binding_type(out)
        }
    );
    let next = input_bindings(&mut s, format, inputs);
    if picked {
        pick_bindings(&mut s, next, inputs.len());
    }
    for (i, &(dtype, kind, slot)) in inputs.iter().enumerate() {
        let (raw, held) = format.load(dtype, &format!("in{slot}"));
        let _ = writeln!(
            s,
            "fn load{i}(e: u32) -> {} {{ return {}; }}",
            wgsl_type(kind),
            convert(&raw, held, kind)
        );
    }
    let stored = LaneKind::of(out);
    let _ = writeln!(s, "fn value(k: u32) -> {} {{", wgsl_type(stored));
    for i in 0..inputs.len() {
        if picked && i == 0 {
            let index = inputs.len() - 1;
            let _ = writeln!(
                s,
                "    let p = pick(load{index}(element_offset(k, {index}u)));\n    var x0 = {};\n    if p != SKIP {{\n        x0 = load0(element_offset(k, 0u) + p * pick_stride());\n    }}",
                zero(inputs[0].1)
            );
        } else {
            let _ = writeln!(s, "    let x{i} = load{i}(element_offset(k, {i}u));");
        }
    }
    let _ = writeln!(s, "    let r: {} = {expression};", wgsl_type(result));
    let _ = writeln!(
        s,
        "    return {};\n}}",
        convert("r", Raw::of(result), stored)
    );
    if strided {
        store_strided(&mut s, format, out, inputs.len());
    } else {
        store_row_major(&mut s, format, out);
    }
    s
}

/// Row-major writes: one thread per output word (several packed elements) or 8-byte element.
fn store_row_major(s: &mut String, format: Format, out: DType) {
    let per = format.packing(out);
    s.push_str("fn unit(t: u32, n: u32) {\n    let at = dims[2] + t;\n");
    if per == 1 {
        let _ = writeln!(s, "    let v = value(t);\n{}}}", whole_store(format, out));
    } else {
        let bits = 32 / per;
        let _ = writeln!(
            s,
            "    let first = t * {per}u;\n    var word = 0u;\n    for (var j = 0u; j < {per}u && first + j < n; j++) {{\n        word |= {} << (j * {bits}u);\n    }}\n    out[at] = word;\n}}",
            format.stored(out, "value(first + j)")
        );
    }
    let _ = writeln!(
        s,
        "@compute @workgroup_size({WORKGROUP_SIZE})\nfn main(@builtin(global_invocation_id) gid: vec3<u32>) {{\n    let n = dims[0];\n    let t = gid.y * dims[1] + gid.x;\n    if t < (n + {per}u - 1u) / {per}u {{\n        unit(t, n);\n    }}\n}}"
    );
}

/// The statements storing `v` (of `out`'s storage lanes) as element `at` of a dtype whose
/// elements take whole binding elements (int64: two words).
fn whole_store(format: Format, out: DType) -> String {
    if out == DType::Int64 {
        "    out[2u * at] = v.x;\n    out[2u * at + 1u] = v.y;\n".to_owned()
    } else {
        format!("    out[at] = {};\n", format.stored(out, "v"))
    }
}

/// Strided writes: one thread per element, at the position the output's operand block (after
/// the `inputs` ones) gives; packed elements change only their own bits of the word.
fn store_strided(s: &mut String, format: Format, out: DType, inputs: usize) {
    let per = format.packing(out);
    s.push_str("fn store(at: u32, v: ");
    s.push_str(wgsl_type(LaneKind::of(out)));
    s.push_str(") {\n");
    if per == 1 {
        s.push_str(&whole_store(format, out));
    } else {
        let bits = 32 / per;
        let _ = writeln!(
            s,
            "    let shift = (at % {per}u) * {bits}u;\n    let mask = ((1u << {bits}u) - 1u) << shift;\n    atomicAnd(&out[at / {per}u], ~mask);\n    atomicOr(&out[at / {per}u], {} << shift);",
            format.stored(out, "v")
        );
    }
    s.push_str("}\n");
    let _ = writeln!(
        s,
        "@compute @workgroup_size({WORKGROUP_SIZE})\nfn main(@builtin(global_invocation_id) gid: vec3<u32>) {{\n    let t = gid.y * dims[1] + gid.x;\n    if t < dims[0] {{\n        store(element_offset(t, {inputs}u), value(t));\n    }}\n}}"
    );
}

/// The fewest dimensions that walk every operand the same way: neighbours merge where each
/// operand steps over the outer one exactly as far as across the whole inner one (what PyTorch's
/// TensorIterator does). Contiguous and broadcast-scalar operands collapse to one dimension, so
/// the kernel divides once per element instead of once per dimension.
pub(super) fn coalesce(shape: &[usize], strides: &[&[usize]]) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut merged_shape: Vec<usize> = Vec::with_capacity(shape.len());
    let mut merged: Vec<Vec<usize>> = vec![Vec::with_capacity(shape.len()); strides.len()];
    for (d, &size) in shape.iter().enumerate() {
        if size == 1 {
            continue;
        }
        let joins = merged_shape.last().is_some() && {
            let last = merged.iter().map(|m| m.last().copied().unwrap_or(0));
            strides
                .iter()
                .zip(last)
                .all(|(s, outer)| outer == s[d] * size)
        };
        if joins {
            if let Some(last) = merged_shape.last_mut() {
                *last *= size;
            }
            for (m, s) in merged.iter_mut().zip(strides) {
                if let Some(last) = m.last_mut() {
                    *last = s[d];
                }
            }
        } else {
            merged_shape.push(size);
            for (m, s) in merged.iter_mut().zip(strides) {
                m.push(s[d]);
            }
        }
    }
    (merged_shape, merged)
}

impl GpuContext {
    /// Whether this adapter can run `op` computing in `compute` lanes for these dtypes.
    pub fn can_run(&self, op: Elementwise, compute: LaneKind, dtypes: &[DType]) -> bool {
        let f64_needed = compute == LaneKind::F64 || dtypes.contains(&DType::Float64);
        op.expression(compute).is_some() && (!f64_needed || self.report.shader_f64)
    }

    /// A small buffer of kernel arguments (a Python number broadcast as an operand), outside
    /// the memory model, as CUDA passes scalars in the launch parameters.
    pub fn constant(&self, bytes: &[u8]) -> GpuBuffer {
        let mut padded = bytes.to_vec();
        padded.resize(super::buffer::padded(bytes.len() as u64) as usize, 0);
        let buffer = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("scalar"),
                contents: &padded,
                usage: wgpu::BufferUsages::STORAGE,
            });
        GpuBuffer::whole(Rc::new(buffer), bytes.len() as u64)
    }

    /// Queues `op` over `shape`, writing its results into `out` (row-major, or through its
    /// strides), in chunks where a tensor is larger than one binding. Nothing waits.
    pub fn elementwise(
        &self,
        op: Elementwise,
        compute: LaneKind,
        shape: &[usize],
        inputs: &[Operand],
        out: Output,
    ) -> Result<(), GpuError> {
        self.launch(op, compute, shape, inputs, out, None)
    }

    /// Queues a gather over `shape`: each element is `source` read at its strided position plus
    /// `pick.stride` times what `index` (int64 lanes) picks there, converted to the output's
    /// dtype; 0 where the index picks nothing. An index out of range raises `pick.flag`.
    pub fn gather(
        &self,
        shape: &[usize],
        source: Operand,
        index: Operand,
        out: Output,
        pick: Pick,
    ) -> Result<(), GpuError> {
        let compute = LaneKind::of(out.dtype);
        let source = Operand {
            kind: compute,
            ..source
        };
        let index = Operand {
            kind: LaneKind::I64,
            ..index
        };
        self.launch(
            Elementwise::Copy,
            compute,
            shape,
            &[source, index],
            out,
            Some(pick),
        )
    }

    fn launch(
        &self,
        op: Elementwise,
        compute: LaneKind,
        shape: &[usize],
        inputs: &[Operand],
        out: Output,
        pick: Option<Pick>,
    ) -> Result<(), GpuError> {
        let Output {
            buffer: out,
            dtype: out_dtype,
            offset: out_offset,
            strides: out_strides,
        } = out;
        if out_strides.is_none() && !out_offset.is_multiple_of(self.packing(out_dtype) as usize) {
            return Err(GpuError::Unsupported {
                what: format!("a write into {out_dtype} elements that do not start a word"),
            });
        }
        let dtypes: Vec<DType> = inputs.iter().map(|o| o.dtype).chain([out_dtype]).collect();
        if !self.can_run(op, compute, &dtypes) {
            return Err(GpuError::Unsupported {
                what: format!("{op:?} in {compute:?} lanes"),
            });
        }
        let numel: usize = shape.iter().product();
        if numel == 0 {
            return Ok(());
        }
        let buffers: Vec<&GpuBuffer> = inputs.iter().map(|o| o.buffer).collect();
        let fits = self.check_bindings(buffers.iter().copied().chain([out]));
        if pick.is_none() && fits.is_err() {
            let out = Output {
                buffer: out,
                dtype: out_dtype,
                offset: out_offset,
                strides: out_strides,
            };
            return self.launch_split(op, compute, shape, inputs, out);
        }
        fits?;
        let slots = slots(&buffers);
        let signature: Vec<Signature> = inputs
            .iter()
            .zip(&slots)
            .map(|(o, &slot)| (o.dtype, o.kind, slot))
            .collect();
        let kernel = Kernel {
            format: self.format(),
            op,
            compute,
            inputs: signature,
            out: out_dtype,
            picked: pick.is_some(),
            strided: out_strides.is_some(),
        };
        let key = format!("{kernel:?}");
        let expression = op
            .expression(compute)
            .ok_or_else(|| GpuError::Unsupported { what: key.clone() })?;
        // The source is generated only the first time: the pipeline is cached by its key.
        let pipeline = self.pipeline(&key, || source(&kernel, expression));

        // A strided output is written one element per thread.
        let per = if out_strides.is_some() {
            1
        } else {
            self.packing(out_dtype)
        };
        let units = (numel as u64).div_ceil(u64::from(per));
        let grid = Grid::cover(
            units,
            WORKGROUP_SIZE,
            self.device.limits().max_compute_workgroups_per_dimension,
        )?;
        let mut strides: Vec<&[usize]> = inputs.iter().map(|o| o.strides.as_slice()).collect();
        let mut offsets: Vec<usize> = inputs.iter().map(|o| o.offset).collect();
        if let Some(out_strides) = out_strides {
            strides.push(out_strides);
            offsets.push(out_offset);
        }
        let mut dims = operand_dims(shape, &offsets, &strides, grid.row_stride)?;
        if out_strides.is_none() {
            dims[2] = narrow(out_offset / per as usize)?;
        }
        let mut bindings = vec![out.binding()];
        bindings.extend(
            inputs
                .iter()
                .zip(&slots)
                .enumerate()
                .filter(|&(i, (_, &slot))| slots[..i].iter().all(|&s| s != slot))
                .map(|(_, (input, _))| input.buffer.binding()),
        );
        if let Some(pick) = &pick {
            dims.extend(pick.dims()?);
            bindings.push(pick.flag.binding());
        }
        let dims = self.dims(&dims);
        bindings.insert(0, dims.as_entire_binding());
        self.dispatch("elementwise", &pipeline, &bindings, grid);
        Ok(())
    }

    /// Fails with [`GpuError::BufferTooLarge`] where one of `buffers` is past the largest
    /// storage binding.
    pub(super) fn check_bindings<'b>(
        &self,
        buffers: impl IntoIterator<Item = &'b GpuBuffer>,
    ) -> Result<(), GpuError> {
        let max_bytes = self.max_binding();
        match buffers
            .into_iter()
            .map(GpuBuffer::padded_len)
            .find(|&bytes| bytes > max_bytes)
        {
            Some(bytes) => Err(GpuError::BufferTooLarge { bytes, max_bytes }),
            None => Ok(()),
        }
    }

    /// A kernel's `dims` as a buffer.
    pub(super) fn dims(&self, dims: &[u32]) -> wgpu::Buffer {
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("dims"),
                contents: bytemuck::cast_slice(dims),
                usage: wgpu::BufferUsages::STORAGE,
            })
    }
}

/// The `dims` of a kernel walking `shape` (coalesced) with one operand block per entry of
/// `offsets` and `strides`: `[numel, row_stride, 0, rank, shape, per operand: offset, strides]`.
pub(super) fn operand_dims(
    shape: &[usize],
    offsets: &[usize],
    strides: &[&[usize]],
    row_stride: u32,
) -> Result<Vec<u32>, GpuError> {
    let numel: usize = shape.iter().product();
    let (shape, strides) = coalesce(shape, strides);
    let mut dims: Vec<u32> = Vec::with_capacity(4 + shape.len() * (offsets.len() + 1));
    dims.extend([narrow(numel)?, row_stride, 0, narrow(shape.len())?]);
    for &d in &shape {
        dims.push(narrow(d)?);
    }
    for (&offset, strides) in offsets.iter().zip(&strides) {
        dims.push(narrow(offset)?);
        for &s in strides {
            dims.push(narrow(s)?);
        }
    }
    Ok(dims)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
pub(super) mod tests {
    use super::*;

    /// The two binding formats: float16 packed in words (browsers today), and native `f16`.
    pub(in crate::backend::gpu) const PACKED: Format = Format { native_f16: false };
    pub(in crate::backend::gpu) const NATIVE: Format = Format { native_f16: true };

    #[test]
    fn contiguous_and_broadcast_operands_coalesce_to_one_dimension() {
        let (shape, strides) = coalesce(&[2, 3, 4], &[&[12, 4, 1], &[0, 0, 0]]);
        assert_eq!(shape, vec![24]);
        assert_eq!(strides, vec![vec![1], vec![0]]);
        // A transposed operand keeps its dimensions; size-1 ones vanish.
        let (shape, strides) = coalesce(&[3, 1, 2], &[&[1, 7, 3], &[2, 2, 1]]);
        assert_eq!(shape, vec![3, 2]);
        assert_eq!(strides, vec![vec![1, 3], vec![2, 1]]);
        // A row broadcast over columns merges nothing with the contiguous operand.
        let (shape, strides) = coalesce(&[4, 5], &[&[5, 1], &[0, 1]]);
        assert_eq!(shape, vec![4, 5]);
        assert_eq!(strides, vec![vec![5, 1], vec![0, 1]]);
    }

    #[test]
    fn every_op_and_dtype_generates_a_kernel_that_naga_accepts() {
        // The kernel of `op`, where WGSL has its expression for `kind` lanes.
        let kernel_in = |format: Format, op: Elementwise, kind, inputs: &[Signature], out| {
            op.expression(kind).map(|expression| {
                let kernel = Kernel {
                    format,
                    op,
                    compute: kind,
                    inputs: inputs.to_vec(),
                    out,
                    picked: false,
                    strided: false,
                };
                source(&kernel, expression)
            })
        };
        let kernel = |op, kind, inputs: &[Signature], out| kernel_in(PACKED, op, kind, inputs, out);
        let mut checked = 0;
        for input in DType::ALL {
            for out in DType::ALL {
                let compute = LaneKind::of(out);
                for format in [PACKED, NATIVE] {
                    let operand = [(input, compute, 0)];
                    if let Some(src) = kernel_in(format, Elementwise::Copy, compute, &operand, out)
                    {
                        validate(&src);
                        checked += 1;
                    }
                }
            }
        }
        for kind in [LaneKind::F32, LaneKind::F64, LaneKind::I64, LaneKind::Bool] {
            let dtype = kind.dtype();
            for op in [
                Binary::Add,
                Binary::Sub,
                Binary::Mul,
                Binary::Div,
                Binary::FloorDiv,
                Binary::Remainder,
                Binary::Pow,
                Binary::Maximum,
                Binary::Minimum,
                Binary::Eq,
                Binary::Ne,
                Binary::Lt,
                Binary::Le,
                Binary::Gt,
                Binary::Ge,
                Binary::BitAnd,
                Binary::BitOr,
                Binary::BitXor,
                Binary::Shl,
                Binary::Shr,
                Binary::Atan2,
                Binary::Hypot,
                Binary::Fmod,
                Binary::Fmax,
                Binary::Fmin,
                Binary::Copysign,
                Binary::TruncDiv,
            ] {
                let op = Elementwise::Binary(op);
                let out = if let Elementwise::Binary(b) = op
                    && b.is_comparison()
                {
                    DType::Bool
                } else {
                    dtype
                };
                if let Some(src) = kernel(op, kind, &[(dtype, kind, 0), (dtype, kind, 1)], out) {
                    validate(&src);
                    checked += 1;
                }
            }
            for op in Unary::ALL {
                if let Some(src) = kernel(Elementwise::Unary(op), kind, &[(dtype, kind, 0)], dtype)
                {
                    validate(&src);
                    checked += 1;
                }
            }
            let src = kernel(
                Elementwise::Where,
                kind,
                // The two values share one binding, as `torch.where(c, x, x)` binds them.
                &[
                    (DType::Bool, LaneKind::Bool, 0),
                    (dtype, kind, 1),
                    (dtype, kind, 1),
                ],
                dtype,
            )
            .unwrap();
            validate(&src);
        }
        for (op, inputs) in [
            (Elementwise::Arange, 2),
            (Elementwise::Linspace, 3),
            (Elementwise::Eye, 1),
        ] {
            for kind in [LaneKind::F32, LaneKind::F64, LaneKind::I64] {
                let operands: Vec<Signature> =
                    (0..inputs).map(|i| (kind.dtype(), kind, i)).collect();
                for out in DType::ALL {
                    if let Some(src) = kernel(op, kind, &operands, out) {
                        validate(&src);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn strided_writes_of_every_dtype_generate_kernels_that_naga_accepts() {
        for (out, format) in DType::ALL
            .into_iter()
            .flat_map(|d| [(d, PACKED), (d, NATIVE)])
        {
            let kind = LaneKind::of(out);
            let kernel = Kernel {
                format,
                op: Elementwise::Copy,
                compute: kind,
                inputs: vec![(DType::Float32, kind, 0)],
                out,
                picked: false,
                strided: true,
            };
            validate(&source(&kernel, "x0"));
        }
    }

    #[test]
    fn gather_kernels_read_through_an_index_of_either_integer_dtype() {
        for source_dtype in DType::ALL {
            let kind = LaneKind::of(source_dtype);
            for index in [DType::Int64, DType::Int32] {
                // An index shares the source's binding only when it is the same storage.
                for index_slot in [0, 1]
                    .into_iter()
                    .filter(|&s| s == 1 || index == source_dtype)
                {
                    let kernel = Kernel {
                        format: PACKED,
                        op: Elementwise::Copy,
                        compute: kind,
                        inputs: vec![(source_dtype, kind, 0), (index, LaneKind::I64, index_slot)],
                        out: source_dtype,
                        picked: true,
                        strided: false,
                    };
                    validate(&source(&kernel, "x0"));
                }
            }
        }
    }

    pub(in crate::backend::gpu) fn validate(src: &str) {
        let module = naga::front::wgsl::parse_str(src)
            .unwrap_or_else(|e| panic!("{}\n{src}", e.emit_to_string(src)));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    }
}
