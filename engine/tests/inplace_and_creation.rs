//! In-place ops and version counters (the autograd pitfalls of `.data`, `detach()`, `no_grad`
//! updates and saved tensors), and the creation ops against PyTorch 2.15's values
//! (`tests/golden/creation.json`). Texts are PyTorch's.

use serde_json::Value;
use tolab_engine::{DType, Device, Scalar, Session, Tensor};

/// `t.sum().backward()`.
fn sum_backward(t: &Tensor) {
    t.sum(&[], false).unwrap().backward(None, false).unwrap();
}

fn tensor(session: &Session, values: &[f64], requires_grad: bool) -> Tensor {
    let values: Vec<Scalar> = values.iter().map(|&v| Scalar::Float(v)).collect();
    Tensor::from_scalars(
        session,
        &values,
        &[values.len()],
        None,
        Device::CPU,
        requires_grad,
    )
    .unwrap()
}

#[test]
fn in_place_ops_write_through_views_and_count_versions() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, 2.0, 3.0, 4.0], false);
    let tail = x.slice(0, Some(2), None, 1).unwrap();
    tail.mul_(Scalar::Int(10)).unwrap();
    assert_eq!(x.repr().unwrap(), "tensor([ 1.,  2., 30., 40.])");
    assert_eq!(
        (x.version(), tail.version()),
        (1, 1),
        "views share the counter"
    );
    x.add_(&tensor(&session, &[1.0, 1.0, 1.0, 1.0], false))
        .unwrap()
        .zero_()
        .unwrap();
    assert_eq!(x.version(), 3);
    assert_eq!(x.repr().unwrap(), "tensor([0., 0., 0., 0.])");

    let detached = x.detach();
    detached.fill_(Scalar::Float(2.0)).unwrap();
    assert_eq!(x.version(), 4, "detach() shares the counter");
    let data = x.data();
    data.fill_(Scalar::Float(3.0)).unwrap();
    assert_eq!(
        (x.version(), data.version()),
        (4, 1),
        ".data has a counter of its own"
    );
    assert_eq!(x.repr().unwrap(), "tensor([3., 3., 3., 3.])");

    let ints = Tensor::zeros(&session, &[2], DType::Int64, Device::CPU).unwrap();
    assert_eq!(
        ints.add_(Scalar::Float(1.5)).unwrap_err().to_string(),
        "result type Float can't be cast to the desired output type Long"
    );
    let expanded = tensor(&session, &[1.0], false).expand(&[3]).unwrap();
    assert!(
        expanded
            .add_(Scalar::Int(1))
            .unwrap_err()
            .to_string()
            .starts_with("unsupported operation: more than one element")
    );
}

#[test]
fn leaves_that_require_grad_refuse_in_place_changes_except_under_no_grad() {
    let session = Session::default();
    let w = tensor(&session, &[1.0, 2.0], true);
    assert_eq!(
        w.add_(Scalar::Int(1)).unwrap_err().to_string(),
        "a leaf Variable that requires grad is being used in an in-place operation."
    );
    // The optimizer's way: update under no_grad.
    let previous = session.set_grad_enabled(false);
    w.sub_(Scalar::Float(0.5)).unwrap();
    session.set_grad_enabled(previous);
    assert_eq!(
        w.repr().unwrap(),
        "tensor([0.5000, 1.5000], requires_grad=True)"
    );
    assert!(w.is_leaf());
}

