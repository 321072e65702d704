//! Picks on the GPU — `gather`, `index_select`, `t[idx]`, `t[mask]`, `embedding` — and their
//! gradients (the scatter-add kernel) against the CPU backend, and the device-side asserts their
//! kernels raise: flagged by the kernel, found by the next sync point, traced at the line that
//! launched it.
#![cfg(not(target_arch = "wasm32"))]

mod gpu_support;

use gpu_support::*;
use tolab_engine::nn::functional;
use tolab_engine::trace::{EventKind, SourceSpan};
use tolab_engine::{DType, Device, Error, Scalar, Session, Tensor, TensorIndex, To};

/// `values` as an int64 (or int32) tensor of `shape` on `device`.
fn index(session: &Session, values: &[i64], shape: &[usize], dtype: DType, device: &str) -> Tensor {
    let scalars: Vec<Scalar> = values.iter().map(|&v| Scalar::Int(v)).collect();
    Tensor::from_scalars(session, &scalars, shape, Some(dtype), Device::CPU, false)
        .unwrap()
        .to(To::device(device))
        .unwrap()
}

/// Random indices into a dimension of `size`, negative ones too where `negative`.
fn indices(rng: &mut Rng, n: usize, size: usize, negative: bool) -> Vec<i64> {
    (0..n)
        .map(|_| {
            let i = rng.below(size as u64) as i64;
            if negative && rng.below(2) == 0 {
                i - size as i64
            } else {
                i
            }
        })
        .collect()
}

/// The gradient `sum(picked * weights)` sends back to `x` (a float leaf), through `pick`.
fn weighted_gradient(
    x: &Tensor,
    pick: impl Fn(&Tensor) -> Result<Tensor, Error>,
    weights: &[Scalar],
) -> Result<Tensor, Error> {
    let leaf = x.detach();
    leaf.set_requires_grad(true)?;
    let picked = pick(&leaf)?;
    let w = Tensor::from_scalars(
        x.session(),
        weights,
        picked.shape(),
        Some(x.dtype()),
        Device::CPU,
        false,
    )?
    .to(To::device(x.device().to_string()))?;
    picked.mul(&w)?.sum(&[], false)?.backward(None, false)?;
    leaf.grad().ok_or(Error::MetaHasNoData)
}

