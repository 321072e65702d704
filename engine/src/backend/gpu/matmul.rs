//! Batched matrix products (`mm`, `bmm`, `matmul`, `addmm`'s product) as a tiled kernel.
//!
//! Each 16×16 workgroup computes a 16×16 tile of one product: it walks the shared dimension in
//! 16-wide steps, staging a tile of each operand in shared memory so every element read from
//! the buffers serves 16 multiply-adds. Operands are strided views (a transposed weight is read
//! in place), unpacked from their dtype and multiplied in float32 (float64 where the adapter has
//! it); half-precision results are rounded once by the copy kernel.

use std::fmt::Write;

use wgpu::util::DeviceExt;

use super::elementwise::{PRELUDE_F64, convert, wgsl_type};
use super::format::Format;
use super::grid::Grid;
use super::{GpuBuffer, GpuContext, GpuError};
use crate::backend::cpu::elementwise::LaneKind;
use crate::dtype::DType;

/// The side of a tile, and of a workgroup.
const TILE: u32 = 16;

/// One operand: `batch × rows × cols` with these strides (a batch stride of 0 broadcasts).
#[derive(Debug, Clone, Copy)]
pub struct MatrixView<'a> {
    pub buffer: &'a GpuBuffer,
    pub offset: usize,
    pub strides: [usize; 3],
}

/// The shape of a batched product: `batch` products of `n×k` by `k×m`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Product {
    pub batch: usize,
    pub n: usize,
    pub k: usize,
    pub m: usize,
}

/// The lanes a product of `dtype` operands accumulates in; `None` for integers (CUDA has no
/// integer matmul either; the engine computes those on the host).
pub fn product_lanes(dtype: DType) -> Option<LaneKind> {
    match LaneKind::of(dtype) {
        kind @ (LaneKind::F32 | LaneKind::F64) => Some(kind),
        _ => None,
    }
}

/// `shared`: both operands are one storage (`a @ a`), bound once.
fn source(format: Format, dtype: DType, acc: LaneKind, shared: bool) -> String {
    let ty = wgsl_type(acc);
    let mut s = format.prelude();
    if acc == LaneKind::F64 {
        s.push_str(PRELUDE_F64);
    }
    let (raw_a, held) = format.load(dtype, "lhs");
    let (raw_b, _) = format.load(dtype, if shared { "lhs" } else { "rhs" });
    let zero = if acc == LaneKind::F64 {
        "f64(0.0)"
    } else {
        "0.0"
    };
    let _ = write!(
        s,
        r#"
@group(0) @binding(0) var<storage, read> dims: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<{out_type}>;
@group(0) @binding(2) var<storage, read_write> lhs: array<{in_type}>;
{rhs_binding}var<workgroup> tile_a: array<array<{ty}, {TILE}>, {TILE}>;
var<workgroup> tile_b: array<array<{ty}, {TILE}>, {TILE}>;

fn load_a(e: u32) -> {ty} {{ return {a}; }}
fn load_b(e: u32) -> {ty} {{ return {b}; }}

// dims: [n, k, m, a offset, a strides (batch, row, col), b offset, b strides]
@compute @workgroup_size({TILE}, {TILE})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {{
    let n = dims[0];
    let k = dims[1];
    let m = dims[2];
    let batch = wid.z;
    let row = wid.y * {TILE}u + lid.y;
    let col = wid.x * {TILE}u + lid.x;
    let a_base = dims[3] + batch * dims[4];
    let b_base = dims[7] + batch * dims[8];
    var acc: {ty} = {zero};
    for (var t = 0u; t < k; t += {TILE}u) {{
        let ak = t + lid.x;
        var a: {ty} = {zero};
        if row < n && ak < k {{
            a = load_a(a_base + row * dims[5] + ak * dims[6]);
        }}
        tile_a[lid.y][lid.x] = a;
        let bk = t + lid.y;
        var b: {ty} = {zero};
        if bk < k && col < m {{
            b = load_b(b_base + bk * dims[9] + col * dims[10]);
        }}
        tile_b[lid.y][lid.x] = b;
        workgroupBarrier();
        for (var i = 0u; i < {TILE}u; i++) {{
            acc += tile_a[lid.y][i] * tile_b[i][lid.x];
        }}
        workgroupBarrier();
    }}
    if row < n && col < m {{
        out[(batch * n + row) * m + col] = {store};
    }}
}}
"#,
        out_type = format.binding_type(acc.dtype()),
        in_type = format.binding_type(dtype),
        rhs_binding = if shared {
            String::new()
        } else {
            format!(
                "@group(0) @binding(3) var<storage, read_write> rhs: array<{}>;\n",
                format.binding_type(dtype)
            )
        },
        a = convert(&raw_a, held, acc),
        b = convert(&raw_b, held, acc),
        store = if acc == LaneKind::F32 {
            "bitcast<u32>(acc)"
        } else {
            "acc"
        },
    );
    s
}

