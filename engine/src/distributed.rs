//! `torch.distributed`, simulated in one runtime: `torch.multiprocessing.spawn` starts the ranks
//! as cooperative tasks ([`World::run`]) that take turns on the one session, each with its own
//! process state (current GPU, CPU generator). Collectives (`all_reduce`, `broadcast`, `barrier`)
//! are futures that complete when every rank has called them, as on a real job; ranks that wait on
//! each other forever end with NCCL's watchdog timeout instead of hanging the page.
//!
//! What a real machine does follows: a rank that never calls `set_device(rank)` works on `cuda:0`
//! (with NCCL, the first collective then finds two ranks on one GPU), and tensors reduced with
//! NCCL must be on GPUs.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use crate::device::DeviceType;
use crate::element::Scalar;
use crate::error::Error;
use crate::session::{ProcessState, Session};
use crate::tensor::Tensor;
use crate::trace::EventKind;

/// The communication backend named in `init_process_group`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Nccl,
    Gloo,
}

impl Backend {
    pub fn parse(name: &str) -> Result<Backend, Error> {
        match name {
            "nccl" => Ok(Backend::Nccl),
            "gloo" => Ok(Backend::Gloo),
            other => Err(Error::InvalidBackend { name: other.into() }),
        }
    }
}

/// `dist.ReduceOp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceOp {
    Sum,
    Avg,
    Max,
    Min,
    Product,
}

/// What a collective call does, and the name PyTorch's work objects give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    AllReduce(ReduceOp),
    Broadcast { src: usize },
    Barrier,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::AllReduce(_) => "ALLREDUCE",
            Op::Broadcast { .. } => "BROADCAST",
            Op::Barrier => "BARRIER",
        }
    }
}

/// The collective the ranks are gathering for.
#[derive(Debug, Default)]
struct Round {
    /// Each rank's call: its op and tensor, once it has arrived.
    arrivals: Vec<Option<(Op, Option<Tensor>)>>,
    /// Collectives completed so far (the next one's `SeqNum` is this plus one).
    completed: u64,
    /// The outcome of the last completed collective, for the ranks that have not seen it yet.
    outcome: Option<Result<(), Error>>,
}

struct WorldState {
    session: Session,
    size: usize,
    backend: Cell<Option<Backend>>,
    /// Which ranks have called `init_process_group`.
    joined: RefCell<Vec<bool>>,
    round: RefCell<Round>,
    /// The rank whose turn it is.
    running: Cell<Option<usize>>,
    /// Bumped whenever a rank arrives somewhere or a collective completes, so that the scheduler
    /// can tell waiting from deadlock.
    progress: Cell<u64>,
}

/// A distributed job of `size` ranks.
#[derive(Clone)]
pub struct World(Rc<WorldState>);

/// A rank's program: the learner's `fn(rank, *args)` as a future.
pub type RankTask<'a> = Pin<Box<dyn Future<Output = Result<(), Error>> + 'a>>;

impl World {
    pub fn new(session: &Session, size: usize) -> World {
        World(Rc::new(WorldState {
            session: session.clone(),
            size,
            backend: Cell::new(None),
            joined: RefCell::new(vec![false; size]),
            round: RefCell::new(Round {
                arrivals: vec![None; size],
                ..Round::default()
            }),
            running: Cell::new(None),
            progress: Cell::new(0),
        }))
    }

    pub fn size(&self) -> usize {
        self.0.size
    }

    /// `dist.get_rank()`: the rank running now.
    pub fn rank(&self) -> Option<usize> {
        self.0.running.get()
    }

    /// `dist.is_initialized()` for the running rank.
    pub fn is_initialized(&self) -> bool {
        self.rank()
            .is_some_and(|r| self.0.joined.borrow().get(r).copied().unwrap_or(false))
    }

    /// `dist.init_process_group(backend)` on the running rank.
    pub fn init_process_group(&self, backend: &str) -> Result<(), Error> {
        let backend = Backend::parse(backend)?;
        if backend == Backend::Nccl && !self.0.session.is_available() {
            return Err(Error::NcclWithoutGpus);
        }
        self.0.backend.set(Some(backend));
        if let Some(rank) = self.rank() {
            self.0.joined.borrow_mut()[rank] = true;
        }
        Ok(())
    }

    fn check_initialized(&self) -> Result<usize, Error> {
        match self.rank() {
            Some(rank) if self.is_initialized() => Ok(rank),
            _ => Err(Error::ProcessGroupNotInitialized),
        }
    }

    /// `dist.all_reduce(tensor, op)`: every rank's tensor replaced, in place, by the reduction of
    /// all of them.
    pub fn all_reduce(&self, tensor: &Tensor, op: ReduceOp) -> Collective {
        self.collective(Op::AllReduce(op), Some(tensor.clone()))
    }