#[test]
fn picks_and_their_gradients_match_the_cpu_for_every_dtype_and_strided_sources() {
    let cpu = Session::default();
    let gpu = gpu_session();
    for seed in 1..=5u64 {
        let mut rng = Rng(seed * 0x9e37_79b9);
        let mut shape = rng.shape();
        while shape.len() < 2 {
            shape.push(rng.below(4) as usize + 2);
        }
        let dim = rng.below(shape.len() as u64) as usize;
        for dtype in DType::ALL {
            let index_dtype = if rng.below(2) == 0 {
                DType::Int64
            } else {
                DType::Int32
            };
            let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &shape, dtype);
            let size = shape[dim];

            // gather: an index no larger than the source along the other dims.
            let index_shape: Vec<usize> = shape
                .iter()
                .enumerate()
                .map(|(d, &s)| {
                    if d == dim {
                        rng.below(5) as usize + 1
                    } else {
                        rng.below(s as u64) as usize + 1
                    }
                })
                .collect();
            let n: usize = index_shape.iter().product();
            let picks = indices(&mut rng, n, size, false);
            let gather = |x: &Tensor, device: &str| {
                x.gather(
                    dim as i64,
                    &index(x.session(), &picks, &index_shape, index_dtype, device),
                )
            };
            let case = format!("seed {seed}: {dtype}{shape:?}.gather({dim}, {index_shape:?})");
            assert_same(&case, gather(&x_cpu, "cpu"), gather(&x_gpu, "cuda"));

            // index_select with repeats, and t[idx] with negative indices and a 2-D index.
            let picks = indices(&mut rng, 7, size, false);
            let select = |x: &Tensor, device: &str| {
                x.index_select(
                    dim as i64,
                    &index(x.session(), &picks, &[7], index_dtype, device),
                )
            };
            let case = format!("seed {seed}: {dtype}{shape:?}.index_select({dim}, [7])");
            assert_same(&case, select(&x_cpu, "cpu"), select(&x_gpu, "cuda"));
            let rows = indices(&mut rng, 6, shape[0], true);
            let take = |x: &Tensor, device: &str| {
                let rows = index(x.session(), &rows, &[2, 3], DType::Int64, device);
                x.index(&[TensorIndex::Tensor(rows)])
            };
            let case = format!("seed {seed}: {dtype}{shape:?}[{rows:?}]");
            assert_same(&case, take(&x_cpu, "cpu"), take(&x_gpu, "cuda"));

            // t[mask] over the first two dimensions.
            let mask = rng.values(shape[0] * shape[1], DType::Bool);
            let masked = |x: &Tensor, device: &str| {
                let m = Tensor::from_scalars(
                    x.session(),
                    &mask,
                    &shape[..2],
                    None,
                    Device::CPU,
                    false,
                )?
                .to(To::device(device))?;
                x.index(&[TensorIndex::Tensor(m.clone())])
            };
            let case = format!("seed {seed}: {dtype}{shape:?}[mask]");
            assert_same(&case, masked(&x_cpu, "cpu"), masked(&x_gpu, "cuda"));

            // Gradients: repeated indices add up (float32 atomics on the GPU, rounded once).
            if dtype.is_floating_point() && dtype != DType::Float64 {
                let weights =
                    rng.values(7 * shape.iter().product::<usize>() / size, DType::Float32);
                let case =
                    format!("seed {seed}: sum(grad of {dtype}{shape:?}.index_select({dim}))");
                assert_same(
                    &case,
                    weighted_gradient(&x_cpu, |x| select(x, "cpu"), &weights),
                    weighted_gradient(&x_gpu, |x| select(x, "cuda"), &weights),
                );
                let weights = rng.values(6 * shape[1..].iter().product::<usize>(), DType::Float32);
                let case = format!("seed {seed}: sum(grad of {dtype}{shape:?}[{rows:?}])");
                assert_same(
                    &case,
                    weighted_gradient(&x_cpu, |x| take(x, "cpu"), &weights),
                    weighted_gradient(&x_gpu, |x| take(x, "cuda"), &weights),
                );
                let weights = rng.values(n, DType::Float32);
                let case = format!("seed {seed}: sum(grad of {dtype}{shape:?}.gather({dim}))");
                assert_same(
                    &case,
                    weighted_gradient(&x_cpu, |x| gather(x, "cpu"), &weights),
                    weighted_gradient(&x_gpu, |x| gather(x, "cuda"), &weights),
                );
            }
        }
    }
    // The mask's selected rows are found on the host (a sync point, as PyTorch's nonzero is).
    assert_no_stand_ins(&gpu, &["nonzero", "tensor"]);
}

#[test]
fn embedding_and_its_gradient_skip_the_padding_row_on_the_gpu_as_on_the_cpu() {
    let cpu = Session::default();
    let gpu = gpu_session();
    let mut rng = Rng(31);
    let (w_cpu, w_gpu) = pair(&cpu, &gpu, &mut rng, &[6, 4], DType::Float32);
    let tokens = [1, 0, 5, 1, 2, 0];
    let weights = rng.values(6 * 4, DType::Float32);
    let embed = |w: &Tensor, device: &str| {
        let input = index(w.session(), &tokens, &[2, 3], DType::Int64, device);
        functional::embedding(&input, w, Some(0))
    };
    assert_same("embedding", embed(&w_cpu, "cpu"), embed(&w_gpu, "cuda"));
    assert_same(
        "sum(grad of embedding)",
        weighted_gradient(&w_cpu, |w| embed(w, "cpu"), &weights),
        weighted_gradient(&w_gpu, |w| embed(w, "cuda"), &weights),
    );
    assert_no_stand_ins(&gpu, &["tensor"]);
}

const ASSERT_TEXT: &str = "CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n";

fn line(n: u32) -> Option<SourceSpan> {
    Some(SourceSpan {
        cell: "<cell 1>".into(),
        line: n,
        column: 1,
        end_line: n,
        end_column: 10,
    })
}

