//! The GPU backend's adapter on a real machine (natively: Mesa's lavapipe on the CI machines).
#![cfg(not(target_arch = "wasm32"))]

use tolab_engine::backend::gpu::GpuContext;

fn open() -> GpuContext {
    pollster::block_on(GpuContext::new())
        .expect("a GPU adapter (install mesa-vulkan-drivers for lavapipe)")
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
