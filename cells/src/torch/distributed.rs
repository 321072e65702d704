//! Several processes in one cell: `torch.multiprocessing.spawn`, `torch.distributed` and
//! `DistributedDataParallel`. Each rank runs the learner's function in an interpreter of its own
//! (a process has its own names; the ranks share the cell's output and the engine session, whose
//! [`World`] gives each rank its own current GPU and generator). [`World::run`] runs the ranks in
//! turns: one runs until it waits in a collective for the others, so their prints interleave as
//! the turns go, deterministically.

use std::cell::RefCell;

use tolab_engine::distributed::{RankTask, ReduceOp, World};
use tolab_engine::nn::Module;

use super::{Call, Handler};
use crate::python::args::{Args, Eval, Flow};
use crate::python::exception::{ExcType, PyException};
use crate::python::interpreter::Interpreter;
use crate::python::value::Value;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("torch.multiprocessing.spawn", Handler::Interpreter(spawn)),
    (
        "torch.distributed.init_process_group",
        Handler::Interpreter(distributed),
    ),
    (
        "torch.distributed.destroy_process_group",
        Handler::Interpreter(distributed),
    ),
    (
        "torch.distributed.is_initialized",
        Handler::Interpreter(distributed),
    ),
    (
        "torch.distributed.is_available",
        Handler::Interpreter(distributed),
    ),
    (
        "torch.distributed.get_rank",
        Handler::Interpreter(distributed),
    ),
    (
        "torch.distributed.get_world_size",
        Handler::Interpreter(distributed),
    ),
    (
        "torch.distributed.all_reduce",
        Handler::Interpreter(distributed),
    ),
    (
        "torch.distributed.broadcast",
        Handler::Interpreter(distributed),
    ),
    (
        "torch.distributed.barrier",
        Handler::Interpreter(distributed),
    ),
    (
        "torch.nn.parallel.DataParallel",
        Handler::Interpreter(data_parallel),
    ),
    (
        "torch.nn.parallel.DistributedDataParallel",
        Handler::Interpreter(distributed_data_parallel),
    ),
];

fn spawn(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move { me.spawn(call).await })
}

fn distributed(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move { me.call_distributed(call).await })
}

fn data_parallel(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move { me.data_parallel(call).await })
}

fn distributed_data_parallel(me: &mut Interpreter, call: Call) -> Eval<'_, Value> {
    Box::pin(async move { me.distributed_data_parallel(call).await })
}

/// A count argument (`nprocs`, `src`) as an int.
fn int_arg(call: &Call, name: &str) -> Result<i64, PyException> {
    match call.value(name)? {
        Some(Value::Int(n)) => Ok(n),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "{name} must be an int, not {}",
                other.map_or("nothing".into(), |v| v.type_name())
            ),
        )),
    }
}

/// What a rank's interpreter knows of its process group.
pub(crate) struct Rank {
    world: World,
    /// The DDP wrappers made on this rank: their gradients are averaged as `backward()` ends.
    ddp: Vec<Module>,
}

impl Interpreter {
    /// `mp.spawn(fn, args=(), nprocs=1)`: `fn(rank, *args)` on every rank, to the end; the first
    /// rank that raised makes `spawn` raise `ProcessRaisedException` with that rank's traceback.
    async fn spawn(&mut self, call: Call) -> Result<Value, Flow> {
        if self.rank.is_some() {
            return Err(PyException::unsupported("mp.spawn inside a spawned process").into());
        }
        let function = call.value("fn")?.unwrap_or(Value::None);
        let extra = match call.value("args")? {
            Some(v) => self.collect(&v).await?,
            None => Vec::new(),
        };
        let nprocs = int_arg(&call, "nprocs")?;
        if !call.truthy("join")? || call.truthy("daemon")? {
            return Err(super::ops::not_yet("spawn(join=False or daemon=True)").into());
        }
        let _start_method = call.value("start_method")?;
        call.finish()?;
        if !(1..=64).contains(&nprocs) {
            return Err(PyException::new(
                ExcType::ValueError,
                format!("the lab spawns between 1 and 64 processes, not {nprocs}"),
            )
            .into());
        }
        let world = World::new(&self.session, nprocs as usize);
        let mut ranks: Vec<Interpreter> = (0..world.size()).map(|_| self.process(&world)).collect();
        let raised: Vec<RefCell<Option<PyException>>> =
            ranks.iter().map(|_| RefCell::new(None)).collect();
        let tasks: Vec<RankTask<'_>> = ranks
            .iter_mut()
            .zip(&raised)
            .enumerate()
            .map(|(rank, (process, raised))| {
                let mut positional = vec![Value::Int(rank as i64)];
                positional.extend(extra.iter().cloned());
                let function = function.clone();
                Box::pin(async move {
                    // A rank that raised has ended; ranks waiting for it meet the watchdog.
                    if let Err(Flow::Error(e)) =
                        process.call(&function, Args::positional(positional)).await
                    {
                        *raised.borrow_mut() = Some(*e);
                    }
                    Ok(())
                }) as RankTask<'_>
            })
            .collect();
        let ended = world.run(tasks).await;
        let used: u64 = ranks
            .iter()
            .map(|r| self.steps_left.saturating_sub(r.steps_left))
            .sum();
        self.steps_left = self.steps_left.saturating_sub(used);
        for (rank, (raised, ended)) in raised.into_iter().zip(ended).enumerate() {
            let error = match (raised.into_inner(), ended) {
                (Some(e), _) => e,
                (None, Err(e)) => PyException::from(e),
                (None, Ok(())) => continue,
            };
            // A limit (Stop, the time budget) ends the whole cell, not just the rank.
            if error.ends_cell {
                return Err(error.into());
            }
            return Err(process_raised(rank, &error).into());
        }
        Ok(Value::None)
    }

