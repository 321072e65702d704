//! The seven-step transfer end to end: identity rules, devices, the device guard, autograd,
//! metadata, memory and the errors each step can raise. CUDA-only behaviour follows PyTorch's
//! source (aten/src/ATen/native/TensorConversions.cpp: `to_will_alias`, `ensure_has_index`,
//! `_to_copy`; c10/core/DeviceGuard.h) and documentation.

use tolab_engine::trace::{Backend, EventKind, TransferStep};
use tolab_engine::{DType, Device, Error, Scalar, Session, SessionConfig, Target, Tensor, To};

fn floats(session: &Session, values: &[f64], shape: &[usize]) -> Tensor {
    let values: Vec<Scalar> = values.iter().map(|&v| Scalar::Float(v)).collect();
    Tensor::from_scalars(session, &values, shape, None, Device::CPU, false).unwrap()
}

fn leaf(session: &Session, values: &[f64]) -> Tensor {
    let values: Vec<Scalar> = values.iter().map(|&v| Scalar::Float(v)).collect();
    Tensor::from_scalars(session, &values, &[values.len()], None, Device::CPU, true).unwrap()
}

fn steps(session: &Session) -> Vec<(TransferStep, bool, String)> {
    session
        .take_trace()
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::TransferStep {
                step, ok, detail, ..
            } => Some((step, ok, detail)),
            _ => None,
        })
        .collect()
}

#[test]
fn to_returns_the_same_tensor_when_nothing_changes_and_a_copy_when_asked() {
    let session = Session::default();
    let x = floats(&session, &[1.0, 2.0], &[2]);
    assert!(x.to(To::device("cpu")).unwrap().is(&x));
    assert!(x.to(To::device("cpu:0")).unwrap().is(&x));
    assert!(x.to(To::dtype(DType::Float32)).unwrap().is(&x));
    let copy = x
        .to(To {
            device: Some(Target::Text("cpu".into())),
            copy: true,
            ..To::default()
        })
        .unwrap();
    assert!(!copy.is(&x));
    assert_ne!(copy.data_ptr(), x.data_ptr());
    assert_eq!(copy.scalars().unwrap(), x.scalars().unwrap());
}

#[test]
fn a_move_runs_all_seven_steps_and_leaves_the_source_intact() {
    let session = Session::default();
    let x = floats(&session, &[1.0, 2.5], &[2]);
    session.set_tracing(true);
    let y = x.to(To::device("cuda")).unwrap();
    let trace = session.take_trace();

    assert_eq!(y.device(), Device::cuda(0));
    assert_eq!(x.device(), Device::CPU);
    assert_eq!(y.scalars().unwrap(), x.scalars().unwrap());
    assert_eq!(
        y.repr().unwrap(),
        "tensor([1.0000, 2.5000], device='cuda:0')"
    );

    let recorded: Vec<TransferStep> = trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TransferStep { step, ok: true, .. } => Some(*step),
            _ => None,
        })
        .collect();
    assert_eq!(recorded, TransferStep::ALL);
    let alloc = trace
        .iter()
        .find(|e| matches!(e.kind, EventKind::Alloc { .. }))
        .unwrap();
    assert_eq!(alloc.device, Some(Device::cuda(0)));
    assert!(matches!(
        alloc.kind,
        EventKind::Alloc {
            bytes: 8,
            block_size: 512,
            new_segment: 2_097_152,
            ..
        }
    ));
    // No GPU backend ran this copy: the trace says the CPU stood in.
    assert!(trace.iter().any(|e| matches!(
        e.kind,
        EventKind::Copy {
            backend: Backend::CpuStandIn,
            bytes: 8,
            ..
        }
    )));
}

#[test]
fn the_device_guard_restores_the_current_device() {
    let session = Session::default();
    let x = floats(&session, &[1.0], &[1]);
    assert_eq!(session.current_device().unwrap(), 0);
    session.set_tracing(true);
    let y = x.to(To::device("cuda:1")).unwrap();
    assert_eq!(y.device(), Device::cuda(1));
    assert_eq!(
        session.current_device().unwrap(),
        0,
        "`.to(\"cuda:1\")` does not change the current device"
    );
    let (step, ok, detail) = steps(&session).pop().unwrap();
    assert_eq!((step, ok), (TransferStep::DeviceGuard, true));
    assert_eq!(
        detail,
        "cuda:1 made current for the copy (synchronous), then cuda:0 restored as the current device"
    );
}

