//! Autograd end to end: gradients flowing back across devices through `ToCopyBackward0`, the
//! non-leaf parameter trap, accumulation, broadcasting, views, and PyTorch's errors and warnings.
//! Expected values are worked by hand from the ops' derivatives; names and texts from PyTorch 2.15.

mod common;

use common::values;
use tolab_engine::backend::cpu::elementwise::Binary;
use tolab_engine::error::NON_LEAF_GRAD_WARNING;
use tolab_engine::{DType, Device, Scalar, Session, Tensor, TensorIndex, To};

fn tensor(session: &Session, values: &[f64], shape: &[usize], requires_grad: bool) -> Tensor {
    let values: Vec<Scalar> = values.iter().map(|&v| Scalar::Float(v)).collect();
    Tensor::from_scalars(session, &values, shape, None, Device::CPU, requires_grad).unwrap()
}

#[test]
fn gradients_flow_back_across_devices_to_the_cpu_leaf() {
    let session = Session::default();
    let a = tensor(&session, &[1.0, 2.0, 3.0], &[3], true);
    let b = a.to(To::device("cuda")).unwrap();
    let loss = b.mul(&b).unwrap().sum(&[], false).unwrap();
    assert_eq!(
        loss.repr().unwrap(),
        "tensor(14., device='cuda:0', grad_fn=<SumBackward0>)"
    );
    loss.backward(None, false).unwrap();
    let grad = a.grad().unwrap();
    assert_eq!(
        grad.device(),
        Device::CPU,
        "the gradient comes back to the source's device"
    );
    assert_eq!(grad.repr().unwrap(), "tensor([2., 4., 6.])");
}

#[test]
fn a_parameter_made_on_the_cpu_then_moved_is_not_a_leaf_and_gets_no_grad() {
    let session = Session::default();
    session.manual_seed(0);
    let w = Tensor::normal(&session, &[3], DType::Float32, Device::CPU, 0.0, 1.0).unwrap();
    w.set_requires_grad(true).unwrap();
    let w = w.to(To::device("cuda")).unwrap();
    assert!(!w.is_leaf());
    w.sum(&[], false).unwrap().backward(None, false).unwrap();
    assert!(w.grad().is_none());
    assert_eq!(session.take_warnings(), [NON_LEAF_GRAD_WARNING]);
}

#[test]
fn saved_tensors_are_freed_after_one_pass_unless_the_graph_is_retained() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, 2.0], &[2], true);
    let y = tensor(&session, &[3.0, 4.0], &[2], true);
    let z = x.mul(&y).unwrap().sum(&[], false).unwrap();
    z.backward(None, true).unwrap();
    z.backward(None, false).unwrap();
    assert_eq!(
        values(&x.grad().unwrap()),
        [6.0, 8.0],
        "gradients accumulate"
    );
    assert_eq!(values(&y.grad().unwrap()), [2.0, 4.0]);
    let error = z.backward(None, false).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("Trying to backward through the graph a second time")
    );

    // Nodes that saved nothing can run again, as in PyTorch.
    let w = x.add(&y).unwrap().sum(&[], false).unwrap();
    w.backward(None, false).unwrap();
    w.backward(None, false).unwrap();
}

#[test]
fn backward_needs_a_scalar_or_a_gradient_and_something_that_requires_grad() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, 2.0], &[2], true);
    let doubled = x.mul(Scalar::Int(2)).unwrap();
    assert_eq!(
        doubled.backward(None, false).unwrap_err().to_string(),
        "grad can be implicitly created only for scalar outputs"
    );
    let wrong = tensor(&session, &[1.0, 1.0, 1.0], &[3], false);
    assert_eq!(
        doubled
            .backward(Some(&wrong), false)
            .unwrap_err()
            .to_string(),
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of torch.Size([2])."
    );
    let plain = tensor(&session, &[1.0, 2.0], &[2], false);
    assert_eq!(
        plain
            .sum(&[], false)
            .unwrap()
            .backward(None, false)
            .unwrap_err()
            .to_string(),
        "element 0 of tensors does not require grad and does not have a grad_fn"
    );
}

