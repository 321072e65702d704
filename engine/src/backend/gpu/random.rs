//! Random tensors drawn on the GPU: Philox4x32-10 (`shaders/philox.wgsl`), keyed by the device
//! generator's seed, with a counter made of the element group and the generator's offset, which
//! every draw advances. As with CUDA, the values differ from the CPU generator's for the same seed;
//! they repeat after the same `manual_seed`.
//!
//! Each thread makes four values from one Philox call: uniform ones from a word's top 24 bits,
//! normal ones by Box–Muller from two words, Bernoulli ones by comparing a uniform value with `p`,
//! integers as a word (two for a range past 2^32) modulo the range.

use std::fmt::Write;

use super::elementwise::{Raw, convert, narrow, wgsl_type};
use super::format::Format;
use super::grid::Grid;
use super::{GpuBuffer, GpuContext, GpuError};
use crate::backend::cpu::elementwise::LaneKind;
use crate::dtype::DType;

const WORKGROUP_SIZE: u32 = 64;
const PHILOX: &str = include_str!("shaders/philox.wgsl");

/// What to draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Distribution {
    /// `rand`, `uniform_`: in `[from, to)`.
    Uniform { from: f32, to: f32 },
    /// `randn`, `normal_`.
    Normal { mean: f32, std: f32 },
    /// `bernoulli_(p)`: 1 with probability `p`.
    Bernoulli { p: f32 },
    /// `randint(low, high)`: in `[low, high)`.
    Randint { low: i64, high: i64 },
}

impl Distribution {
    fn lanes(self) -> LaneKind {
        match self {
            Distribution::Randint { .. } => LaneKind::I64,
            _ => LaneKind::F32,
        }
    }

    /// The value of element `j` of a thread's four, from the Philox words `r`, as a WGSL
    /// expression in [`Distribution::lanes`]; parameters come from `dims[6..]`.
    fn expression(self) -> &'static str {
        match self {
            Distribution::Uniform { .. } => "p0 + unit_interval(r[j]) * (p1 - p0)",
            Distribution::Normal { .. } => {
                // Pairs (0, 1) and (2, 3): the radius from the first word, the angle from the
                // second; the pair's first element takes the cosine, its second the sine.
                "p0 + p1 * sqrt(-2.0 * log(1.0 - unit_interval(r[j & 2u]))) * select(cos(6.2831855 * unit_interval(r[j | 1u])), sin(6.2831855 * unit_interval(r[j | 1u])), (j & 1u) == 1u)"
            }
            Distribution::Bernoulli { .. } => "select(0.0, 1.0, unit_interval(r[j]) < p0)",
            Distribution::Randint { .. } => {
                "i64_add(low, select(u64_divmod(vec2<u32>(r[j], r[j ^ 1u]), range)[1], vec2<u32>(r[j] % range.x, 0u), range.y == 0u))"
            }
        }
    }

    /// The parameters' words, after the generator's in `dims`.
    fn parameters(self) -> [u32; 4] {
        match self {
            Distribution::Uniform { from: a, to: b } | Distribution::Normal { mean: a, std: b } => {
                [a.to_bits(), b.to_bits(), 0, 0]
            }
            Distribution::Bernoulli { p } => [p.to_bits(), 0, 0, 0],
            Distribution::Randint { low, high } => {
                let range = high.wrapping_sub(low) as u64;
                [
                    low as u32,
                    (low >> 32) as u32,
                    range as u32,
                    (range >> 32) as u32,
                ]
            }
        }
    }

    /// The kernel's name in the trace.
    pub fn name(self) -> &'static str {
        match self {
            Distribution::Uniform { .. } => "uniform",
            Distribution::Normal { .. } => "normal",
            Distribution::Bernoulli { .. } => "bernoulli",
            Distribution::Randint { .. } => "randint",
        }
    }
}

