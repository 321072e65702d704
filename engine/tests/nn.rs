//! `torch.nn` and `torch.optim` against PyTorch 2.15 (`tests/golden/nn.json`): default
//! initialisation value for value, reprs, the registry's walking order, the nodes layers record,
//! loss values and gradients, dropout masks, errors and warnings word for word, and four whole
//! training runs on `cpu` and `cuda:0`. Then the device pitfalls these pieces are known for.

mod common;

use std::sync::LazyLock;

use common::{assert_pytorch_error, json_floats, layer, linear, tensor, values};
use serde_json::Value;
use tolab_engine::nn::functional::{self, Reduction};
use tolab_engine::nn::{Assign, Layer, Module, Parameter};
use tolab_engine::optim::{Algorithm, Hyper, Optimizer};
use tolab_engine::{DType, Device, Error, Scalar, Session, Tensor, To};

static GOLDEN: LazyLock<Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../tests/golden/nn.json")).expect("nn.json parses")
});

fn labels(session: &Session, values: &Value) -> Tensor {
    let scalars: Vec<Scalar> = values
        .as_array()
        .unwrap()
        .iter()
        .map(|v| Scalar::Int(v.as_i64().unwrap()))
        .collect();
    Tensor::from_scalars(
        session,
        &scalars,
        &[scalars.len()],
        Some(DType::Int64),
        Device::CPU,
        false,
    )
    .unwrap()
}

/// The model the golden file's training runs use, and its Sequential(Linear, ReLU, Dropout,
/// Linear) sibling from the initialisation case.
fn mlp(session: &Session) -> Module {
    Module::sequential(&[
        linear(session, 4, 8, true),
        Module::new(Layer::ReLU),
        linear(session, 8, 3, true),
    ])
}

fn close(got: &[f64], expected: &[f64], relative: f64) -> bool {
    got.len() == expected.len()
        && got
            .iter()
            .zip(expected)
            .all(|(g, e)| (g - e).abs() <= relative * e.abs().max(1e-12))
}

#[test]
fn default_initialisation_draws_pytorchs_very_weights() {
    let init = &GOLDEN["init"];
    let session = Session::default();
    session.manual_seed(0);
    let lin = linear(&session, 3, 2, true);
    assert_eq!(
        values(&lin.parameter("weight").unwrap().tensor()),
        json_floats(&init["linear_seed0"]["weight"])
    );
    assert_eq!(
        values(&lin.parameter("bias").unwrap().tensor()),
        json_floats(&init["linear_seed0"]["bias"])
    );

    session.manual_seed(1);
    let seq = Module::sequential(&[
        linear(&session, 4, 8, true),
        Module::new(Layer::ReLU),
        layer(&session, Layer::Dropout { p: 0.2 }).unwrap(),
        linear(&session, 8, 3, false),
    ]);
    let expected = init["sequential_seed1"].as_object().unwrap();
    let state = seq.state_dict();
    assert_eq!(state.len(), expected.len());
    for (key, value) in &state {
        assert_eq!(values(value), json_floats(&expected[key]), "{key}");
    }
}

