//! Bad input gets an error, never a panic: the library's entry points called with every pairing of
//! odd shapes (0-d, empty, mismatched) and dtypes. Any panic fails the test; the results
//! themselves may be values or errors.

mod common;

use common::layer;
use tolab_engine::data::{DataLoader, LoaderOptions, TensorDataset, default_collate};
use tolab_engine::nn::functional::{self, Padding, Reduction};
use tolab_engine::nn::{Layer, Module};
use tolab_engine::optim::{Algorithm, Optimizer};
use tolab_engine::serialization::{self, Files, MapLocation, MemoryFiles};
use tolab_engine::value::Value;
use tolab_engine::{DType, Device, Session, Tensor};

fn odd_tensors(session: &Session) -> Vec<Tensor> {
    let shapes: [&[i64]; 8] = [
        &[],
        &[0],
        &[3],
        &[2, 3],
        &[3, 2],
        &[2, 0, 3],
        &[1, 3, 4, 4],
        &[2, 3, 2, 2, 1],
    ];
    let mut out = Vec::new();
    for dtype in [DType::Float32, DType::Int64, DType::Bool, DType::Float16] {
        for shape in shapes {
            out.push(Tensor::zeros(session, shape, dtype, Device::CPU).unwrap());
        }
    }
    out.push(Tensor::zeros(&session.clone(), &[2, 3], DType::Float32, Device::cuda(1)).unwrap());
    out
}

#[test]
fn functional_forms_refuse_bad_shapes_and_dtypes_without_panicking() {
    let session = Session::default();
    let tensors = odd_tensors(&session);
    for a in &tensors {
        let _ = functional::dropout(a, 0.5, true);
        let _ = functional::flatten(a, 1, -1);
        let _ = functional::flatten(a, 5, -7);
        for b in &tensors {
            let _ = functional::linear(a, b, None);
            let _ = functional::linear(a, b, Some(a));
            let _ = functional::mse_loss(a, b, Reduction::Mean);
            let _ = functional::cross_entropy(a, b, Reduction::Mean, -100);
            let _ = functional::nll_loss(a, b, Reduction::None, -100);
            let _ = functional::binary_cross_entropy_with_logits(a, b, Reduction::Sum);
            let _ = functional::embedding(a, b, Some(0));
            let _ = functional::layer_norm(a, b.shape(), Some(b), None, 1e-5);
            let _ = functional::conv2d(a, b, None, [1, 1], Padding::Same, [1, 1], 1);
            let _ = functional::conv2d(a, b, Some(a), [0, 2], Padding::Explicit([9, 0]), [0, 3], 0);
            let _ = a.addmm(b, a);
        }
    }
}

#[test]
fn modules_optimizers_loaders_and_checkpoints_survive_nonsense() {
    let session = Session::default();
    let tensors = odd_tensors(&session);
    let layers = [
        Layer::Linear {
            in_features: 0,
            out_features: 3,
        },
        Layer::Conv2d {
            in_channels: 3,
            out_channels: 2,
            kernel_size: [0, 5],
            stride: [0, 1],
            padding: Padding::Same,
            dilation: [1, 0],
            groups: 0,
        },
        Layer::Embedding {
            num_embeddings: 0,
            embedding_dim: 2,
            padding_idx: Some(7),
        },
        Layer::LayerNorm {
            normalized_shape: vec![],
            eps: 0.0,
            elementwise_affine: true,
        },
        Layer::Dropout { p: -1.0 },
        Layer::Flatten {
            start_dim: 9,
            end_dim: 0,
        },
    ];
    for l in layers {
        if let Ok(module) = layer(&session, l) {
            for t in &tensors {
                let _ = module.forward(std::slice::from_ref(t));
                let _ = module.forward(&[]);
            }
            let _ = module.load_state_dict(&[("weight".into(), tensors[0].clone())], true);
        }
    }
    let module = Module::custom("Net");
    let _ = Optimizer::new(
        Algorithm::Adam,
        vec![(module.parameters(), Vec::new())],
        &[],
    );

    let empty = TensorDataset::new(vec![tensors[1].clone()]).unwrap();
    let options = LoaderOptions {
        batch_size: Some(3),
        shuffle: true,
        num_workers: 3,
        ..LoaderOptions::default()
    };
    let loader = DataLoader::new(&session, empty, options).unwrap();
    assert!(loader.iter().next_batch(None).is_none());
    let _ = default_collate(
        &session,
        vec![Value::Int(1), Value::Tensor(tensors[2].clone())],
    );
    let _ = default_collate(
        &session,
        vec![Value::Tuple(vec![]), Value::List(vec![Value::None])],
    );

    let files = MemoryFiles::default();
    for bytes in [
        &b""[..],
        b"TOLABPT1",
        b"TOLABPT1\xff\xff\xff\xff\xff\xff\xff\xff{",
        b"TOLABPT1\x02\0\0\0\0\0\0\0{}",
    ] {
        files.write("bad.pt", bytes.to_vec()).unwrap();
        assert!(
            serialization::load(&session, "bad.pt", &files, &MapLocation::Saved, true).is_err()
        );
    }
}
