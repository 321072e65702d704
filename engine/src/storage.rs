//! Storage: the memory behind one or more tensors (views share it), on one device, taken from that
//! device's allocator and given back when the last tensor using it is gone.
//!
//! The CPU backend keeps elements in a typed vector ([`CpuStorage`], one variant per dtype). A GPU
//! device backed by an adapter keeps them in a range of a real wgpu buffer ([`GpuBuffer`], the same
//! bytes); without an adapter GPU devices use host vectors, and the trace says so.

use std::cell::{Ref, RefCell, RefMut};

use half::{bf16, f16};

use std::rc::Rc;

use crate::backend::gpu::{GpuBuffer, GpuContext};
use crate::device::Device;
use crate::dtype::DType;
use crate::element::{Element, Scalar};
use crate::layout::Layout;
use crate::memory::BlockId;
use crate::session::{Allocated, Session};

/// Elements in host memory, one variant per dtype.
#[derive(Debug, Clone, PartialEq)]
pub enum CpuStorage {
    F32(Vec<f32>),
    F64(Vec<f64>),
    F16(Vec<f16>),
    BF16(Vec<bf16>),
    I64(Vec<i64>),
    I32(Vec<i32>),
    I16(Vec<i16>),
    I8(Vec<i8>),
    U8(Vec<u8>),
    Bool(Vec<bool>),
}

/// Runs `$body` with `$v` bound to the typed vector inside a [`CpuStorage`].
macro_rules! with_vec {
    ($storage:expr, $v:ident => $body:expr) => {
        match $storage {
            CpuStorage::F32($v) => $body,
            CpuStorage::F64($v) => $body,
            CpuStorage::F16($v) => $body,
            CpuStorage::BF16($v) => $body,
            CpuStorage::I64($v) => $body,
            CpuStorage::I32($v) => $body,
            CpuStorage::I16($v) => $body,
            CpuStorage::I8($v) => $body,
            CpuStorage::U8($v) => $body,
            CpuStorage::Bool($v) => $body,
        }
    };
}

/// Builds the [`CpuStorage`] variant of `$dtype` from an expression generic over `$t: Element`.
macro_rules! for_dtype {
    ($dtype:expr, $t:ident => $body:expr) => {
        match $dtype {
            DType::Float32 => {
                type $t = f32;
                CpuStorage::F32($body)
            }
            DType::Float64 => {
                type $t = f64;
                CpuStorage::F64($body)
            }
            DType::Float16 => {
                type $t = f16;
                CpuStorage::F16($body)
            }
            DType::BFloat16 => {
                type $t = bf16;
                CpuStorage::BF16($body)
            }
            DType::Int64 => {
                type $t = i64;
                CpuStorage::I64($body)
            }
            DType::Int32 => {
                type $t = i32;
                CpuStorage::I32($body)
            }
            DType::Int16 => {
                type $t = i16;
                CpuStorage::I16($body)
            }
            DType::Int8 => {
                type $t = i8;
                CpuStorage::I8($body)
            }
            DType::UInt8 => {
                type $t = u8;
                CpuStorage::U8($body)
            }
            DType::Bool => {
                type $t = bool;
                CpuStorage::Bool($body)
            }
        }
    };
}

impl CpuStorage {
    /// `n` elements of `value`, converted to `dtype`.
    pub fn filled(dtype: DType, n: usize, value: Scalar) -> CpuStorage {
        for_dtype!(dtype, T => vec![T::from_scalar(value); n])
    }

    /// Python numbers converted to `dtype`.
    pub fn from_scalars(dtype: DType, values: &[Scalar]) -> CpuStorage {
        for_dtype!(dtype, T => values.iter().map(|&v| T::from_scalar(v)).collect())
    }

    pub fn dtype(&self) -> DType {
        fn of<T: Element>(_: &[T]) -> DType {
            T::DTYPE
        }
        with_vec!(self, v => of(v))
    }