#[test]
fn module_and_optimizer_reprs_and_walking_order_match_pytorch() {
    let reprs = &GOLDEN["reprs"];
    let session = Session::default();
    let seq = Module::sequential(&[
        linear(&session, 4, 8, true),
        Module::new(Layer::ReLU),
        layer(&session, Layer::Dropout { p: 0.2 }).unwrap(),
        linear(&session, 8, 3, false),
    ]);
    assert_eq!(seq.repr(), reprs["sequential"].as_str().unwrap());

    let nested = Module::sequential(&[
        linear(&session, 2, 2, true),
        Module::sequential(&[Module::new(Layer::ReLU), linear(&session, 2, 1, true)]),
        Module::new(Layer::Flatten {
            start_dim: 1,
            end_dim: -1,
        }),
        Module::new(Layer::Sigmoid),
        Module::new(Layer::Tanh),
    ]);
    assert_eq!(nested.repr(), reprs["nested"].as_str().unwrap());
    let names = |list: Vec<String>| list;
    assert_eq!(
        names(nested.state_dict().into_iter().map(|(k, _)| k).collect()),
        serde_json::from_value::<Vec<String>>(reprs["nested_state_keys"].clone()).unwrap()
    );
    assert_eq!(
        names(nested.named_modules().into_iter().map(|(k, _)| k).collect()),
        serde_json::from_value::<Vec<String>>(reprs["nested_module_names"].clone()).unwrap()
    );
    assert_eq!(
        names(
            nested
                .named_parameters()
                .into_iter()
                .map(|(k, _)| k)
                .collect()
        ),
        serde_json::from_value::<Vec<String>>(reprs["nested_parameter_names"].clone()).unwrap()
    );
    let losses: Vec<String> = [
        Layer::MSELoss {
            reduction: Reduction::Mean,
        },
        Layer::CrossEntropyLoss {
            reduction: Reduction::Mean,
            ignore_index: -100,
        },
        Layer::NLLLoss {
            reduction: Reduction::Mean,
            ignore_index: -100,
        },
        Layer::BCEWithLogitsLoss {
            reduction: Reduction::Mean,
        },
    ]
    .into_iter()
    .map(|l| Module::new(l).repr())
    .collect();
    assert_eq!(
        losses,
        serde_json::from_value::<Vec<String>>(reprs["losses"].clone()).unwrap()
    );

    session.manual_seed(0);
    let lin = linear(&session, 3, 2, true);
    assert_eq!(
        lin.parameter("bias").unwrap().repr().unwrap(),
        reprs["parameter"].as_str().unwrap()
    );
    let optimizer = |algorithm, options: &[(&str, Hyper)]| {
        let options: Vec<(String, Hyper)> = options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        Optimizer::new(algorithm, vec![(lin.parameters(), Vec::new())], &options)
            .unwrap()
            .repr()
    };
    assert_eq!(
        optimizer(
            Algorithm::Sgd,
            &[("lr", Hyper::Float(0.1)), ("momentum", Hyper::Float(0.9))]
        ),
        reprs["sgd"].as_str().unwrap()
    );
    assert_eq!(
        optimizer(Algorithm::Adam, &[]),
        reprs["adam"].as_str().unwrap()
    );
    assert_eq!(
        optimizer(Algorithm::AdamW, &[("lr", Hyper::Float(0.01))]),
        reprs["adamw"].as_str().unwrap()
    );
    assert_eq!(
        lin.load_state_dict(&lin.state_dict(), true).unwrap().repr(),
        reprs["load_ok"].as_str().unwrap()
    );
    let weight_only = vec![(
        "weight".to_owned(),
        lin.parameter("weight").unwrap().tensor().detach(),
    )];
    assert_eq!(
        lin.load_state_dict(&weight_only, false).unwrap().repr(),
        reprs["load_not_strict"].as_str().unwrap()
    );
}

#[test]
fn layers_and_losses_record_pytorchs_nodes() {
    let names = &GOLDEN["names"];
    let session = Session::default();
    let lin = linear(&session, 3, 2, true);
    let name = |t: Tensor| t.grad_fn().map(|g| g.name().to_owned());
    let expect = |key: &str| names[key].as_str().map(str::to_owned);
    let x2 =
        Tensor::randn_like(&Tensor::zeros(&session, &[4, 3], DType::Float32, Device::CPU).unwrap())
            .unwrap();
    let forward = |x: &Tensor| lin.forward(std::slice::from_ref(x)).unwrap();
    assert_eq!(name(forward(&x2)), expect("linear_2d"));
    let x1 = Tensor::zeros(&session, &[3], DType::Float32, Device::CPU).unwrap();
    assert_eq!(name(forward(&x1)), expect("linear_1d"));
    let x3 = Tensor::zeros(&session, &[2, 4, 3], DType::Float32, Device::CPU).unwrap();
    let y3 = forward(&x3);
    assert_eq!(y3.shape(), [2, 4, 2]);
    assert_eq!(name(y3), expect("linear_3d"));
    let no_bias = linear(&session, 3, 2, false);
    assert_eq!(
        name(no_bias.forward(std::slice::from_ref(&x2)).unwrap()),
        expect("linear_no_bias")
    );
    let next: Vec<Option<String>> = forward(&x2)
        .grad_fn()
        .unwrap()
        .next_functions()
        .iter()
        .map(|n| n.as_ref().map(|g| g.name().to_owned()))
        .collect();
    assert_eq!(
        next,
        serde_json::from_value::<Vec<Option<String>>>(names["linear_2d_next"].clone()).unwrap()
    );
    let zeros = Tensor::zeros(&session, &[4, 2], DType::Float32, Device::CPU).unwrap();
    let targets = labels(&session, &serde_json::json!([0, 1, 1, 0]));
    assert_eq!(
        name(functional::mse_loss(&forward(&x2), &zeros, Reduction::Mean).unwrap()),
        expect("mse")
    );
    let ce = functional::cross_entropy(&forward(&x2), &targets, Reduction::Mean, -100).unwrap();
    assert_eq!(
        ce.grad_fn().unwrap().next_functions()[0]
            .as_ref()
            .map(|g| g.name().to_owned()),
        expect("cross_entropy_next")
    );
    assert_eq!(name(ce), expect("cross_entropy"));
    assert_eq!(
        name(
            functional::binary_cross_entropy_with_logits(&forward(&x2), &zeros, Reduction::Mean)
                .unwrap()
        ),
        expect("bce")
    );
    assert_eq!(
        name(functional::dropout(&forward(&x2), 0.5, true).unwrap()),
        expect("dropout")
    );
    assert_eq!(name(forward(&x2).relu().unwrap()), expect("relu"));
}