    /// `dist.broadcast(tensor, src)`: every rank's tensor replaced by rank `src`'s.
    pub fn broadcast(&self, tensor: &Tensor, src: usize) -> Collective {
        self.collective(Op::Broadcast { src }, Some(tensor.clone()))
    }

    /// `dist.barrier()`.
    pub fn barrier(&self) -> Collective {
        self.collective(Op::Barrier, None)
    }

    fn collective(&self, op: Op, tensor: Option<Tensor>) -> Collective {
        Collective {
            world: self.clone(),
            op,
            tensor,
            ticket: None,
        }
    }

    /// `torch.multiprocessing.spawn`: runs every rank's task to completion, in turns. Each rank
    /// runs with its own process state; a rank's error ends only that rank (the caller reports
    /// the first, as `spawn` does). Ranks waiting for each other in collectives make no progress
    /// alone; a round where none progresses is a deadlock (the watchdog's timeout). A rank that
    /// awaits a GPU readback (in the browser) makes the run yield until the readback is back.
    pub async fn run(&self, mut tasks: Vec<RankTask<'_>>) -> Vec<Result<(), Error>> {
        let session = self.0.session.clone();
        let mut states: Vec<ProcessState> = vec![ProcessState::default(); tasks.len()];
        let mut results: Vec<Option<Result<(), Error>>> = vec![None; tasks.len()];
        // The round in progress: the rank to poll next, the progress count when it began, and
        // how many ranks in it are still running.
        let (mut rank, mut before, mut pending) = (0, self.0.progress.get(), 0);
        std::future::poll_fn(|context| {
            loop {
                if rank == tasks.len() {
                    if pending == 0 {
                        return Poll::Ready(());
                    }
                    if self.0.progress.get() == before {
                        // Everyone left is waiting for a rank that will never come.
                        let error = self.timeout();
                        for result in results.iter_mut().filter(|r| r.is_none()) {
                            *result = Some(Err(error.clone()));
                        }
                        return Poll::Ready(());
                    }
                    (rank, before, pending) = (0, self.0.progress.get(), 0);
                }
                if results[rank].is_none() {
                    session.swap_process(&mut states[rank]);
                    self.0.running.set(Some(rank));
                    let polled = tasks[rank].as_mut().poll(context);
                    let awaiting_readback = session.readbacks_in_flight();
                    self.0.running.set(None);
                    session.swap_process(&mut states[rank]);
                    match polled {
                        Poll::Ready(result) => {
                            results[rank] = Some(result);
                            self.bump();
                        }
                        // A rank awaiting a readback (in the browser) keeps its turn: the run yields
                        // and polls it again first, so ranks interleave as they do natively.
                        Poll::Pending if awaiting_readback => return Poll::Pending,
                        Poll::Pending => pending += 1,
                    }
                }
                rank += 1;
            }
        })
        .await;
        results
            .into_iter()
            .map(|r| r.unwrap_or(Err(Error::ProcessGroupNotInitialized)))
            .collect()
    }

    fn bump(&self) {
        self.0.progress.set(self.0.progress.get() + 1);
    }

    /// The watchdog's report for the collective some ranks wait in.
    fn timeout(&self) -> Error {
        let round = self.0.round.borrow();
        let (op, numel) = round
            .arrivals
            .iter()
            .flatten()
            .next()
            .map(|(op, t)| (op.name(), t.as_ref().map_or(0, Tensor::numel)))
            .unwrap_or(("BARRIER", 0));
        Error::CollectiveTimeout {
            seq: round.completed + 1,
            op,
            numel,
        }
    }

    /// Runs the collective once the last rank has arrived: the results written into every
    /// rank's tensor, or the error every rank gets.
    fn complete(&self, round: &mut Round) {
        let calls: Vec<(Op, Option<Tensor>)> =
            round.arrivals.iter_mut().flat_map(Option::take).collect();
        let outcome = self.execute(&calls, round.completed + 1);
        round.completed += 1;
        round.outcome = Some(outcome);
        self.0.session.record(None, || EventKind::Collective {
            op: calls
                .first()
                .map_or("BARRIER", |(op, _)| op.name())
                .to_owned(),
            ranks: calls.len(),
        });
    }

