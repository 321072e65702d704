//! `torch.utils.data` in cells: `TensorDataset`, learners' own `Dataset` classes (their
//! `__len__` and `__getitem__` run as learner code) and `DataLoader` over either. The engine's
//! loader decides each epoch's order, seeds, workers and pinning; this module fetches the samples
//! (inside the simulated worker) and collates them.

use std::rc::Rc;

use tolab_engine::Error;
use tolab_engine::data::{Batches, DataLoader, Dataset, LoaderOptions, TensorDataset};
use tolab_engine::value::Value as EngineValue;

use tolab_engine::Session;

use super::convert::{from_engine, to_engine};
use super::ops::not_yet;
use super::{Call, Handler};
use crate::python::args::{Args, Eval, Flow};
use crate::python::exception::{ExcType, PyException};
use crate::python::interpreter::Interpreter;
use crate::python::value::{Sampler, Value};

/// A dataset as the engine's loader sees it: its length, read before each epoch. Samples are
/// fetched by the cell runtime, which can run a learner's `__getitem__`.
pub struct LoaderDataset {
    len: std::cell::Cell<usize>,
}

impl Dataset for LoaderDataset {
    fn len(&self) -> Result<usize, Error> {
        Ok(self.len.get())
    }

    fn get(&self, _index: usize) -> Result<EngineValue, Error> {
        Err(Error::DatasetIndex)
    }
}

/// `DataLoader(dataset, ...)`.
pub struct Loader {
    engine: DataLoader<LoaderDataset>,
    /// The Python dataset object (`loader.dataset`).
    pub dataset: Value,
    collate_fn: Option<Value>,
    batch_size: Option<usize>,
}

/// One epoch of a loader, as a `for` loop draws it.
pub struct Epoch {
    loader: Rc<Loader>,
    batches: Batches<LoaderDataset>,
}

pub const HANDLERS: &[(&str, Handler)] = &[
    (
        "torch.utils.data.TensorDataset",
        Handler::Engine(tensor_dataset),
    ),
    (
        "torch.utils.data.DataLoader",
        Handler::Interpreter(data_loader),
    ),
    (
        "torch.utils.data.DistributedSampler",
        Handler::Interpreter(distributed_sampler),
    ),
    (
        "torch.utils.data.DistributedSampler.set_epoch",
        Handler::Engine(set_epoch),
    ),
];