#[test]
fn loss_values_and_gradients_match_pytorch() {
    let golden = &GOLDEN["losses"];
    let session = Session::default();
    let target = labels(&session, &golden["target"]);
    let regress = tensor(
        &session,
        &json_floats(&golden["regress"]),
        &[5, 4],
        DType::Float64,
    );
    let probs = tensor(
        &session,
        &json_floats(&golden["probs_target"]),
        &[5, 4],
        DType::Float64,
    );
    let ignoring = labels(&session, &serde_json::json!([0, -100, 1, 2, -100]));
    for case in golden["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let logits = tensor(
            &session,
            &json_floats(&golden["logits"]),
            &[5, 4],
            DType::Float64,
        );
        logits.set_requires_grad(true).unwrap();
        let loss = match name {
            "cross_entropy_mean" => {
                functional::cross_entropy(&logits, &target, Reduction::Mean, -100)
            }
            "cross_entropy_sum" => {
                functional::cross_entropy(&logits, &target, Reduction::Sum, -100)
            }
            "cross_entropy_ignore" => {
                functional::cross_entropy(&logits, &ignoring, Reduction::Mean, -100)
            }
            "nll_mean" => functional::nll_loss(&logits, &target, Reduction::Mean, -100),
            "mse_mean" => functional::mse_loss(&logits, &regress, Reduction::Mean),
            "mse_sum" => functional::mse_loss(&logits, &regress, Reduction::Sum),
            "bce_mean" => {
                functional::binary_cross_entropy_with_logits(&logits, &probs, Reduction::Mean)
            }
            "bce_sum" => {
                functional::binary_cross_entropy_with_logits(&logits, &probs, Reduction::Sum)
            }
            "cross_entropy_none" => {
                let per_sample =
                    functional::cross_entropy(&logits, &target, Reduction::None, -100).unwrap();
                assert!(close(
                    &values(&per_sample),
                    &json_floats(&case["values"]),
                    1e-12
                ));
                continue;
            }
            other => panic!("unknown case {other}"),
        }
        .unwrap();
        let value = loss.item().unwrap().as_f64();
        let expected = case["value"].as_f64().unwrap();
        assert!(
            close(&[value], &[expected], 1e-12),
            "{name}: {value} vs {expected}"
        );
        loss.backward(None, false).unwrap();
        let grad = values(&logits.grad().unwrap());
        assert!(
            close(&grad, &json_floats(&case["grad"]), 1e-10),
            "{name} gradient"
        );
    }
}

#[test]
fn dropout_masks_come_from_pytorchs_generator() {
    let session = Session::default();
    for case in GOLDEN["dropout"].as_array().unwrap() {
        session.manual_seed(case["seed"].as_u64().unwrap());
        let n = case["n"].as_u64().unwrap() as usize;
        let ones = Tensor::ones(&session, &[n as i64], DType::Float32, Device::CPU).unwrap();
        let dropped = functional::dropout(&ones, case["p"].as_f64().unwrap(), true).unwrap();
        assert_eq!(values(&dropped), json_floats(&case["values"]));
        let next = Tensor::rand(&session, &[1], DType::Float32, Device::CPU).unwrap();
        assert_eq!(values(&next), vec![case["next_rand"].as_f64().unwrap()]);
    }
    let ones = Tensor::ones(&session, &[5], DType::Float32, Device::CPU).unwrap();
    let layer = common::layer(&session, Layer::Dropout { p: 0.5 }).unwrap();
    layer.eval();
    assert!(
        layer
            .forward(std::slice::from_ref(&ones))
            .unwrap()
            .is(&ones)
    );
}

