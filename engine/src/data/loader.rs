//! `DataLoader`: batches of a dataset in PyTorch's order. Each epoch (`iter(loader)`) first draws
//! the workers' base seed, then, at the first batch, a shuffled order: `randperm` on the loader's
//! generator, or on a fresh generator seeded from the global one — the same draws PyTorch makes, so
//! a seeded learner sees PyTorch's very batches.
//!
//! Workers are simulated: batch `k` is fetched "in" worker `k % num_workers` (marked in the trace,
//! with that worker's own generator seeded `base_seed + id`), and a worker that needs CUDA after the
//! parent used it fails as a forked process does.

use std::rc::Rc;

use crate::error::Error;
use crate::random::{Generator, GeneratorHandle};
use crate::session::Session;
use crate::value::Value;

use super::collate::default_collate;
use super::{Dataset, DistributedSampler};

/// The DataLoader's keyword arguments.
#[derive(Debug, Clone)]
pub struct LoaderOptions {
    /// `None` turns automatic batching off: samples come one by one, uncollated.
    pub batch_size: Option<usize>,
    pub shuffle: bool,
    pub drop_last: bool,
    pub num_workers: usize,
    pub pin_memory: bool,
    pub generator: Option<GeneratorHandle>,
    /// `sampler=`: the indices come from it (a `DistributedSampler`, shared with the learner
    /// who calls its `set_epoch`).
    pub sampler: Option<Rc<DistributedSampler>>,
}

impl Default for LoaderOptions {
    fn default() -> Self {
        LoaderOptions {
            batch_size: Some(1),
            shuffle: false,
            drop_last: false,
            num_workers: 0,
            pin_memory: false,
            generator: None,
            sampler: None,
        }
    }
}

/// A learner's `collate_fn`.
pub type CollateFn<'a> = dyn Fn(Vec<Value>) -> Result<Value, Error> + 'a;

pub struct DataLoader<D: Dataset> {
    session: Session,
    /// Shared with each epoch's [`Batches`].
    dataset: Rc<D>,
    options: LoaderOptions,
}

impl<D: Dataset> Clone for DataLoader<D> {
    fn clone(&self) -> Self {
        DataLoader {
            session: self.session.clone(),
            dataset: self.dataset.clone(),
            options: self.options.clone(),
        }
    }
}

impl<D: Dataset> DataLoader<D> {
    pub fn new(session: &Session, dataset: D, options: LoaderOptions) -> Result<Self, Error> {
        if options.batch_size == Some(0) {
            return Err(Error::BatchSize { batch_size: 0 });
        }
        if options.sampler.is_some() && options.shuffle {
            return Err(Error::SamplerWithShuffle);
        }
        Ok(DataLoader {
            session: session.clone(),
            dataset: Rc::new(dataset),
            options,
        })
    }

    pub fn dataset(&self) -> &D {
        &self.dataset
    }

    /// `len(loader)`: the number of batches an epoch yields.
    pub fn len(&self) -> Result<usize, Error> {
        let n = match &self.options.sampler {
            Some(sampler) => sampler.num_samples(self.dataset.len()?),
            None => self.dataset.len()?,
        };
        Ok(match self.options.batch_size {
            None => n,
            Some(b) if self.options.drop_last => n / b,
            Some(b) => n.div_ceil(b),
        })
    }

    pub fn is_empty(&self) -> Result<bool, Error> {
        Ok(self.len()? == 0)
    }

    /// `iter(loader)`: one epoch.
    pub fn iter(&self) -> Batches<D> {
        let pin_memory = self.options.pin_memory && self.session.is_available();
        if self.options.pin_memory && !pin_memory {
            self.session.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned memory won't be used.");
        }
        let base_seed = self.draw_seed(self.options.generator.as_ref());
        Batches {
            loader: self.clone(),
            base_seed,
            pin_memory,
            order: None,
            position: 0,
            batch_index: 0,
            exhausted: false,
            workers: Vec::new(),
        }
    }

    /// `torch.empty((), dtype=torch.int64).random_(generator=...)`.
    fn draw_seed(&self, generator: Option<&GeneratorHandle>) -> i64 {
        match generator {
            Some(g) => g.with(&self.session, Generator::random_int64),
            None => self
                .session
                .with_generator(crate::device::Device::CPU, Generator::random_int64),
        }
    }

    /// The epoch's sample order: `RandomSampler` or `SequentialSampler`.
    fn order(&self) -> Result<Order, Error> {
        let n = self.dataset.len()?;
        if !self.options.shuffle && self.options.sampler.is_none() {
            return Ok(Order::Sequential(n));
        }
        // A permutation is held whole, as PyTorch holds `randperm(n)`.
        let bytes = (n as u64).saturating_mul(8);
        if bytes > MAX_PERMUTATION_BYTES {
            return Err(Error::CpuOutOfMemory { bytes });
        }
        if let Some(sampler) = &self.options.sampler {
            return Ok(Order::Indices(sampler.indices(n)));
        }
        let permutation = match &self.options.generator {
            Some(g) => g.with(&self.session, |g| g.randperm(n)),
            None => Generator::new(self.draw_seed(None) as u64).randperm(n),
        };
        Ok(Order::Indices(
            permutation.into_iter().map(|i| i as usize).collect(),
        ))
    }

    /// `RandomSampler` runs once more when its indices run out: it computes the permutation of its
    /// (empty) remainder, `randperm(n)[:0]`, which advances a generator the loader was given.
    fn exhaust_sampler(&self) -> Result<(), Error> {
        if let (true, Some(g)) = (self.options.shuffle, &self.options.generator) {
            let n = self.dataset.len()?;
            g.with(&self.session, |g| g.randperm(n));
        }
        Ok(())
    }
}

