//! `torch.utils.data` against PyTorch 2.15 (`tests/golden/data.json`): the batches of seeded
//! shuffles with and without a generator, over two epochs, and what each leaves in the global
//! generator; `drop_last`; collation of tensors and numbers; worker seeding; errors and warnings.
//! Then the worker pitfall: CUDA in a worker forked after the parent used it (the text from
//! `torch/cuda/__init__.py`, `_lazy_init`; the wrapper from `torch/_utils.py`, `ExceptionWrapper`).

mod common;

use std::sync::LazyLock;

use common::{json_floats, values};
use serde_json::Value as Json;
use tolab_engine::data::{DataLoader, Dataset, LoaderOptions, TensorDataset};
use tolab_engine::random::GeneratorHandle;
use tolab_engine::trace::EventKind;
use tolab_engine::value::Value;
use tolab_engine::{DType, Device, Error, Scalar, Session, Tensor};

static GOLDEN: LazyLock<Json> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../tests/golden/data.json")).expect("data.json parses")
});

fn dataset(session: &Session) -> TensorDataset {
    let range = |end, step, dtype| {
        Tensor::arange(
            session,
            Scalar::Int(0),
            Scalar::Int(end),
            Scalar::Int(step),
            Some(dtype),
            Device::CPU,
        )
        .unwrap()
    };
    let (features, labels) = (range(10, 1, DType::Float32), range(100, 10, DType::Int64));
    TensorDataset::new(vec![features, labels]).unwrap()
}

/// The batches of `epochs` epochs, each as `[features, labels]`.
fn run_epochs<D: Dataset>(loader: &DataLoader<D>, epochs: usize) -> Json {
    let epoch = |_| {
        let mut batches = loader.iter();
        let mut out = Vec::new();
        while let Some(batch) = batches.next_batch(None) {
            let Value::List(columns) = batch.unwrap() else {
                panic!("pairs collate to a list")
            };
            let [Value::Tensor(x), Value::Tensor(y)] = columns.as_slice() else {
                panic!("two tensors")
            };
            let labels: Vec<i64> = values(y).into_iter().map(|v| v as i64).collect();
            out.push(serde_json::json!([values(x), labels]));
        }
        Json::Array(out)
    };
    Json::Array((0..epochs).map(epoch).collect())
}

fn next_rand(session: &Session) -> f64 {
    values(&Tensor::rand(session, &[1], DType::Float32, Device::CPU).unwrap())[0]
}

#[test]
fn seeded_shuffles_give_pytorchs_batches_and_leave_its_generator_state() {
    let session = Session::default();
    let options = |batch_size, shuffle, drop_last, generator| LoaderOptions {
        batch_size: Some(batch_size),
        shuffle,
        drop_last,
        generator,
        ..LoaderOptions::default()
    };
    let cases = [
        ("shuffle_global", options(3, true, false, None), 2),
        (
            "shuffle_generator_drop_last",
            {
                let g = GeneratorHandle::default();
                g.manual_seed(&session, 5);
                options(4, true, true, Some(g))
            },
            2,
        ),
        ("sequential", options(4, false, false, None), 1),
    ];
    for (name, options, epochs) in cases {
        session.manual_seed(0);
        let loader = DataLoader::new(&session, dataset(&session), options).unwrap();
        assert_eq!(
            run_epochs(&loader, epochs),
            GOLDEN[name]["epochs"],
            "{name}"
        );
        assert_eq!(
            next_rand(&session),
            GOLDEN[name]["next_rand"].as_f64().unwrap(),
            "{name}"
        );
    }
    let length = |drop_last| {
        let loader = DataLoader::new(
            &session,
            dataset(&session),
            options(4, false, drop_last, None),
        );
        loader.unwrap().len().unwrap()
    };
    assert_eq!(
        length(false) as u64,
        GOLDEN["sequential"]["len"].as_u64().unwrap()
    );
    assert_eq!(
        length(true) as u64,
        GOLDEN["sequential"]["len_drop_last"].as_u64().unwrap()
    );
}

/// A list of Python `(float, int)` pairs, as `DataLoader(pairs)` sees it.
struct Pairs;

impl Dataset for Pairs {
    fn len(&self) -> Result<usize, Error> {
        Ok(5)
    }

    fn get(&self, index: usize) -> Result<Value, Error> {
        Ok(Value::Tuple(vec![
            Value::Float(0.5 * index as f64),
            Value::Int(index as i64),
        ]))
    }
}

#[test]
fn numbers_collate_into_float64_and_int64_tensors() {
    let session = Session::default();
    let options = LoaderOptions {
        batch_size: Some(5),
        ..LoaderOptions::default()
    };
    let loader = DataLoader::new(&session, Pairs, options).unwrap();
    let Some(Ok(Value::List(columns))) = loader.iter().next_batch(None) else {
        panic!("one batch of two columns")
    };
    let golden = &GOLDEN["numbers"];
    for (i, column) in columns.iter().enumerate() {
        let Value::Tensor(t) = column else {
            panic!("tensors")
        };
        assert_eq!(t.dtype().name(), golden["types"][i].as_str().unwrap());
        assert_eq!(values(t), json_floats(&golden["values"][i]));
    }
}

