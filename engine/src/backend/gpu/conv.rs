//! `conv2d` and its two gradients as direct convolutions (`shaders/conv2d.wgsl`): one thread per
//! result element sums its own terms, so there is no unfolded column buffer to allocate and no
//! atomic add. Operands are contiguous, unpacked from their dtype and multiplied in float32
//! (float64 where the adapter has it); half-precision results are rounded once by the copy kernel.

use std::fmt::Write;

use super::elementwise::{convert, narrow, wgsl_type};
use super::format::Format;
use super::grid::Grid;
use super::{GpuBuffer, GpuContext, GpuError};
use crate::backend::cpu::elementwise::LaneKind;
use crate::dtype::DType;

const WORKGROUP_SIZE: u32 = 64;
const PASSES: &str = include_str!("shaders/conv2d.wgsl");

/// Which result a kernel computes, and what its operands `a` and `b` are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConvPass {
    /// The output (`a` = input, `b` = weight).
    Forward,
    /// The input's gradient (`a` = the output's gradient, `b` = weight).
    GradInput,
    /// The weight's gradient (`a` = the output's gradient, `b` = input).
    GradWeight,
}

impl ConvPass {
    /// The kernel's name in the trace: PyTorch's op for the pass.
    pub fn kernel_name(self) -> &'static str {
        match self {
            ConvPass::Forward => "conv2d",
            ConvPass::GradInput | ConvPass::GradWeight => "convolution_backward",
        }
    }
}

/// The sizes of one convolution (PyTorch's `N, C, H, W` input, `O, C/groups, KH, KW` weight).
#[derive(Debug, Clone, Copy)]
pub struct ConvShape {
    pub batch: usize,
    pub channels: usize,
    pub height: usize,
    pub width: usize,
    pub out_channels: usize,
    pub kernel: [usize; 2],
    pub out: [usize; 2],
    pub groups: usize,
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub dilation: [usize; 2],
}

impl ConvShape {
    /// The elements of the result `pass` computes.
    fn results(&self, pass: ConvPass) -> usize {
        match pass {
            ConvPass::Forward => self.batch * self.out_channels * self.out[0] * self.out[1],
            ConvPass::GradInput => self.batch * self.channels * self.height * self.width,
            ConvPass::GradWeight => {
                self.out_channels * (self.channels / self.groups) * self.kernel[0] * self.kernel[1]
            }
        }
    }
}

/// A contiguous operand: its buffer and the element its data starts at.
#[derive(Debug, Clone, Copy)]
pub struct ConvOperand<'a> {
    pub buffer: &'a GpuBuffer,
    pub offset: usize,
}

/// `shared`: `a` and `b` are one storage, bound once; `bias`: the forward pass adds a bias.
fn source(
    format: Format,
    pass: ConvPass,
    dtype: DType,
    acc: LaneKind,
    shared: bool,
    bias: bool,
) -> String {
    let mut s = format.prelude();
    if acc == LaneKind::F64 {
        s.push_str(super::elementwise::PRELUDE_F64);
    }
    let ty = wgsl_type(acc);
    let (raw_a, held) = format.load(dtype, "a");
    let (raw_b, _) = format.load(dtype, if shared { "a" } else { "b" });
    let _ = writeln!(
        s,
        "alias acc = {ty};\n@group(0) @binding(0) var<storage, read> dims: array<u32>;\n@group(0) @binding(1) var<storage, read_write> out: array<{out}>;\n@group(0) @binding(2) var<storage, read_write> a: array<{input}>;",
        out = format.binding_type(acc.dtype()),
        input = format.binding_type(dtype),
    );
    if !shared {
        let _ = writeln!(
            s,
            "@group(0) @binding(3) var<storage, read_write> b: array<{}>;",
            format.binding_type(dtype)
        );
    }
    let _ = writeln!(
        s,
        "fn load_a(e: u32) -> acc {{ return {}; }}\nfn load_b(e: u32) -> acc {{ return {}; }}",
        convert(&raw_a, held, acc),
        convert(&raw_b, held, acc),
    );
    if bias {
        let (raw, _) = format.load(dtype, "bias");
        let _ = writeln!(
            s,
            "@group(0) @binding({}) var<storage, read_write> bias: array<{}>;\nfn bias_of(o: u32) -> acc {{ let e = dims[20] + o; return {}; }}",
            if shared { 3 } else { 4 },
            format.binding_type(dtype),
            convert(&raw, held, acc),
        );
    } else {
        s.push_str("fn bias_of(o: u32) -> acc { return acc(0); }\n");
    }
    let store = if acc == LaneKind::F64 {
        "v"
    } else {
        "bitcast<u32>(v)"
    };
    let pass_fn = match pass {
        ConvPass::Forward => "forward",
        ConvPass::GradInput => "grad_input",
        ConvPass::GradWeight => "grad_weight",
    };
    s.push_str(PASSES);
    let _ = write!(
        s,
        r#"
@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {{
    let t = gid.y * dims[1] + gid.x;
    if t >= dims[0] {{
        return;
    }}
    let v = {pass_fn}(t);
    out[t] = {store};
}}
"#
    );
    s
}