#[test]
fn changing_a_saved_tensor_before_backward_is_caught() {
    let session = Session::default();
    let a = tensor(&session, &[1.0, 1.0], true);
    let c = a.mul(&a).unwrap();
    let previous = session.set_grad_enabled(false);
    a.add_(Scalar::Int(1)).unwrap();
    session.set_grad_enabled(previous);
    assert_eq!(
        c.sum(&[], false)
            .unwrap()
            .backward(None, false)
            .unwrap_err()
            .to_string(),
        "one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2]] is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
    );

    let x = tensor(&session, &[1.0, 1.0], true);
    let b = x.mul(Scalar::Int(1)).unwrap();
    let c = b.mul(&b).unwrap();
    b.add_(Scalar::Int(1)).unwrap();
    assert_eq!(
        b.grad_fn().unwrap().name(),
        "AddBackward0",
        "the in-place op became b's history"
    );
    let error = c
        .sum(&[], false)
        .unwrap()
        .backward(None, false)
        .unwrap_err()
        .to_string();
    assert!(error.contains("[torch.FloatTensor [2]], which is output 0 of Add, is at version 1; expected version 0 instead."), "{error}");
}

#[test]
fn in_place_history_carries_gradients() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, 2.0], true);
    let y = x.mul(Scalar::Int(3)).unwrap();
    y.add_(Scalar::Int(1))
        .unwrap()
        .mul_(Scalar::Int(2))
        .unwrap();
    sum_backward(&y);
    assert_eq!(x.grad().unwrap().repr().unwrap(), "tensor([6., 6.])");
}

#[test]
fn creation_ops_match_pytorch() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/creation.json")).unwrap();
    let session = Session::default();
    let scalar = |v: &Value| {
        if v.is_i64() {
            Scalar::Int(v.as_i64().unwrap())
        } else {
            Scalar::Float(v.as_f64().unwrap())
        }
    };
    for case in &cases {
        let args = case["args"].as_array().unwrap();
        let dtype = DType::from_name(case["dtype"].as_str().unwrap()).unwrap();
        let t = match case["op"].as_str().unwrap() {
            "arange" => match args.len() {
                1 => Tensor::arange(
                    &session,
                    Scalar::Int(0),
                    scalar(&args[0]),
                    Scalar::Int(1),
                    None,
                    Device::CPU,
                ),
                _ => Tensor::arange(
                    &session,
                    scalar(&args[0]),
                    scalar(&args[1]),
                    scalar(&args[2]),
                    None,
                    Device::CPU,
                ),
            },
            "linspace" => Tensor::linspace(
                &session,
                args[0].as_f64().unwrap(),
                args[1].as_f64().unwrap(),
                args[2].as_i64().unwrap(),
                dtype,
                Device::CPU,
            ),
            "eye" => Tensor::eye(
                &session,
                args[0].as_i64().unwrap(),
                args[1].as_i64(),
                dtype,
                Device::CPU,
            ),
            other => panic!("{other}"),
        }
        .unwrap();
        assert_eq!(t.dtype(), dtype, "{case}");
        assert_eq!(t.repr().unwrap(), case["repr"].as_str().unwrap(), "{case}");
        let expected: Vec<f64> = case["values"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|v| v.as_array().cloned().unwrap_or_else(|| vec![v.clone()]))
            .map(|v| v.as_f64().unwrap())
            .collect();
        let got: Vec<f64> = t
            .scalars()
            .unwrap()
            .into_iter()
            .map(Scalar::as_f64)
            .collect();
        assert_eq!(got, expected, "{case}");
    }
    assert_eq!(
        Tensor::arange(
            &session,
            Scalar::Int(0),
            Scalar::Int(5),
            Scalar::Int(0),
            None,
            Device::CPU
        )
        .unwrap_err()
        .to_string(),
        "step must be nonzero"
    );
    assert_eq!(
        Tensor::arange(
            &session,
            Scalar::Int(5),
            Scalar::Int(0),
            Scalar::Int(1),
            None,
            Device::CPU
        )
        .unwrap_err()
        .to_string(),
        "upper bound and lower bound inconsistent with step sign"
    );
    assert_eq!(
        Tensor::zeros(&session, &[-1], DType::Float32, Device::CPU)
            .unwrap_err()
            .to_string(),
        "zeros: Dimension size must be non-negative."
    );
    assert_eq!(
        Tensor::eye(&session, -1, None, DType::Float32, Device::CPU)
            .unwrap_err()
            .to_string(),
        "n must be greater or equal to 0, got -1"
    );
    let a = tensor(&session, &[1.0, 2.0], false);
    assert!(
        a.equal(
            &a.full_like(Scalar::Int(1))
                .unwrap()
                .add(Scalar::Int(0))
                .unwrap()
                .mul(&a)
                .unwrap()
        )
        .unwrap()
    );
    assert!(
        a.allclose(&a.add(Scalar::Float(1e-9)).unwrap(), 1e-5, 1e-8)
            .unwrap()
    );
    assert!(
        !a.allclose(&a.add(Scalar::Float(1e-3)).unwrap(), 1e-5, 1e-8)
            .unwrap()
    );
}

