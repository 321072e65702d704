//! The GPU backend in a real browser on WebGPU (headless Chromium's SwiftShader in CI, which has
//! no `shader-f16` and, like every browser, no float64), run by `wasm-bindgen-test-runner`: ops,
//! a `.to("cuda")` round trip and a backward pass on GPU buffers, checked against the CPU backend.
//! A browser cannot block on a readback, so reads go through the runtime's pattern: a read that
//! fails with `WouldBlock` awaits the session's readbacks and runs again.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use tolab_engine::backend::gpu::GpuContext;
use tolab_engine::trace::{Backend, EventKind};
use tolab_engine::{DType, Device, Error, Scalar, Session, SessionConfig, Tensor, TensorIndex, To};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

async fn webgpu_session() -> Session {
    let gpu = GpuContext::new()
        .await
        .expect("WebGPU (Chromium needs --enable-unsafe-webgpu)");
    let session = Session::with_gpu(SessionConfig::default(), Rc::new(gpu));
    session.set_tracing(true);
    session
}

/// The elements, awaiting the readback where the read could not wait.
async fn values(t: &Tensor) -> Vec<f64> {
    settled(t.session(), || t.scalars())
        .await
        .into_iter()
        .map(Scalar::as_f64)
        .collect()
}

/// `call`'s value once the readbacks it waits for are back.
async fn settled<T>(session: &Session, mut call: impl FnMut() -> Result<T, Error>) -> T {
    loop {
        match call() {
            Err(e) if e.is_would_block() => session.complete_readbacks().await.unwrap(),
            outcome => return outcome.unwrap(),
        }
    }
}

fn tensor(
    session: &Session,
    values: &[f64],
    shape: &[usize],
    dtype: DType,
    device: &str,
) -> Tensor {
    let scalars: Vec<Scalar> = values.iter().map(|&v| Scalar::Float(v)).collect();
    Tensor::from_scalars(session, &scalars, shape, Some(dtype), Device::CPU, false)
        .and_then(|t| t.to(To::device(device)))
        .unwrap()
}

async fn assert_close(case: &str, cpu: &Tensor, gpu: &Tensor, bound: f64) {
    assert_eq!(cpu.shape(), gpu.shape(), "{case}");
    assert_eq!(cpu.dtype(), gpu.dtype(), "{case}");
    let (c, g) = (values(cpu).await, values(gpu).await);
    for (i, (x, y)) in c.iter().zip(&g).enumerate() {
        assert!(
            (x - y).abs() <= bound * x.abs().max(y.abs()).max(1.0),
            "{case}: element {i}: CPU {x}, GPU {y}"
        );
    }
}

#[wasm_bindgen_test]
async fn the_adapter_is_webgpu_without_float64() {
    let gpu = GpuContext::new().await.expect("WebGPU");
    let report = gpu.report();
    assert_eq!(report.backend, "WebGPU");
    // The browser names its adapter through GPUAdapterInfo, which wgpu alone does not pass on.
    assert!(
        !report.vendor.is_empty() || !report.architecture.is_empty(),
        "{report:?}"
    );
    assert!(!report.shader_f64, "WGSL in browsers has no f64");
}

#[wasm_bindgen_test]
async fn ops_on_webgpu_match_the_cpu_backend_and_run_as_gpu_kernels() {
    let cpu = Session::default();
    let gpu = webgpu_session().await;
    let a: Vec<f64> = (0..24).map(|i| f64::from(i) * 0.37 - 4.0).collect();
    let b: Vec<f64> = (0..6).map(|i| f64::from(i) * -0.5 + 1.25).collect();
    for dtype in [
        DType::Float32,
        DType::Float16,
        DType::BFloat16,
        DType::Int64,
        DType::Int32,
    ] {
        let bound = match dtype {
            DType::Float16 => 2e-3,
            DType::BFloat16 => 1.6e-2,
            DType::Float32 => 1e-5,
            _ => 0.0,
        };
        let run = |s: &Session, device: &str| -> Vec<Tensor> {
            let x = tensor(s, &a, &[4, 6], dtype, device);
            let y = tensor(s, &b, &[6], dtype, device);
            let xt = x.t().unwrap();
            vec![
                x.add(&y).unwrap(),
                x.mul(&y).unwrap(),
                x.maximum(&y.expand(&[4, 6]).unwrap()).unwrap(),
                x.compare(tolab_engine::backend::cpu::elementwise::Binary::Gt, &y)
                    .unwrap(),
                xt.contiguous().unwrap(),
                x.sum(&[1], false).unwrap(),
                x.to(To::dtype(DType::Float32)).unwrap().relu().unwrap(),
            ]
        };
        let (on_cpu, on_gpu) = (run(&cpu, "cpu"), run(&gpu, "cuda"));
        for (i, (c, g)) in on_cpu.iter().zip(&on_gpu).enumerate() {
            assert_close(&format!("{dtype} op {i}"), c, g, bound).await;
        }
    }
    let (x_cpu, x_gpu) = (
        tensor(&cpu, &a, &[4, 6], DType::Float32, "cpu"),
        tensor(&gpu, &a, &[4, 6], DType::Float32, "cuda"),
    );
    let (w_cpu, w_gpu) = (
        tensor(&cpu, &a, &[6, 4], DType::Float32, "cpu"),
        tensor(&gpu, &a, &[6, 4], DType::Float32, "cuda"),
    );
    assert_close(
        "mm",
        &x_cpu.mm(&w_cpu).unwrap(),
        &x_gpu.mm(&w_gpu).unwrap(),
        1e-5,
    )
    .await;
    assert_close("exp", &x_cpu.exp().unwrap(), &x_gpu.exp().unwrap(), 1e-4).await;
    let kernels: Vec<(String, Backend)> = gpu
        .take_trace()
        .into_iter()
        .filter(|e| e.device != Some(Device::CPU))
        .filter_map(|e| match e.kind {
            EventKind::Kernel { op, backend } => Some((op, backend)),
            _ => None,
        })
        .collect();
    assert!(kernels.len() > 30, "{kernels:?}");
    let on_host: Vec<_> = kernels.iter().filter(|(_, b)| *b != Backend::Gpu).collect();
    assert!(on_host.is_empty(), "{on_host:?}");
}

