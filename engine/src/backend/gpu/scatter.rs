//! Scatter-add: the gradient of a pick (`gather`, `index_select`, `t[idx]`, `embedding`). Each
//! value is added into the destination element its index picks. Several values can land on one
//! element, so the adds are atomic: a compare-and-swap loop on float32 bits, because WGSL has
//! atomic adds for integers only. As on CUDA, the order of the adds (and so the last bits of a
//! sum) may vary from run to run.

use std::fmt::Write;

use super::elementwise::{
    Operand, Pick, Signature, convert, input_bindings, operand_dims, pick_bindings, slots,
};
use super::format::Format;
use super::grid::Grid;
use super::{GpuBuffer, GpuContext, GpuError};
use crate::backend::cpu::elementwise::LaneKind;
use crate::dtype::DType;

const WORKGROUP_SIZE: u32 = 64;

/// The kernel adding float32 `values` through the pick of `index` into `out` (float32 bits).
fn source(format: Format, values: DType, index: DType, shared: bool) -> String {
    let mut s = format.prelude();
    let inputs: [Signature; 2] = [
        (values, LaneKind::F32, 0),
        (index, LaneKind::I64, usize::from(!shared)),
    ];
    let _ = writeln!(
        s,
        "@group(0) @binding(0) var<storage, read> dims: array<u32>;\n@group(0) @binding(1) var<storage, read_write> out: array<atomic<u32>>;"
    );
    let next = input_bindings(&mut s, format, &inputs);
    // Operand blocks: the values, the index, and the destination's strides (no binding).
    pick_bindings(&mut s, next, 3);
    for (i, &(dtype, kind, slot)) in inputs.iter().enumerate() {
        let (raw, held) = format.load(dtype, &format!("in{slot}"));
        let _ = writeln!(
            s,
            "fn load{i}(e: u32) -> {} {{ return {}; }}",
            super::elementwise::wgsl_type(kind),
            convert(&raw, held, kind)
        );
    }
    let _ = write!(
        s,
        r#"
fn add(at: u32, v: f32) {{
    var old = atomicLoad(&out[at]);
    loop {{
        let swapped = atomicCompareExchangeWeak(&out[at], old, bitcast<u32>(bitcast<f32>(old) + v));
        if swapped.exchanged {{
            break;
        }}
        old = swapped.old_value;
    }}
}}

@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {{
    let t = gid.y * dims[1] + gid.x;
    if t >= dims[0] {{
        return;
    }}
    let p = pick(load1(element_offset(t, 1u)));
    if p == SKIP {{
        return;
    }}
    add(element_offset(t, 2u) + p * pick_stride(), load0(element_offset(t, 0u)));
}}
"#
    );
    s
}

impl GpuContext {
    /// Queues the scatter-add of `values` (walked over `shape`, read as float32) into `out`, a
    /// float32 buffer the caller zeroed: element `k` goes to the destination position that
    /// `destination` strides give for `k`, plus `pick.stride` times what `index` picks there.
    pub fn scatter_add(
        &self,
        shape: &[usize],
        values: Operand,
        index: Operand,
        destination: &[usize],
        out: &GpuBuffer,
        pick: Pick,
    ) -> Result<(), GpuError> {
        if values.dtype == DType::Float64 {
            return Err(GpuError::Unsupported {
                what: "an atomic float64 add".into(),
            });
        }
        let numel: usize = shape.iter().product();
        if numel == 0 {
            return Ok(());
        }
        self.check_bindings([values.buffer, index.buffer, out])?;
        let shared = slots(&[values.buffer, index.buffer])[1] == 0;
        let key = format!("scatter_add {:?} {:?} {shared}", values.dtype, index.dtype);
        let pipeline = self.pipeline(&key, || {
            source(self.format(), values.dtype, index.dtype, shared)
        });
        let grid = Grid::cover(
            numel as u64,
            WORKGROUP_SIZE,
            self.device.limits().max_compute_workgroups_per_dimension,
        )?;
        let mut dims = operand_dims(
            shape,
            &[values.offset, index.offset, 0],
            &[&values.strides, &index.strides, destination],
            grid.row_stride,
        )?;
        dims.extend(pick.dims()?);
        let dims = self.dims(&dims);
        let mut bindings = vec![
            dims.as_entire_binding(),
            out.binding(),
            values.buffer.binding(),
        ];
        if !shared {
            bindings.push(index.buffer.binding());
        }
        bindings.push(pick.flag.binding());
        self.dispatch("scatter_add", &pipeline, &bindings, grid);
        Ok(())
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::super::elementwise::tests::{NATIVE, PACKED, validate};
    use super::*;

    #[test]
    fn scatter_add_kernels_of_every_float_and_index_dtype_pass_naga() {
        for values in [DType::Float32, DType::Float16, DType::BFloat16] {
            for index in [DType::Int64, DType::Int32] {
                for format in [PACKED, NATIVE] {
                    validate(&source(format, values, index, false));
                }
            }
        }
    }
}