#[test]
fn clamp_in_place_keeps_the_original_values_for_its_gradient() {
    let session = Session::default();
    let x = tensor(&session, &[-1.0, 0.5, 2.0], true);
    let y = x.mul(Scalar::Int(2)).unwrap();
    y.clamp_(Some(Scalar::Float(0.0)), Some(Scalar::Float(1.5)))
        .unwrap();
    assert_eq!(
        y.repr().unwrap(),
        "tensor([0.0000, 1.0000, 1.5000], grad_fn=<ClampBackward1>)"
    );
    sum_backward(&y);
    assert_eq!(x.grad().unwrap().repr().unwrap(), "tensor([0., 2., 0.])");
}

#[test]
fn meta_tensors_go_through_ops_as_shapes_only() {
    let session = Session::default();
    let a = Tensor::zeros(&session, &[2, 3], DType::Float32, Device::META).unwrap();
    let b = Tensor::zeros(&session, &[3, 4], DType::Float64, Device::META).unwrap();
    let product = a.to_dtype(DType::Float64).unwrap().matmul(&b).unwrap();
    assert_eq!(
        product.repr().unwrap(),
        "tensor(..., device='meta', size=(2, 4), dtype=torch.float64)"
    );
    assert_eq!(
        a.add(Scalar::Int(1))
            .unwrap()
            .sum(&[1], false)
            .unwrap()
            .repr()
            .unwrap(),
        "tensor(..., device='meta', size=(2,))"
    );
    assert_eq!(a.exp().unwrap().shape(), &[2, 3]);
    let error = a.to(tolab_engine::To::device("cpu")).unwrap_err();
    assert_eq!(
        (error.python_type().name(), error.to_string().as_str()),
        (
            "NotImplementedError",
            "Cannot copy out of meta tensor; no data!"
        )
    );
}

#[test]
fn huge_requests_fail_with_pytorchs_errors_before_any_memory_is_touched() {
    let session = Session::default();
    assert_eq!(
        Tensor::zeros(
            &session,
            &[10_000_000_000, 10_000_000_000],
            DType::Float32,
            Device::CPU
        )
        .unwrap_err()
        .to_string(),
        "Storage size calculation overflowed with sizes=[10000000000, 10000000000]"
    );
    assert_eq!(
        Tensor::zeros(&session, &[1_000_000_000], DType::Float32, Device::CPU)
            .unwrap_err()
            .to_string(),
        "DefaultCPUAllocator: not enough memory: you tried to allocate 4000000000 bytes."
    );
    assert_eq!(
        Tensor::arange(
            &session,
            Scalar::Int(0),
            Scalar::Float(1e30),
            Scalar::Int(1),
            None,
            Device::CPU
        )
        .unwrap_err()
        .to_string(),
        "invalid size, possible overflow?"
    );
    let column = Tensor::zeros(&session, &[100_000, 1], DType::Float32, Device::cuda(0)).unwrap();
    let row = Tensor::zeros(&session, &[1, 100_000], DType::Float32, Device::cuda(0)).unwrap();
    let error = column.add(&row).unwrap_err();
    assert_eq!(error.python_type().name(), "torch.OutOfMemoryError");
    assert!(error.to_string().starts_with("CUDA out of memory. Tried to allocate 37.25 GiB. GPU 0 has a total capacity of 1024.00 MiB"), "{error}");
    let wide = row.expand(&[100_000, 100_000]).unwrap();
    assert!(
        wide.contiguous()
            .unwrap_err()
            .to_string()
            .starts_with("CUDA out of memory.")
    );
    assert_eq!(
        session.memory_stats(Device::cuda(0)).allocated,
        2 * 400_384,
        "nothing else was taken"
    );
}

