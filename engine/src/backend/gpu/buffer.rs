//! Device memory: the wgpu buffers behind GPU storages.
//!
//! The memory model's caching allocator decides where every block lives, exactly as it does for
//! PyTorch's `memory_reserved` bookkeeping. Each of its segments is one real wgpu buffer, made when
//! the allocator reserves the segment and dropped when the allocator releases it (`empty_cache`,
//! a retry before out-of-memory). A storage is a block: a byte range of its segment's buffer.
//!
//! Elements are laid out in the buffer byte for byte as the CPU backend lays them out in host
//! memory (f16 and bf16 two bytes each, bool and uint8 one, int64 as two little-endian 32-bit
//! words), so host↔device copies are plain byte copies and kernels unpack what they read.

use std::collections::HashMap;
use std::rc::Rc;

use super::{GpuContext, GpuError, poll_ready};

/// Buffers are read and written in 4-byte words: every copy and binding is rounded up to one.
const WORD: u64 = 4;

/// `len` bytes rounded up to whole words, and to at least the largest element a kernel binds
/// (int64 and float64: 8 bytes).
pub(super) fn padded(len: u64) -> u64 {
    len.next_multiple_of(WORD).max(2 * WORD)
}

/// One storage's bytes on the GPU.
#[derive(Debug, Clone)]
pub struct GpuBuffer {
    segment: Rc<wgpu::Buffer>,
    offset: u64,
    len: u64,
}

impl GpuBuffer {
    /// All of `buffer`, holding `len` bytes.
    pub(super) fn whole(buffer: Rc<wgpu::Buffer>, len: u64) -> GpuBuffer {
        GpuBuffer {
            segment: buffer,
            offset: 0,
            len,
        }
    }

    /// `len` bytes of this buffer's segment from byte `offset` of the segment.
    pub(super) fn part(&self, offset: u64, len: u64) -> GpuBuffer {
        GpuBuffer {
            segment: Rc::clone(&self.segment),
            offset,
            len,
        }
    }

    /// The bytes the elements take.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes a copy or binding covers: whole words, at least one 8-byte element (the
    /// allocator's blocks are 512-byte multiples, so the padding is inside the block).
    pub(super) fn padded_len(&self) -> u64 {
        padded(self.len)
    }

    pub(super) fn binding(&self) -> wgpu::BindingResource<'_> {
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.segment,
            offset: self.offset,
            size: wgpu::BufferSize::new(self.padded_len()),
        })
    }

    /// Whether `other` is bound as the same range of the same buffer (one storage).
    pub(super) fn same_binding(&self, other: &GpuBuffer) -> bool {
        Rc::ptr_eq(&self.segment, &other.segment) && self.offset == other.offset
    }

    pub(super) fn segment(&self) -> &wgpu::Buffer {
        &self.segment
    }

    pub(super) fn offset(&self) -> u64 {
        self.offset
    }
}

/// The real buffers of one device's segments, keyed by the segment's base address.
#[derive(Debug, Default)]
pub struct SegmentBuffers(HashMap<u64, Rc<wgpu::Buffer>>);

impl SegmentBuffers {
    /// The block `offset..offset + len` of the segment at `base`; `new_segment` is the segment's
    /// size when the allocator has just reserved it (its buffer is made now), else 0.
    pub fn block(
        &mut self,
        gpu: &GpuContext,
        base: u64,
        new_segment: u64,
        offset: u64,
        len: u64,
    ) -> Result<GpuBuffer, GpuError> {
        if new_segment > 0 || !self.0.contains_key(&base) {
            let size = new_segment.max(offset + padded(len));
            let buffer = gpu.create_segment(size)?;
            self.0.insert(base, Rc::new(buffer));
        }
        let segment = self
            .0
            .get(&base)
            .cloned()
            .ok_or(GpuError::OutOfMemory { bytes: len })?;
        Ok(GpuBuffer {
            segment,
            offset,
            len,
        })
    }

    /// Drops the buffers of segments the allocator no longer reserves.
    pub fn retain(&mut self, reserved: impl Iterator<Item = u64>) {
        let reserved: std::collections::HashSet<u64> = reserved.collect();
        self.0.retain(|base, _| reserved.contains(base));
    }

    /// The bytes of real GPU buffers held: what `memory_reserved` reports, checked by tests.
    pub fn bytes(&self) -> u64 {
        self.0.values().map(|b| b.size()).sum()
    }
}

impl GpuContext {
    /// A segment's buffer. wgpu reports a failed allocation through an error scope, which becomes
    /// the lab's out-of-memory error instead of a crash.
    fn create_segment(&self, size: u64) -> Result<wgpu::Buffer, GpuError> {
        let max = self.device.limits().max_buffer_size;
        if size > max {
            return Err(GpuError::BufferTooLarge {
                bytes: size,
                max_bytes: max,
            });
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("segment"),
            size,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        match poll_ready(scope.pop()) {
            Some(Some(_)) => Err(GpuError::OutOfMemory { bytes: size }),
            _ => Ok(buffer),
        }
    }

    /// Whether a kernel can bind `bytes` of a buffer (`max_storage_buffer_binding_size`).
    pub fn binds(&self, bytes: u64) -> bool {
        padded(bytes) <= self.max_binding()
    }

    /// Host → device: queued, so it lands before any kernel submitted after it.
    pub fn upload(&self, to: &GpuBuffer, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let mut padded = bytes.to_vec();
        padded.resize(to.padded_len() as usize, 0);
        self.flush();
        self.queue.write_buffer(to.segment(), to.offset(), &padded);
    }

    /// Device → host without waiting: natively the wait blocks in `Device::poll`; a browser
    /// cannot block, so there this fails with [`GpuError::WouldBlock`] (await
    /// [`GpuContext::download_async`] instead).
    pub fn download(&self, from: &GpuBuffer) -> Result<Vec<u8>, GpuError> {
        if !self.readbacks_block.get() {
            return Err(GpuError::WouldBlock);
        }
        poll_ready(self.download_async(from)).ok_or(GpuError::WouldBlock)?
    }

    /// Device → host: a sync point. The bytes go through a mappable staging buffer; the host
    /// waits for everything queued before them (in the browser, the future resolves when
    /// `mapAsync` does).
    pub async fn download_async(&self, from: &GpuBuffer) -> Result<Vec<u8>, GpuError> {
        if from.is_empty() {
            return Ok(Vec::new());
        }
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: from.padded_len(),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.flush();
        let mut encoder = self.encoder("readback");
        encoder.copy_buffer_to_buffer(
            from.segment(),
            from.offset(),
            &staging,
            0,
            from.padded_len(),
        );
        self.queue.submit([encoder.finish()]);
        let mut bytes = super::readback::read_buffer(&self.device, &staging).await?;
        bytes.truncate(from.len() as usize);
        self.check_errors()?;
        Ok(bytes)
    }

    /// Waits for every queued submission (`torch.cuda.synchronize()` and the other sync
    /// points); returns how long the host waited, in microseconds.
    pub fn wait(&self) -> Result<u64, GpuError> {
        self.flush();
        let start = super::clock::now_us();
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Readback {
                reason: e.to_string(),
            })?;
        let waited = super::clock::now_us() - start;
        self.check_errors()?;
        Ok(waited.max(0.0) as u64)
    }

    pub(super) fn encoder(&self, label: &str) -> wgpu::CommandEncoder {
        self.device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) })
    }
}