#[test]
fn cuda_without_an_index_means_the_current_device() {
    let session = Session::default();
    let x = floats(&session, &[1.0], &[1]);
    session.set_device(1).unwrap();
    let y = x.to(To::device("cuda")).unwrap();
    assert_eq!(y.device(), Device::cuda(1));
    assert!(
        y.to(To::device("cuda")).unwrap().is(&y),
        "already on the current device"
    );
    session.set_device(0).unwrap();
    let z = y.to(To::device("cuda")).unwrap();
    assert_eq!(
        z.device(),
        Device::cuda(0),
        "now `cuda` is cuda:0, so it moves"
    );
}

#[test]
fn gradients_flow_through_to_copy_backward() {
    let session = Session::default();
    let a = leaf(&session, &[1.0, 2.0, 3.0]);
    let b = a.to(To::device("cuda")).unwrap();
    assert!(a.is_leaf() && a.requires_grad());
    assert!(!b.is_leaf() && b.requires_grad());
    let grad_fn = b.grad_fn().unwrap();
    assert_eq!(grad_fn.name(), "ToCopyBackward0");
    let next = grad_fn.next_functions()[0].clone().unwrap();
    assert_eq!(next.name(), "AccumulateGrad");
    assert!(next.variable().unwrap().is(&a));
    assert_eq!(
        b.repr().unwrap(),
        "tensor([1., 2., 3.], device='cuda:0', grad_fn=<ToCopyBackward0>)"
    );
    // The same leaf keeps one AccumulateGrad node while a graph holds it.
    let c = a.to(To::device("cuda:1")).unwrap();
    assert!(
        c.grad_fn().unwrap().next_functions()[0]
            .clone()
            .unwrap()
            .is(&next)
    );
}

#[test]
fn no_grad_and_integer_targets_cut_the_graph() {
    let session = Session::default();
    let a = leaf(&session, &[1.5]);
    let previous = session.set_grad_enabled(false);
    let b = a.to(To::device("cuda")).unwrap();
    session.set_grad_enabled(previous);
    assert!(b.grad_fn().is_none() && !b.requires_grad() && b.is_leaf());
    let c = a.to(To::dtype(DType::Int64)).unwrap();
    assert!(c.grad_fn().is_none() && !c.requires_grad());
    assert_eq!(c.repr().unwrap(), "tensor([1])");
}

#[test]
fn a_failing_step_stops_the_pipeline_and_names_itself() {
    let session = Session::default();
    let x = floats(&session, &[1.0], &[1]);
    session.set_tracing(true);

    let cases: [(&str, TransferStep, &str); 3] = [
        (
            "gpu",
            TransferStep::ParseDevice,
            "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: gpu",
        ),
        (
            " cuda:0",
            TransferStep::ParseDevice,
            "Invalid device string: ' cuda:0'",
        ),
        (
            "cuda:2",
            TransferStep::CheckCompatibility,
            "CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at any other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n",
        ),
    ];
    for (device, failing, text) in cases {
        let error = x.to(To::device(device)).unwrap_err();
        assert!(
            matches!(&error, Error::Transfer { step, .. } if *step == failing),
            "{device}: {error:?}"
        );
        assert_eq!(error.to_string(), text);
        assert_eq!(error.python_type().name(), "RuntimeError");
        let recorded = steps(&session);
        assert_eq!(
            recorded.last().map(|(s, ok, _)| (*s, *ok)),
            Some((failing, false)),
            "{device}"
        );
        assert_eq!(
            recorded.len(),
            failing.number() as usize,
            "{device}: no step after the failing one"
        );
    }

    let double = floats(&session, &[1.0], &[1])
        .to(To::dtype(DType::Float64))
        .unwrap();
    let error = double.to(To::device("mps")).unwrap_err();
    assert_eq!(error.python_type().name(), "TypeError");
    assert_eq!(
        error.to_string(),
        "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead."
    );
}

#[test]
fn out_of_memory_fails_in_the_allocation_step_with_pytorchs_text() {
    let session = Session::new(SessionConfig {
        gpu_capacity: 4 << 20,
        ..SessionConfig::default()
    });
    let big = Tensor::full(
        &session,
        &[1 << 20],
        Scalar::Float(0.0),
        DType::Float32,
        Device::CPU,
    )
    .unwrap();
    let error = big.to(To::device("cuda")).unwrap_err();
    assert!(matches!(
        error,
        Error::Transfer {
            step: TransferStep::Allocate,
            ..
        }
    ));
    assert_eq!(error.python_type().name(), "torch.OutOfMemoryError");
    assert_eq!(
        error.to_string(),
        "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 4.00 MiB of which 4.00 MiB is free. \
         Including non-PyTorch memory, this process has 0 bytes memory in use. Of the allocated memory 0 bytes is allocated by PyTorch, \
         and 0 bytes is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting \
         PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  \
         (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"
    );
}

