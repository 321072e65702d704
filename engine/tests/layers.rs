//! Conv2d, Embedding and LayerNorm against PyTorch 2.15 (`tests/golden/layers.json`): default
//! initialisation, reprs, values and gradients (float64) on `cpu` and on the logical GPUs, the
//! nodes they record, and their errors.

mod common;

use std::sync::LazyLock;

use common::{assert_pytorch_error, backward_weighted, json_floats, layer, tensor, values};
use serde_json::Value as Json;
use tolab_engine::nn::functional::{self, Padding};
use tolab_engine::nn::{Factory, Layer, Module};
use tolab_engine::{DType, Device, Error, Scalar, Session, Tensor, To};

static GOLDEN: LazyLock<Json> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../tests/golden/layers.json"))
        .expect("layers.json parses")
});

fn conv2d(
    in_channels: usize,
    out_channels: usize,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: Padding,
    dilation: [usize; 2],
    groups: usize,
) -> Layer {
    Layer::Conv2d {
        in_channels,
        out_channels,
        kernel_size,
        stride,
        padding,
        dilation,
        groups,
    }
}

fn embedding(num_embeddings: usize, embedding_dim: usize, padding_idx: Option<i64>) -> Layer {
    Layer::Embedding {
        num_embeddings,
        embedding_dim,
        padding_idx,
    }
}

fn layer_norm(normalized_shape: &[usize], elementwise_affine: bool) -> Layer {
    Layer::LayerNorm {
        normalized_shape: normalized_shape.to_vec(),
        eps: 1e-5,
        elementwise_affine,
    }
}

fn shape(value: &Json) -> Vec<usize> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect()
}

fn close(got: &[f64], expected: &[f64]) -> bool {
    got.len() == expected.len()
        && got
            .iter()
            .zip(expected)
            .all(|(g, e)| (g - e).abs() <= 1e-10 * e.abs().max(1.0))
}

/// A float64 leaf that requires grad, on `device`.
fn leaf(session: &Session, values: &[f64], shape: &[usize], device: Device) -> Tensor {
    let t = tensor(session, values, shape, DType::Float64)
        .to(To::device(device.to_string()))
        .unwrap();
    t.set_requires_grad(true).unwrap();
    t
}

fn pair(value: &Json, default: usize) -> [usize; 2] {
    match value {
        Json::Number(n) => [n.as_u64().unwrap() as usize; 2],
        _ => [default; 2],
    }
}

#[test]
fn default_initialisation_and_reprs_match_pytorch() {
    let session = Session::default();
    session.manual_seed(0);
    let conv = layer(
        &session,
        conv2d(3, 4, [3, 3], [1, 1], Padding::Explicit([0, 0]), [1, 1], 1),
    )
    .unwrap();
    let emb = layer(&session, embedding(6, 3, Some(1))).unwrap();
    let init = &GOLDEN["init"];
    assert_eq!(
        values(&conv.parameter("weight").unwrap().tensor()),
        json_floats(&init["conv_weight"])
    );
    assert_eq!(
        values(&conv.parameter("bias").unwrap().tensor()),
        json_floats(&init["conv_bias"])
    );
    assert_eq!(
        values(&emb.parameter("weight").unwrap().tensor()),
        json_floats(&init["embedding"])
    );

    let no_bias = Factory {
        bias: false,
        ..Factory::default()
    };
    let modules = [
        layer(
            &session,
            conv2d(3, 8, [3, 3], [1, 1], Padding::Explicit([0, 0]), [1, 1], 1),
        ),
        Module::build(
            &session,
            conv2d(3, 8, [3, 5], [2, 2], Padding::Explicit([1, 1]), [2, 2], 1),
            &no_bias,
        ),
        layer(
            &session,
            conv2d(4, 8, [3, 3], [1, 1], Padding::Same, [1, 1], 2),
        ),
        layer(&session, embedding(10, 3, None)),
        layer(&session, embedding(10, 3, Some(-1))),
        layer(&session, layer_norm(&[4], true)),
        layer(&session, layer_norm(&[2, 4], false)),
        Module::build(&session, layer_norm(&[4], true), &no_bias),
    ]
    .map(Result::unwrap);
    let reprs: Vec<String> = modules.iter().map(Module::repr).collect();
    assert_eq!(Json::from(reprs), GOLDEN["reprs"]);
}

