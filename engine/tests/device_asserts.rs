//! Device-side asserts: a GPU kernel given a bad index (a class target, a `gather` or
//! `index_select` index, `t[idx]`) does not fail at the call. The error surfaces at the next sync
//! point with CUDA's text (c10/cuda/CUDAException.cpp), and the device refuses all work after it;
//! `CUDA_LAUNCH_BLOCKING=1` moves the error to the call. On the CPU the same calls fail at once
//! with PyTorch's CPU messages.

use tolab_engine::nn::functional::{self, Reduction};
use tolab_engine::trace::EventKind;
use tolab_engine::{DType, Device, Error, Scalar, Session, Tensor, TensorIndex, To};

const ASSERT_TEXT: &str = "CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n";

fn targets(session: &Session, values: &[i64], device: Device) -> Tensor {
    let scalars: Vec<Scalar> = values.iter().map(|&v| Scalar::Int(v)).collect();
    Tensor::from_scalars(session, &scalars, &[values.len()], None, device, false).unwrap()
}

fn logits(session: &Session, device: Device) -> Tensor {
    let t = Tensor::zeros(session, &[2, 3], DType::Float32, device).unwrap();
    t.set_requires_grad(true).unwrap();
    t
}

#[test]
fn on_the_cpu_a_bad_target_fails_at_the_call() {
    let session = Session::default();
    let error = functional::cross_entropy(
        &logits(&session, Device::CPU),
        &targets(&session, &[0, 5], Device::CPU),
        Reduction::Mean,
        -100,
    )
    .unwrap_err();
    assert_eq!(error.to_string(), "Target 5 is out of bounds.");
    assert_eq!(error.python_type().name(), "IndexError");
}

#[test]
fn on_a_gpu_the_error_waits_for_the_next_sync_point_then_the_device_is_unusable() {
    let session = Session::default();
    session.set_tracing(true);
    let gpu = Device::cuda(0);
    let loss = functional::cross_entropy(
        &logits(&session, gpu),
        &targets(&session, &[0, 5], gpu),
        Reduction::Mean,
        -100,
    )
    .expect("the kernel is only queued");
    loss.backward(None, false)
        .expect("backward queues more work");
    let more = loss.mul(Scalar::Int(2)).expect("still no sync");

    let error = more.item().unwrap_err();
    assert!(matches!(error, Error::DeviceSideAssert));
    assert_eq!(error.to_string(), ASSERT_TEXT);
    let trace = session.take_trace();
    let assert_at = trace
        .iter()
        .position(|e| matches!(&e.kind, EventKind::DeviceAssert { message } if message.contains("t >= 0 && t < n_classes")))
        .expect("the kernel's assertion is in the trace");
    let sync_at = trace
        .iter()
        .position(|e| matches!(e.kind, EventKind::Sync { .. }))
        .expect("item() is a sync point");
    assert!(assert_at < sync_at);

    // Everything on that GPU fails from now on; the other GPU and the CPU still work.
    let fresh = Tensor::zeros(&session, &[2], DType::Float32, gpu);
    assert_eq!(fresh.unwrap_err().to_string(), ASSERT_TEXT);
    assert!(loss.to(To::device("cpu")).is_err());
    assert!(Tensor::zeros(&session, &[2], DType::Float32, Device::cuda(1)).is_ok());
    assert!(Tensor::zeros(&session, &[2], DType::Float32, Device::CPU).is_ok());

    // Resetting the runtime (a new session) gives a working GPU again.
    let reset = Session::default();
    assert!(Tensor::zeros(&reset, &[2], DType::Float32, gpu).is_ok());
}

/// A guarded call on `(data, index)`.
type Guarded = fn(&Tensor, &Tensor) -> Result<Tensor, Error>;

/// Each guarded call with an index of 7 into 3 rows, and its CPU message.
const CALLS: [(&str, Guarded); 3] = [
    (
        "index 7 is out of bounds for dimension 0 with size 3",
        |data, bad| data.gather(0, &bad.view(&[2, 1])?),
    ),
    ("index out of range in self", |data, bad| {
        data.index_select(0, bad)
    }),
    (
        "index 7 is out of bounds for dimension 0 with size 3",
        |data, bad| data.index(&[TensorIndex::Tensor(bad.clone())]),
    ),
];

#[test]
fn gather_index_select_and_indexing_assert_on_the_gpu_and_raise_on_the_cpu() {
    for (cpu_text, call) in CALLS {
        for device in [Device::CPU, Device::cuda(0)] {
            let session = Session::default();
            let data = Tensor::ones(&session, &[3, 2], DType::Float32, device).unwrap();
            let bad = targets(&session, &[0, 7], device);
            if device.is_cpu() {
                assert_eq!(call(&data, &bad).unwrap_err().to_string(), cpu_text);
            } else {
                let queued = call(&data, &bad).expect("queued on the GPU");
                assert_eq!(queued.repr().unwrap_err().to_string(), ASSERT_TEXT);
            }
        }
    }
}

#[test]
fn cuda_launch_blocking_raises_the_assert_at_its_call() {
    let session = Session::default();
    session.set_env("CUDA_LAUNCH_BLOCKING", Some("1"));
    let gpu = Device::cuda(0);
    let error = functional::nll_loss(
        &logits(&session, gpu),
        &targets(&session, &[-1, 0], gpu),
        Reduction::Mean,
        -100,
    )
    .unwrap_err();
    assert_eq!(error.to_string(), ASSERT_TEXT);
}