/// `TensorDataset(*tensors)`.
fn tensor_dataset(call: &Call, _: &Session) -> Result<Value, PyException> {
    let tensors = call
        .rest()
        .iter()
        .map(|v| match &*v.resolved() {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(PyException::new(
                ExcType::AttributeError,
                format!("'{}' object has no attribute 'size'", other.type_name()),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::TensorDataset(Rc::new(TensorDataset::new(tensors)?)))
}

/// A count argument (`batch_size`, `num_workers`) as an int, or the error naming it.
fn count_of(
    call: &Call,
    name: &str,
    message: impl Fn(&Value) -> String,
) -> Result<Option<usize>, PyException> {
    match call.value(name)? {
        None | Some(Value::None) => Ok(None),
        Some(Value::Int(n)) if n >= 0 => Ok(Some(n as usize)),
        Some(other) => Err(PyException::new(ExcType::ValueError, message(&other))),
    }
}

/// `DataLoader(dataset, batch_size=1, shuffle=None, ...)`.
fn data_loader(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move {
        let dataset = call.value("dataset")?.unwrap_or(Value::None);
        let batch_size = count_of(&call, "batch_size", |v| {
            format!(
                "batch_size should be a positive integer value, but got batch_size={}",
                v.repr()
            )
        })?;
        let num_workers = count_of(&call, "num_workers", |_| {
            "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.".into()
        })?
        .unwrap_or(0);
        let generator = match call.value("generator")?.as_ref() {
            Some(Value::Generator(g)) => Some(g.clone()),
            None | Some(Value::None) => None,
            Some(other) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "generator must be a torch.Generator, not {}",
                        other.type_name()
                    ),
                )
                .into());
            }
        };
        let sampler = match call.value("sampler")?.as_ref() {
            None | Some(Value::None) => None,
            Some(Value::Sampler(s)) => Some(s.engine.clone()),
            Some(other) => {
                return Err(not_yet(&format!(
                    "a sampler of type '{}' (the lab's DataLoader takes a DistributedSampler)",
                    other.type_name()
                ))
                .into());
            }
        };
        if !matches!(call.value("batch_sampler")?, None | Some(Value::None)) {
            return Err(not_yet("DataLoader(batch_sampler=...)").into());
        }
        for refused in [
            "worker_init_fn",
            "multiprocessing_context",
            "prefetch_factor",
        ] {
            if !matches!(call.value(refused)?, None | Some(Value::None)) {
                return Err(not_yet(&format!("DataLoader({refused}=...)")).into());
            }
        }
        for accepted in [
            "timeout",
            "persistent_workers",
            "pin_memory_device",
            "in_order",
        ] {
            // Settings about real worker processes and timing: nothing to change in the lab's
            // simulated workers at the values tutorials use.
            let _ = call.value(accepted)?;
        }
        let options = LoaderOptions {
            batch_size,
            shuffle: call.truthy("shuffle")?,
            drop_last: call.truthy("drop_last")?,
            num_workers,
            pin_memory: call.truthy("pin_memory")?,
            generator,
            sampler,
        };
        let collate_fn = call
            .value("collate_fn")?
            .filter(|v| !matches!(v, Value::None));
        call.finish()?;
        let len = me.dataset_len(&dataset).await?;
        let engine = DataLoader::new(
            &me.session,
            LoaderDataset {
                len: std::cell::Cell::new(len),
            },
            options,
        )?;
        Ok(Value::DataLoader(Rc::new(Loader {
            engine,
            dataset,
            collate_fn,
            batch_size,
        })))
    })
}

/// `DistributedSampler(dataset, num_replicas=None, rank=None, shuffle=True, seed=0,
/// drop_last=False)`: the replicas and rank default to the running rank's process group.
fn distributed_sampler(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move {
        let dataset = call.value("dataset")?.unwrap_or(Value::None);
        let count = |name: &str| -> Result<Option<usize>, PyException> {
            match call.value(name)? {
                None | Some(Value::None) => Ok(None),
                Some(Value::Int(n)) => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
                Some(other) => Err(PyException::new(
                    ExcType::TypeError,
                    format!("{name} must be an int, not {}", other.type_name()),
                )),
            }
        };
        let (num_replicas, rank) = (count("num_replicas")?, count("rank")?);
        let seed = count("seed")?.unwrap_or(0) as u64;
        let (shuffle, drop_last) = (call.truthy("shuffle")?, call.truthy("drop_last")?);
        call.finish()?;
        let dataset_len = me.dataset_len(&dataset).await?;
        let group = || {
            me.process_group().ok_or_else(|| {
                PyException::new(
                    ExcType::ValueError,
                    "Default process group has not been initialized, please make sure to call init_process_group.",
                )
            })
        };
        let num_replicas = match num_replicas {
            Some(n) => n,
            None => group()?.1,
        };
        let rank = match rank {
            Some(r) => r,
            None => group()?.0,
        };
        if rank >= num_replicas {
            return Err(PyException::new(
                ExcType::ValueError,
                format!(
                    "Invalid rank {rank}, rank should be in the interval [0, {}]",
                    num_replicas.saturating_sub(1)
                ),
            )
            .into());
        }
        let engine = tolab_engine::data::DistributedSampler::new(
            num_replicas,
            rank,
            shuffle,
            seed,
            drop_last,
        );
        Ok(Value::Sampler(Rc::new(Sampler {
            engine: Rc::new(engine),
            dataset_len,
        })))
    })
}

