//! The wgpu backend's benchmark, run by `cargo xtask bench` beside the CPU backend's figures:
//! matmul GFLOP/s, elementwise add GB/s, host→device and device→host copy GB/s, and what one sync
//! costs. Every timed run ends in a sync, so the GPU's work is inside the time. Prints the
//! adapter on the first line and one JSON object on the second; exits with 2 when there is no
//! adapter.

#[cfg(not(target_arch = "wasm32"))]
mod support;

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    native::main();
}

/// Benchmarks run natively only.
#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::rc::Rc;

    use super::support::median_seconds;
    use tolab_engine::backend::gpu::GpuContext;
    use tolab_engine::{DType, Device, Session, SessionConfig, Tensor, To};

    pub fn main() {
        let gpu = match pollster::block_on(GpuContext::new()) {
            Ok(gpu) => gpu,
            Err(e) => {
                eprintln!("gpu_bench: {e}");
                std::process::exit(2);
            }
        };
        let report = gpu.report().clone();
        println!(
            "{} ({}, {})",
            report.name, report.backend, report.device_type
        );
        let config = SessionConfig {
            gpu_capacity: 8 << 30,
            ..SessionConfig::default()
        };
        let session = Session::with_gpu(config, Rc::new(gpu));
        let sync = || session.synchronize(None).expect("synchronize");
        let on_gpu = |shape: &[usize]| {
            Tensor::rand(&session, shape, DType::Float32, Device::CPU)
                .and_then(|t| t.to(To::device("cuda")))
                .expect("benchmark tensors fit on the GPU")
        };
        let mut fields = Vec::new();
        for n in [256usize, 1024] {
            let (a, b) = (on_gpu(&[n, n]), on_gpu(&[n, n]));
            let seconds = median_seconds(5, || {
                a.mm(&b).expect("matmul");
                sync();
            });
            let gflops = 2.0 * (n as f64).powi(3) / seconds / 1e9;
            fields.push(format!("\"matmul_{n}_gflops\": {gflops:.3}"));
        }
        let n = 1usize << 24;
        let (a, b) = (on_gpu(&[n]), on_gpu(&[n]));
        let seconds = median_seconds(5, || {
            a.add(&b).expect("add");
            sync();
        });
        fields.push(format!(
            "\"add_{n}_gbs\": {:.3}",
            3.0 * 4.0 * n as f64 / seconds / 1e9
        ));
        let host = Tensor::rand(&session, &[n], DType::Float32, Device::CPU).expect("host tensor");
        let seconds = median_seconds(5, || {
            host.to(To::device("cuda")).expect("host to device");
            sync();
        });
        fields.push(format!(
            "\"h2d_gbs\": {:.3}",
            4.0 * n as f64 / seconds / 1e9
        ));
        let seconds = median_seconds(5, || {
            a.to(To::device("cpu")).expect("device to host");
        });
        fields.push(format!(
            "\"d2h_gbs\": {:.3}",
            4.0 * n as f64 / seconds / 1e9
        ));
        let calls = 200;
        let seconds = median_seconds(5, || {
            for _ in 0..calls {
                sync();
            }
        });
        fields.push(format!("\"sync_us\": {:.3}", seconds / calls as f64 * 1e6));
        let (x, y) = (on_gpu(&[4]), on_gpu(&[4]));
        let seconds = median_seconds(5, || {
            for _ in 0..calls {
                x.add(&y).expect("add");
            }
            sync();
        });
        fields.push(format!(
            "\"small_op_us\": {:.3}",
            seconds / calls as f64 * 1e6
        ));
        println!("{{{}}}", fields.join(", "));
    }
}
