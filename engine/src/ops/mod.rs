//! Operations on tensors, with PyTorch's semantics on top of the backends: device checks (one
//! device per op; 0-dim CPU tensors may join any), type promotion, broadcasting, and the autograd
//! node each op records.

mod addmm;
mod binary;
mod conv;
mod create;
mod einsum;
mod elementwise;
pub(crate) mod gpu;
mod index;
pub(crate) mod indexing;
pub(crate) mod inplace;
mod linalg;
mod matmul;
mod norm;
mod pointwise;
mod products;
pub mod random;
mod reduce;
mod reductions;
mod scan;
mod scatter;
mod search;
mod shape;
mod softmax;
mod sort;
mod unary;

pub use addmm::AddProduct;
pub use binary::Rounding;
pub use conv::Conv2dParams;
pub use elementwise::Operand;
pub(crate) use elementwise::{record_gpu_kernel, record_kernel, reduce_grad};
pub use index::TensorIndex;
pub use norm::MatrixOrder;
pub use scatter::{ScatterReduce, Source};
pub use search::{SearchSorted, Unique};

use crate::device::{Device, DeviceType};
use crate::error::Error;
use crate::tensor::Tensor;

/// The device an op runs on: the first operand's that is not a 0-dim CPU tensor. Any other
/// device is PyTorch's error, naming the two devices in argument order.
/// The device check of an op whose CUDA kernel compares its tensor arguments one by one, in
/// order (`device_check: ExactSame` in `native_functions.yaml`; `method` is the kernel wrapper
/// torchgen names, `wrapper_CUDA_mm`, `wrapper_CUDA__index_select`): the first argument's device
/// is the common one. Arguments not given (`None`) are skipped. Without a CUDA tensor among them
/// the op runs where TensorIterator's check words it.
pub(crate) fn check_arguments(
    method: &'static str,
    args: &[(&'static str, Option<&Tensor>)],
) -> Result<Device, Error> {
    let given: Vec<(&'static str, &Tensor)> = args
        .iter()
        .filter_map(|&(n, t)| t.map(|t| (n, t)))
        .collect();
    if !given
        .iter()
        .any(|(_, t)| t.device().kind == DeviceType::Cuda)
    {
        let tensors: Vec<&Tensor> = given.iter().map(|&(_, t)| t).collect();
        return common_device(&tensors);
    }
    let common = given[0].1.device();
    for &(argument, t) in &given[1..] {
        if t.device() != common {
            return Err(Error::DeviceMismatchArgument {
                common,
                device: t.device(),
                argument,
                method,
            });
        }
    }
    Ok(common)
}

pub(crate) fn common_device(tensors: &[&Tensor]) -> Result<Device, Error> {
    let is_cpu_scalar = |t: &Tensor| t.device().is_cpu() && t.dim() == 0;
    let mut common: Option<Device> = None;
    for t in tensors {
        if is_cpu_scalar(t) {
            continue;
        }
        match common {
            None => common = Some(t.device()),
            Some(d) if d != t.device() => {
                return Err(Error::DeviceMismatch {
                    first: d,
                    second: t.device(),
                });
            }
            Some(_) => {}
        }
    }
    Ok(common
        .or_else(|| tensors.first().map(|t| t.device()))
        .unwrap_or(Device::CPU))
}