impl GpuContext {
    /// Queues `product` of two `dtype` operands, writing row-major `batch × n × m` results in
    /// the accumulator's dtype (float32, or float64) into `out`.
    pub fn matmul(
        &self,
        dtype: DType,
        product: Product,
        a: MatrixView,
        b: MatrixView,
        out: &GpuBuffer,
    ) -> Result<(), GpuError> {
        let acc = product_lanes(dtype).ok_or_else(|| GpuError::Unsupported {
            what: format!("matmul of {dtype}"),
        })?;
        if acc == LaneKind::F64 && !self.report.shader_f64 {
            return Err(GpuError::Unsupported {
                what: "float64 matmul on this adapter".into(),
            });
        }
        let Product { batch, n, k, m } = product;
        if batch * n * m == 0 {
            return Ok(());
        }
        let limits = self.device.limits();
        let too_large = |v: u64| v > u64::from(limits.max_compute_workgroups_per_dimension);
        let (x, y) = (
            m.div_ceil(TILE as usize) as u64,
            n.div_ceil(TILE as usize) as u64,
        );
        if too_large(x) || too_large(y) || too_large(batch as u64) {
            return Err(GpuError::GridTooLarge {
                invocations: (batch * n * m) as u64,
            });
        }
        let narrow = |v: usize| {
            u32::try_from(v).map_err(|_| GpuError::GridTooLarge {
                invocations: v as u64,
            })
        };
        let mut dims = vec![narrow(n)?, narrow(k)?, narrow(m)?];
        for view in [a, b] {
            dims.push(narrow(view.offset)?);
            for s in view.strides {
                dims.push(narrow(s)?);
            }
        }
        let dims = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("matmul dims"),
                contents: bytemuck::cast_slice(&dims),
                usage: wgpu::BufferUsages::STORAGE,
            });
        let shared = a.buffer.same_binding(b.buffer);
        let key = format!("matmul {dtype:?} {acc:?} shared={shared}");
        let pipeline = self.pipeline(&key, || source(self.format(), dtype, acc, shared));
        let grid = Grid {
            workgroups_x: x as u32,
            workgroups_y: y as u32,
            row_stride: 0,
        };
        self.dispatch_3d(
            "matmul",
            &pipeline,
            &[
                dims.as_entire_binding(),
                out.binding(),
                a.buffer.binding(),
                b.buffer.binding(),
            ][..if shared { 3 } else { 4 }],
            grid,
            batch as u32,
        );
        Ok(())
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::super::elementwise::tests::{NATIVE, PACKED, validate};
    use super::*;

    #[test]
    fn the_matmul_kernel_of_every_float_dtype_is_valid_wgsl() {
        for dtype in [
            DType::Float32,
            DType::Float16,
            DType::BFloat16,
            DType::Float64,
        ] {
            let acc = product_lanes(dtype).unwrap();
            for shared in [false, true] {
                for format in [PACKED, NATIVE] {
                    validate(&source(format, dtype, acc, shared));
                }
            }
        }
    }
}
