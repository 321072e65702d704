//! The wgpu backend against the CPU backend, natively on a real adapter (Mesa's lavapipe on the CI
//! machines): the same ops on the same random inputs — every dtype, broadcasting, non-contiguous
//! views, empty and 0-dim tensors — must agree, exactly for integer and bool results and within a
//! stated relative bound for floating ones.
#![cfg(not(target_arch = "wasm32"))]

mod gpu_support;

use gpu_support::*;
use tolab_engine::trace::{Backend, EventKind};
use tolab_engine::{DType, Device, Error, Scalar, Session, Tensor, To};

#[test]
fn binary_ops_and_comparisons_match_the_cpu_for_every_dtype_broadcast_and_strided() {
    let cpu = Session::default();
    let gpu = gpu_session();
    let has_f64 = gpu.adapter().is_some_and(|g| g.report().shader_f64);
    type BinaryOp = fn(&Tensor, &Tensor) -> Result<Tensor, Error>;
    use tolab_engine::backend::cpu::elementwise::Binary;
    let ops: [(&str, BinaryOp); 27] = [
        ("add", |a, b| a.add(b)),
        ("sub", |a, b| a.sub(b)),
        ("mul", |a, b| a.mul(b)),
        ("div", |a, b| a.div(b)),
        ("floor_divide", |a, b| a.floor_divide(b)),
        ("remainder", |a, b| a.remainder(b)),
        ("pow", |a, b| a.pow(b)),
        ("maximum", |a, b| a.maximum(b)),
        ("minimum", |a, b| a.minimum(b)),
        ("eq", |a, b| {
            a.compare(tolab_engine::backend::cpu::elementwise::Binary::Eq, b)
        }),
        ("ne", |a, b| {
            a.compare(tolab_engine::backend::cpu::elementwise::Binary::Ne, b)
        }),
        ("lt", |a, b| {
            a.compare(tolab_engine::backend::cpu::elementwise::Binary::Lt, b)
        }),
        ("le", |a, b| {
            a.compare(tolab_engine::backend::cpu::elementwise::Binary::Le, b)
        }),
        ("gt", |a, b| {
            a.compare(tolab_engine::backend::cpu::elementwise::Binary::Gt, b)
        }),
        ("ge", |a, b| {
            a.compare(tolab_engine::backend::cpu::elementwise::Binary::Ge, b)
        }),
        ("bitwise_and", |a, b| a.bitwise(Binary::BitAnd, b)),
        ("bitwise_or", |a, b| a.bitwise(Binary::BitOr, b)),
        ("bitwise_xor", |a, b| a.bitwise(Binary::BitXor, b)),
        ("bitwise_left_shift", |a, b| a.bitwise(Binary::Shl, b)),
        ("bitwise_right_shift", |a, b| a.bitwise(Binary::Shr, b)),
        ("atan2", |a, b| a.binary_math(Binary::Atan2, b)),
        ("hypot", |a, b| a.binary_math(Binary::Hypot, b)),
        ("fmod", |a, b| a.binary_math(Binary::Fmod, b)),
        ("fmax", |a, b| a.binary_math(Binary::Fmax, b)),
        ("fmin", |a, b| a.binary_math(Binary::Fmin, b)),
        ("copysign", |a, b| a.binary_math(Binary::Copysign, b)),
        ("div_trunc", |a, b| {
            a.div_rounded(b, tolab_engine::Rounding::Trunc)
        }),
    ];
    let mut compared = 0;
    for seed in 1..=8u64 {
        let mut rng = Rng(seed * 0x9e37_79b9);
        let shape = rng.shape();
        // The second operand broadcasts: some of its dimensions are 1, some leading ones missing.
        let mut other: Vec<usize> = shape
            .iter()
            .map(|&d| if rng.below(3) == 0 { 1 } else { d })
            .collect();
        let dropped = rng.below(other.len() as u64 + 1) as usize;
        other.drain(..dropped);
        for dtype in DType::ALL {
            if dtype == DType::Float64 && !has_f64 {
                continue;
            }
            let other_dtype = DType::ALL[rng.below(DType::ALL.len() as u64) as usize];
            let (a_cpu, a_gpu) = pair(&cpu, &gpu, &mut rng, &shape, dtype);
            let (b_cpu, b_gpu) = pair(&cpu, &gpu, &mut rng, &other, other_dtype);
            let floating = dtype.is_floating_point() || other_dtype.is_floating_point();
            for (name, op) in &ops {
                // Floats have no bitwise ops; the refusal names the backend (`bitwise_or_cpu`,
                // `bitwise_or_cuda`), as PyTorch's does.
                if floating && name.starts_with("bitwise") {
                    continue;
                }
                // So do hypot's of integers and fmod's, trunc division's and shifts of bools.
                let bools = dtype == DType::Bool && other_dtype == DType::Bool;
                if (*name == "hypot" && !floating)
                    || (bools
                        && (matches!(
                            *name,
                            "fmod" | "div_trunc" | "remainder" | "floor_divide" | "pow"
                        ) || name.ends_with("shift")))
                {
                    continue;
                }
                let case = format!("seed {seed}: {name}({dtype}{shape:?}, {other_dtype}{other:?})");
                assert_same(&case, op(&a_cpu, &b_cpu), op(&a_gpu, &b_gpu));
                compared += 1;
            }
        }
    }
    assert!(compared > 800, "{compared}");
    let kernels = kernels_on(&gpu);
    let on_gpu = kernels.iter().filter(|(_, b)| *b == Backend::Gpu).count();
    assert!(
        on_gpu > compared / 2,
        "{on_gpu} of {} kernels ran on the GPU",
        kernels.len()
    );
}