/// The kernel drawing `distribution` into `dtype` elements; each thread writes its group of
/// four, which covers whole words of every packed dtype.
fn source(format: Format, distribution: Distribution, dtype: DType) -> String {
    let mut s = format.prelude();
    if dtype == DType::Float64 {
        s.push_str(super::elementwise::PRELUDE_F64);
    }
    s.push_str(PHILOX);
    let lanes = distribution.lanes();
    let stored = LaneKind::of(dtype);
    let _ = write!(
        s,
        r#"
@group(0) @binding(0) var<storage, read> dims: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<{binding}>;

// dims: [numel, row_stride, seed (2 words), offset (2 words), parameters (4 words)]
fn value(r: vec4<u32>, j: u32) -> {stored_type} {{
    let p0 = bitcast<f32>(dims[6]);
    let p1 = bitcast<f32>(dims[7]);
    let low = vec2<u32>(dims[6], dims[7]);
    let range = vec2<u32>(dims[8], dims[9]);
    let v: {lane_type} = {expression};
    return {converted};
}}

@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {{
    let n = dims[0];
    let g = gid.y * dims[1] + gid.x;
    if g * 4u >= n {{
        return;
    }}
    let r = philox(vec4<u32>(g, 0u, dims[4], dims[5]), vec2<u32>(dims[2], dims[3]));
"#,
        binding = format.binding_type(dtype),
        stored_type = wgsl_type(stored),
        lane_type = wgsl_type(lanes),
        expression = distribution.expression(),
        converted = convert("v", Raw::of(lanes), stored),
    );
    // The group's elements into whole binding elements: past `n` they fall in the tensor's
    // padding, which nothing else uses.
    match format.packing(dtype) {
        1 if dtype == DType::Int64 => s.push_str(
            "    for (var j = 0u; j < 4u && g * 4u + j < n; j++) {\n        let v = value(r, j);\n        out[2u * (g * 4u + j)] = v.x;\n        out[2u * (g * 4u + j) + 1u] = v.y;\n    }\n}\n",
        ),
        1 => {
            let _ = write!(
                s,
                "    for (var j = 0u; j < 4u && g * 4u + j < n; j++) {{\n        out[g * 4u + j] = {};\n    }}\n}}\n",
                format.stored(dtype, "value(r, j)")
            );
        }
        per => {
            let bits = 32 / per;
            let _ = write!(
                s,
                "    for (var w = 0u; w < {words}u && g * 4u + w * {per}u < n; w++) {{\n        var word = 0u;\n        for (var i = 0u; i < {per}u; i++) {{\n            word |= {} << (i * {bits}u);\n        }}\n        out[g * {words}u + w] = word;\n    }}\n}}\n",
                format.stored(dtype, &format!("value(r, w * {per}u + i)")),
                words = 4 / per,
            );
        }
    }
    s
}

impl GpuContext {
    /// Whether a random draw into `dtype` runs here (float64 draws are left to the host, whose
    /// generator has 53-bit doubles; WGSL's float64 has no `log` or `cos` either).
    pub fn can_draw(&self, dtype: DType) -> bool {
        dtype != DType::Float64
    }

    /// Queues a draw of `numel` values of `distribution` into `out` (`dtype` elements, from its
    /// start), keyed by `seed` at the generator's `offset`.
    pub fn random(
        &self,
        distribution: Distribution,
        (seed, offset): (u64, u64),
        dtype: DType,
        numel: usize,
        out: &GpuBuffer,
    ) -> Result<(), GpuError> {
        if !self.can_draw(dtype) {
            return Err(GpuError::Unsupported {
                what: format!("a random draw of {dtype}"),
            });
        }
        if numel == 0 {
            return Ok(());
        }
        self.check_bindings([out])?;
        let key = format!("random {} {dtype:?}", distribution.name());
        let pipeline = self.pipeline(&key, || source(self.format(), distribution, dtype));
        let groups = numel.div_ceil(4) as u64;
        let grid = Grid::cover(
            groups,
            WORKGROUP_SIZE,
            self.device.limits().max_compute_workgroups_per_dimension,
        )?;
        let mut dims = vec![
            narrow(numel)?,
            grid.row_stride,
            seed as u32,
            (seed >> 32) as u32,
            offset as u32,
            (offset >> 32) as u32,
        ];
        dims.extend(distribution.parameters());
        let dims = self.dims(&dims);
        self.dispatch(
            distribution.name(),
            &pipeline,
            &[dims.as_entire_binding(), out.binding()],
            grid,
        );
        Ok(())
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::super::elementwise::tests::{NATIVE, PACKED, validate};
    use super::*;

    #[test]
    fn every_distribution_into_every_drawn_dtype_generates_a_kernel_that_naga_accepts() {
        let distributions = [
            Distribution::Uniform { from: 0.0, to: 1.0 },
            Distribution::Normal {
                mean: 0.0,
                std: 1.0,
            },
            Distribution::Bernoulli { p: 0.5 },
            Distribution::Randint { low: 0, high: 10 },
        ];
        for distribution in distributions {
            for dtype in DType::ALL.into_iter().filter(|&d| d != DType::Float64) {
                for format in [PACKED, NATIVE] {
                    validate(&source(format, distribution, dtype));
                }
            }
        }
    }
}