    /// A new process for a rank of `world`: the cell's names as they are now, its output, files
    /// and budgets. It never yields to the event loop: [`World::run`] drives it.
    fn process(&self, world: &World) -> Interpreter {
        let mut process = Interpreter::new(self.session.clone());
        process.globals = self.globals.clone();
        // A spawned process imports the main module under this name, skipping its
        // `if __name__ == "__main__":` block.
        process
            .globals
            .insert("__name__".to_owned(), Value::str("__mp_main__"));
        process.stdout = self.stdout.clone();
        process.stderr = self.stderr.clone();
        process.files = self.files.clone();
        // The modules the cell imported, as the names it holds find them (`os.environ`).
        process.source_modules = self.source_modules.clone();
        process.instances = self.instances.clone();
        process.limits = self.limits;
        process.deadline = self.deadline;
        process.steps_left = self.steps_left;
        process.stop = self.stop.clone();
        process.stack_base = self.stack_base;
        process.hold_pauses = true;
        process.rank = Some(Rank {
            world: world.clone(),
            ddp: Vec::new(),
        });
        process
    }

    /// The running rank and the size of its initialized process group, if any.
    pub(crate) fn process_group(&self) -> Option<(usize, usize)> {
        let world = &self.rank.as_ref()?.world;
        let rank = world.rank().filter(|_| world.is_initialized())?;
        Some((rank, world.size()))
    }

    /// The running rank's process group, or the error for code outside `mp.spawn`.
    fn world(&self) -> Result<World, PyException> {
        self.rank.as_ref().map(|r| r.world.clone()).ok_or_else(|| {
            PyException::new(
                ExcType::RuntimeError,
                "Default process group has not been initialized, please make sure to call \
                 init_process_group. (In the lab, ranks are the processes \
                 torch.multiprocessing.spawn(fn, args=(world_size,), nprocs=world_size) starts.)",
            )
        })
    }

    /// `dist.<name>(...)`.
    async fn call_distributed(&mut self, call: Call) -> Result<Value, Flow> {
        let name = call.binding.name();
        if name == "is_available" {
            return Ok(Value::Bool(true));
        }
        if name == "is_initialized" {
            return Ok(Value::Bool(
                self.rank.as_ref().is_some_and(|r| r.world.is_initialized()),
            ));
        }
        let world = self.world()?;
        let tensor = || match call.value("tensor")?.map(|v| v.resolved().into_owned()) {
            Some(Value::Tensor(ref t)) => Ok(t.clone()),
            _ => Err(PyException::new(
                ExcType::TypeError,
                format!("{name}(): argument 'tensor' must be Tensor"),
            )),
        };
        // The process group is the default one; other groups and async ops are not the lab's.
        for refused in [
            "group",
            "async_op",
            "group_src",
            "device_ids",
            "store",
            "pg_options",
        ] {
            if call.signature().position(refused).is_some()
                && !matches!(
                    call.value(refused)?,
                    None | Some(Value::None) | Some(Value::Bool(false))
                )
            {
                return Err(super::ops::not_yet(&format!(
                    "torch.distributed.{name}({refused}=...)"
                ))
                .into());
            }
        }
        match name {
            "init_process_group" => {
                let backend = match call.value("backend")? {
                    None | Some(Value::None) => "gloo".to_owned(),
                    Some(v) => v.str_text(),
                };
                for ignored in [
                    "init_method",
                    "timeout",
                    "world_size",
                    "rank",
                    "group_name",
                    "device_id",
                ] {
                    let _ = call.value(ignored)?;
                }
                world.init_process_group(&backend)?;
            }
            "destroy_process_group" => {}
            "get_rank" | "get_world_size" => {
                let (rank, size) = self
                    .process_group()
                    .ok_or(tolab_engine::Error::ProcessGroupNotInitialized)?;
                let answer = if name == "get_rank" { rank } else { size };
                return Ok(Value::Int(answer as i64));
            }
            "all_reduce" => {
                let op = match call.value("op")?.as_ref() {
                    Some(Value::Str(op)) => reduce_op(op)?,
                    _ => ReduceOp::Sum,
                };
                let t = tensor()?;
                t.fetch().await?;
                world.all_reduce(&t, op).await?;
            }
            "broadcast" => {
                let src = match call.value("src")? {
                    None | Some(Value::None) => 0,
                    Some(_) => int_arg(&call, "src")?,
                };
                let t = tensor()?;
                t.fetch().await?;
                world
                    .broadcast(&t, usize::try_from(src).unwrap_or(usize::MAX))
                    .await?;
            }
            "barrier" => {
                let _ = call.value("timeout")?;
                world.barrier().await?
            }
            _ => return Err(PyException::unsupported(&format!("torch.distributed.{name}")).into()),
        }
        call.finish()?;
        Ok(Value::None)
    }