/// Each case of `errors` in the golden file, reproduced.
fn error_case(session: &Session, name: &str) -> Option<Result<(), Error>> {
    let lin = linear(session, 3, 2, true);
    let zeros = |shape: &[i64]| Tensor::zeros(session, shape, DType::Float32, Device::CPU).unwrap();
    let state = |entries: &[(&str, &[i64])]| -> Vec<(String, Tensor)> {
        entries
            .iter()
            .map(|(k, shape)| ((*k).to_owned(), zeros(shape)))
            .collect()
    };
    let load = |m: &Module, entries: &[(&str, &[i64])]| {
        m.load_state_dict(&state(entries), true).map(|_| ())
    };
    let buffered = Module::custom("M");
    buffered
        .register_buffer("b", Some(zeros(&[1])), true)
        .unwrap();
    let sgd = |params: Vec<Parameter>, options: &[(&str, Hyper)]| {
        let options: Vec<(String, Hyper)> = options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        Optimizer::new(Algorithm::Sgd, vec![(params, Vec::new())], &options).map(|_| ())
    };
    let ints = |values: &[i64]| labels(session, &serde_json::json!(values));
    let forward = |m: &Module, inputs: &[Tensor]| m.forward(inputs).map(|_| ());
    Some(match name {
        "missing" => load(&lin, &[("weight", &[2, 3])]),
        "unexpected" => load(
            &lin,
            &[
                ("weight", &[2, 3]),
                ("bias", &[2]),
                ("extra", &[1]),
                ("more", &[1]),
            ],
        ),
        "size_mismatch" => load(&lin, &[("weight", &[3, 3]), ("bias", &[2])]),
        "missing_and_size" => load(&lin, &[("weight", &[3, 3])]),
        "nested_missing" => load(
            &Module::sequential(&[linear(session, 3, 2, true), Module::new(Layer::ReLU)]),
            &[("0.weight", &[2, 3])],
        ),
        "to_int" => lin.to(&To::dtype(DType::Int64)).map(|_| ()),
        "assign_tensor_to_parameter" => lin
            .assign("weight", Assign::Tensor(zeros(&[2, 3])))
            .map(|_| ()),
        "assign_int_to_buffer" => buffered
            .assign("b", Assign::Other("int".into()))
            .map(|_| ()),
        "missing_forward" => forward(&buffered, &[zeros(&[1])]),
        "non_leaf" => {
            let leaf = zeros(&[3]);
            leaf.set_requires_grad(true).unwrap();
            Parameter::of_tensor(&leaf.mul(Scalar::Int(2)).unwrap()).map(|_| ())
        }
        "empty" => sgd(Vec::new(), &[("lr", Hyper::Float(0.1))]),
        "negative_lr" => sgd(lin.parameters(), &[("lr", Hyper::Int(-1))]),
        "nesterov" => sgd(
            lin.parameters(),
            &[("lr", Hyper::Float(0.1)), ("nesterov", Hyper::Bool(true))],
        ),
        "beta" => Optimizer::new(
            Algorithm::Adam,
            vec![(lin.parameters(), Vec::new())],
            &[("betas".to_owned(), Hyper::Pair(1.0, 0.9))],
        )
        .map(|_| ()),
        "linear_shapes" => forward(&lin, &[zeros(&[4, 4])]),
        "linear_shapes_1d" => forward(&lin, &[zeros(&[4])]),
        "linear_dtype" => forward(
            &lin,
            &[Tensor::zeros(session, &[4, 3], DType::Float64, Device::CPU).unwrap()],
        ),
        "target_bounds" => {
            functional::cross_entropy(&zeros(&[2, 3]), &ints(&[0, 5]), Reduction::Mean, -100)
                .map(|_| ())
        }
        "target_negative" => {
            functional::nll_loss(&zeros(&[2, 3]), &ints(&[0, -3]), Reduction::Mean, -100)
                .map(|_| ())
        }
        "target_dtype" => functional::cross_entropy(
            &zeros(&[2, 3]),
            &tensor(session, &[0.0, 1.0], &[2], DType::Float32),
            Reduction::Mean,
            -100,
        )
        .map(|_| ()),
        "batch_sizes" => {
            functional::cross_entropy(&zeros(&[2, 3]), &ints(&[0, 1, 2]), Reduction::Mean, -100)
                .map(|_| ())
        }
        "bce_sizes" => functional::binary_cross_entropy_with_logits(
            &zeros(&[4, 2]),
            &zeros(&[4]),
            Reduction::Mean,
        )
        .map(|_| ()),
        "dropout_p" => layer(session, Layer::Dropout { p: 1.5 }).map(|_| ()),
        "loss_arity" => forward(
            &Module::new(Layer::MSELoss {
                reduction: Reduction::Mean,
            }),
            &[zeros(&[2])],
        ),
        "layer_arity" => forward(&lin, &[zeros(&[3]), zeros(&[3])]),
        "nll_1d_target" => {
            functional::nll_loss(&zeros(&[3]), &ints(&[0, 1, 2]), Reduction::Mean, -100).map(|_| ())
        }
        "nll_multi_target" => {
            let targets = Tensor::zeros(session, &[2, 2], DType::Int64, Device::CPU).unwrap();
            functional::nll_loss(&zeros(&[2, 3]), &targets, Reduction::Mean, -100).map(|_| ())
        }
        _ => return None,
    })
}