#[test]
fn conv2d_values_and_gradients_match_pytorch_on_cpu_and_gpus() {
    for device in [Device::CPU, Device::cuda(0), Device::cuda(1)] {
        let session = Session::default();
        for case in GOLDEN["conv"].as_array().unwrap() {
            let name = case["name"].as_str().unwrap();
            let x = leaf(
                &session,
                &json_floats(&case["x"]),
                &shape(&case["x_shape"]),
                device,
            );
            let w = leaf(
                &session,
                &json_floats(&case["w"]),
                &shape(&case["w_shape"]),
                device,
            );
            let b_shape = [shape(&case["w_shape"])[0]];
            let b = leaf(&session, &json_floats(&case["b"]), &b_shape, device);
            let kwargs = &case["kwargs"];
            let padding = match &kwargs["padding"] {
                Json::String(s) if s == "same" => Padding::Same,
                other => Padding::Explicit(pair(other, 0)),
            };
            let groups = kwargs["groups"].as_u64().unwrap_or(1) as usize;
            let y = functional::conv2d(
                &x,
                &w,
                Some(&b),
                pair(&kwargs["stride"], 1),
                padding,
                pair(&kwargs["dilation"], 1),
                groups,
            )
            .unwrap();
            assert_eq!(y.device(), device);
            assert_eq!(y.shape(), shape(&case["y_shape"]).as_slice(), "{name}");
            assert!(
                close(&values(&y), &json_floats(&case["y"])),
                "{name} on {device}: values"
            );
            assert_eq!(
                y.grad_fn().unwrap().name(),
                case["grad_fn"].as_str().unwrap()
            );
            backward_weighted(&y, &case["weights"]);
            for (t, key) in [(&x, "dx"), (&w, "dw"), (&b, "db")] {
                let grad = t.grad().unwrap();
                assert_eq!(grad.device(), device);
                assert!(
                    close(&values(&grad), &json_floats(&case[key])),
                    "{name} on {device}: {key}"
                );
            }
        }
    }
}

#[test]
fn embedding_and_layer_norm_values_and_gradients_match_pytorch() {
    for device in [Device::CPU, Device::cuda(0)] {
        let session = Session::default();
        let golden = &GOLDEN["embedding"];
        let w = leaf(&session, &json_floats(&golden["w"]), &[5, 3], device);
        let indices: Vec<Scalar> = golden["indices"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|row| {
                row.as_array()
                    .unwrap()
                    .iter()
                    .map(|v| Scalar::Int(v.as_i64().unwrap()))
            })
            .collect();
        let idx = Tensor::from_scalars(&session, &indices, &[2, 2], None, device, false).unwrap();
        let e = functional::embedding(&idx, &w, Some(2)).unwrap();
        assert_eq!(e.shape(), [2, 2, 3]);
        assert!(close(&values(&e), &json_floats(&golden["y"])));
        assert_eq!(
            e.grad_fn().unwrap().name(),
            golden["grad_fn"].as_str().unwrap()
        );
        backward_weighted(&e, &golden["weights"]);
        assert!(close(
            &values(&w.grad().unwrap()),
            &json_floats(&golden["dw"])
        ));

        let golden = &GOLDEN["layer_norm"];
        let x = leaf(&session, &json_floats(&golden["x"]), &[3, 2, 4], device);
        let lw = leaf(&session, &json_floats(&golden["w"]), &[2, 4], device);
        let lb = leaf(&session, &json_floats(&golden["b"]), &[2, 4], device);
        let y = functional::layer_norm(&x, &[2, 4], Some(&lw), Some(&lb), 1e-5).unwrap();
        assert!(close(&values(&y), &json_floats(&golden["y"])));
        assert_eq!(
            y.grad_fn().unwrap().name(),
            golden["grad_fn"].as_str().unwrap()
        );
        backward_weighted(&y, &golden["weights"]);
        for (t, key) in [(&x, "dx"), (&lw, "dw"), (&lb, "db")] {
            assert!(
                close(&values(&t.grad().unwrap()), &json_floats(&golden[key])),
                "{key} on {device}"
            );
        }
    }
}