#[test]
fn ops_check_devices_in_argument_order_and_let_cpu_scalars_join() {
    let session = Session::default();
    let cpu = tensor(&session, &[1.0, 2.0], &[2], false);
    let gpu = cpu.to(To::device("cuda")).unwrap();
    let error = gpu.add(&cpu).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
    );
    assert_eq!(error.python_type().name(), "RuntimeError");
    assert_eq!(
        cpu.mul(&gpu).unwrap_err().to_string(),
        "Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!"
    );
    let scalar = Tensor::from_scalars(
        &session,
        &[Scalar::Float(10.0)],
        &[],
        None,
        Device::CPU,
        false,
    )
    .unwrap();
    assert_eq!(
        gpu.add(&scalar).unwrap().repr().unwrap(),
        "tensor([11., 12.], device='cuda:0')"
    );
}

#[test]
fn results_are_promoted_as_in_pytorch() {
    let session = Session::default();
    let ints = Tensor::from_scalars(
        &session,
        &[Scalar::Int(1), Scalar::Int(2)],
        &[2],
        None,
        Device::CPU,
        false,
    )
    .unwrap();
    assert_eq!(
        ints.add(Scalar::Float(0.5)).unwrap().repr().unwrap(),
        "tensor([1.5000, 2.5000])"
    );
    assert_eq!(
        ints.div(Scalar::Int(2)).unwrap().repr().unwrap(),
        "tensor([0.5000, 1.0000])"
    );
    let doubles = ints.to_dtype(DType::Float64).unwrap();
    assert_eq!(ints.mul(&doubles).unwrap().dtype(), DType::Float64);
    assert_eq!(
        ints.compare(Binary::Gt, Scalar::Int(1))
            .unwrap()
            .repr()
            .unwrap(),
        "tensor([False,  True])"
    );
    let bools = ints.to_dtype(DType::Bool).unwrap();
    assert_eq!(
        bools.sub(&bools).unwrap_err().to_string(),
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead."
    );
    assert_eq!(
        ints.mean(&[], false).unwrap_err().to_string(),
        "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"
    );
}

#[test]
fn every_op_records_the_node_pytorch_records() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, 2.0], &[2], true);
    let y = tensor(&session, &[3.0, 4.0], &[2], true);
    let two = Scalar::Int(2);
    let cases: Vec<(Tensor, &str)> = vec![
        (x.add(&y).unwrap(), "AddBackward0"),
        (x.add(two).unwrap(), "AddBackward0"),
        (x.sub(two).unwrap(), "SubBackward0"),
        (x.rsub(two).unwrap(), "RsubBackward1"),
        (x.mul(&y).unwrap(), "MulBackward0"),
        (x.div(&y).unwrap(), "DivBackward0"),
        (x.pow_scalar(two).unwrap(), "PowBackward0"),
        (x.neg().unwrap(), "NegBackward0"),
        (x.sum(&[], false).unwrap(), "SumBackward0"),
        (x.sum(&[0], false).unwrap(), "SumBackward1"),
        (x.mean(&[], false).unwrap(), "MeanBackward0"),
        (x.view(&[2, 1]).unwrap(), "ViewBackward0"),
        (x.unsqueeze(0).unwrap(), "UnsqueezeBackward0"),
        (x.select(0, 1).unwrap(), "SelectBackward0"),
        (x.slice(0, Some(1), None, 1).unwrap(), "SliceBackward0"),
        (x.expand(&[3, 2]).unwrap(), "ExpandBackward0"),
    ];
    for (tensor, name) in cases {
        assert_eq!(tensor.grad_fn().map(|g| g.name()), Some(name));
    }
    assert!(
        x.compare(Binary::Lt, &y).unwrap().grad_fn().is_none(),
        "comparisons are not differentiable"
    );
}

#[test]
fn derivatives_of_arithmetic_broadcasting_and_reductions() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], true);
    let y = tensor(&session, &[1.0, 2.0, 4.0], &[3], true);
    // loss = mean(x / y): d/dx = 1 / (6 y); d/dy = -sum_rows(x) / (6 y²)
    x.div(&y)
        .unwrap()
        .mean(&[], false)
        .unwrap()
        .backward(None, false)
        .unwrap();
    let expected_x: Vec<f64> = [1.0, 2.0, 4.0, 1.0, 2.0, 4.0]
        .iter()
        .map(|y: &f64| (1.0 / (6.0 * y)) as f32 as f64)
        .collect();
    assert_eq!(values(&x.grad().unwrap()), expected_x);
    let expected_y: Vec<f64> = [(5.0, 1.0), (7.0, 2.0), (9.0, 4.0)]
        .iter()
        .map(|(s, y): &(f64, f64)| (-s / (6.0 * y * y)) as f32 as f64)
        .collect();
    let got_y = values(&y.grad().unwrap());
    for (g, e) in got_y.iter().zip(&expected_y) {
        assert!((g - e).abs() < 1e-6, "{got_y:?} vs {expected_y:?}");
    }
}