#[test]
fn errors_and_warnings_are_pytorchs_word_for_word() {
    let session = Session::default();
    let errors = GOLDEN["errors"].as_object().unwrap();
    let mut checked = 0;
    for (name, expected) in errors {
        let Some(outcome) = error_case(&session, name) else {
            continue;
        };
        assert_pytorch_error(&outcome.expect_err(name), expected, name);
        checked += 1;
    }
    assert_eq!(checked, errors.len() - 1, "every error case is reproduced");

    let zeros =
        |shape: &[i64]| Tensor::zeros(&session, shape, DType::Float32, Device::CPU).unwrap();
    session.take_warnings();
    functional::mse_loss(&zeros(&[4, 1]), &zeros(&[4]), Reduction::Mean).unwrap();
    assert_eq!(
        session.take_warnings(),
        serde_json::from_value::<Vec<String>>(errors["mse_broadcast_warning"].clone()).unwrap()
    );
}

/// One of the golden training runs on `device`: the losses of its 200 steps.
fn train(run: &str, device: &str) -> Vec<f64> {
    let golden = &GOLDEN["training"];
    let session = Session::default();
    let model = mlp(&session);
    let start: Vec<(String, Tensor)> = golden["start"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let shape = model
                .state_dict()
                .into_iter()
                .find(|(key, _)| key == k)
                .map(|(_, t)| t.shape().to_vec())
                .unwrap();
            (
                k.clone(),
                tensor(&session, &json_floats(v), &shape, DType::Float32),
            )
        })
        .collect();
    model.load_state_dict(&start, true).unwrap();
    model.to(&To::device(device)).unwrap();
    let data = tensor(
        &session,
        &json_floats(&golden["data"]),
        &[32, 4],
        DType::Float32,
    )
    .to(To::device(device))
    .unwrap();
    let classes = labels(&session, &golden["labels"])
        .to(To::device(device))
        .unwrap();
    let one_hot = {
        let eye = Tensor::eye(&session, 3, None, DType::Float32, Device::CPU).unwrap();
        eye.index_select(0, &labels(&session, &golden["labels"]))
            .unwrap()
            .to(To::device(device))
            .unwrap()
    };
    let (algorithm, options): (Algorithm, Vec<(&str, Hyper)>) = match run {
        "sgd_momentum" => (
            Algorithm::Sgd,
            vec![("lr", Hyper::Float(0.1)), ("momentum", Hyper::Float(0.9))],
        ),
        "sgd_nesterov_decay" => (
            Algorithm::Sgd,
            vec![
                ("lr", Hyper::Float(0.05)),
                ("momentum", Hyper::Float(0.9)),
                ("nesterov", Hyper::Bool(true)),
                ("weight_decay", Hyper::Float(1e-3)),
            ],
        ),
        "adam" => (Algorithm::Adam, vec![("lr", Hyper::Float(0.01))]),
        "adamw_mse" => (Algorithm::AdamW, vec![("lr", Hyper::Float(0.01))]),
        other => panic!("unknown run {other}"),
    };
    let options: Vec<(String, Hyper)> = options
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    let optimizer =
        Optimizer::new(algorithm, vec![(model.parameters(), Vec::new())], &options).unwrap();
    (0..200)
        .map(|_| {
            optimizer.zero_grad(true).unwrap();
            let scores = model.forward(std::slice::from_ref(&data)).unwrap();
            let loss = if run == "adamw_mse" {
                functional::mse_loss(&scores, &one_hot, Reduction::Mean)
            } else {
                functional::cross_entropy(&scores, &classes, Reduction::Mean, -100)
            }
            .unwrap();
            loss.backward(None, false).unwrap();
            optimizer.step().unwrap();
            loss.item().unwrap().as_f64()
        })
        .collect()
}

