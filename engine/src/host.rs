//! Host arrays: what the lab's `numpy` needs from CPU tensors. A NumPy array lives in a CPU
//! tensor's storage, so that `torch.from_numpy(a)` and `t.numpy()` share memory as in PyTorch:
//! a write through one is seen through the other. These calls read and write a storage whole
//! (the array keeps its own strides, which may be negative) and make tensors over it without
//! recording kernels: NumPy's work is not PyTorch's, and the trace shows PyTorch's.

use std::rc::Rc;

use crate::autograd::AutogradMeta;
use crate::device::Device;
use crate::error::Error;
use crate::layout::Layout;
use crate::session::Session;
use crate::storage::{CpuStorage, Storage, StorageData};
use crate::tensor::Tensor;

impl Tensor {
    /// A CPU tensor of `shape` over `data` (row-major), taken from the CPU allocator.
    pub fn from_host(
        session: &Session,
        data: CpuStorage,
        shape: &[usize],
    ) -> Result<Tensor, Error> {
        if shape.iter().product::<usize>() != data.len() {
            return Err(Error::ShapeInvalidForSize {
                shape: shape.iter().map(|&d| d as i64).collect(),
                numel: data.len(),
            });
        }
        let dtype = data.dtype();
        let numel = data.len();
        let storage = Storage::new(session, Device::CPU, dtype, numel, || Some(data), false)?;
        Ok(Tensor::from_storage(
            Rc::new(storage),
            Layout::contiguous(shape),
            AutogradMeta::default(),
        ))
    }

    /// Runs `f` on this tensor's whole storage (every element, whatever the layout), on the host.
    pub fn read_storage<T>(&self, f: impl FnOnce(&CpuStorage) -> T) -> Result<T, Error> {
        self.session()
            .sync(self.device(), "the values were read on the host")?;
        self.storage().read(f)
    }

    /// Runs `f` on this CPU tensor's whole storage to change it in place (an in-place op: the
    /// version counter moves). Only CPU storage can be written this way.
    pub fn write_storage<T>(&self, f: impl FnOnce(&mut CpuStorage) -> T) -> Result<T, Error> {
        let out = match &mut *self.storage().data_mut() {
            StorageData::Cpu(cpu) => f(cpu),
            _ => return Err(Error::MetaHasNoData),
        };
        self.bump_version();
        Ok(out)
    }

    /// The number of elements of this tensor's storage.
    pub fn storage_len(&self) -> usize {
        (self.storage().nbytes() / self.element_size().max(1) as u64) as usize
    }

    /// Whether two tensors use the same storage (`np.shares_memory` on arrays over it).
    pub fn shares_storage(&self, other: &Tensor) -> bool {
        Rc::ptr_eq(self.storage(), other.storage())
    }

    /// A tensor over this one's storage with another layout (`as_strided`), cut from the graph
    /// and sharing the version counter: how `torch.from_numpy` sees an array's memory.
    pub fn strided_view(
        &self,
        shape: &[usize],
        strides: &[usize],
        offset: usize,
    ) -> Result<Tensor, Error> {
        let len = self.storage_len();
        let last = shape
            .iter()
            .zip(strides)
            .map(|(&n, &s)| n.saturating_sub(1) * s)
            .sum::<usize>()
            + offset;
        if shape.len() != strides.len() || (shape.iter().all(|&n| n > 0) && last >= len) {
            return Err(Error::ShapeInvalidForSize {
                shape: shape.iter().map(|&d| d as i64).collect(),
                numel: len,
            });
        }
        Ok(self.detach().relaid(Layout {
            shape: shape.to_vec(),
            strides: strides.to_vec(),
            offset,
        }))
    }
}
