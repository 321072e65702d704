//! The message contract: requests and replies keep their JSON shape (the desktop app and the web
//! worker depend on it), and the runtime answers with what really backs the GPU devices.

use tolab_cells::{AdapterReport, BackendReport, Reply, Request, Runtime};

fn swiftshader() -> AdapterReport {
    AdapterReport {
        name: String::new(),
        vendor: "google".into(),
        architecture: "swiftshader".into(),
        backend: "WebGPU".into(),
        device_type: "Cpu".into(),
        is_fallback: true,
        driver: String::new(),
        shader_f16: false,
        shader_f64: false,
        max_storage_buffer_binding_size: 134_217_728,
        max_buffer_size: 268_435_456,
    }
}

#[test]
fn messages_keep_their_json_shape() {
    assert_eq!(
        serde_json::to_string(&Request::DescribeBackend).unwrap(),
        r#"{"type":"describe_backend"}"#
    );
    let reply = Reply::Backend(BackendReport::CpuEmulated {
        reason: "this browser has no WebGPU".into(),
    });
    let json = serde_json::to_string(&reply).unwrap();
    assert_eq!(
        json,
        r#"{"type":"backend","kind":"cpu_emulated","reason":"this browser has no WebGPU"}"#
    );
    assert_eq!(serde_json::from_str::<Reply>(&json).unwrap(), reply);

    let gpu = Reply::Backend(BackendReport::Gpu {
        adapter: swiftshader(),
    });
    let back: Reply = serde_json::from_str(&serde_json::to_string(&gpu).unwrap()).unwrap();
    assert_eq!(back, gpu);
}

#[test]
fn headlines_name_the_adapter_or_say_plainly_that_the_cpu_stands_in() {
    assert_eq!(
        BackendReport::Gpu {
            adapter: swiftshader()
        }
        .headline(),
        "GPU: google swiftshader (WebGPU, fallback adapter)"
    );
    assert_eq!(
        BackendReport::CpuEmulated {
            reason: "this browser has no WebGPU".into()
        }
        .headline(),
        "emulated on the CPU: this browser has no WebGPU"
    );
}

#[test]
fn the_runtime_reports_the_native_gpu_adapter() {
    let mut runtime = Runtime::new();
    let Reply::Backend(report) = pollster::block_on(runtime.handle(Request::DescribeBackend));
    match report {
        BackendReport::Gpu { adapter } => assert_ne!(adapter.backend, "WebGPU"),
        BackendReport::CpuEmulated { reason } => {
            panic!("expected lavapipe or another adapter: {reason}")
        }
    }
}