#[test]
fn dense_layouts_keep_their_strides_and_others_become_contiguous() {
    let session = Session::default();
    let x = floats(&session, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]);
    let t = x.t().unwrap();
    let moved = t.to(To::device("cuda")).unwrap();
    assert_eq!((moved.shape(), moved.stride()), (&[3, 2][..], &[1, 3][..]));
    assert_eq!(moved.scalars().unwrap(), t.scalars().unwrap());
    let expanded = floats(&session, &[1.0, 2.0], &[2]).expand(&[3, 2]).unwrap();
    let moved = expanded.to(To::device("cuda")).unwrap();
    assert_eq!(moved.stride(), &[2, 1]);
    assert!(moved.is_contiguous());
}

#[test]
fn freed_gpu_memory_stays_cached_until_empty_cache() {
    let session = Session::default();
    let x = floats(&session, &[1.0; 4], &[4]);
    let gpu = Device::cuda(0);
    let y = x.to(To::device("cuda")).unwrap();
    let first_address = y.data_ptr();
    assert_eq!(
        (
            session.memory_stats(gpu).allocated,
            session.memory_stats(gpu).reserved
        ),
        (512, 2 << 20)
    );
    drop(y);
    assert_eq!(
        (
            session.memory_stats(gpu).allocated,
            session.memory_stats(gpu).reserved
        ),
        (0, 2 << 20)
    );
    let z = x.to(To::device("cuda")).unwrap();
    assert_eq!(z.data_ptr(), first_address, "the cached block is reused");
    drop(z);
    assert_eq!(session.empty_cache(gpu), 2 << 20);
    assert_eq!(session.memory_stats(gpu).reserved, 0);
}

#[test]
fn cuda_visible_devices_is_read_once_when_cuda_starts() {
    let session = Session::default();
    session.set_env("CUDA_VISIBLE_DEVICES", Some("1"));
    assert_eq!(session.device_count(), 1);
    assert_eq!(session.physical_gpu(0), Some(1));
    session.set_env("CUDA_VISIBLE_DEVICES", Some("0,1"));
    assert_eq!(
        session.device_count(),
        1,
        "setting it after CUDA started has no effect"
    );

    let hidden = Session::default();
    hidden.set_env("CUDA_VISIBLE_DEVICES", Some(""));
    assert!(!hidden.is_available());
    let x = floats(&hidden, &[1.0], &[1]);
    assert_eq!(
        x.to(To::device("cuda")).unwrap_err().to_string(),
        "No CUDA GPUs are available"
    );
}

#[test]
fn pinned_memory_is_a_cpu_copy_and_gpu_tensors_cannot_be_pinned() {
    let session = Session::default();
    let x = floats(&session, &[1.0, 2.0], &[2]);
    let pinned = x.pin_memory().unwrap();
    assert!(pinned.is_pinned() && !x.is_pinned());
    assert_eq!(pinned.scalars().unwrap(), x.scalars().unwrap());
    let on_gpu = x.to(To::device("cuda")).unwrap();
    assert!(!on_gpu.to(To::device("cpu")).unwrap().is_pinned());
    assert_eq!(
        on_gpu.pin_memory().unwrap_err().to_string(),
        "cannot pin 'torch.cuda.FloatTensor' only dense CPU tensors can be pinned"
    );
}

#[test]
fn dtype_conversions_round_and_truncate_as_pytorch() {
    let session = Session::default();
    let x = floats(&session, &[-1.7, 0.1, 2.5], &[3]);
    assert_eq!(
        x.to_dtype(DType::Int64).unwrap().repr().unwrap(),
        "tensor([-1,  0,  2])"
    );
    assert_eq!(
        x.to_dtype(DType::Float16).unwrap().repr().unwrap(),
        "tensor([-1.7002,  0.1000,  2.5000], dtype=torch.float16)"
    );
    assert_eq!(
        x.to_dtype(DType::Bool).unwrap().repr().unwrap(),
        "tensor([True, True, True])"
    );
    let moved = x
        .to(To {
            device: Some(Target::Text("cuda:1".into())),
            dtype: Some(DType::Float64),
            ..To::default()
        })
        .unwrap();
    assert_eq!(
        moved.repr().unwrap(),
        "tensor([-1.7000,  0.1000,  2.5000], device='cuda:1', dtype=torch.float64)"
    );
}