#[test]
fn in_place_products_with_a_tensor_that_requires_grad_use_the_values_before_the_write() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, 2.0], true);
    let w = tensor(&session, &[3.0, 4.0], true);
    let a = x.mul(Scalar::Int(1)).unwrap();
    a.mul_(&w).unwrap();
    assert_eq!(a.grad_fn().unwrap().name(), "MulBackward0");
    sum_backward(&a);
    assert_eq!(x.grad().unwrap().repr().unwrap(), "tensor([3., 4.])");
    assert_eq!(
        w.grad().unwrap().repr().unwrap(),
        "tensor([1., 2.])",
        "the values before mul_"
    );

    let y = tensor(&session, &[2.0, 8.0], true);
    let d = tensor(&session, &[2.0, 4.0], true);
    let b = y.mul(Scalar::Int(1)).unwrap();
    sum_backward(b.div_(&d).unwrap());
    assert_eq!(
        y.grad().unwrap().repr().unwrap(),
        "tensor([0.5000, 0.2500])"
    );
    assert_eq!(
        d.grad().unwrap().repr().unwrap(),
        "tensor([-0.5000, -0.5000])"
    );
}

#[test]
fn changes_through_a_view_rewrite_the_base_history_as_copy_slices() {
    let session = Session::default();
    let names = |t: &Tensor| -> Vec<Option<&'static str>> {
        t.grad_fn()
            .unwrap()
            .next_functions()
            .iter()
            .map(|n| n.as_ref().map(|g| g.name()))
            .collect()
    };

    let x = tensor(&session, &[1.0, 2.0, 3.0], true);
    assert_eq!(
        x.select(0, 0)
            .unwrap()
            .fill_(Scalar::Int(5))
            .unwrap_err()
            .to_string(),
        "a view of a leaf Variable that requires grad is being used in an in-place operation."
    );

    // b[0] = 5
    let b = x.mul(Scalar::Int(1)).unwrap();
    b.select(0, 0).unwrap().fill_(Scalar::Int(5)).unwrap();
    assert_eq!(
        b.grad_fn().unwrap().qualified_name(),
        "torch::autograd::CopySlices"
    );
    assert_eq!(names(&b), [Some("MulBackward0")]);
    sum_backward(&b);
    assert_eq!(x.grad().unwrap().repr().unwrap(), "tensor([0., 1., 1.])");

    // v = b[1:]; v.mul_(2)
    let x = tensor(&session, &[1.0, 2.0, 3.0], true);
    let b = x.mul(Scalar::Int(1)).unwrap();
    let v = b.slice(0, Some(1), None, 1).unwrap();
    v.mul_(Scalar::Int(2)).unwrap();
    assert_eq!(names(&b), [Some("MulBackward0"), None]);
    assert_eq!(v.grad_fn().unwrap().name(), "AsStridedBackward0");
    sum_backward(&b);
    assert_eq!(x.grad().unwrap().repr().unwrap(), "tensor([1., 2., 2.])");

    // b[0].add_(x[2]), then a weighted sum
    let x = tensor(&session, &[1.0, 2.0, 3.0], true);
    let b = x.mul(Scalar::Int(1)).unwrap();
    b.select(0, 0)
        .unwrap()
        .add_(&x.select(0, 2).unwrap())
        .unwrap();
    assert_eq!(names(&b), [Some("MulBackward0"), Some("SelectBackward0")]);
    let weights = tensor(&session, &[1.0, 10.0, 100.0], false);
    sum_backward(&b.mul(&weights).unwrap());
    assert_eq!(
        x.grad().unwrap().repr().unwrap(),
        "tensor([  1.,  10., 101.])"
    );

    // b = zeros(3); b[0] = x[1] * 3
    let x = tensor(&session, &[1.0, 2.0, 3.0], true);
    let b = Tensor::zeros(&session, &[3], DType::Float32, Device::CPU).unwrap();
    b.select(0, 0)
        .unwrap()
        .copy_(&x.select(0, 1).unwrap().mul(Scalar::Int(3)).unwrap())
        .unwrap();
    assert_eq!(
        b.repr().unwrap(),
        "tensor([6., 0., 0.], grad_fn=<CopySlices>)"
    );
    assert_eq!(names(&b), [None, Some("MulBackward0")]);
    sum_backward(&b);
    assert_eq!(x.grad().unwrap().repr().unwrap(), "tensor([0., 3., 0.])");
}