#[test]
fn unary_ops_match_the_cpu_for_every_dtype() {
    use tolab_engine::backend::cpu::unary::{IntegerInputs, Unary};
    let cpu = Session::default();
    let gpu = gpu_session();
    let has_f64 = gpu.adapter().is_some_and(|g| g.report().shader_f64);
    for seed in 1..=12u64 {
        let mut rng = Rng(seed * 0x51_7cc1);
        let shape = rng.shape();
        for dtype in DType::ALL {
            if dtype == DType::Float64 && !has_f64 {
                continue;
            }
            let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &shape, dtype);
            for op in Unary::ALL {
                // Refusals name the backend (`abs_cpu`, `abs_cuda`), as PyTorch's do.
                if (op == Unary::BitNot && dtype.is_floating_point())
                    || (op.integer_inputs() == IntegerInputs::Refuse && !dtype.is_floating_point())
                    || (dtype == DType::Bool && op.bool_refusal("cpu").is_some())
                {
                    continue;
                }
                // Inputs in -4..4, narrowed for ops whose domain is -1..1 and for tan, whose poles
                // make any rounding of its input visible.
                let narrowed = |x: &Tensor| match op {
                    Unary::Asin | Unary::Acos | Unary::Atanh | Unary::Erfinv => {
                        x.mul(Scalar::Float(0.24))
                    }
                    Unary::Tan => x.mul(Scalar::Float(0.35)),
                    _ => Ok(x.clone()),
                };
                let (a, b) = match dtype.is_floating_point() {
                    true => (narrowed(&x_cpu).unwrap(), narrowed(&x_gpu).unwrap()),
                    false => (x_cpu.clone(), x_gpu.clone()),
                };
                let case = format!("seed {seed}: {}({dtype}{shape:?})", op.name());
                assert_same(&case, a.math(op), b.math(op));
            }
        }
    }
}

#[test]
fn casts_and_copies_between_every_pair_of_dtypes_match_the_cpu() {
    let cpu = Session::default();
    let gpu = gpu_session();
    let has_f64 = gpu.adapter().is_some_and(|g| g.report().shader_f64);
    let mut rng = Rng(7);
    for from in DType::ALL {
        for to in DType::ALL {
            if (from == DType::Float64 || to == DType::Float64) && !has_f64 {
                continue;
            }
            let shape = [3, 5];
            let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &shape, from);
            let case = format!("{from} -> {to}");
            assert_same(&case, x_cpu.to(To::dtype(to)), x_gpu.to(To::dtype(to)));
            // A strided view made contiguous: the copy kernel gathers it.
            let t_cpu = x_cpu.t().unwrap().contiguous();
            let t_gpu = x_gpu.t().unwrap().contiguous();
            assert_same(&format!("{case}: contiguous"), t_cpu, t_gpu);
        }
    }
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn host_device_round_trips_are_exact_and_the_copies_are_real() {
    let gpu = gpu_session();
    let mut rng = Rng(11);
    for dtype in DType::ALL {
        for shape in [vec![], vec![0], vec![1], vec![7], vec![3, 333]] {
            let values = rng.values(shape.iter().product(), dtype);
            let host = Tensor::from_scalars(&gpu, &values, &shape, Some(dtype), Device::CPU, false)
                .unwrap();
            let device = host.to(To::device("cuda:1")).unwrap();
            let peer = device.to(To::device("cuda:0")).unwrap();
            let back = peer.to(To::device("cpu")).unwrap();
            assert_eq!(
                back.scalars().unwrap(),
                host.scalars().unwrap(),
                "{dtype} {shape:?}"
            );
        }
    }
    let copies: Vec<Backend> = gpu
        .take_trace()
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::Copy { backend, .. } => Some(backend),
            _ => None,
        })
        .collect();
    assert!(!copies.is_empty());
    assert!(copies.iter().all(|&b| b == Backend::Gpu), "{copies:?}");
}

#[test]
fn reserved_memory_is_backed_by_real_gpu_buffers_and_empty_cache_releases_them() {
    let gpu = gpu_session();
    let cuda = Device::cuda(0);
    let x = Tensor::full(
        &gpu,
        &[1024, 1024],
        Scalar::Float(1.5),
        DType::Float32,
        cuda,
    )
    .unwrap();
    let y = x.mul(&x).unwrap();
    let reserved = gpu.memory_stats(cuda).reserved;
    assert!(reserved >= 8 << 20, "{reserved}");
    assert_eq!(gpu.gpu_buffer_bytes(cuda), reserved);
    assert_eq!(
        y.sum(&[], false).unwrap().item().unwrap().as_f64(),
        1024.0 * 1024.0 * 2.25
    );
    drop((x, y));
    gpu.empty_cache(cuda);
    assert_eq!(gpu.memory_stats(cuda).reserved, 0);
    assert_eq!(gpu.gpu_buffer_bytes(cuda), 0);
}

