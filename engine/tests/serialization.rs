//! `torch.save` / `torch.load`: what comes back (values, dtypes, devices, `requires_grad`, the
//! containers around tensors), `map_location` in each of its forms, and the errors of a checkpoint
//! that names a device this machine lacks (texts from torch 2.15's `torch/serialization.py`,
//! `_validate_device`; the first checked against a CPU-only torch run).

mod common;

use common::values;
use tolab_engine::nn::{Factory, Layer, Module};
use tolab_engine::serialization::{self, Files, Key, MapLocation, MemoryFiles, Value};
use tolab_engine::{DType, Device, Error, Scalar, Session, SessionConfig, Tensor, To};

fn ramp(session: &Session, n: usize, dtype: DType, device: Device) -> Tensor {
    let scalars: Vec<Scalar> = (0..n)
        .map(|i| Scalar::Float(i as f64 * 0.5 - 1.0))
        .collect();
    Tensor::from_scalars(session, &scalars, &[n], Some(dtype), device, false).unwrap()
}

/// A session on a machine with `count` GPUs.
fn machine_with_gpus(count: usize) -> Session {
    Session::new(SessionConfig {
        gpu_count: count,
        ..SessionConfig::default()
    })
}

fn tensor_at<'a>(stored: &'a Value, key: &str) -> &'a Tensor {
    let Value::Dict(entries) = stored else {
        panic!("a dict")
    };
    match entries.iter().find(|(k, _)| *k == Key::Str(key.into())) {
        Some((_, Value::Tensor(t))) => t,
        _ => panic!("{key} is a tensor"),
    }
}

#[test]
fn a_checkpoint_brings_back_values_dtypes_devices_and_containers() {
    let session = Session::default();
    let files = MemoryFiles::default();
    let weights = ramp(&session, 6, DType::Float32, Device::cuda(1))
        .view(&[2, 3])
        .unwrap()
        .t()
        .unwrap();
    let trainable = ramp(&session, 3, DType::Float64, Device::CPU);
    trainable.set_requires_grad(true).unwrap();
    let checkpoint = Value::Dict(vec![
        (Key::Str("weights".into()), Value::Tensor(weights.clone())),
        (
            Key::Str("trainable".into()),
            Value::Tensor(trainable.clone()),
        ),
        (
            Key::Str("half".into()),
            Value::Tensor(ramp(&session, 4, DType::Float16, Device::cuda(0))),
        ),
        (
            Key::Str("flags".into()),
            Value::Tensor(
                ramp(&session, 4, DType::Float32, Device::CPU)
                    .compare(
                        tolab_engine::backend::cpu::elementwise::Binary::Gt,
                        Scalar::Int(0),
                    )
                    .unwrap(),
            ),
        ),
        (Key::Int(7), Value::Float(f64::NAN)),
        (
            Key::Str("meta".into()),
            Value::Tuple(vec![
                Value::Int(3),
                Value::Str("epoch".into()),
                Value::None,
                Value::Bool(true),
                Value::List(vec![Value::Float(0.25)]),
            ]),
        ),
    ]);
    serialization::save(&checkpoint, "ckpt.pt", &files).unwrap();
    let loaded =
        serialization::load(&session, "ckpt.pt", &files, &MapLocation::Saved, true).unwrap();

    let w = tensor_at(&loaded, "weights");
    assert_eq!(w.device(), Device::cuda(1));
    assert_eq!(w.shape(), [3, 2]);
    assert_eq!(values(w), values(&weights));
    let t = tensor_at(&loaded, "trainable");
    assert!(t.requires_grad() && t.is_leaf());
    assert_eq!(t.dtype(), DType::Float64);
    assert_eq!(tensor_at(&loaded, "half").dtype(), DType::Float16);
    assert_eq!(tensor_at(&loaded, "half").device(), Device::cuda(0));
    assert_eq!(values(tensor_at(&loaded, "flags")), [0.0, 0.0, 0.0, 1.0]);
    let Value::Dict(entries) = &loaded else {
        panic!("a dict")
    };
    assert!(matches!(entries[4], (Key::Int(7), Value::Float(x)) if x.is_nan()));
    assert!(matches!(
        &entries[5].1,
        Value::Tuple(items) if matches!(items.as_slice(), [
            Value::Int(3),
            Value::Str(s),
            Value::None,
            Value::Bool(true),
            Value::List(_),
        ] if s == "epoch")
    ));
}