#[test]
fn view_gradients_land_where_the_elements_came_from() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], true);
    // Row 1, columns 1.., weighted by the transposed-then-flattened view's positions.
    let picked = x.select(0, 1).unwrap().slice(0, Some(1), None, 1).unwrap();
    picked
        .pow_scalar(Scalar::Int(2))
        .unwrap()
        .sum(&[], false)
        .unwrap()
        .backward(None, false)
        .unwrap();
    assert_eq!(values(&x.grad().unwrap()), [0.0, 0.0, 0.0, 0.0, 10.0, 12.0]);

    let z = tensor(&session, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], true);
    let weights = tensor(&session, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[6], false);
    let flat = z.t().unwrap().reshape(&[6]).unwrap();
    assert_eq!(flat.grad_fn().unwrap().name(), "UnsafeViewBackward0");
    flat.mul(&weights)
        .unwrap()
        .sum(&[], false)
        .unwrap()
        .backward(None, false)
        .unwrap();
    // flat = [z00, z10, z01, z11, z02, z12], so z's gradient is the weights transposed back.
    assert_eq!(values(&z.grad().unwrap()), [1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
}

#[test]
fn retain_grad_keeps_a_non_leaf_gradient_without_the_warning() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, -2.0, 3.0], &[3], true);
    let y = x.mul(Scalar::Int(2)).unwrap();
    y.retain_grad().unwrap();
    y.mul(&y)
        .unwrap()
        .sum(&[], false)
        .unwrap()
        .backward(None, false)
        .unwrap();
    assert_eq!(y.grad().unwrap().repr().unwrap(), "tensor([ 4., -8., 12.])");
    assert_eq!(
        x.grad().unwrap().repr().unwrap(),
        "tensor([  8., -16.,  24.])"
    );
    assert!(session.take_warnings().is_empty());
    let plain = tensor(&session, &[1.0], &[1], false);
    assert_eq!(
        plain.retain_grad().unwrap_err().to_string(),
        "can't retain_grad on Tensor that has requires_grad=False"
    );
}

#[test]
fn numpy_refuses_tensors_that_require_grad_or_live_off_the_cpu_as_pytorch_does() {
    let session = Session::default();
    let x = tensor(&session, &[1.0], &[1], true);
    assert!(x.detach().numpy().is_ok());
    assert_eq!(
        x.numpy().unwrap_err().to_string(),
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    );
    let gpu = x.detach().to(To::device("cuda")).unwrap();
    assert_eq!(
        gpu.numpy().unwrap_err().to_string(),
        "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
    );
}

#[test]
fn host_views_of_a_cpu_storage_see_each_others_writes() {
    let session = Session::default();
    let base = Tensor::from_host(
        &session,
        tolab_engine::storage::CpuStorage::F64(vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]),
        &[2, 3],
    )
    .unwrap();
    let column = base.strided_view(&[2], &[3], 1).unwrap();
    assert!(column.shares_storage(&base));
    assert_eq!(base.storage_len(), 6);
    base.write_storage(|cpu| {
        if let tolab_engine::storage::CpuStorage::F64(v) = cpu {
            v[4] = 40.0;
        }
    })
    .unwrap();
    let seen: Vec<f64> = column
        .scalars()
        .unwrap()
        .iter()
        .map(|s| s.as_f64())
        .collect();
    assert_eq!(seen, [1.0, 40.0]);
    assert!(base.strided_view(&[3], &[3], 1).is_err());
}