#[test]
fn layer_errors_are_pytorchs() {
    let session = Session::default();
    let zeros =
        |shape: &[i64]| Tensor::zeros(&session, shape, DType::Float32, Device::CPU).unwrap();
    let w = zeros(&[8, 3, 3, 3]);
    let conv = |x: &Tensor, w: &Tensor, b: Option<&Tensor>, stride, padding, groups| {
        functional::conv2d(x, w, b, stride, padding, [1, 1], groups).map(|_| ())
    };
    let none = Padding::Explicit([0, 0]);
    let ints = |values: &[i64]| {
        let s: Vec<Scalar> = values.iter().map(|&v| Scalar::Int(v)).collect();
        Tensor::from_scalars(&session, &s, &[s.len()], None, Device::CPU, false).unwrap()
    };
    let cases: Vec<(&str, Result<(), Error>)> = vec![
        (
            "channels",
            conv(&zeros(&[1, 4, 5, 5]), &w, None, [1, 1], none, 1),
        ),
        (
            "too_small",
            conv(&zeros(&[1, 3, 2, 2]), &w, None, [1, 1], none, 1),
        ),
        (
            "bias",
            conv(
                &zeros(&[1, 3, 5, 5]),
                &w,
                Some(&zeros(&[7])),
                [1, 1],
                none,
                1,
            ),
        ),
        (
            "input_dims",
            conv(&zeros(&[5, 5]), &w, None, [1, 1], none, 1),
        ),
        (
            "groups",
            conv(
                &zeros(&[1, 4, 5, 5]),
                &zeros(&[8, 2, 3, 3]),
                None,
                [1, 1],
                none,
                3,
            ),
        ),
        (
            "same_strided",
            conv(&zeros(&[1, 3, 5, 5]), &w, None, [2, 2], Padding::Same, 1),
        ),
        (
            "embedding_range",
            functional::embedding(&ints(&[11]), &zeros(&[10, 3]), None).map(|_| ()),
        ),
        (
            "embedding_dtype",
            functional::embedding(&zeros(&[1]), &zeros(&[10, 3]), None).map(|_| ()),
        ),
        (
            "layer_norm_shape",
            functional::layer_norm(&zeros(&[2, 3]), &[4], None, None, 1e-5).map(|_| ()),
        ),
        (
            "layer_norm_weight",
            functional::layer_norm(&zeros(&[2, 4]), &[4], Some(&zeros(&[3])), None, 1e-5)
                .map(|_| ()),
        ),
        (
            "layer_norm_bias",
            functional::layer_norm(&zeros(&[2, 4]), &[4], None, Some(&zeros(&[3])), 1e-5)
                .map(|_| ()),
        ),
        (
            "embedding_weight",
            functional::embedding(&ints(&[1]), &zeros(&[3]), None).map(|_| ()),
        ),
    ];
    for (name, outcome) in cases {
        assert_pytorch_error(&outcome.expect_err(name), &GOLDEN["errors"][name], name);
    }
}

#[test]
fn init_functions_draw_pytorchs_values() {
    use tolab_engine::nn::init::{self, FanMode};
    let golden = &GOLDEN["init_functions"];
    let session = Session::default();
    session.manual_seed(5);
    type Fill = fn(&Tensor) -> Result<(), Error>;
    let fills: [(&str, Fill); 6] = [
        ("kaiming_uniform_relu_fan_out", |w| {
            init::kaiming_uniform_(w, 0.0, FanMode::FanOut, "relu")
        }),
        ("kaiming_normal", |w| {
            init::kaiming_normal_(w, 0.0, FanMode::FanIn, "leaky_relu")
        }),
        ("xavier_uniform_tanh", |w| {
            init::xavier_uniform_(w, init::calculate_gain("tanh", None)?)
        }),
        ("xavier_normal", |w| init::xavier_normal_(w, 1.0)),
        ("zeros", |w| init::constant_(w, 0.0)),
        ("ones", |w| init::constant_(w, 1.0)),
    ];
    for (name, fill) in fills {
        let w = Tensor::empty(&session, &[5, 4], DType::Float32, Device::CPU).unwrap();
        fill(&w).unwrap();
        assert_eq!(values(&w), json_floats(&golden[name]), "{name}");
    }
    let conv = Tensor::empty(&session, &[8, 3, 3, 3], DType::Float32, Device::CPU).unwrap();
    init::kaiming_normal_(&conv, 0.0, FanMode::FanIn, "relu").unwrap();
    assert_eq!(values(&conv), json_floats(&golden["kaiming_normal_conv"]));
    for (name, gain) in golden["gains"].as_object().unwrap() {
        assert_eq!(
            init::calculate_gain(name, None).unwrap(),
            gain.as_f64().unwrap(),
            "{name}"
        );
    }
    let vector = Tensor::empty(&session, &[3], DType::Float32, Device::CPU).unwrap();
    let errors = &golden["errors"];
    let cases = [
        (
            "vector",
            init::kaiming_uniform_(&vector, 0.0, FanMode::FanIn, "leaky_relu"),
        ),
        ("mode", FanMode::parse("fan_mid").map(|_| ())),
        (
            "nonlinearity",
            init::calculate_gain("swish", None).map(|_| ()),
        ),
    ];
    for (name, outcome) in cases {
        assert_pytorch_error(&outcome.unwrap_err(), &errors[name], name);
    }
}