#[wasm_bindgen_test]
async fn a_round_trip_through_cuda_keeps_every_value() {
    let gpu = webgpu_session().await;
    let values_in: Vec<f64> = (0..1000).map(|i| f64::from(i) - 500.0).collect();
    for dtype in [
        DType::Float32,
        DType::Float16,
        DType::Int64,
        DType::UInt8,
        DType::Bool,
    ] {
        let host = tensor(&gpu, &values_in, &[1000], dtype, "cpu");
        let back = host
            .to(To::device("cuda:1"))
            .and_then(|t| t.to(To::device("cuda:0")))
            .unwrap();
        // The copy to the CPU reads GPU memory: in the browser it awaits the readback.
        let back = settled(&gpu, || back.to(To::device("cpu"))).await;
        assert_eq!(back.device(), Device::CPU);
        assert_eq!(back.scalars().unwrap(), host.scalars().unwrap(), "{dtype}");
    }
}

#[wasm_bindgen_test]
async fn a_backward_pass_through_webgpu_ops_gives_the_cpu_gradients() {
    let cpu = Session::default();
    let gpu = webgpu_session().await;
    let x: Vec<f64> = (0..15).map(|i| f64::from(i) * 0.1 - 0.7).collect();
    let w: Vec<f64> = (0..15).map(|i| f64::from(i % 4) * 0.3 - 0.4).collect();
    let grads = |s: &Session, device: &str| {
        let leaf = |v: &[f64], shape: &[usize]| {
            let t = tensor(s, v, shape, DType::Float32, device);
            t.set_requires_grad(true).unwrap();
            t
        };
        let (x, w) = (leaf(&x, &[3, 5]), leaf(&w, &[5, 3]));
        let loss = x
            .mm(&w)
            .and_then(|y| y.tanh())
            .and_then(|y| y.mul(&y))
            .and_then(|y| y.mean(&[], false))
            .unwrap();
        loss.backward(None, false).unwrap();
        (loss, x.grad().unwrap(), w.grad().unwrap())
    };
    let (cpu_loss, cpu_x, cpu_w) = grads(&cpu, "cpu");
    let (gpu_loss, gpu_x, gpu_w) = grads(&gpu, "cuda");
    assert_eq!(gpu_x.device(), Device::cuda(0));
    assert_close("loss", &cpu_loss, &gpu_loss, 1e-5).await;
    assert_close("x.grad", &cpu_x, &gpu_x, 1e-5).await;
    assert_close("w.grad", &cpu_w, &gpu_w, 1e-5).await;
}

#[wasm_bindgen_test]
async fn float64_on_an_adapter_without_it_is_computed_on_the_host_and_says_so() {
    let cpu = Session::default();
    let gpu = webgpu_session().await;
    let a: Vec<f64> = (0..6).map(|i| f64::from(i) * 0.1 + 1e-9).collect();
    let x_cpu = tensor(&cpu, &a, &[2, 3], DType::Float64, "cpu");
    let x_gpu = tensor(&gpu, &a, &[2, 3], DType::Float64, "cuda");
    gpu.take_trace();
    // Computed on the host, the ops read GPU memory: each awaits its readback and runs again.
    let squared = settled(&gpu, || x_gpu.mul(&x_gpu)).await;
    let y_gpu = settled(&gpu, || squared.exp()).await;
    let y_cpu = x_cpu.mul(&x_cpu).and_then(|y| y.exp()).unwrap();
    assert_eq!(y_gpu.dtype(), DType::Float64);
    assert_close("float64", &y_cpu, &y_gpu, 1e-15).await;
    let backends: Vec<Backend> = gpu
        .take_trace()
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::Kernel { backend, .. } => Some(backend),
            _ => None,
        })
        .collect();
    assert!(!backends.is_empty());
    assert!(
        backends.iter().all(|&b| b == Backend::HostFloat64),
        "{backends:?}"
    );
}