#[test]
fn a_sync_point_waits_for_the_gpu_and_records_how_long() {
    let gpu = gpu_session();
    let x = Tensor::full(
        &gpu,
        &[512, 512],
        Scalar::Float(0.5),
        DType::Float32,
        Device::cuda(0),
    )
    .unwrap();
    let mut y = x.clone();
    for _ in 0..20 {
        y = y.mul(&x).unwrap().add(&x).unwrap();
    }
    gpu.synchronize(None).unwrap();
    let syncs: Vec<u64> = gpu
        .take_trace()
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::Sync { waited_us, .. } => Some(waited_us),
            _ => None,
        })
        .collect();
    assert_eq!(syncs.len(), 1);
    assert!((y.scalars().unwrap()[0].as_f64() - 1.0).abs() < 1e-6);
}

#[test]
fn reductions_over_any_dims_match_the_cpu_for_every_dtype() {
    let cpu = Session::default();
    let gpu = gpu_session();
    let has_f64 = gpu.adapter().is_some_and(|g| g.report().shader_f64);
    for seed in 1..=10u64 {
        let mut rng = Rng(seed * 0x2_5bd1);
        let shape = rng.shape();
        let dims: Vec<i64> = (0..shape.len() as i64)
            .filter(|_| rng.below(2) == 0)
            .collect();
        let keepdim = rng.below(2) == 0;
        for dtype in DType::ALL {
            if dtype == DType::Float64 && !has_f64 {
                continue;
            }
            let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &shape, dtype);
            let case = format!("seed {seed}: sum({dtype}{shape:?}, {dims:?}, keepdim={keepdim})");
            assert_same(&case, x_cpu.sum(&dims, keepdim), x_gpu.sum(&dims, keepdim));
            let case = format!("seed {seed}: mean({dtype}{shape:?}, {dims:?})");
            assert_same(
                &case,
                x_cpu.mean(&dims, keepdim),
                x_gpu.mean(&dims, keepdim),
            );
            let case = format!("seed {seed}: max({dtype}{shape:?})");
            assert_same(&case, x_cpu.max(), x_gpu.max());
            let case = format!("seed {seed}: min({dtype}{shape:?})");
            assert_same(&case, x_cpu.min(), x_gpu.min());
        }
    }
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn a_reduction_longer_than_one_workgroup_chunk_takes_two_passes_and_stays_accurate() {
    let gpu = gpu_session();
    let n: usize = 300_000;
    let values: Vec<Scalar> = (0..n as i64).map(|i| Scalar::Int(i % 7 - 3)).collect();
    let x = Tensor::from_scalars(&gpu, &values, &[n], Some(DType::Int64), Device::CPU, false)
        .unwrap()
        .to(To::device("cuda"))
        .unwrap();
    let expected: i64 = (0..n as i64).map(|i| i % 7 - 3).sum();
    assert_eq!(
        x.sum(&[], false).unwrap().item().unwrap(),
        Scalar::Int(expected)
    );
    // float16 accumulates in float32 and rounds once: 37,500 becomes float16's nearest, 37,504.
    let halves = Tensor::full(
        &gpu,
        &[n],
        Scalar::Float(0.125),
        DType::Float16,
        Device::cuda(0),
    )
    .unwrap();
    assert_eq!(
        halves.sum(&[], false).unwrap().item().unwrap().as_f64(),
        37_504.0
    );
}

