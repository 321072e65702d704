//! The engine's CPU-backend benchmark, run by `cargo xtask bench` next to numpy's: matmul GFLOP/s,
//! elementwise add GB/s, and the overhead of one small op. Prints one JSON object.
//!
//! Each figure is the median of several timed repetitions after a warm-up, so one noisy moment on a
//! shared machine does not decide it.

mod support;

use support::median_seconds;

use tolab_engine::{DType, Device, Session, Tensor};

fn random(session: &Session, shape: &[usize]) -> Tensor {
    Tensor::rand(session, shape, DType::Float32, Device::CPU)
        .expect("benchmark tensors fit in memory")
}

fn main() {
    let session = Session::default();
    let mut fields = Vec::new();
    for n in [64usize, 256, 1024] {
        let (a, b) = (random(&session, &[n, n]), random(&session, &[n, n]));
        let reps = if n >= 1024 { 5 } else { 20 };
        let seconds = median_seconds(reps, || {
            a.mm(&b).expect("matmul");
        });
        let gflops = 2.0 * (n as f64).powi(3) / seconds / 1e9;
        fields.push(format!("\"matmul_{n}_gflops\": {gflops:.3}"));
    }
    for n in [1usize << 20, 1 << 24] {
        let (a, b) = (random(&session, &[n]), random(&session, &[n]));
        let seconds = median_seconds(if n > 1 << 20 { 5 } else { 20 }, || {
            a.add(&b).expect("add");
        });
        // Two float32 inputs read, one written.
        let gbs = 3.0 * 4.0 * n as f64 / seconds / 1e9;
        fields.push(format!("\"add_{n}_gbs\": {gbs:.3}"));
    }
    let (a, b) = (random(&session, &[4]), random(&session, &[4]));
    let calls = 10_000;
    let seconds = median_seconds(5, || {
        for _ in 0..calls {
            a.add(&b).expect("add");
        }
    });
    fields.push(format!(
        "\"small_op_us\": {:.3}",
        seconds / calls as f64 * 1e6
    ));
    println!("{{{}}}", fields.join(", "));
}