#[test]
fn mask_and_integer_indexing_pick_rows_and_route_gradients_back() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, -2.0, 3.0], &[3], true);
    let positive = x.compare(Binary::Gt, Scalar::Int(0)).unwrap();
    let picked = x.index(&[TensorIndex::Tensor(positive.clone())]).unwrap();
    assert_eq!(
        picked.repr().unwrap(),
        "tensor([1., 3.], grad_fn=<IndexBackward0>)"
    );
    picked
        .sum(&[], false)
        .unwrap()
        .backward(None, false)
        .unwrap();
    assert_eq!(x.grad().unwrap().repr().unwrap(), "tensor([1., 0., 1.])");

    let m = tensor(&session, &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], &[2, 3], false);
    let rows = Tensor::from_scalars(
        &session,
        &[Scalar::Int(1), Scalar::Int(0), Scalar::Int(-1)],
        &[3],
        None,
        Device::CPU,
        false,
    )
    .unwrap();
    assert_eq!(
        m.index(&[TensorIndex::Tensor(rows.clone())])
            .unwrap()
            .repr()
            .unwrap(),
        "tensor([[3., 4., 5.],\n        [0., 1., 2.],\n        [3., 4., 5.]])"
    );
    let bad = Tensor::from_scalars(
        &session,
        &[Scalar::Int(0), Scalar::Int(5)],
        &[2],
        None,
        Device::CPU,
        false,
    )
    .unwrap();
    let error = x.index(&[TensorIndex::Tensor(bad.clone())]).unwrap_err();
    assert_eq!(
        (error.python_type().name(), error.to_string().as_str()),
        (
            "IndexError",
            "index 5 is out of bounds for dimension 0 with size 3"
        )
    );
    let short = Tensor::from_scalars(
        &session,
        &[Scalar::Bool(true), Scalar::Bool(false)],
        &[2],
        None,
        Device::CPU,
        false,
    )
    .unwrap();
    assert_eq!(
        x.index(&[TensorIndex::Tensor(short.clone())])
            .unwrap_err()
            .to_string(),
        "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3] at index 0"
    );
}

#[test]
fn floor_division_and_remainder_follow_python_and_pytorch() {
    let session = Session::default();
    let ints = |v: &[i64]| {
        let values: Vec<Scalar> = v.iter().map(|&x| Scalar::Int(x)).collect();
        Tensor::from_scalars(&session, &values, &[v.len()], None, Device::CPU, false).unwrap()
    };
    let (a, b) = (ints(&[7, -7, 7, -7]), ints(&[2, 2, -2, -2]));
    assert_eq!(
        a.floor_divide(&b).unwrap().repr().unwrap(),
        "tensor([ 3, -4, -4,  3])"
    );
    assert_eq!(
        a.remainder(&b).unwrap().repr().unwrap(),
        "tensor([ 1,  1, -1, -1])"
    );
    assert_eq!(
        a.floor_divide(Scalar::Int(0)).unwrap_err().to_string(),
        "ZeroDivisionError"
    );

    let x = tensor(&session, &[7.0, -7.0, 7.5, -7.5], &[4], true);
    let y = tensor(&session, &[2.0, 2.0, -2.0, -2.0], &[4], false);
    let quotient = x.floor_divide(&y).unwrap();
    assert_eq!(
        quotient.repr().unwrap(),
        "tensor([ 3., -4., -4.,  3.], grad_fn=<NotImplemented>)"
    );
    assert_eq!(
        quotient
            .sum(&[], false)
            .unwrap()
            .backward(None, false)
            .unwrap_err()
            .to_string(),
        "derivative for aten::floor_divide is not implemented"
    );
    let rest = x.remainder(&y).unwrap();
    assert_eq!(
        rest.repr().unwrap(),
        "tensor([ 1.0000,  1.0000, -0.5000, -1.5000], grad_fn=<RemainderBackward1>)"
    );
    assert_eq!(
        x.remainder(Scalar::Float(0.0)).unwrap().repr().unwrap(),
        "tensor([nan, nan, nan, nan], grad_fn=<RemainderBackward0>)"
    );
    rest.sum(&[], false).unwrap().backward(None, false).unwrap();
    assert_eq!(
        x.grad().unwrap().repr().unwrap(),
        "tensor([1., 1., 1., 1.])"
    );
}

#[test]
fn tensor_powers_differentiate_in_base_and_exponent() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, 2.0], &[2], true);
    let y = tensor(&session, &[2.0, 3.0], &[2], true);
    let r = x.pow(&y).unwrap();
    assert_eq!(r.grad_fn().unwrap().name(), "PowBackward1");
    r.sum(&[], false).unwrap().backward(None, false).unwrap();
    assert_eq!(x.grad().unwrap().repr().unwrap(), "tensor([ 2., 12.])");
    assert_eq!(
        y.grad().unwrap().repr().unwrap(),
        "tensor([0.0000, 5.5452])"
    );
}

