//! The GPU backend's round trip on a real adapter (natively: Mesa's lavapipe on the CI machines).
#![cfg(not(target_arch = "wasm32"))]

use tolab_engine::backend::gpu::GpuContext;

fn open() -> GpuContext {
    pollster::block_on(GpuContext::new())
        .expect("a GPU adapter (install mesa-vulkan-drivers for lavapipe)")
}

#[test]
fn affine_kernel_computes_on_the_gpu_and_reads_back() {
    let gpu = open();
    // Not a multiple of the workgroup size: the kernel must guard its tail.
    let x: Vec<f32> = (0..1_000).map(|i| i as f32 * 0.5 - 100.0).collect();
    let y = pollster::block_on(gpu.affine(&x, 3.0, 0.25)).unwrap();
    let expected: Vec<f32> = x.iter().map(|v| 3.0 * v + 0.25).collect();
    assert_eq!(y, expected);
}

#[test]
fn arrays_past_one_grid_row_are_computed_everywhere() {
    let gpu = open();
    // 65,535 workgroups × 64 threads is one grid row; go past it so the kernel runs on a 2-D grid.
    let n = 65_535 * 64 + 1_000;
    let x: Vec<f32> = (0..n).map(|i| (i % 1_024) as f32).collect();
    let y = pollster::block_on(gpu.affine(&x, -1.0, 2.0)).unwrap();
    assert_eq!(y.len(), n);
    let wrong = y.iter().zip(&x).filter(|&(y, x)| *y != 2.0 - x).count();
    assert_eq!(wrong, 0);
}

#[test]
fn empty_input_needs_no_dispatch() {
    let gpu = open();
    assert_eq!(
        pollster::block_on(gpu.affine(&[], 2.0, 1.0)).unwrap(),
        Vec::<f32>::new()
    );
}

#[test]
fn report_names_a_native_backend_and_its_features() {
    let gpu = open();
    let report = gpu.report();
    assert!(
        ["Vulkan", "Metal", "Dx12", "Gl"].contains(&report.backend.as_str()),
        "{report:?}"
    );
    assert!(!report.name.is_empty(), "{report:?}");
    assert!(
        report.max_storage_buffer_binding_size >= 128 << 20,
        "{report:?}"
    );
    assert!(report.summary().contains(&report.backend));
}