impl GpuContext {
    /// Queues `pass` of the convolution `shape` over `dtype` operands (and a `bias` the forward
    /// pass adds), writing `acc` lanes (float32, or float64 for float64 operands) row-major into
    /// `out`.
    #[allow(clippy::too_many_arguments)]
    pub fn conv2d(
        &self,
        pass: ConvPass,
        dtype: DType,
        shape: &ConvShape,
        a: ConvOperand,
        b: ConvOperand,
        bias: Option<ConvOperand>,
        out: &GpuBuffer,
    ) -> Result<(), GpuError> {
        let acc = super::product_lanes(dtype).ok_or_else(|| GpuError::Unsupported {
            what: format!("conv2d of {dtype}"),
        })?;
        if acc == LaneKind::F64 && !self.report.shader_f64 {
            return Err(GpuError::Unsupported {
                what: "float64 on an adapter without it".into(),
            });
        }
        let total = shape.results(pass);
        if total == 0 {
            return Ok(());
        }
        self.check_bindings(
            [a.buffer, b.buffer, out]
                .into_iter()
                .chain(bias.map(|c| c.buffer)),
        )?;
        let shared = a.buffer.same_binding(b.buffer);
        let has_bias = bias.is_some();
        let key = format!("conv2d {pass:?} {dtype:?} {shared} {has_bias}");
        let pipeline = self.pipeline(&key, || {
            source(self.format(), pass, dtype, acc, shared, has_bias)
        });
        let grid = Grid::cover(
            total as u64,
            WORKGROUP_SIZE,
            self.device.limits().max_compute_workgroups_per_dimension,
        )?;
        let sizes = [
            total,
            0,
            shape.batch,
            shape.channels,
            shape.height,
            shape.width,
            shape.out_channels,
            shape.kernel[0],
            shape.kernel[1],
            shape.out[0],
            shape.out[1],
            shape.groups,
            shape.stride[0],
            shape.stride[1],
            shape.padding[0],
            shape.padding[1],
            shape.dilation[0],
            shape.dilation[1],
            a.offset,
            b.offset,
            bias.map_or(0, |c| c.offset),
        ];
        let mut dims = sizes
            .map(narrow)
            .into_iter()
            .collect::<Result<Vec<u32>, _>>()?;
        dims[1] = grid.row_stride;
        let dims = self.dims(&dims);
        let mut bindings = vec![dims.as_entire_binding(), out.binding(), a.buffer.binding()];
        if !shared {
            bindings.push(b.buffer.binding());
        }
        if let Some(bias) = &bias {
            bindings.push(bias.buffer.binding());
        }
        self.dispatch("conv2d", &pipeline, &bindings, grid);
        Ok(())
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::super::elementwise::tests::{NATIVE, PACKED, validate};
    use super::*;

    #[test]
    fn every_pass_and_float_dtype_generates_a_kernel_that_naga_accepts() {
        for pass in [ConvPass::Forward, ConvPass::GradInput, ConvPass::GradWeight] {
            for dtype in [
                DType::Float32,
                DType::Float16,
                DType::BFloat16,
                DType::Float64,
            ] {
                let acc = super::super::product_lanes(dtype).unwrap();
                for shared in [false, true] {
                    for (bias, format) in [(false, PACKED), (true, NATIVE)] {
                        validate(&source(format, pass, dtype, acc, shared, bias));
                    }
                }
            }
        }
    }
}