/// Expected names and gradients from PyTorch 2.15 (the same steps run in a torch session): a view
/// whose data changed through its base or a sibling view reads its history again, as
/// `AsStridedBackward0` over the base's current node.
#[test]
fn other_views_of_a_changed_base_rebuild_their_history_over_it() {
    let session = Session::default();
    let next_name = |t: &Tensor| {
        t.grad_fn().unwrap().next_functions()[0]
            .as_ref()
            .unwrap()
            .name()
    };

    // a = zeros(4); v1, v2 = a[:2], a[2:]; v1.mul_(w) with w requiring grad
    let w = tensor(&session, &[1.0, 1.0], true);
    let a = Tensor::zeros(&session, &[4], DType::Float32, Device::CPU).unwrap();
    let (v1, v2) = (
        a.slice(0, None, Some(2), 1).unwrap(),
        a.slice(0, Some(2), None, 1).unwrap(),
    );
    assert!(v2.grad_fn().is_none() && !v2.requires_grad());
    v1.mul_(&w).unwrap();
    assert_eq!(v2.grad_fn().unwrap().name(), "AsStridedBackward0");
    assert!(v2.requires_grad());
    assert_eq!(next_name(&v2), "CopySlices");

    // b = x.clone(); u = b[1:]; b.mul_(3): u reads through MulBackward0
    let x = tensor(&session, &[1.0, 1.0, 1.0, 1.0], true);
    let b = x.clone_tensor().unwrap();
    let u = b.slice(0, Some(1), None, 1).unwrap();
    assert_eq!(u.grad_fn().unwrap().name(), "SliceBackward0");
    b.mul_(Scalar::Int(3)).unwrap();
    assert_eq!(u.grad_fn().unwrap().name(), "AsStridedBackward0");
    assert_eq!(next_name(&u), "MulBackward0");
    sum_backward(&u);
    assert_eq!(
        x.grad().unwrap().repr().unwrap(),
        "tensor([0., 3., 3., 3.])"
    );

    // c = x.clone(); u1, u2 = c[:2], c[2:]; u1.mul_(5); (u2 * 2).sum().backward()
    let c = x.clone_tensor().unwrap();
    let (u1, u2) = (
        c.slice(0, None, Some(2), 1).unwrap(),
        c.slice(0, Some(2), None, 1).unwrap(),
    );
    u1.mul_(Scalar::Int(5)).unwrap();
    assert_eq!(next_name(&u2), "CopySlices");
    sum_backward(&u2.mul(Scalar::Int(2)).unwrap());
    assert_eq!(
        x.grad().unwrap().repr().unwrap(),
        "tensor([0., 3., 5., 5.])"
    );

    // A change made under no_grad still makes the views rebuild.
    let e = x.clone_tensor().unwrap();
    let g = e.slice(0, Some(0), Some(1), 1).unwrap();
    session.no_grad(|| e.add_(Scalar::Int(1))).unwrap();
    assert_eq!(g.grad_fn().unwrap().name(), "AsStridedBackward0");
    assert_eq!(next_name(&g), "CloneBackward0");
}