    /// Collective number `seq` with every rank's call.
    fn execute(&self, calls: &[(Op, Option<Tensor>)], seq: u64) -> Result<(), Error> {
        let Some((op, _)) = calls.first() else {
            return Ok(());
        };
        if calls.iter().any(|(other, _)| other != op) {
            // Ranks in different collectives wait for each other until the watchdog fires.
            return Err(Error::CollectiveTimeout {
                seq,
                op: op.name(),
                numel: calls[0].1.as_ref().map_or(0, Tensor::numel),
            });
        }
        let tensors: Vec<&Tensor> = calls.iter().filter_map(|(_, t)| t.as_ref()).collect();
        if self.0.backend.get() == Some(Backend::Nccl) {
            for (rank, t) in tensors.iter().enumerate() {
                if t.device().kind != DeviceType::Cuda {
                    return Err(Error::NoBackendForDeviceType {
                        device_type: t.device().kind.name(),
                    });
                }
                if let Some(other) = tensors[..rank]
                    .iter()
                    .position(|u| u.device() == t.device())
                {
                    return Err(Error::DuplicateGpu {
                        rank,
                        other,
                        device: t.device().index.unwrap_or(0) as usize,
                    });
                }
            }
        }
        let session = &self.0.session;
        session.no_grad(|| -> Result<(), Error> {
            match *op {
                Op::Barrier => Ok(()),
                Op::Broadcast { src } => {
                    let source = tensors.get(src).ok_or(Error::ProcessGroupNotInitialized)?;
                    let values = source.detach().contiguous()?;
                    for t in &tensors {
                        t.copy_(&values)?;
                    }
                    Ok(())
                }
                Op::AllReduce(reduce) => {
                    let on_host: Vec<Tensor> =
                        tensors.iter().map(|t| t.cpu()).collect::<Result<_, _>>()?;
                    let mut total = on_host[0].clone();
                    for t in &on_host[1..] {
                        total = match reduce {
                            ReduceOp::Sum | ReduceOp::Avg => total.add(t)?,
                            ReduceOp::Product => total.mul(t)?,
                            ReduceOp::Max => total.maximum(t)?,
                            ReduceOp::Min => total.neg()?.maximum(&t.neg()?)?.neg()?,
                        };
                    }
                    if reduce == ReduceOp::Avg {
                        total = total.div(Scalar::Int(tensors.len() as i64))?;
                    }
                    for t in &tensors {
                        t.copy_(&total)?;
                    }
                    Ok(())
                }
            }
        })
    }
}

/// A collective call in flight: ready once every rank has made it.
pub struct Collective {
    world: World,
    op: Op,
    tensor: Option<Tensor>,
    /// The sequence number of the collective this call joined.
    ticket: Option<u64>,
}

impl Future for Collective {
    type Output = Result<(), Error>;

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        let world = self.world.clone();
        let rank = match world.check_initialized() {
            Ok(rank) => rank,
            Err(e) => return Poll::Ready(Err(e)),
        };
        let mut round = world.0.round.borrow_mut();
        let ticket = match self.ticket {
            Some(ticket) => ticket,
            None => {
                let ticket = round.completed + 1;
                let (op, tensor) = (self.op, self.tensor.take());
                round.arrivals[rank] = Some((op, tensor));
                self.ticket = Some(ticket);
                world.bump();
                if round.arrivals.iter().all(Option::is_some) {
                    world.complete(&mut round);
                    world.bump();
                }
                ticket
            }
        };
        if round.completed >= ticket {
            Poll::Ready(round.outcome.clone().unwrap_or(Ok(())))
        } else {
            Poll::Pending
        }
    }
}

impl World {
    /// `DistributedDataParallel(module, device_ids)`: the module wrapped (child `module`) after
    /// every rank received rank 0's parameters and buffers, so that all replicas start equal.
    pub async fn data_parallel(
        &self,
        module: &crate::nn::Module,
        device_ids: Option<Vec<usize>>,
    ) -> Result<crate::nn::Module, Error> {
        self.check_initialized()?;
        let tensors: Vec<Tensor> = module
            .parameters()
            .iter()
            .map(crate::nn::Parameter::tensor)
            .chain(module.buffers())
            .collect();
        if let Some(ids) = &device_ids
            && let Some(cpu) = tensors.iter().find(|t| t.device().is_cpu())
        {
            return Err(Error::DdpDeviceIds {
                device_ids: ids.clone(),
                device: cpu.device(),
            });
        }
        for t in &tensors {
            // The collective reads every rank's values at once: each rank brings its own back
            // first (in the browser that is an await).
            t.fetch().await?;
            self.broadcast(t, 0).await?;
        }
        let wrapper = crate::nn::Module::new(crate::nn::Layer::DistributedDataParallel {
            device_ids: device_ids.unwrap_or_default(),
        });
        wrapper.add_module("module", Some(module.clone()));
        Ok(wrapper)
    }

    /// What DDP's reducer does as `backward()` finishes: every parameter's gradient averaged
    /// over the ranks (a parameter without one contributes zeros, as with
    /// `find_unused_parameters`).
    pub async fn average_gradients(&self, module: &crate::nn::Module) -> Result<(), Error> {
        for p in module.parameters() {
            let t = p.tensor();
            let grad = match t.raw_grad() {
                Some(g) => g,
                None => {
                    let zeros = t.session().no_grad(|| t.full_like(Scalar::Int(0)))?;
                    t.set_grad(Some(zeros.clone()));
                    zeros
                }
            };
            grad.fetch().await?;
            self.all_reduce(&grad, ReduceOp::Avg).await?;
        }
        Ok(())
    }
}