/// A pick with index 7 into 3 rows, and the words of its kernel's assertion.
type BadPick = fn(&Tensor, &Tensor) -> Result<Tensor, Error>;
const BAD_PICKS: [(&str, BadPick); 5] = [
    ("index out of bounds", |data, bad| {
        data.gather(0, &bad.view(&[2, 1])?)
    }),
    ("srcIndex < srcSelectDimSize", |data, bad| {
        data.index_select(0, bad)
    }),
    ("-sizes[i] <= index", |data, bad| {
        data.index(&[TensorIndex::Tensor(bad.clone())])
    }),
    ("srcIndex < srcSelectDimSize", |data, bad| {
        functional::embedding(bad, data, None)
    }),
    ("t >= 0 && t < n_classes", |data, bad| {
        let logits = data.slice(0, Some(0), Some(2), 1)?;
        functional::nll_loss(&logits, bad, functional::Reduction::Mean, -100)
    }),
];

#[test]
fn a_kernel_with_a_bad_index_fails_at_the_next_sync_traced_at_the_line_that_launched_it() {
    for (assertion, call) in BAD_PICKS {
        let session = gpu_session();
        let data = Tensor::ones(&session, &[3, 2], DType::Float32, Device::cuda(0)).unwrap();
        let bad = index(&session, &[0, 7], &[2], DType::Int64, "cuda:0");
        session.take_trace();
        session.set_span(line(3));
        let queued = call(&data, &bad).expect("the kernel is only queued");
        let more = queued.mul(Scalar::Int(2)).expect("still no sync");
        session.set_span(line(5));
        let error = more.sum(&[], false).unwrap().item().unwrap_err();
        assert_eq!(error.to_string(), ASSERT_TEXT, "{assertion}");

        let trace = session.take_trace();
        let assert_event = trace
            .iter()
            .position(|e| matches!(&e.kind, EventKind::DeviceAssert { message } if message.contains(assertion)))
            .expect("the kernel's assertion is in the trace");
        let sync = trace
            .iter()
            .position(|e| matches!(e.kind, EventKind::Sync { .. }))
            .expect("item() is a sync point");
        assert!(assert_event < sync, "{assertion}");
        assert_eq!(
            trace[assert_event].span,
            line(3),
            "traced at the launching line"
        );
        assert_eq!(trace[sync].span, line(5));

        // The device refuses work from now on; the other GPU still works.
        assert_eq!(
            Tensor::zeros(&session, &[2], DType::Float32, Device::cuda(0))
                .unwrap_err()
                .to_string(),
            ASSERT_TEXT
        );
        assert!(Tensor::zeros(&session, &[2], DType::Float32, Device::cuda(1)).is_ok());
    }
}

#[test]
fn good_indices_pass_the_check_and_later_syncs_do_not_read_the_flag_again() {
    let session = gpu_session();
    let data = Tensor::ones(&session, &[3, 2], DType::Float32, Device::cuda(0)).unwrap();
    let good = index(&session, &[2, -3], &[2], DType::Int64, "cuda:0");
    let picked = data.index(&[TensorIndex::Tensor(good.clone())]).unwrap();
    assert_eq!(
        picked.sum(&[], false).unwrap().item().unwrap(),
        Scalar::Float(4.0)
    );
    assert_eq!(
        picked.sum(&[], false).unwrap().item().unwrap(),
        Scalar::Float(4.0)
    );
}

#[test]
fn in_the_browser_the_flag_is_a_readback_to_await_before_the_assert_is_raised() {
    let session = gpu_session();
    session.adapter().unwrap().never_block_on_readbacks();
    let data = Tensor::ones(&session, &[3, 2], DType::Float32, Device::cuda(0)).unwrap();
    let bad = index(&session, &[0, 7], &[2], DType::Int64, "cuda:0");
    let picked = data.index_select(0, &bad).unwrap();
    let first = picked.repr().unwrap_err();
    assert!(first.is_would_block(), "{first}");
    pollster::block_on(session.complete_readbacks()).unwrap();
    assert_eq!(picked.repr().unwrap_err().to_string(), ASSERT_TEXT);
}

#[test]
fn cuda_launch_blocking_raises_a_kernel_assert_at_its_call() {
    let session = gpu_session();
    session.set_env("CUDA_LAUNCH_BLOCKING", Some("1"));
    let data = Tensor::ones(&session, &[3, 2], DType::Float32, Device::cuda(0)).unwrap();
    let bad = index(&session, &[-4], &[1], DType::Int64, "cuda:0");
    assert_eq!(
        data.index(&[TensorIndex::Tensor(bad.clone())])
            .unwrap_err()
            .to_string(),
        ASSERT_TEXT
    );
}