#[test]
fn matrix_products_match_the_cpu_for_float_dtypes_and_strided_operands() {
    let cpu = Session::default();
    let gpu = gpu_session();
    let has_f64 = gpu.adapter().is_some_and(|g| g.report().shader_f64);
    let floats = [
        DType::Float32,
        DType::Float16,
        DType::BFloat16,
        DType::Float64,
    ];
    for seed in 1..=6u64 {
        let mut rng = Rng(seed * 0x3_c6ef);
        let (n, k, m) = (
            rng.below(40) as usize + 1,
            rng.below(40) as usize,
            rng.below(40) as usize + 1,
        );
        for dtype in floats {
            if dtype == DType::Float64 && !has_f64 {
                continue;
            }
            let (a_cpu, a_gpu) = pair(&cpu, &gpu, &mut rng, &[n, k], dtype);
            let (b_cpu, b_gpu) = pair(&cpu, &gpu, &mut rng, &[k, m], dtype);
            let case = format!("seed {seed}: sum(mm) {dtype} {n}x{k} @ {k}x{m}");
            assert_same(&case, a_cpu.mm(&b_cpu), a_gpu.mm(&b_gpu));
            let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &[3, n, k], dtype);
            let (y_cpu, y_gpu) = pair(&cpu, &gpu, &mut rng, &[3, k, m], dtype);
            let case = format!("seed {seed}: sum(bmm) {dtype}");
            assert_same(&case, x_cpu.bmm(&y_cpu), x_gpu.bmm(&y_gpu));
            let case = format!("seed {seed}: sum(matmul) broadcast {dtype}");
            assert_same(&case, x_cpu.matmul(&b_cpu), x_gpu.matmul(&b_gpu));
        }
    }
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn a_backward_pass_through_gpu_ops_gives_the_cpu_gradients() {
    let cpu = Session::default();
    let gpu = gpu_session();
    let mut rng = Rng(99);
    let x = rng.values(8 * 5, DType::Float32);
    let w = rng.values(5 * 3, DType::Float32);
    let grads = |session: &Session, device: &str| {
        let leaf = |values: &[Scalar], shape: &[usize]| {
            let t = Tensor::from_scalars(
                session,
                values,
                shape,
                Some(DType::Float32),
                Device::CPU,
                false,
            )
            .unwrap()
            .to(To::device(device))
            .unwrap();
            t.set_requires_grad(true).unwrap();
            t
        };
        let (x, w) = (leaf(&x, &[8, 5]), leaf(&w, &[5, 3]));
        let loss = x
            .mm(&w)
            .unwrap()
            .sigmoid()
            .unwrap()
            .mul(&x.sum(&[1], true).unwrap())
            .unwrap()
            .mean(&[], false)
            .unwrap();
        loss.backward(None, false).unwrap();
        (loss, x.grad().unwrap(), w.grad().unwrap())
    };
    let (cpu_loss, cpu_x, cpu_w) = grads(&cpu, "cpu");
    let (gpu_loss, gpu_x, gpu_w) = grads(&gpu, "cuda");
    assert_same("sum(loss)", Ok(cpu_loss), Ok(gpu_loss));
    assert_same("sum(x.grad)", Ok(cpu_x), Ok(gpu_x));
    assert_same("sum(w.grad)", Ok(cpu_w), Ok(gpu_w));
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn cat_along_any_dim_matches_the_cpu_and_runs_on_the_gpu() {
    let cpu = Session::default();
    let gpu = gpu_session();
    for seed in 1..=6u64 {
        let mut rng = Rng(seed * 0x7f4a_7c15);
        let mut shape = rng.shape();
        if shape.is_empty() {
            shape.push(3);
        }
        let dim = rng.below(shape.len() as u64) as usize;
        for dtype in [DType::Float32, DType::Int64, DType::Float16, DType::Bool] {
            let mut other = shape.clone();
            // Odd lengths: packed pieces start and end inside words.
            other[dim] = rng.below(5) as usize + 1;
            shape[dim] = 3;
            let (a_cpu, a_gpu) = pair(&cpu, &gpu, &mut rng, &shape, dtype);
            let (b_cpu, b_gpu) = pair(&cpu, &gpu, &mut rng, &other, dtype);
            let case = format!("seed {seed}: cat {dtype}{shape:?} + {other:?} along {dim}");
            assert_same(
                &case,
                Tensor::cat(&[&a_cpu, &b_cpu], dim as i64),
                Tensor::cat(&[&a_gpu, &b_gpu], dim as i64),
            );
        }
    }
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn cross_entropy_and_its_gradient_run_on_the_gpu_and_match_the_cpu() {
    use tolab_engine::nn::functional::{Reduction, cross_entropy};
    let cpu = Session::default();
    let gpu = gpu_session();
    let mut rng = Rng(5);
    let logits = rng.values(6 * 4, DType::Float32);
    let targets: Vec<Scalar> = [0, 3, -100, 2, 1, 3]
        .iter()
        .map(|&t| Scalar::Int(t))
        .collect();
    for reduction in [Reduction::Mean, Reduction::Sum, Reduction::None] {
        let run = |session: &Session, device: &str| {
            let x = Tensor::from_scalars(session, &logits, &[6, 4], None, Device::CPU, false)
                .and_then(|t| t.to(To::device(device)))
                .unwrap();
            x.set_requires_grad(true).unwrap();
            let y = Tensor::from_scalars(session, &targets, &[6], None, Device::CPU, false)
                .and_then(|t| t.to(To::device(device)))
                .unwrap();
            let loss = cross_entropy(&x, &y, reduction, -100).unwrap();
            loss.sum(&[], false).unwrap().backward(None, false).unwrap();
            (loss, x.grad().unwrap())
        };
        let (cpu_loss, cpu_grad) = run(&cpu, "cpu");
        let (gpu_loss, gpu_grad) = run(&gpu, "cuda");
        assert_same(
            &format!("sum(loss) {reduction:?}"),
            Ok(cpu_loss),
            Ok(gpu_loss),
        );
        assert_same(
            &format!("sum(grad) {reduction:?}"),
            Ok(cpu_grad),
            Ok(gpu_grad),
        );
    }
    // Only the one-hot rows of the targets are made on the host.
    assert_no_stand_ins(&gpu, &["tensor"]);
}

#[test]
fn where_and_masked_fill_match_the_cpu_on_the_gpu() {
    let cpu = Session::default();
    let gpu = gpu_session();
    for seed in 1..=6u64 {
        let mut rng = Rng(seed * 0x1b87_3593);
        let shape = rng.shape();
        for dtype in [DType::Float32, DType::Int64, DType::Float16, DType::Bool] {
            let (c_cpu, c_gpu) = pair(&cpu, &gpu, &mut rng, &shape, DType::Bool);
            let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &shape, dtype);
            let last: Vec<usize> = shape.last().map(|&d| vec![d]).unwrap_or_default();
            let (y_cpu, y_gpu) = pair(&cpu, &gpu, &mut rng, &last, DType::Float32);
            let case = format!("seed {seed}: where {dtype}{shape:?}");
            assert_same(
                &case,
                Tensor::where_(&c_cpu, &x_cpu, &y_cpu),
                Tensor::where_(&c_gpu, &x_gpu, &y_gpu),
            );
            let case = format!("seed {seed}: masked_fill {dtype}{shape:?}");
            assert_same(
                &case,
                x_cpu.masked_fill(&c_cpu, Scalar::Int(7)),
                x_gpu.masked_fill(&c_gpu, Scalar::Int(7)),
            );
        }
    }
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn argmax_argmin_and_max_along_a_dim_match_the_cpu_on_the_gpu() {
    let cpu = Session::default();
    let gpu = gpu_session();
    let has_f64 = gpu.adapter().is_some_and(|g| g.report().shader_f64);
    for seed in 1..=8u64 {
        let mut rng = Rng(seed * 0x5851_f42d);
        let mut shape = rng.shape();
        if shape.is_empty() || shape.contains(&0) {
            shape = vec![3, 4];
        }
        let dim = rng.below(shape.len() as u64) as i64;
        for dtype in DType::ALL {
            if dtype == DType::Float64 && !has_f64 {
                continue;
            }
            let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &shape, dtype);
            for keepdim in [false, true] {
                let case = format!("seed {seed}: argmax {dtype}{shape:?} dim {dim} {keepdim}");
                assert_same(
                    &case,
                    x_cpu.argmax(Some(dim), keepdim),
                    x_gpu.argmax(Some(dim), keepdim),
                );
                let case = format!("seed {seed}: argmin {dtype}{shape:?} dim {dim}");
                assert_same(
                    &case,
                    x_cpu.argmin(Some(dim), keepdim),
                    x_gpu.argmin(Some(dim), keepdim),
                );
            }
            let case = format!("seed {seed}: argmax {dtype}{shape:?} flattened");
            assert_same(&case, x_cpu.argmax(None, false), x_gpu.argmax(None, false));
            if dtype != DType::Bool {
                let (cv, ci) = x_cpu.max_dim(dim, false).unwrap();
                let (gv, gi) = x_gpu.max_dim(dim, false).unwrap();
                assert_same(&format!("{case}: max values"), Ok(cv), Ok(gv));
                assert_same(&format!("{case}: max indices"), Ok(ci), Ok(gi));
            }
        }
    }
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn elementwise_kernels_split_tensors_past_the_largest_binding_and_others_say_they_cannot() {
    let cpu = Session::default();
    for gpu in [gpu_session(), packed_f16_session()] {
        // Bindings of 1 KiB (4 offset alignments): every tensor here takes several.
        gpu.adapter().unwrap().limit_bindings(1024);
        let mut rng = Rng(2024);
        for dtype in DType::ALL {
            let (a_cpu, a_gpu) = pair(&cpu, &gpu, &mut rng, &[37, 29], dtype);
            let (b_cpu, b_gpu) = pair(&cpu, &gpu, &mut rng, &[29], dtype);
            type Case = fn(&Tensor, &Tensor) -> Result<Tensor, Error>;
            let cases: [(&str, Case); 5] = [
                ("broadcast add", |a, b| a.add(b)),
                ("transposed copy", |a, _| a.t()?.contiguous()),
                ("cast", |a, _| a.to(To::dtype(DType::Float32))),
                ("cat", |a, b| Tensor::cat(&[a, &b.unsqueeze(0)?, a], 0)),
                ("strided write", |a, b| {
                    let x = a.clone_tensor()?;
                    x.slice(0, Some(3), Some(33), 3)?
                        .copy_(&b.expand(&[10, 29])?)?;
                    Ok(x)
                }),
            ];
            for (name, case) in cases {
                assert_same(
                    &format!("{dtype} {name} across bindings"),
                    case(&a_cpu, &b_cpu),
                    case(&a_gpu, &b_gpu),
                );
            }
        }
        assert_no_stand_ins(&gpu, &[]);
        // A reduction cannot split: it runs on the host, and the trace says so.
        let x = Tensor::full(
            &gpu,
            &[700],
            Scalar::Float(1.5),
            DType::Float32,
            Device::cuda(0),
        )
        .unwrap();
        assert_eq!(x.sum(&[], false).unwrap().item().unwrap().as_f64(), 1050.0);
        let kernels = kernels_on(&gpu);
        assert_eq!(
            kernels,
            vec![
                ("fill".to_owned(), Backend::Gpu),
                ("sum".to_owned(), Backend::CpuStandIn)
            ]
        );
    }
}

#[test]
fn conv2d_and_its_gradients_match_the_cpu_for_strides_padding_dilation_and_groups() {
    use tolab_engine::ops::Conv2dParams;
    let cpu = Session::default();
    let gpu = gpu_session();
    for seed in 1..=6u64 {
        let mut rng = Rng(seed * 0x51_7cc1);
        let groups = 1 + rng.below(2) as usize;
        let channels = groups * (1 + rng.below(3) as usize);
        let out_channels = groups * (1 + rng.below(3) as usize);
        let kernel = [1 + rng.below(3) as usize, 1 + rng.below(3) as usize];
        let params = Conv2dParams {
            stride: [1 + rng.below(2) as usize, 1 + rng.below(2) as usize],
            padding: [rng.below(2) as usize, rng.below(3) as usize],
            padding_extra: [0, 0],
            dilation: [1 + rng.below(2) as usize, 1],
            groups,
        };
        let input_shape = [2, channels, 5 + rng.below(3) as usize, 6];
        let weight_shape = [out_channels, channels / groups, kernel[0], kernel[1]];
        for dtype in [
            DType::Float32,
            DType::Float16,
            DType::BFloat16,
            DType::Float64,
        ] {
            let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &input_shape, dtype);
            let (w_cpu, w_gpu) = pair(&cpu, &gpu, &mut rng, &weight_shape, dtype);
            let (b_cpu, b_gpu) = pair(&cpu, &gpu, &mut rng, &[out_channels], dtype);
            let run = |x: &Tensor, w: &Tensor, b: &Tensor| {
                let (x, w, b) = (x.detach(), w.detach(), b.detach());
                for leaf in [&x, &w, &b] {
                    leaf.set_requires_grad(true).unwrap();
                }
                let y = x.conv2d(&w, Some(&b), params).unwrap();
                y.mul(&y)
                    .unwrap()
                    .sum(&[], false)
                    .unwrap()
                    .backward(None, false)
                    .unwrap();
                (y, x.grad().unwrap(), w.grad().unwrap(), b.grad().unwrap())
            };
            let (cpu_out, gpu_out) = (run(&x_cpu, &w_cpu, &b_cpu), run(&x_gpu, &w_gpu, &b_gpu));
            // Every output sums channels × taps products: held to the accumulation bound.
            let case = format!(
                "seed {seed}: sum(conv2d {dtype} {input_shape:?} ⋆ {weight_shape:?}, {params:?})"
            );
            assert_same(&case, Ok(cpu_out.0), Ok(gpu_out.0));
            assert_same(&format!("{case} input grad"), Ok(cpu_out.1), Ok(gpu_out.1));
            assert_same(&format!("{case} weight grad"), Ok(cpu_out.2), Ok(gpu_out.2));
            assert_same(&format!("{case} bias grad"), Ok(cpu_out.3), Ok(gpu_out.3));
        }
    }
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn mse_bce_with_logits_and_layer_norm_with_their_gradients_run_on_the_gpu() {
    use tolab_engine::nn::functional::{self, Reduction};
    let cpu = Session::default();
    let gpu = gpu_session();
    let mut rng = Rng(77);
    let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &[4, 6], DType::Float32);
    let (t_cpu, t_gpu) = pair(&cpu, &gpu, &mut rng, &[4, 6], DType::Float32);
    let (w_cpu, w_gpu) = pair(&cpu, &gpu, &mut rng, &[6], DType::Float32);
    let (b_cpu, b_gpu) = pair(&cpu, &gpu, &mut rng, &[6], DType::Float32);
    type Loss = fn(&Tensor, &Tensor, &Tensor, &Tensor) -> Result<Tensor, Error>;
    let cases: [(&str, Loss); 4] = [
        ("mse", |x, t, _, _| {
            functional::mse_loss(x, t, Reduction::Mean)
        }),
        ("bce", |x, t, _, _| {
            let probabilities = t.sigmoid()?;
            functional::binary_cross_entropy_with_logits(x, &probabilities, Reduction::Sum)
        }),
        ("bce none", |x, t, _, _| {
            let probabilities = t.sigmoid()?;
            functional::binary_cross_entropy_with_logits(x, &probabilities, Reduction::None)?.mul(t)
        }),
        ("layer_norm", |x, t, w, b| {
            functional::layer_norm(x, &[6], Some(w), Some(b), 1e-5)?.mul(t)
        }),
    ];
    for (name, loss) in cases {
        let run = |x: &Tensor, t: &Tensor, w: &Tensor, b: &Tensor| {
            let (x, w, b) = (x.detach(), w.detach(), b.detach());
            for leaf in [&x, &w, &b] {
                leaf.set_requires_grad(true).unwrap();
            }
            let value = loss(&x, t, &w, &b).unwrap().sum(&[], false).unwrap();
            value.backward(None, false).unwrap();
            (value, x.grad().unwrap(), w.grad(), b.grad())
        };
        let c = run(&x_cpu, &t_cpu, &w_cpu, &b_cpu);
        let g = run(&x_gpu, &t_gpu, &w_gpu, &b_gpu);
        // Each is a short chain of float32 kernels: held to the accumulation bound.
        assert_same(&format!("sum({name})"), Ok(c.0), Ok(g.0));
        assert_same(&format!("sum({name} input grad)"), Ok(c.1), Ok(g.1));
        if let (Some(cw), Some(gw)) = (c.2, g.2) {
            assert_same(&format!("sum({name} weight grad)"), Ok(cw), Ok(gw));
        }
        if let (Some(cb), Some(gb)) = (c.3, g.3) {
            assert_same(&format!("sum({name} bias grad)"), Ok(cb), Ok(gb));
        }
    }
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn arange_linspace_and_eye_are_made_on_the_gpu_as_on_the_cpu() {
    let cpu = Session::default();
    let gpu = gpu_session();
    for dtype in DType::ALL {
        let on = |session: &Session, device: &str| {
            let device = Device::parse(device).unwrap();
            [
                Tensor::arange(
                    session,
                    Scalar::Int(-3),
                    Scalar::Int(40),
                    Scalar::Int(3),
                    Some(dtype),
                    device,
                ),
                Tensor::arange(
                    session,
                    Scalar::Float(0.5),
                    Scalar::Float(7.0),
                    Scalar::Float(0.37),
                    Some(dtype),
                    device,
                ),
                Tensor::linspace(session, -2.5, 9.0, 13, dtype, device),
                Tensor::linspace(session, 4.0, 9.0, 1, dtype, device),
                Tensor::eye(session, 5, Some(7), dtype, device),
            ]
        };
        for (k, (c, g)) in on(&cpu, "cpu")
            .into_iter()
            .zip(on(&gpu, "cuda"))
            .enumerate()
        {
            assert_same(&format!("sequence {k} of {dtype}"), c, g);
        }
    }
    assert_no_stand_ins(&gpu, &[]);
    // A Mac's GPU has no float64, whichever kernel would fill it.
    let error = Tensor::zeros(&gpu, &[2], DType::Float64, Device::parse("mps").unwrap());
    assert!(matches!(error, Err(Error::MpsFloat64)), "{error:?}");
}

#[test]
fn in_place_writes_into_strided_views_and_slice_gradients_stay_on_the_gpu() {
    let cpu = Session::default();
    let gpu = gpu_session();
    let mut rng = Rng(4242);
    for dtype in DType::ALL {
        let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &[5, 7], dtype);
        let (v_cpu, v_gpu) = pair(&cpu, &gpu, &mut rng, &[5, 3], dtype);
        let write = |x: &Tensor, v: &Tensor| -> Result<Tensor, Error> {
            let x = x.clone_tensor()?;
            // Every other column from 1: elements that share words with untouched neighbours.
            x.slice(1, Some(1), Some(7), 2)?.copy_(v)?;
            x.select(0, 3)?.fill_(Scalar::Int(1))?;
            x.t()?.slice(0, Some(2), Some(3), 1)?.add_(Scalar::Int(1))?;
            // A view written from values it overlaps: `x[1:] = x[:-1]` along rows.
            x.slice(0, Some(1), None, 1)?
                .copy_(&x.slice(0, Some(0), Some(4), 1)?)?;
            Ok(x)
        };
        assert_same(
            &format!("strided writes into {dtype}"),
            write(&x_cpu, &v_cpu),
            write(&x_gpu, &v_gpu),
        );
    }
    let (x_cpu, x_gpu) = pair(&cpu, &gpu, &mut rng, &[4, 6], DType::Float32);
    let grad = |x: &Tensor| {
        let x = x.detach();
        x.set_requires_grad(true).unwrap();
        let picked = x
            .slice(1, Some(1), Some(6), 2)
            .unwrap()
            .select(0, 2)
            .unwrap();
        picked
            .mul(&picked)
            .unwrap()
            .sum(&[], false)
            .unwrap()
            .backward(None, false)
            .unwrap();
        x.grad().unwrap()
    };
    assert_same(
        "slice and select gradients",
        Ok(grad(&x_cpu)),
        Ok(grad(&x_gpu)),
    );
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn float16_gives_the_same_results_packed_in_words_and_bound_as_native_f16() {
    let cpu = Session::default();
    for gpu in [gpu_session(), packed_f16_session()] {
        let mut rng = Rng(1616);
        let dtype = DType::Float16;
        let (a_cpu, a_gpu) = pair(&cpu, &gpu, &mut rng, &[5, 7], dtype);
        let (b_cpu, b_gpu) = pair(&cpu, &gpu, &mut rng, &[7], dtype);
        let (w_cpu, w_gpu) = pair(&cpu, &gpu, &mut rng, &[7, 3], dtype);
        let (i_cpu, i_gpu) = pair(&cpu, &gpu, &mut rng, &[3], DType::Int64);
        let index = |i: &Tensor| i.abs().unwrap().remainder(Scalar::Int(5)).unwrap();
        type Case = fn(&Tensor, &Tensor, &Tensor, &Tensor) -> Result<Tensor, Error>;
        let cases: [(&str, Case); 8] = [
            ("add", |a, b, _, _| a.add(b)),
            ("exp(", |a, _, _, _| a.exp()),
            ("sum(", |a, _, _, _| a.sum(&[1], false)),
            ("sum(mm", |a, _, w, _| a.mm(w)),
            ("transposed copy", |a, _, _, _| a.t()?.contiguous()),
            ("odd cat", |a, b, _, _| {
                Tensor::cat(&[&a.slice(0, Some(0), Some(1), 1)?, &b.unsqueeze(0)?, a], 0)
            }),
            ("strided write", |a, b, _, _| {
                let x = a.clone_tensor()?;
                x.select(1, 3)?.copy_(&b.slice(0, Some(0), Some(5), 1)?)?;
                Ok(x)
            }),
            ("index_select", |a, _, _, i| a.index_select(0, i)),
        ];
        for (name, case) in cases {
            assert_same(
                &format!("float16 {name}"),
                case(&a_cpu, &b_cpu, &w_cpu, &index(&i_cpu)),
                case(&a_gpu, &b_gpu, &w_gpu, &index(&i_gpu)),
            );
        }
        assert_no_stand_ins(&gpu, &[]);
    }
}

#[test]
fn random_draws_run_on_the_gpu_repeat_after_a_seed_and_follow_their_distributions() {
    let gpu = gpu_session();
    let cuda = Device::cuda(0);
    let values = |t: &Tensor| -> Vec<f64> {
        t.scalars()
            .unwrap()
            .into_iter()
            .map(Scalar::as_f64)
            .collect()
    };
    // Philox4x32-10 of counter 0 and key 0 is Random123's known answer: the first uniform values
    // after `manual_seed(0)` are its words' top 24 bits.
    gpu.manual_seed(0);
    let first = values(&Tensor::rand(&gpu, &[4], DType::Float32, cuda).unwrap());
    let known = [0x6627_e8d5_u32, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8];
    for (u, word) in first.iter().zip(known) {
        assert_eq!(u * 16_777_216.0, f64::from(word >> 8));
    }
    // The same seed gives the same values (on every GPU, as in PyTorch); the next draw differs.
    let draw =
        |device| values(&Tensor::normal(&gpu, &[1000], DType::Float32, device, 0.0, 1.0).unwrap());
    gpu.manual_seed(7);
    let (a, next) = (draw(cuda), draw(cuda));
    gpu.manual_seed(7);
    assert_eq!(a, draw(cuda));
    assert_eq!(a, draw(Device::cuda(1)));
    assert_ne!(a, next);

    let n = 200_000;
    let stats = |v: &[f64]| {
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64;
        (mean, var.sqrt())
    };
    for dtype in [DType::Float32, DType::Float16, DType::BFloat16] {
        let normal = values(&Tensor::normal(&gpu, &[n], dtype, cuda, 2.0, 3.0).unwrap());
        let (mean, std) = stats(&normal);
        assert!(
            (mean - 2.0).abs() < 0.03 && (std - 3.0).abs() < 0.03,
            "{dtype}: {mean} {std}"
        );
        let uniform = values(&Tensor::uniform(&gpu, &[n], dtype, cuda, -1.0, 3.0).unwrap());
        assert!(
            uniform.iter().all(|&u| (-1.0..=3.0).contains(&u)),
            "{dtype}"
        );
        let (mean, std) = stats(&uniform);
        assert!(
            (mean - 1.0).abs() < 0.02 && (std - 4.0 / 12f64.sqrt()).abs() < 0.02,
            "{dtype}"
        );
    }
    let coins = Tensor::full(&gpu, &[n], Scalar::Int(0), DType::Float32, cuda).unwrap();
    coins.bernoulli_(0.3).unwrap();
    let (rate, _) = stats(&values(&coins));
    assert!((rate - 0.3).abs() < 0.01, "{rate}");
    for (low, high) in [(-5, 7), (0, 1 << 40)] {
        let ints = values(&Tensor::randint(&gpu, low, high, &[n], DType::Int64, cuda).unwrap());
        assert!(ints.iter().all(|&i| i >= low as f64 && i < high as f64));
        let (mean, _) = stats(&ints);
        let middle = (low + high - 1) as f64 / 2.0;
        assert!(
            (mean - middle).abs() < 0.01 * (high - low) as f64,
            "{low}..{high}: {mean}"
        );
    }
    assert_no_stand_ins(&gpu, &[]);
}

#[test]
fn cuda_events_time_the_gpus_work_between_them_not_the_launches() {
    use tolab_engine::StreamMark;
    let gpu = gpu_session();
    let x = Tensor::rand(&gpu, &[128, 128], DType::Float32, Device::cuda(0)).unwrap();
    let start = gpu.record_mark();
    for _ in 0..4 {
        x.mm(&x).unwrap();
    }
    let end = gpu.record_mark();
    let idle_end = gpu.record_mark();
    assert!(
        matches!(start, StreamMark::Gpu(_)),
        "lavapipe writes timestamps"
    );
    let work = gpu.elapsed_ms(&start, &end).unwrap();
    let idle = gpu.elapsed_ms(&end, &idle_end).unwrap();
    assert!(work > 0.0 && work > idle, "work {work} ms, idle {idle} ms");
}

#[test]
fn nan_and_infinity_give_the_cpus_results_on_the_gpu() {
    use tolab_engine::backend::cpu::elementwise::Binary;
    let cpu = Session::default();
    let gpu = gpu_session();
    let special = [f64::NAN, f64::INFINITY, -f64::INFINITY, 0.0, -1.5, 2.0];
    for dtype in [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::BFloat16,
    ] {
        let on = |session: &Session, device: &str| {
            let scalars: Vec<Scalar> = special.iter().map(|&v| Scalar::Float(v)).collect();
            let x = Tensor::from_scalars(session, &scalars, &[6], Some(dtype), Device::CPU, false)
                .unwrap()
                .to(To::device(device))
                .unwrap();
            // The same values in another order: every pairing of a special value occurs.
            let y = x.slice(0, Some(3), None, 1).unwrap();
            let y = Tensor::cat(&[&y, &x.slice(0, Some(0), Some(3), 1).unwrap()], 0).unwrap();
            vec![
                x.compare(Binary::Ne, &x),
                x.compare(Binary::Ne, Scalar::Int(0)),
                x.compare(Binary::Eq, &y),
                x.maximum(&y),
                x.minimum(&y),
                x.relu(),
                x.to(To::dtype(DType::Bool)),
                x.max(),
                x.min(),
                x.argmax(None, false),
                x.argmin(Some(0), false),
                x.mul(Scalar::Int(0)),
            ]
        };
        for (k, (c, g)) in on(&cpu, "cpu")
            .into_iter()
            .zip(on(&gpu, "cuda"))
            .enumerate()
        {
            assert_same(&format!("{dtype} case {k}"), c, g);
        }
        // Casts to int64 are where the two differ, as on a real machine: x86's `cvttsd2si` gives
        // the lowest value for NaN and ±inf, CUDA's `cvt.rzi.s64` clamps them and gives 0 for NaN
        // (PTX ISA, "cvt": float-to-integer conversions saturate).
        let to_int = |session: &Session, device: &str| {
            let scalars: Vec<Scalar> = special.iter().map(|&v| Scalar::Float(v)).collect();
            Tensor::from_scalars(session, &scalars, &[6], Some(dtype), Device::CPU, false)
                .unwrap()
                .to(To::device(device))
                .unwrap()
                .to(To::dtype(DType::Int64))
                .unwrap()
                .scalars()
                .unwrap()
        };
        let ints = |v: [i64; 6]| v.map(Scalar::Int).to_vec();
        assert_eq!(
            to_int(&cpu, "cpu"),
            ints([i64::MIN, i64::MIN, i64::MIN, 0, -1, 2]),
            "{dtype} on the CPU"
        );
        assert_eq!(
            to_int(&gpu, "cuda"),
            ints([0, i64::MAX, i64::MIN, 0, -1, 2]),
            "{dtype} on the GPU"
        );
    }
}