#[wasm_bindgen_test]
async fn picks_convolutions_and_sequences_run_as_webgpu_kernels() {
    use tolab_engine::nn::functional::{self, Reduction};
    use tolab_engine::ops::Conv2dParams;
    let cpu = Session::default();
    let gpu = webgpu_session().await;
    let a: Vec<f64> = (0..48).map(|i| f64::from(i % 11) * 0.21 - 1.0).collect();
    let run = |s: &Session, device: &str| -> Vec<Tensor> {
        let x = tensor(s, &a, &[2, 2, 3, 4], DType::Float32, device);
        x.set_requires_grad(true).unwrap();
        let w = tensor(s, &a[..18], &[3, 2, 1, 3], DType::Float32, device);
        let params = Conv2dParams {
            stride: [1, 2],
            padding: [1, 1],
            padding_extra: [0, 0],
            dilation: [1, 1],
            groups: 1,
        };
        let index =
            |values: &[f64], shape: &[usize]| tensor(s, values, shape, DType::Int64, device);
        let rows = x.reshape(&[8, 6]).unwrap();
        let picked = rows
            .index(&[TensorIndex::Tensor(index(&[7.0, -1.0, 2.0, 2.0], &[4]))])
            .unwrap();
        let gathered = rows
            .gather(
                1,
                &index(&[5.0, 0.0, 5.0, 1.0, 2.0, 3.0, 4.0, 0.0], &[8, 1]),
            )
            .unwrap();
        let half = rows.to(To::dtype(DType::Float16)).unwrap();
        let selected = half
            .index_select(0, &index(&[3.0, 3.0, 0.0], &[3]))
            .unwrap();
        let conv = x.conv2d(&w, None, params).unwrap();
        let logits = rows.slice(1, Some(0), Some(4), 1).unwrap();
        let loss = functional::cross_entropy(
            &logits,
            &index(&[3.0, 0.0, 1.0, 2.0, 0.0, 3.0, 1.0, 1.0], &[8]),
            Reduction::Mean,
            -100,
        )
        .unwrap();
        let total = picked
            .sum(&[], false)
            .and_then(|p| p.add(&gathered.sum(&[], false)?))
            .and_then(|p| p.add(&conv.mul(&conv)?.sum(&[], false)?))
            .and_then(|p| p.add(&loss))
            .unwrap();
        total.backward(None, false).unwrap();
        vec![
            picked,
            gathered,
            selected,
            conv,
            loss,
            x.grad().unwrap(),
            Tensor::arange(
                s,
                Scalar::Float(0.5),
                Scalar::Float(4.0),
                Scalar::Float(0.25),
                None,
                Device::parse(device).unwrap(),
            )
            .unwrap(),
            Tensor::linspace(
                s,
                -1.0,
                2.0,
                7,
                DType::Float16,
                Device::parse(device).unwrap(),
            )
            .unwrap(),
            Tensor::eye(s, 3, Some(4), DType::Bool, Device::parse(device).unwrap()).unwrap(),
        ]
    };
    let (on_cpu, on_gpu) = (run(&cpu, "cpu"), run(&gpu, "cuda"));
    for (i, (c, g)) in on_cpu.iter().zip(&on_gpu).enumerate() {
        assert_close(&format!("result {i}"), c, g, 2e-3).await;
    }
    let on_host: Vec<(String, Backend)> = gpu
        .take_trace()
        .into_iter()
        .filter(|e| e.device != Some(Device::CPU))
        .filter_map(|e| match e.kind {
            EventKind::Kernel { op, backend } if backend != Backend::Gpu && op != "tensor" => {
                Some((op, backend))
            }
            _ => None,
        })
        .collect();
    assert!(on_host.is_empty(), "{on_host:?}");
}

#[wasm_bindgen_test]
async fn a_bad_index_fires_a_device_side_assert_that_the_next_sync_awaits_and_raises() {
    let gpu = webgpu_session().await;
    let data = tensor(&gpu, &[1.0; 6], &[3, 2], DType::Float32, "cuda");
    let bad = tensor(&gpu, &[0.0, 7.0], &[2], DType::Int64, "cuda");
    let picked = data
        .index_select(0, &bad)
        .expect("the kernel is only queued");
    // The first read asks for the assert flag's readback; once it is back the assert is raised.
    let first = picked.repr().unwrap_err();
    assert!(first.is_would_block(), "{first}");
    gpu.complete_readbacks().await.unwrap();
    let error = picked.repr().unwrap_err();
    assert!(matches!(error, Error::DeviceSideAssert), "{error}");
}