#[test]
fn the_trace_shows_graph_nodes_and_which_backend_ran_each_kernel() {
    use tolab_engine::trace::{Backend, EventKind};
    let session = Session::default();
    let a = tensor(&session, &[1.0, 2.0], &[2], true);
    session.set_tracing(true);
    let b = a.to(To::device("cuda")).unwrap();
    let loss = b.mul(&b).unwrap().sum(&[], false).unwrap();
    let trace = session.take_trace();
    let nodes: Vec<(u64, String, Vec<Option<u64>>)> = trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::GraphNode {
                node, name, next, ..
            } => Some((*node, name.clone(), next.clone())),
            _ => None,
        })
        .collect();
    let names: Vec<&str> = nodes.iter().map(|(_, name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "AccumulateGrad",
            "ToCopyBackward0",
            "MulBackward0",
            "SumBackward0"
        ]
    );
    // Each node's edges are its `next_functions`, by id: the leaf's accumulator behind the copy.
    let id = |i: usize| Some(nodes[i].0);
    assert_eq!(nodes[1].2, [id(0)]);
    assert_eq!(nodes[2].2, [id(1), id(1)]);
    assert_eq!(nodes[3].2, [id(2)]);

    loss.backward(None, false).unwrap();
    let kinds = |trace: Vec<tolab_engine::trace::TraceEvent>| -> Vec<EventKind> {
        trace.into_iter().map(|e| e.kind).collect()
    };
    let backward = kinds(session.take_trace());
    let started = backward
        .iter()
        .position(|k| k == &EventKind::Backward { root: id(3) });
    let filled = backward
        .iter()
        .position(|k| k == &EventKind::GradAccumulated { node: nodes[0].0 });
    assert!(started.is_some() && started < filled, "{backward:?}");

    // An op the learner runs under no_grad on a tensor in the graph is a cut there; the lab's own
    // no_grad work (an optimizer's update) is not.
    session.no_grad(|| a.mul(&a).unwrap());
    let previous = session.set_grad_enabled(false);
    a.mul(&a).unwrap();
    session.set_grad_enabled(previous);
    let breaks: Vec<EventKind> = kinds(session.take_trace())
        .into_iter()
        .filter(|k| matches!(k, EventKind::GraphBreak { .. }))
        .collect();
    assert_eq!(
        breaks,
        [EventKind::GraphBreak {
            from: id(0),
            cause: tolab_engine::trace::BreakCause::NoGrad
        }]
    );

    let kernels: Vec<(String, Backend)> = trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Kernel { op, backend } => Some((op.clone(), *backend)),
            _ => None,
        })
        .collect();
    assert_eq!(
        kernels,
        [
            ("mul".to_owned(), Backend::CpuStandIn),
            ("sum".to_owned(), Backend::CpuStandIn)
        ]
    );
    assert!(trace.windows(2).all(|w| w[0].seq < w[1].seq));
}

#[test]
fn python_numbers_take_an_empty_edge_as_in_pytorch() {
    let session = Session::default();
    let x = tensor(&session, &[1.0, 2.0], &[2], true);
    let edges = |t: &Tensor| -> Vec<Option<String>> {
        t.grad_fn()
            .unwrap()
            .next_functions()
            .iter()
            .map(|n| n.as_ref().map(|g| g.qualified_name()))
            .collect()
    };
    let leaf = Some("torch::autograd::AccumulateGrad".to_owned());
    let two = Scalar::Int(2);
    assert_eq!(edges(&x.mul(two).unwrap()), [leaf.clone(), None]);
    assert_eq!(edges(&x.add(two).unwrap()), [leaf.clone(), None]);
    assert_eq!(edges(&x.div(two).unwrap()), [leaf.clone(), None]);
    assert_eq!(edges(&x.rsub(two).unwrap()), std::slice::from_ref(&leaf));
    assert_eq!(
        edges(&x.pow_scalar(two).unwrap()),
        std::slice::from_ref(&leaf)
    );
    let floor = x.floor_divide(two).unwrap();
    assert_eq!(
        floor.grad_fn().unwrap().qualified_name(),
        "torch::autograd::NotImplemented"
    );
    assert_eq!(edges(&floor), [leaf]);
}