#[test]
fn training_runs_reach_pytorchs_losses_on_cpu_and_cuda() {
    for run in GOLDEN["training"]["runs"].as_array().unwrap() {
        let name = run["name"].as_str().unwrap();
        let expected = json_floats(&run["losses"]);
        for device in ["cpu", "cuda:0"] {
            let losses = train(name, device);
            let worst = losses
                .iter()
                .zip(&expected)
                .map(|(g, e)| ((g - e) / e).abs())
                .fold(0.0, f64::max);
            assert!(
                worst <= 1e-4,
                "{name} on {device}: worst relative error {worst:e}"
            );
        }
    }
}

fn cuda0() -> Device {
    Device::cuda(0)
}

/// One forward/backward pass of `model` on a batch of ones on `device`.
fn backward_once(model: &Module, device: Device) {
    let session = model.parameters()[0].tensor().session().clone();
    let x = Tensor::ones(&session, &[2, 4], DType::Float32, device).unwrap();
    model
        .forward(&[x])
        .unwrap()
        .sum(&[], false)
        .unwrap()
        .backward(None, false)
        .unwrap();
}

#[test]
fn module_to_moves_parameters_in_place_replaces_buffers_and_leaves_plain_tensors() {
    let session = Session::default();
    let model = mlp(&session);
    let stats = Tensor::zeros(&session, &[3], DType::Float32, Device::CPU).unwrap();
    model
        .register_buffer("stats", Some(stats.clone()), true)
        .unwrap();
    // `model.scale = torch.ones(1)`: a plain attribute, which the module does not register.
    let plain = Tensor::ones(&session, &[1], DType::Float32, Device::CPU).unwrap();
    assert!(
        !model
            .assign("scale", Assign::Tensor(plain.clone()))
            .unwrap()
    );

    let weight = model.parameters()[0].clone();
    backward_once(&model, Device::CPU);
    assert!(model.to(&To::device("cuda:0")).is_ok());

    let moved = &model.parameters()[0];
    assert!(moved.is(&weight), "the same Parameter object");
    assert_eq!(weight.tensor().device(), cuda0());
    assert!(weight.tensor().requires_grad() && weight.tensor().is_leaf());
    assert_eq!(weight.tensor().grad().map(|g| g.device()), Some(cuda0()));
    assert_eq!(model.buffer("stats").unwrap().device(), cuda0());
    assert!(
        !model.buffer("stats").unwrap().is(&stats),
        "buffers are replaced"
    );
    assert_eq!(plain.device(), Device::CPU, "plain attributes stay behind");
    assert_eq!(session.current_device().unwrap(), 0);

    model.cast(DType::Float16).unwrap();
    assert_eq!(weight.tensor().dtype(), DType::Float16);
    let ints = Module::custom("Counter");
    let count = Tensor::zeros(&session, &[1], DType::Int64, Device::CPU).unwrap();
    ints.register_buffer("count", Some(count), true).unwrap();
    ints.cast(DType::Float64).unwrap();
    assert_eq!(ints.buffer("count").unwrap().dtype(), DType::Int64);
}

