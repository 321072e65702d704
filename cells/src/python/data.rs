//! `torch.utils.data` in cells: `TensorDataset`, learners' own `Dataset` classes (their
//! `__len__` and `__getitem__` run as learner code) and `DataLoader` over either. The engine's
//! loader decides each epoch's order, seeds, workers and pinning; this module fetches the samples
//! (inside the simulated worker) and collates them.

use std::rc::Rc;

use tolab_engine::Error;
use tolab_engine::data::{Batches, DataLoader, Dataset, LoaderOptions, TensorDataset};
use tolab_engine::value::Value as EngineValue;

use super::args::{Args, Flow};
use super::convert::{from_engine, to_engine};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::value::{Sampler, Value, as_f64};

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

impl Interpreter {
    /// `TensorDataset(*tensors)`.
    pub(super) fn tensor_dataset(&self, args: &Args) -> Result<Value, PyException> {
        let tensors = args
            .positional
            .iter()
            .map(|v| match &*v.resolved() {
                Value::Tensor(t) => Ok(t.clone()),
                other => Err(PyException::new(
                    ExcType::TypeError,
                    format!("TensorDataset expects tensors, got {}", other.type_name()),
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Value::TensorDataset(Rc::new(TensorDataset::new(tensors)?)))
    }

    /// `DataLoader(dataset, batch_size=1, shuffle=False, ...)`.
    pub(super) async fn data_loader(&mut self, args: Args) -> Result<Value, Flow> {
        let dataset = args.get(0, "dataset").cloned().ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                "DataLoader.__init__() missing 1 required positional argument: 'dataset'",
            )
        })?;
        let flag = |name: &str, index: usize| args.get(index, name).is_some_and(Value::truthy);
        let batch_size = match args.get(1, "batch_size") {
            None => Some(1),
            Some(Value::None) => None,
            Some(Value::Int(n)) if *n >= 0 => Some(*n as usize),
            Some(other) => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!(
                        "batch_size should be a positive integer value, but got batch_size={}",
                        other.repr()
                    ),
                )
                .into());
            }
        };
        let num_workers = match args.keyword("num_workers") {
            None => 0,
            Some(Value::Int(n)) if *n >= 0 => *n as usize,
            Some(_) => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.",
                )
                .into());
            }
        };
        let generator = match args.keyword("generator") {
            Some(Value::Generator(g)) => Some(g.clone()),
            _ => None,
        };
        let options = LoaderOptions {
            batch_size,
            shuffle: flag("shuffle", 2),
            drop_last: args.keyword("drop_last").is_some_and(Value::truthy),
            num_workers,
            pin_memory: args.keyword("pin_memory").is_some_and(Value::truthy),
            generator,
            sampler: match args.keyword("sampler") {
                None | Some(Value::None) => None,
                Some(Value::Sampler(s)) => Some(s.engine.clone()),
                Some(other) => {
                    return Err(PyException::unsupported(&format!(
                        "a sampler of type '{}' (the lab's DataLoader takes a DistributedSampler)",
                        other.type_name()
                    ))
                    .into());
                }
            },
        };
        let collate_fn = args
            .keyword("collate_fn")
            .filter(|v| !matches!(v, Value::None))
            .cloned();
        let len = self.dataset_len(&dataset).await?;
        let engine = DataLoader::new(
            &self.session,
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
    }

    /// `DistributedSampler(dataset, num_replicas=None, rank=None, shuffle=True, seed=0,
    /// drop_last=False)`: the replicas and rank default to the running rank's process group.
    pub(super) async fn distributed_sampler(&mut self, args: Args) -> Result<Value, Flow> {
        let dataset = args.get(0, "dataset").cloned().unwrap_or(Value::None);
        let dataset_len = self.dataset_len(&dataset).await?;
        let group = || {
            self.process_group().ok_or_else(|| {
                    PyException::new(
                        ExcType::ValueError,
                        "Default process group has not been initialized, please make sure to call init_process_group.",
                    )
                })
        };
        let count = |v: &Value| as_f64(v).max(0.0) as usize;
        let num_replicas = match args.get(1, "num_replicas") {
            None | Some(Value::None) => group()?.1,
            Some(n) => count(n),
        };
        let rank = match args.get(2, "rank") {
            None | Some(Value::None) => group()?.0,
            Some(r) => count(r),
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
            args.get(3, "shuffle").is_none_or(Value::truthy),
            args.get(4, "seed").map_or(0.0_f64, as_f64).max(0.0) as u64,
            args.get(5, "drop_last").is_some_and(Value::truthy),
        );
        Ok(Value::Sampler(Rc::new(Sampler {
            engine: Rc::new(engine),
            dataset_len,
        })))
    }

    /// `len(dataset)`: the engine's for a TensorDataset, the learner's `__len__` otherwise.
    pub(super) async fn dataset_len(&mut self, dataset: &Value) -> Result<usize, Flow> {
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
    pub(super) async fn loader_len(&mut self, loader: &Loader) -> Result<usize, Flow> {
        let len = self.dataset_len(&loader.dataset).await?;
        loader.engine.dataset().len.set(len);
        Ok(loader.engine.len()?)
    }

    /// `iter(loader)`: a new epoch (PyTorch reads the dataset's length again).
    pub(super) async fn epoch(&mut self, loader: &Rc<Loader>) -> Result<Epoch, Flow> {
        self.loader_len(loader).await?;
        Ok(Epoch {
            loader: loader.clone(),
            batches: loader.engine.iter(),
        })
    }

    /// The epoch's next batch: samples fetched and collated in the worker whose turn it is.
    pub(super) async fn next_batch(&mut self, epoch: &mut Epoch) -> Result<Option<Value>, Flow> {
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
            Flow::Error(PyException::new(kind, message))
        }
        other => other,
    }
}
