//! Readbacks: the sync point where GPU results come home.
//!
//! A readback maps a `MAP_READ` staging buffer. The mapping completes through a callback; this
//! module turns that callback into a future. In the browser the callback fires from the event loop
//! (so awaiting keeps the page responsive); natively `Device::poll` drives it to completion first.

use super::GpuError;

/// Maps `staging` for reading, waits for the GPU to finish the work that fills it, and returns its
/// bytes. The buffer is unmapped again before this returns.
pub(super) async fn read_buffer(
    device: &wgpu::Device,
    staging: &wgpu::Buffer,
) -> Result<Vec<u8>, GpuError> {
    let (done, mapped) = futures_channel::oneshot::channel();
    let slice = staging.slice(..);
    slice.map_async(wgpu::MapMode::Read, move |result| {
        // The receiver only goes away if the caller's future was dropped; nothing is waiting then.
        let _ = done.send(result);
    });
    // Natively this blocks until the submission is done and the callback has run; in the
    // browser it does nothing and the callback arrives from the event loop.
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| GpuError::Readback {
            reason: e.to_string(),
        })?;
    mapped
        .await
        .map_err(|_| GpuError::Readback {
            reason: "the device was lost before the mapping completed".into(),
        })?
        .map_err(|e| GpuError::Readback {
            reason: e.to_string(),
        })?;
    let bytes = slice
        .get_mapped_range()
        .map_err(|e| GpuError::Readback {
            reason: e.to_string(),
        })?
        .to_vec();
    staging.unmap();
    Ok(bytes)
}