    pub fn len(&self) -> usize {
        with_vec!(self, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements as little-endian bytes (bool as one byte each): what checkpoints hold.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            CpuStorage::F32(v) => bytemuck::cast_slice(v).to_vec(),
            CpuStorage::F64(v) => bytemuck::cast_slice(v).to_vec(),
            CpuStorage::F16(v) => bytemuck::cast_slice(v).to_vec(),
            CpuStorage::BF16(v) => bytemuck::cast_slice(v).to_vec(),
            CpuStorage::I64(v) => bytemuck::cast_slice(v).to_vec(),
            CpuStorage::I32(v) => bytemuck::cast_slice(v).to_vec(),
            CpuStorage::I16(v) => bytemuck::cast_slice(v).to_vec(),
            CpuStorage::I8(v) => bytemuck::cast_slice(v).to_vec(),
            CpuStorage::U8(v) => v.clone(),
            CpuStorage::Bool(v) => v.iter().map(|&b| u8::from(b)).collect(),
        }
    }

    /// The inverse of [`CpuStorage::to_bytes`]; `None` when the length is not a whole number of
    /// `dtype` elements.
    pub fn from_bytes(dtype: DType, bytes: &[u8]) -> Option<CpuStorage> {
        if !bytes.len().is_multiple_of(dtype.size()) {
            return None;
        }
        Some(match dtype {
            DType::Float32 => CpuStorage::F32(bytemuck::pod_collect_to_vec(bytes)),
            DType::Float64 => CpuStorage::F64(bytemuck::pod_collect_to_vec(bytes)),
            DType::Float16 => CpuStorage::F16(bytemuck::pod_collect_to_vec(bytes)),
            DType::BFloat16 => CpuStorage::BF16(bytemuck::pod_collect_to_vec(bytes)),
            DType::Int64 => CpuStorage::I64(bytemuck::pod_collect_to_vec(bytes)),
            DType::Int32 => CpuStorage::I32(bytemuck::pod_collect_to_vec(bytes)),
            DType::Int16 => CpuStorage::I16(bytemuck::pod_collect_to_vec(bytes)),
            DType::Int8 => CpuStorage::I8(bytemuck::pod_collect_to_vec(bytes)),
            DType::UInt8 => CpuStorage::U8(bytes.to_vec()),
            DType::Bool => CpuStorage::Bool(bytes.iter().map(|&b| b != 0).collect()),
        })
    }

    /// The element at storage index `i`, as a Python number.
    pub fn get(&self, i: usize) -> Option<Scalar> {
        with_vec!(self, v => v.get(i).map(|x| x.to_scalar()))
    }

    /// The elements `layout` selects, in row-major order, converted to `dtype`: a contiguous copy
    /// (what `.contiguous()`, `.to(dtype)` and device copies produce).
    pub fn gather(&self, layout: &Layout, dtype: DType) -> CpuStorage {
        if dtype == self.dtype() && layout.is_contiguous() {
            let range = layout.offset..layout.offset + layout.numel();
            return with_vec!(self, v => for_dtype!(dtype, T => same_type::<_, T>(&v[range.clone()])));
        }
        with_vec!(self, src => for_dtype!(dtype, T => layout.indices().map(|i| cast::<_, T>(src[i])).collect()))
    }

    /// A copy of the elements `from` selects, converted to `dtype` and laid out as `to` (a dense
    /// layout at offset 0): element *k* of `from` lands where element *k* of `to` lives.
    pub fn copy_into_layout(&self, from: &Layout, dtype: DType, to: &Layout) -> CpuStorage {
        if to.is_contiguous() {
            return self.gather(from, dtype);
        }
        with_vec!(self, src => for_dtype!(dtype, T => {
            let mut out = vec![T::default(); to.numel()];
            for (s, d) in from.indices().zip(to.indices()) {
                out[d] = cast::<_, T>(src[s]);
            }
            out
        }))
    }