#[test]
fn map_location_moves_tensors_as_pytorch_does_in_each_form() {
    let session = Session::default();
    let files = MemoryFiles::default();
    let checkpoint = Value::List(vec![
        Value::Tensor(ramp(&session, 2, DType::Float32, Device::cuda(1))),
        Value::Tensor(ramp(&session, 2, DType::Float32, Device::CPU)),
    ]);
    serialization::save(&checkpoint, "m.pt", &files).unwrap();
    let devices = |map: &MapLocation| -> Vec<Device> {
        match serialization::load(&session, "m.pt", &files, map, true).unwrap() {
            Value::List(items) => items
                .iter()
                .map(|i| match i {
                    Value::Tensor(t) => t.device(),
                    _ => panic!("tensors"),
                })
                .collect(),
            _ => panic!("a list"),
        }
    };
    assert_eq!(devices(&MapLocation::Saved), [Device::cuda(1), Device::CPU]);
    assert_eq!(devices(&MapLocation::To("cpu".into())), [Device::CPU; 2]);
    assert_eq!(
        devices(&MapLocation::To("cuda:0".into())),
        [Device::cuda(0); 2]
    );
    assert_eq!(
        devices(&MapLocation::Remap(vec![(
            "cuda:1".into(),
            "cuda:0".into()
        )])),
        [Device::cuda(0), Device::CPU]
    );
    // `lambda storage, loc: storage` keeps everything on the CPU.
    let keep = |storage: &Tensor, _: &str| Ok(Some(storage.clone()));
    assert_eq!(devices(&MapLocation::Call(&keep)), [Device::CPU; 2]);
    let default = |_: &Tensor, _: &str| Ok(None);
    assert_eq!(
        devices(&MapLocation::Call(&default)),
        [Device::cuda(1), Device::CPU]
    );
    let unknown = serialization::load(
        &session,
        "m.pt",
        &files,
        &MapLocation::To("gpu".into()),
        true,
    )
    .unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "don't know how to restore data location of torch.storage.UntypedStorage (tagged with gpu)"
    );
}

#[test]
fn a_gpu_checkpoint_without_that_gpu_fails_with_pytorchs_advice() {
    let files = MemoryFiles::default();
    let trained = Session::default();
    let checkpoint = Value::Tensor(ramp(&trained, 2, DType::Float32, Device::cuda(1)));
    serialization::save(&checkpoint, "gpu.pt", &files).unwrap();

    let laptop = machine_with_gpus(0);
    let error =
        serialization::load(&laptop, "gpu.pt", &files, &MapLocation::Saved, true).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU."
    );
    assert_eq!(error.python_type().name(), "RuntimeError");
    let fixed = serialization::load(
        &laptop,
        "gpu.pt",
        &files,
        &MapLocation::To("cpu".into()),
        true,
    );
    assert!(matches!(fixed, Ok(Value::Tensor(t)) if t.device() == Device::CPU));

    let one_gpu = machine_with_gpus(1);
    let error =
        serialization::load(&one_gpu, "gpu.pt", &files, &MapLocation::Saved, true).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Attempting to deserialize object on CUDA device 1 but torch.cuda.device_count() is 1. Please use torch.load with map_location to map your storages to an existing device."
    );
}

