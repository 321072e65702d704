//! The bridge with torch: `t.numpy()` and `np.asarray(t)` see the tensor's memory,
//! `torch.from_numpy(a)` and `torch.as_tensor(a)` see the array's, `torch.tensor(a)` copies;
//! with PyTorch's checks and messages (a tensor that requires grad, negative strides).

use tolab_engine::Tensor;

use super::array::{NdArray, Result};
use crate::python::exception::{ExcType, PyException};

const NEGATIVE_STRIDES: &str = "At least one stride in the given numpy array is negative, and tensors with negative strides are not currently supported. (You can probably work around this by making a copy of your array  with array.copy().) ";

/// `t.numpy()`: the array over the tensor's memory, after PyTorch's checks.
pub fn tensor_array(t: &Tensor) -> Result<NdArray> {
    t.numpy()?;
    NdArray::over_tensor(t)
}

/// `torch.from_numpy(a)`: a tensor over the array's memory.
pub fn from_numpy(a: &NdArray) -> Result<Tensor> {
    if a.strides.iter().any(|&s| s < 0) {
        return Err(PyException::new(ExcType::ValueError, NEGATIVE_STRIDES));
    }
    let strides: Vec<usize> = a.strides.iter().map(|&s| s as usize).collect();
    Ok(a.base.strided_view(&a.shape, &strides, a.offset)?)
}

/// `torch.tensor(a)`: a copy (the same checks as `from_numpy`).
pub fn copied(a: &NdArray) -> Result<Tensor> {
    let view = from_numpy(a)?;
    Ok(view.clone_tensor()?)
}