/// `sampler.set_epoch(epoch)`.
fn set_epoch(call: &Call, _: &Session) -> Result<Value, PyException> {
    let Some(Value::Sampler(sampler)) = call.receiver() else {
        return Err(PyException::new(
            ExcType::TypeError,
            "set_epoch() needs a DistributedSampler",
        ));
    };
    let epoch = match call.value("epoch")? {
        Some(Value::Int(n)) if n >= 0 => n as u64,
        other => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "set_epoch() expects a non-negative int, not {}",
                    other.map_or("nothing".into(), |v| v.repr())
                ),
            ));
        }
    };
    call.finish()?;
    sampler.engine.set_epoch(epoch);
    Ok(Value::None)
}

impl Interpreter {
    /// `len(dataset)`: the engine's for a TensorDataset, the learner's `__len__` otherwise.
    pub(crate) async fn dataset_len(&mut self, dataset: &Value) -> Result<usize, Flow> {
        match dataset {
            Value::TensorDataset(d) => Ok(d.len()?),
            other => match self.call_dunder(other, "__len__", Vec::new()).await? {
                Value::Int(n) if n >= 0 => Ok(n as usize),
                _ => Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "object of type '{}' has no len() (a Dataset needs __len__ for a DataLoader)",
                        other.type_name()
                    ),
                )
                .into()),
            },
        }
    }

    /// `len(loader)`.
    pub(crate) async fn loader_len(&mut self, loader: &Loader) -> Result<usize, Flow> {
        let len = self.dataset_len(&loader.dataset).await?;
        loader.engine.dataset().len.set(len);
        Ok(loader.engine.len()?)
    }

    /// `iter(loader)`: a new epoch (PyTorch reads the dataset's length again).
    pub(crate) async fn epoch(&mut self, loader: &Rc<Loader>) -> Result<Epoch, Flow> {
        self.loader_len(loader).await?;
        Ok(Epoch {
            loader: loader.clone(),
            batches: loader.engine.iter(),
        })
    }

    /// The epoch's next batch: samples fetched and collated in the worker whose turn it is.
    pub(crate) async fn next_batch(&mut self, epoch: &mut Epoch) -> Result<Option<Value>, Flow> {
        let indices = match epoch.batches.next_indices() {
            None => return Ok(None),
            Some(indices) => indices?,
        };
        let loader = epoch.loader.clone();
        let batch = match epoch.batches.worker() {
            None => self.fetch(&loader, indices).await?,
            Some(id) => {
                let session = self.session.clone();
                let generator = epoch.batches.worker_generator(id);
                session
                    .in_worker_async(id, generator, self.fetch(&loader, indices))
                    .await
                    .map_err(|flow| in_worker(id, flow))?
            }
        };
        let batch = epoch.batches.finish(to_engine(&batch, "DataLoader")?)?;
        Ok(Some(from_engine(batch)))
    }

    async fn fetch(&mut self, loader: &Loader, indices: Vec<usize>) -> Result<Value, Flow> {
        let mut samples = Vec::with_capacity(indices.len());
        for i in indices {
            samples.push(match &loader.dataset {
                Value::TensorDataset(d) => from_engine(d.get(i)?),
                other => {
                    self.call_dunder(other, "__getitem__", vec![Value::Int(i as i64)])
                        .await?
                }
            });
        }
        match (&loader.collate_fn, loader.batch_size) {
            (Some(collate), _) => {
                let collate = collate.clone();
                self.call(&collate, Args::positional(vec![Value::list(samples)]))
                    .await
            }
            (None, None) => Ok(samples.into_iter().next().unwrap_or(Value::None)),
            (None, Some(_)) => {
                let samples = samples
                    .iter()
                    .map(|s| to_engine(s, "default_collate"))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(from_engine(tolab_engine::data::default_collate(
                    &self.session,
                    samples,
                )?))
            }
        }
    }
}

/// An error raised in worker `id`, as the main process re-raises it: same type, PyTorch's
/// "Caught … in DataLoader worker process N." text around the worker's traceback.
fn in_worker(id: usize, flow: Flow) -> Flow {
    match flow {
        Flow::Error(e) => {
            let kind = e.kind.clone();
            let message = format!(
                "Caught {kind} in DataLoader worker process {id}.\nOriginal {}",
                e.traceback().trim_end(),
                kind = kind.name()
            );
            PyException::new(kind, message).into()
        }
        other => other,
    }
}