#[test]
fn a_gpu_models_state_dict_loads_into_a_cpu_model() {
    let session = Session::default();
    let files = MemoryFiles::default();
    let lin = |session: &Session| common::linear(session, 3, 2, true);
    let gpu_model = Module::sequential(&[lin(&session), Module::new(Layer::ReLU)]);
    gpu_model.to(&To::device("cuda:0")).unwrap();
    let state: Vec<(Key, Value)> = gpu_model
        .state_dict()
        .into_iter()
        .map(|(k, t)| (Key::Str(k), Value::Tensor(t)))
        .collect();
    serialization::save(&Value::Dict(state), "model.pt", &files).unwrap();

    let laptop = machine_with_gpus(0);
    let Value::Dict(entries) = serialization::load(
        &laptop,
        "model.pt",
        &files,
        &MapLocation::To("cpu".into()),
        true,
    )
    .unwrap() else {
        panic!("a dict")
    };
    let state: Vec<(String, Tensor)> = entries
        .into_iter()
        .map(|(k, v)| match (k, v) {
            (Key::Str(k), Value::Tensor(t)) => (k, t),
            _ => panic!("str keys and tensors"),
        })
        .collect();
    let cpu_model = Module::sequential(&[lin(&laptop), Module::new(Layer::ReLU)]);
    cpu_model.load_state_dict(&state, true).unwrap();
    let expected = values(&gpu_model.parameters()[0].tensor());
    assert_eq!(values(&cpu_model.parameters()[0].tensor()), expected);
}

#[test]
fn missing_and_corrupt_files_fail_as_in_python() {
    let session = Session::default();
    let files = MemoryFiles::default();
    let missing =
        serialization::load(&session, "nope.pt", &files, &MapLocation::Saved, true).unwrap_err();
    assert_eq!(
        missing.to_string(),
        "[Errno 2] No such file or directory: 'nope.pt'"
    );
    assert_eq!(missing.python_type().name(), "FileNotFoundError");
    files.write("notes.txt", b"hello".to_vec()).unwrap();
    let corrupt =
        serialization::load(&session, "notes.txt", &files, &MapLocation::Saved, true).unwrap_err();
    assert!(matches!(corrupt, Error::NotACheckpoint));
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn disk_files_hold_checkpoints_relative_to_the_working_directory() {
    let session = Session::default();
    let root = std::env::temp_dir().join(format!("tolab-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    let files = serialization::DiskFiles { root: root.clone() };
    let t = ramp(&session, 5, DType::Int64, Device::CPU);
    serialization::save(&Value::Tensor(t.clone()), "t.pt", &files).unwrap();
    assert!(root.join("t.pt").exists());
    let loaded = serialization::load(&session, "t.pt", &files, &MapLocation::Saved, true).unwrap();
    assert!(matches!(loaded, Value::Tensor(u) if values(&u) == values(&t)));
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_whole_model_needs_weights_only_false_as_since_pytorch_2_6() {
    static GOLDEN: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| {
        serde_json::from_str(include_str!("../../tests/golden/layers.json")).unwrap()
    });
    let session = Session::default();
    let files = MemoryFiles::default();
    let sequential = Module::sequential(&[
        common::linear(&session, 3, 2, true),
        Module::build(&session, Layer::ReLU, &Factory::default()).unwrap(),
    ]);
    let net = Module::custom("Net");
    net.add_module("fc", Some(common::linear(&session, 2, 1, true)));
    for (name, model) in [("sequential", &sequential), ("custom", &net)] {
        serialization::save(&Value::Module(model.clone()), "model.pt", &files).unwrap();
        let error = serialization::load(&session, "model.pt", &files, &MapLocation::Saved, true)
            .unwrap_err();
        common::assert_pytorch_error(&error, &GOLDEN["weights_only"][name], name);

        let Value::Module(loaded) =
            serialization::load(&session, "model.pt", &files, &MapLocation::Saved, false).unwrap()
        else {
            panic!("a module")
        };
        assert_eq!(loaded.repr(), model.repr());
        assert!(!loaded.is(model), "a new module");
        for (p, q) in loaded.parameters().iter().zip(model.parameters()) {
            assert_eq!(values(&p.tensor()), values(&q.tensor()));
            assert!(p.tensor().requires_grad() && p.tensor().is_leaf());
        }
    }
}