#[test]
fn optimizer_state_left_behind_by_model_to_fails_on_step_until_reloaded() {
    for (algorithm, options) in [
        (
            Algorithm::Sgd,
            vec![("momentum".to_owned(), Hyper::Float(0.9))],
        ),
        (Algorithm::Adam, Vec::new()),
    ] {
        let session = Session::default();
        let model = mlp(&session);
        let optimizer =
            Optimizer::new(algorithm, vec![(model.parameters(), Vec::new())], &options).unwrap();
        backward_once(&model, Device::CPU);
        optimizer.step().unwrap();

        // The wrong way: move the model after the optimizer has state.
        model.to(&To::device("cuda:0")).unwrap();
        optimizer.zero_grad(true).unwrap();
        backward_once(&model, cuda0());
        let error = optimizer.step().unwrap_err();
        assert_eq!(
            error.to_string(),
            "Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!",
            "{algorithm:?}"
        );

        // The fix: load_state_dict casts the state to each parameter's device.
        optimizer.load_state_dict(&optimizer.state_dict()).unwrap();
        let state = optimizer.state_of(&model.parameters()[0]).unwrap();
        for (name, tensor) in &state {
            let expected = if name == "step" { Device::CPU } else { cuda0() };
            assert_eq!(tensor.device(), expected, "{algorithm:?} {name}");
        }
        optimizer.step().unwrap();
    }
}

#[test]
fn a_tensor_moved_after_requires_grad_is_not_a_leaf_and_cannot_be_optimized() {
    let session = Session::default();
    let w = Tensor::zeros(&session, &[3], DType::Float32, Device::CPU).unwrap();
    w.set_requires_grad(true).unwrap();
    let moved = w.to(To::device("cuda")).unwrap();
    assert!(!moved.is_leaf());
    let error = Parameter::of_tensor(&moved).unwrap_err();
    assert_eq!(error.to_string(), "can't optimize a non-leaf Tensor");
    assert_eq!(error.python_type().name(), "ValueError");
    // The fix: create the leaf on the device.
    let leaf = Tensor::zeros(&session, &[3], DType::Float32, cuda0()).unwrap();
    leaf.set_requires_grad(true).unwrap();
    assert!(Parameter::of_tensor(&leaf).is_ok());
}

#[test]
fn a_cpu_checkpoint_loads_into_a_gpu_model_in_place() {
    let session = Session::default();
    let source = mlp(&session);
    let checkpoint = source.state_dict();
    let model = mlp(&session);
    model.to(&To::device("cuda:0")).unwrap();
    let weight = model.parameters()[0].tensor();
    model.load_state_dict(&checkpoint, true).unwrap();
    assert!(
        model.parameters()[0].tensor().is(&weight),
        "copied in place"
    );
    assert_eq!(weight.device(), cuda0());
    assert_eq!(
        values(&weight),
        values(&checkpoint[0].1),
        "the checkpoint's values"
    );
}

#[test]
fn attribute_assignment_registers_as_module_setattr_does() {
    let session = Session::default();
    let net = Module::custom("Net");
    let fc = linear(&session, 2, 2, true);
    assert!(net.assign("fc", Assign::Module(fc.clone())).unwrap());
    let p = Parameter::new(
        &Tensor::zeros(&session, &[2], DType::Float32, Device::CPU).unwrap(),
        true,
    )
    .unwrap();
    assert!(net.assign("w", Assign::Parameter(p)).unwrap());
    net.register_buffer(
        "running",
        Some(Tensor::zeros(&session, &[2], DType::Float32, Device::CPU).unwrap()),
        false,
    )
    .unwrap();
    assert_eq!(
        net.state_dict()
            .into_iter()
            .map(|(k, _)| k)
            .collect::<Vec<_>>(),
        ["w", "fc.weight", "fc.bias"],
        "non-persistent buffers stay out of state_dict"
    );
    assert!(net.assign("w", Assign::None).unwrap());
    assert!(net.parameter("w").is_none());
    assert_eq!(net.parameters().len(), 2);
    assert_eq!(
        net.register_buffer("fc", None, true)
            .unwrap_err()
            .to_string(),
        "attribute 'fc' already exists"
    );
    // A plain value of a member's name replaces the member.
    assert!(!net.assign("fc", Assign::Other("int".into())).unwrap());
    assert!(net.child("fc").is_none());
    assert_eq!(
        net.forward(&[]).unwrap_err().to_string(),
        "Module [Net] is missing the required \"forward\" function"
    );
}

#[test]
fn zero_grad_drops_or_zeroes_gradients() {
    let session = Session::default();
    let model = mlp(&session);
    backward_once(&model, Device::CPU);
    model.zero_grad(false).unwrap();
    let grad = model.parameters()[0].tensor().grad().unwrap();
    assert!(values(&grad).iter().all(|&g| g == 0.0));
    model.zero_grad(true).unwrap();
    assert!(model.parameters()[0].tensor().grad().is_none());
}