    /// Writes row-major `values` (converted to this storage's dtype) at the positions `layout`
    /// selects.
    pub fn scatter(&mut self, layout: &Layout, values: &CpuStorage) {
        let values = values.gather(&Layout::contiguous(&[values.len()]), self.dtype());
        fn put<T: Copy>(dst: &mut [T], src: &[T], layout: &Layout) {
            for (i, &v) in layout.indices().zip(src) {
                dst[i] = v;
            }
        }
        match (self, &values) {
            (CpuStorage::F32(d), CpuStorage::F32(s)) => put(d, s, layout),
            (CpuStorage::F64(d), CpuStorage::F64(s)) => put(d, s, layout),
            (CpuStorage::F16(d), CpuStorage::F16(s)) => put(d, s, layout),
            (CpuStorage::BF16(d), CpuStorage::BF16(s)) => put(d, s, layout),
            (CpuStorage::I64(d), CpuStorage::I64(s)) => put(d, s, layout),
            (CpuStorage::I32(d), CpuStorage::I32(s)) => put(d, s, layout),
            (CpuStorage::I16(d), CpuStorage::I16(s)) => put(d, s, layout),
            (CpuStorage::I8(d), CpuStorage::I8(s)) => put(d, s, layout),
            (CpuStorage::U8(d), CpuStorage::U8(s)) => put(d, s, layout),
            (CpuStorage::Bool(d), CpuStorage::Bool(s)) => put(d, s, layout),
            // `values` was converted to this storage's dtype above.
            _ => {}
        }
    }

    /// The elements `layout` selects, as Python numbers.
    pub fn scalars(&self, layout: &Layout) -> Vec<Scalar> {
        with_vec!(self, v => layout.indices().map(|i| v[i].to_scalar()).collect())
    }
}

/// Bytes read back from a GPU buffer, as elements of `dtype`.
pub(crate) fn host_elements(dtype: DType, bytes: &[u8]) -> Result<CpuStorage, crate::Error> {
    CpuStorage::from_bytes(dtype, bytes).ok_or_else(|| {
        crate::backend::gpu::GpuError::Readback {
            reason: format!("{} bytes are not whole {dtype} elements", bytes.len()),
        }
        .into()
    })
}

/// A slice copied into a vector of the same element type (`A` and `B` are one type here; the
/// conversion is the identity).
fn same_type<A: Element, B: Element>(slice: &[A]) -> Vec<B> {
    slice.iter().map(|&a| cast::<A, B>(a)).collect()
}

fn cast<A: Element, B: Element>(a: A) -> B {
    B::from_scalar(a.to_scalar())
}

/// What the host last read back of a GPU storage: valid until the storage is written again.
/// Shared with the session, which fills it when a browser's readback completes.
pub type Readback = Rc<RefCell<Option<CpuStorage>>>;

/// What a storage holds.
#[derive(Debug)]
pub enum StorageData {
    Cpu(CpuStorage),
    Gpu(GpuBuffer, Readback),
    /// `meta` tensors: shape and dtype only, no elements.
    Meta,
}

/// The memory of one or more tensors.
#[derive(Debug)]
pub struct Storage {
    session: Session,
    device: Device,
    dtype: DType,
    nbytes: u64,
    block: Option<BlockId>,
    address: u64,
    pinned: bool,
    data: RefCell<StorageData>,
}

impl Storage {
    /// Takes `contents` onto `device`, charging the device's allocator (which may fail with its
    /// out-of-memory error before any element exists). `None` leaves the elements to be written
    /// next (a kernel's output, a copy's destination).
    pub fn new(
        session: &Session,
        device: Device,
        dtype: DType,
        numel: usize,
        contents: impl FnOnce() -> Option<CpuStorage>,
        pinned: bool,
    ) -> Result<Storage, crate::Error> {
        let nbytes = (numel * dtype.size()) as u64;
        let (block, address, data) = match session.allocate(device, nbytes)? {
            None => (None, 0, StorageData::Meta),
            Some(Allocated {
                block,
                address,
                gpu: Some(buffer),
            }) => {
                // Values made on the host stay known there: reading them back (in the browser,
                // within the same call that made them) needs no readback.
                let known = match (session.gpu(device), contents()) {
                    (Some(gpu), Some(cpu)) => {
                        gpu.upload(&buffer, &cpu.to_bytes());
                        Some(cpu)
                    }
                    _ => None,
                };
                (
                    Some(block),
                    address,
                    StorageData::Gpu(buffer, Rc::new(RefCell::new(known))),
                )
            }
            Some(Allocated {
                block,
                address,
                gpu: None,
            }) => {
                let cpu =
                    contents().unwrap_or_else(|| CpuStorage::filled(dtype, 0, Scalar::Int(0)));
                (Some(block), address, StorageData::Cpu(cpu))
            }
        };
        Ok(Storage {
            session: session.clone(),
            device,
            dtype,
            nbytes,
            block,
            address,
            pinned,
            data: RefCell::new(data),
        })
    }

