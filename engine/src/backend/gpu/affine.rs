//! The backend's first kernel, `y = a·x + b`, and the whole GPU round trip it takes:
//! upload, bind, dispatch, copy to a staging buffer, map, read back.

use wgpu::util::DeviceExt;

use super::grid::Grid;
use super::readback::read_buffer;
use super::{GpuContext, GpuError};

/// Must match `@workgroup_size` in `shaders/affine.wgsl`.
const WORKGROUP_SIZE: u32 = 64;

/// The uniform block of `affine.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    a: f32,
    b: f32,
    len: u32,
    row_stride: u32,
}

/// The compiled pipeline, built once per device.
pub(super) struct AffineKernel {
    pipeline: wgpu::ComputePipeline,
}

impl AffineKernel {
    pub fn new(device: &wgpu::Device) -> Self {
        let module = device.create_shader_module(wgpu::include_wgsl!("shaders/affine.wgsl"));
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("affine"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        Self { pipeline }
    }
}

impl GpuContext {
    /// Computes `a * x + b` for every element of `x` on the GPU and reads the result back.
    pub async fn affine(&self, x: &[f32], a: f32, b: f32) -> Result<Vec<f32>, GpuError> {
        if x.is_empty() {
            return Ok(Vec::new());
        }
        let bytes = std::mem::size_of_val(x) as u64;
        let limits = self.device.limits();
        let max_bytes = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        if bytes > max_bytes {
            return Err(GpuError::BufferTooLarge { bytes, max_bytes });
        }
        let len = x.len() as u64;
        let grid = Grid::cover(
            len,
            WORKGROUP_SIZE,
            limits.max_compute_workgroups_per_dimension,
        )?;
        let params = Params {
            a,
            b,
            len: u32::try_from(len).map_err(|_| GpuError::GridTooLarge { invocations: len })?,
            row_stride: grid.row_stride,
        };

        // 1. Upload: the input and the parameters go into GPU buffers.
        let input = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("affine x"),
                contents: bytemuck::cast_slice(x),
                usage: wgpu::BufferUsages::STORAGE,
            });
        let uniforms = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("affine params"),
                contents: bytemuck::bytes_of(&params),
                usage: wgpu::BufferUsages::UNIFORM,
            });
        // The kernel writes into a storage buffer the CPU cannot see; a second, mappable buffer
        // receives a copy of it.
        let output = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("affine y"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("affine readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });

        // 2. Bind: the buffers take the slots the shader declares.
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("affine bindings"),
            layout: &self.affine.pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniforms.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: input.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: output.as_entire_binding(),
                },
            ],
        });

        // 3. Dispatch and copy, recorded into one command buffer and queued without waiting.
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("affine"),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("affine"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.affine.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(grid.workgroups_x, grid.workgroups_y, 1);
        }
        encoder.copy_buffer_to_buffer(&output, 0, &staging, 0, bytes);
        self.queue.submit([encoder.finish()]);

        // 4. Sync point: wait for the GPU and read the staging buffer.
        let result = read_buffer(&self.device, &staging).await?;
        Ok(bytemuck::pod_collect_to_vec(&result))
    }
}