    /// `DistributedDataParallel(module, device_ids=None)`: every rank starts from rank 0's
    /// parameters and buffers, and averages its gradients with the others after `backward()`.
    async fn distributed_data_parallel(&mut self, call: Call) -> Result<Value, Flow> {
        let world = self.world()?;
        let module = wrapped_module(&call, "DistributedDataParallel")?;
        let device_ids = self.device_ids(&call).await?;
        for setting in call.signature().params.iter().map(|p| p.name) {
            // Bucketing, buffer broadcasts and the like change how DDP communicates, not the
            // averaged gradients it leaves: the lab's DDP averages once, after backward().
            if !matches!(setting, "self" | "module" | "device_ids") {
                let _ = call.value(setting)?;
            }
        }
        call.finish()?;
        let wrapper = world.data_parallel(&module, device_ids).await?;
        if let Some(rank) = &mut self.rank {
            rank.ddp.push(wrapper.clone());
        }
        Ok(Value::NnModule(wrapper))
    }

    /// `nn.DataParallel(module, device_ids=None, output_device=None, dim=0)`.
    async fn data_parallel(&mut self, call: Call) -> Result<Value, Flow> {
        let module = wrapped_module(&call, "DataParallel")?;
        let device_ids = self.device_ids(&call).await?;
        let output_device = match call.value("output_device")? {
            None | Some(Value::None) => None,
            Some(device) => Some(gpu_index(&device)?),
        };
        let dim = usize::try_from(int_arg(&call, "dim")?).unwrap_or(0);
        call.finish()?;
        Ok(Value::NnModule(Module::data_parallel(
            &self.session,
            &module,
            device_ids,
            output_device,
            dim,
        )?))
    }

    /// The `device_ids` argument: GPU indices, or `torch.device`s / strings naming GPUs.
    async fn device_ids(&mut self, call: &Call) -> Result<Option<Vec<usize>>, Flow> {
        let ids = match call.value("device_ids")? {
            None | Some(Value::None) => return Ok(None),
            Some(ids) => self.collect(&ids).await?,
        };
        let mut indices = Vec::with_capacity(ids.len());
        for id in &ids {
            indices.push(gpu_index(id)?);
        }
        Ok(Some(indices))
    }

    /// What DDP's reducer does as `backward()` ends on a rank: each wrapped module's gradients
    /// averaged over the ranks.
    pub(crate) async fn after_backward(&mut self) -> Result<(), Flow> {
        let Some(rank) = &self.rank else {
            return Ok(());
        };
        let (world, wrappers) = (rank.world.clone(), rank.ddp.clone());
        for wrapper in &wrappers {
            world.average_gradients(wrapper).await?;
        }
        Ok(())
    }
}

/// The module a parallel wrapper wraps (its first argument).
fn wrapped_module(call: &Call, wrapper: &str) -> Result<Module, PyException> {
    call.value("module")?
        .as_ref()
        .and_then(super::nn::module_of)
        .ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                format!("{wrapper}() wraps an nn.Module"),
            )
        })
}

/// A GPU named by its index, a `torch.device` or a string.
fn gpu_index(v: &Value) -> Result<usize, PyException> {
    let device = match v {
        Value::Int(i) => super::parse::device_index(*i)?,
        Value::Device(d) => *d,
        Value::Str(s) => tolab_engine::Device::parse(s)?,
        other => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("expected a device, not '{}'", other.type_name()),
            ));
        }
    };
    Ok(usize::try_from(device.index.unwrap_or(0)).unwrap_or(0))
}

/// `dist.ReduceOp.<name>`.
pub const REDUCE_OPS: &[&str] = &["SUM", "AVG", "MAX", "MIN", "PRODUCT"];

fn reduce_op(name: &str) -> Result<ReduceOp, PyException> {
    Ok(match name.trim_start_matches("ReduceOp.") {
        "SUM" => ReduceOp::Sum,
        "AVG" => ReduceOp::Avg,
        "MAX" => ReduceOp::Max,
        "MIN" => ReduceOp::Min,
        "PRODUCT" => ReduceOp::Product,
        other => {
            return Err(PyException::new(
                ExcType::ValueError,
                format!(
                    "unknown reduce op {other} (the lab has ReduceOp.SUM, AVG, MAX, MIN, PRODUCT)"
                ),
            ));
        }
    })
}

/// `ProcessRaisedException`, as `spawn` raises it for a rank that failed.
fn process_raised(rank: usize, error: &PyException) -> PyException {
    PyException::new(
        ExcType::Other("torch.multiprocessing.spawn.ProcessRaisedException".into()),
        format!(
            "\n\n-- Process {rank} terminated with the following error:\n{}",
            error.traceback()
        ),
    )
}