    pub fn device(&self) -> Device {
        self.device
    }

    pub fn dtype(&self) -> DType {
        self.dtype
    }

    pub fn nbytes(&self) -> u64 {
        self.nbytes
    }

    /// The simulated address of the first byte (what `data_ptr()` builds on).
    pub fn address(&self) -> u64 {
        self.address
    }

    pub fn is_pinned(&self) -> bool {
        self.pinned
    }

    pub fn data(&self) -> Ref<'_, StorageData> {
        self.data.borrow()
    }

    /// The elements, for writing. Version counters live on tensors (see `Tensor::version`).
    pub fn data_mut(&self) -> RefMut<'_, StorageData> {
        self.data.borrow_mut()
    }

    /// The buffer of a GPU storage, with the adapter it lives on.
    pub(crate) fn gpu(&self) -> Option<(&Rc<GpuContext>, GpuBuffer)> {
        match &*self.data.borrow() {
            StorageData::Gpu(buffer, _) => Some((self.session.gpu(self.device)?, buffer.clone())),
            _ => None,
        }
    }

    fn readback(&self) -> Option<Readback> {
        match &*self.data.borrow() {
            StorageData::Gpu(_, readback) => Some(Rc::clone(readback)),
            _ => None,
        }
    }

    /// Runs `f` on the elements in host memory. A GPU storage's bytes are read back first (the
    /// host waits for the device) and kept until the storage is written again. In the browser,
    /// where the host cannot wait, a read whose bytes are not back yet asks the session for the
    /// readback and fails with [`GpuError::WouldBlock`](crate::backend::gpu::GpuError).
    pub(crate) fn read<T>(&self, f: impl FnOnce(&CpuStorage) -> T) -> Result<T, crate::Error> {
        if let (Some((gpu, buffer)), Some(readback)) = (self.gpu(), self.readback()) {
            if let Some(cpu) = &*readback.borrow() {
                return Ok(f(cpu));
            }
            let bytes = match gpu.download(&buffer) {
                Err(crate::backend::gpu::GpuError::WouldBlock) => {
                    self.session.want_readback(buffer, self.dtype, readback);
                    return Err(crate::backend::gpu::GpuError::WouldBlock.into());
                }
                other => other?,
            };
            let cpu = host_elements(self.dtype, &bytes)?;
            let value = f(&cpu);
            *readback.borrow_mut() = Some(cpu);
            return Ok(value);
        }
        match &*self.data.borrow() {
            StorageData::Cpu(cpu) => Ok(f(cpu)),
            _ => Err(crate::Error::MetaHasNoData),
        }
    }

    /// Reads a GPU storage's bytes back into host memory, awaiting the GPU (in the browser the
    /// await is where the host waits); later reads use them until the storage is written.
    pub(crate) async fn fetch(&self) -> Result<(), crate::Error> {
        let (Some((gpu, buffer)), Some(readback)) = (self.gpu(), self.readback()) else {
            return Ok(());
        };
        if readback.borrow().is_some() {
            return Ok(());
        }
        let gpu = Rc::clone(gpu);
        self.session
            .read_back(&gpu, &buffer, self.dtype, &readback)
            .await
    }

    /// Forgets what the host read back: the GPU has written the storage since.
    pub(crate) fn written_on_gpu(&self) {
        if let Some(readback) = self.readback() {
            *readback.borrow_mut() = None;
        }
    }

    /// Replaces every element with `values` (of this storage's dtype and length). On a GPU the
    /// host keeps them too: it knows them without a readback.
    pub(crate) fn write(&self, values: CpuStorage) -> Result<(), crate::Error> {
        if let Some((gpu, buffer)) = self.gpu() {
            gpu.upload(&buffer, &values.to_bytes());
            if let Some(readback) = self.readback() {
                *readback.borrow_mut() = Some(values);
            }
            return Ok(());
        }
        match &mut *self.data.borrow_mut() {
            StorageData::Cpu(cpu) => {
                *cpu = values;
                Ok(())
            }
            _ => Err(crate::Error::MetaHasNoData),
        }
    }

    pub fn session(&self) -> &Session {
        &self.session
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        if let Some(block) = self.block {
            self.session.free(self.device, block);
        }
    }
}