/// Each item drawn from whichever generator fetches it, as `torch.rand(2)` in `__getitem__`.
struct RandomRows(Session);

impl Dataset for RandomRows {
    fn len(&self) -> Result<usize, Error> {
        Ok(6)
    }

    fn get(&self, _: usize) -> Result<Value, Error> {
        Tensor::rand(&self.0, &[2], DType::Float32, Device::CPU).map(Value::Tensor)
    }
}

#[test]
fn workers_draw_from_generators_seeded_base_seed_plus_id() {
    let session = Session::default();
    session.manual_seed(0);
    let options = LoaderOptions {
        batch_size: Some(2),
        num_workers: 2,
        ..LoaderOptions::default()
    };
    let loader = DataLoader::new(&session, RandomRows(session.clone()), options).unwrap();
    session.set_tracing(true);
    let mut batches = loader.iter();
    let mut rows = Vec::new();
    while let Some(batch) = batches.next_batch(None) {
        let Value::Tensor(t) = batch.unwrap() else {
            panic!("a stacked tensor")
        };
        rows.push(Json::from(values(&t)));
    }
    assert_eq!(Json::Array(rows), GOLDEN["workers"]["batches"]);
    assert_eq!(
        next_rand(&session),
        GOLDEN["workers"]["next_rand"].as_f64().unwrap()
    );
    let workers: Vec<usize> = session
        .take_trace()
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::WorkerStart { worker } => Some(worker),
            _ => None,
        })
        .collect();
    assert_eq!(workers, [0, 1, 0], "batch k runs in worker k % 2");
}

/// A dataset whose items are made on the GPU, as a learner's `__getitem__` might.
struct GpuItems(Session);

impl Dataset for GpuItems {
    fn len(&self) -> Result<usize, Error> {
        Ok(4)
    }

    fn get(&self, _: usize) -> Result<Value, Error> {
        Tensor::zeros(&self.0, &[2], DType::Float32, Device::cuda(0)).map(Value::Tensor)
    }
}

#[test]
fn a_worker_touching_cuda_after_the_parent_used_it_fails_as_a_forked_process_does() {
    let session = Session::default();
    let options = LoaderOptions {
        batch_size: Some(2),
        num_workers: 2,
        ..LoaderOptions::default()
    };
    // Before the parent touched CUDA, a worker may create its own context.
    let loader = DataLoader::new(&session, GpuItems(session.clone()), options.clone()).unwrap();
    assert!(loader.iter().next_batch(None).unwrap().is_ok());

    // After it, the worker fails and the main process re-raises its error.
    Tensor::zeros(&session, &[1], DType::Float32, Device::cuda(0)).unwrap();
    let error = loader.iter().next_batch(None).unwrap().unwrap_err();
    assert_eq!(
        error.to_string(),
        "Caught RuntimeError in DataLoader worker process 0.\nOriginal Traceback (most recent call last):\nRuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method\n"
    );
    assert_eq!(error.python_type().name(), "RuntimeError");

    // The fix: keep workers on the CPU and move batches in the main loop.
    let cpu_loader = DataLoader::new(&session, dataset(&session), options).unwrap();
    let batch = cpu_loader.iter().next_batch(None).unwrap().unwrap();
    let Value::List(columns) = batch else {
        panic!("a list")
    };
    let Value::Tensor(x) = &columns[0] else {
        panic!("a tensor")
    };
    assert_eq!(
        x.to(tolab_engine::To::device("cuda:0")).unwrap().device(),
        Device::cuda(0)
    );
}

#[test]
fn data_errors_and_warnings_are_pytorchs() {
    let session = Session::default();
    let errors = &GOLDEN["errors"];
    let zeros = |n| Tensor::zeros(&session, &[n], DType::Float32, Device::CPU).unwrap();
    let mismatch = TensorDataset::new(vec![zeros(3), zeros(4)]).unwrap_err();
    assert_eq!(
        mismatch.to_string(),
        errors["tensor_dataset_sizes"]["message"]
    );
    assert_eq!(
        mismatch.python_type().name(),
        errors["tensor_dataset_sizes"]["error"]
    );
    let options = LoaderOptions {
        batch_size: Some(0),
        ..LoaderOptions::default()
    };
    let zero = DataLoader::new(&session, dataset(&session), options)
        .err()
        .unwrap();
    assert_eq!(zero.to_string(), errors["batch_size_zero"]["message"]);
    assert_eq!(
        zero.python_type().name(),
        errors["batch_size_zero"]["error"]
    );

    let laptop = Session::new(tolab_engine::SessionConfig {
        gpu_count: 0,
        ..Default::default()
    });
    let options = LoaderOptions {
        pin_memory: true,
        ..LoaderOptions::default()
    };
    let loader = DataLoader::new(&laptop, dataset(&laptop), options.clone()).unwrap();
    loader.iter();
    assert_eq!(
        Json::from(laptop.take_warnings()),
        errors["pin_memory_warning"]
    );
    // With a GPU, pinned batches come back.
    let loader = DataLoader::new(&session, dataset(&session), options).unwrap();
    let Some(Ok(Value::List(columns))) = loader.iter().next_batch(None) else {
        panic!("a batch")
    };
    assert!(
        columns
            .iter()
            .all(|c| matches!(c, Value::Tensor(t) if t.is_pinned()))
    );
}