/// The most memory an epoch's shuffled order (or one batch's indices) may take; PyTorch would
/// try, and fail, to allocate more.
const MAX_PERMUTATION_BYTES: u64 = 1 << 31;

/// An epoch's sample indices: `0..n` in order (never held whole, so a huge dataset read in
/// order costs nothing up front), or a permutation.
enum Order {
    Sequential(usize),
    Indices(Vec<usize>),
}

impl Order {
    fn len(&self) -> usize {
        match self {
            Order::Sequential(n) => *n,
            Order::Indices(indices) => indices.len(),
        }
    }

    fn slice(&self, start: usize, end: usize) -> Vec<usize> {
        match self {
            Order::Sequential(_) => (start..end).collect(),
            Order::Indices(indices) => indices[start..end].to_vec(),
        }
    }
}

/// One epoch of a [`DataLoader`].
pub struct Batches<D: Dataset> {
    loader: DataLoader<D>,
    base_seed: i64,
    pin_memory: bool,
    order: Option<Order>,
    position: usize,
    batch_index: usize,
    /// The sampler has been asked past its last index.
    exhausted: bool,
    /// Each worker's generator, made when it first works.
    workers: Vec<Generator>,
}

impl<D: Dataset> Batches<D> {
    /// The seed each worker's generator starts from, less the worker's id.
    pub fn base_seed(&self) -> i64 {
        self.base_seed
    }

    /// The next batch (collated by `collate`, or `default_collate`), or `None` at the end.
    pub fn next_batch(&mut self, collate: Option<&CollateFn>) -> Option<Result<Value, Error>> {
        let indices = match self.next_indices()? {
            Ok(indices) => indices,
            Err(e) => return Some(Err(e)),
        };
        let worker = self.worker();
        if let Some(id) = worker {
            self.worker_generator(id);
        }
        let loader = &self.loader;
        let run = || -> Result<Value, Error> {
            let samples = indices
                .iter()
                .map(|&i| loader.dataset.get(i))
                .collect::<Result<Vec<_>, _>>()?;
            match (loader.options.batch_size, collate) {
                (None, None) => Ok(samples.into_iter().next().unwrap_or(Value::None)),
                (_, Some(collate)) => collate(samples),
                (Some(_), None) => default_collate(&loader.session, samples),
            }
        };
        let batch = match worker {
            None => run(),
            Some(id) => loader
                .session
                .in_worker(id, &mut self.workers[id], run)
                .map_err(|original| Error::WorkerFailed {
                    worker: id,
                    original: Box::new(original),
                    traceback: String::new(),
                }),
        };
        Some(batch.and_then(|b| self.finish(b)))
    }

    /// The sample indices of the next batch, or `None` at the end. For a runtime that fetches
    /// the samples itself (a learner's dataset class): it then runs the fetch in
    /// [`Batches::worker`] and hands the collated batch to [`Batches::finish`].
    pub fn next_indices(&mut self) -> Option<Result<Vec<usize>, Error>> {
        let order = match &self.order {
            Some(order) => order,
            None => match self.loader.order() {
                Ok(order) => self.order.insert(order),
                Err(e) => return Some(Err(e)),
            },
        };
        let remaining = order.len().saturating_sub(self.position);
        let take = self.loader.options.batch_size.unwrap_or(1);
        // A batch sampler asks for `take` indices: running out on the way exhausts the sampler.
        if remaining < take && !self.exhausted {
            self.exhausted = true;
            if let Err(e) = self.loader.exhaust_sampler() {
                return Some(Err(e));
            }
        }
        if remaining == 0 || (remaining < take && self.loader.options.drop_last) {
            return None;
        }
        let count = take.min(remaining);
        let bytes = (count as u64).saturating_mul(8);
        if bytes > MAX_PERMUTATION_BYTES {
            return Some(Err(Error::CpuOutOfMemory { bytes }));
        }
        let indices = order.slice(self.position, self.position + count);
        self.position += indices.len();
        Some(Ok(indices))
    }

    /// The worker that fetches the current batch (`None`: the main process does).
    pub fn worker(&self) -> Option<usize> {
        let workers = self.loader.options.num_workers;
        (workers > 0).then(|| self.batch_index % workers)
    }

    /// Worker `id`'s own generator, seeded `base_seed + id` when it first works.
    pub fn worker_generator(&mut self, id: usize) -> &mut Generator {
        while self.workers.len() <= id {
            let seed = self.base_seed.wrapping_add(self.workers.len() as i64) as u64;
            self.workers.push(Generator::new(seed));
        }
        &mut self.workers[id]
    }

    /// The fetched batch, through the pin-memory thread when the loader pins.
    pub fn finish(&mut self, batch: Value) -> Result<Value, Error> {
        self.batch_index += 1;
        if self.pin_memory {
            pin(batch)
        } else {
            Ok(batch)
        }
    }
}

/// The pin-memory thread's work: every tensor of a batch copied to page-locked memory.
fn pin(batch: Value) -> Result<Value, Error> {
    let many = |items: Vec<Value>| items.into_iter().map(pin).collect::<Result<Vec<_>, _>>();
    Ok(match batch {
        Value::Tensor(t) => Value::Tensor(t.pin_memory()?),
        Value::List(items) => Value::List(many(items)?),
        Value::Tuple(items) => Value::Tuple(many(items)?),
        Value::Dict(entries) => Value::Dict(
            entries
                .into_iter()
                .map(|(k, v)| Ok((k, pin(v)?)))
                .collect::<Result<_, Error>>()?,
        ),
        other => other,
    })
}
