//! The GPU backend's round trip in a real browser on WebGPU (headless Chromium's SwiftShader in CI),
//! run by `wasm-bindgen-test-runner`.
#![cfg(target_arch = "wasm32")]

use tolab_engine::backend::gpu::GpuContext;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn affine_kernel_runs_on_webgpu_and_reads_back() {
    let gpu = GpuContext::new()
        .await
        .expect("WebGPU (Chromium needs --enable-unsafe-webgpu)");
    let report = gpu.report();
    assert_eq!(report.backend, "WebGPU");
    // The browser names its adapter through GPUAdapterInfo, which wgpu alone does not pass on.
    assert!(
        !report.vendor.is_empty() || !report.architecture.is_empty(),
        "{report:?}"
    );
    assert!(!report.shader_f64, "WGSL in browsers has no f64");

    let x: Vec<f32> = (0..1_000).map(|i| i as f32 - 500.0).collect();
    let y = gpu.affine(&x, 2.0, 1.0).await.unwrap();
    let expected: Vec<f32> = x.iter().map(|v| 2.0 * v + 1.0).collect();
    assert_eq!(y, expected);
}
