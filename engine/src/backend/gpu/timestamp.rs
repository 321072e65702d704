//! GPU timestamps: what `torch.cuda.Event(enable_timing=True).record()` marks. The timestamp is
//! written by the GPU when its queue reaches it (an empty compute pass with a timestamp write,
//! recorded among the kernels), so the time between two events is GPU time, not the host's
//! time to launch the work between them.

use std::rc::Rc;

use super::{GpuBuffer, GpuContext, GpuError};
use crate::storage::Readback;

/// One recorded timestamp, resolved into a small buffer that a readback brings home.
#[derive(Debug)]
pub struct Timestamp {
    pub(crate) resolved: GpuBuffer,
    /// The ticks once read back (in the browser, by an awaited readback).
    pub(crate) ticks: Readback,
}

impl GpuContext {
    /// Whether this adapter writes timestamps (`timestamp-query`).
    pub fn has_timestamps(&self) -> bool {
        self.device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    /// Records a timestamp after the kernels queued so far; `None` where the adapter has no
    /// timestamp queries.
    pub fn timestamp(&self) -> Option<Timestamp> {
        if !self.has_timestamps() {
            return None;
        }
        let queries = self.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("event"),
            ty: wgpu::QueryType::Timestamp,
            count: 1,
        });
        let resolved = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("event"),
            size: 8,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        self.record(|encoder| {
            drop(encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("event"),
                timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                    query_set: &queries,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: None,
                }),
            }));
            encoder.resolve_query_set(&queries, 0..1, &resolved, 0);
        });
        Some(Timestamp {
            resolved: GpuBuffer::whole(Rc::new(resolved), 8),
            ticks: Readback::default(),
        })
    }

    /// The GPU clock's reading at `timestamp`: a sync point, as the GPU must have reached it
    /// (in the browser, [`GpuError::WouldBlock`] until a readback brought it home).
    pub fn ticks(&self, timestamp: &Timestamp) -> Result<u64, GpuError> {
        let fetched = timestamp.ticks.borrow().as_ref().and_then(|t| t.get(0));
        if let Some(crate::element::Scalar::Int(ticks)) = fetched {
            return Ok(ticks as u64);
        }
        let bytes = self.download(&timestamp.resolved)?;
        let word = bytes.get(..8).and_then(|w| w.try_into().ok());
        Ok(word.map_or(0, u64::from_le_bytes))
    }

    /// Nanoseconds per tick of the GPU's clock.
    pub fn tick_ns(&self) -> f64 {
        f64::from(self.queue.get_timestamp_period())
    }
}
