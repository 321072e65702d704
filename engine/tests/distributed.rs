//! `torch.distributed` simulated in one runtime: ranks as cooperative tasks, collectives that
//! complete when every rank has called them, DistributedSampler's shares (against torch 2.15),
//! DDP keeping replicas equal, and the machine's failure modes — every rank on `cuda:0` when
//! `set_device(rank)` is forgotten (NCCL then refuses two ranks on one GPU, from c10d's
//! ProcessGroupNCCL), mismatched collectives ending in the watchdog's timeout.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::LazyLock;

use common::{linear, values};
use serde_json::Value as Json;
use tolab_engine::data::{DataLoader, DistributedSampler, LoaderOptions, TensorDataset};
use tolab_engine::distributed::{RankTask, ReduceOp, World};
use tolab_engine::nn::Module;
use tolab_engine::nn::functional::{self, Reduction};
use tolab_engine::optim::{Algorithm, Hyper, Optimizer};
use tolab_engine::value::Value;
use tolab_engine::{DType, Device, Error, Scalar, Session, Tensor};

static GOLDEN: LazyLock<Json> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../tests/golden/data.json")).expect("data.json parses")
});

/// `mp.spawn(fn, nprocs=n)`: `fn(rank)` on each rank; the results in rank order.
fn spawn<'a>(world: &World, ranks: impl Fn(usize) -> RankTask<'a>) -> Vec<Result<(), Error>> {
    pollster::block_on(world.run((0..world.size()).map(ranks).collect()))
}

#[test]
fn distributed_sampler_shares_match_pytorch() {
    for case in GOLDEN["distributed_sampler"].as_array().unwrap() {
        let sampler = DistributedSampler::new(
            case["replicas"].as_u64().unwrap() as usize,
            case["rank"].as_u64().unwrap() as usize,
            case["shuffle"].as_bool().unwrap(),
            7,
            case["drop_last"].as_bool().unwrap(),
        );
        sampler.set_epoch(case["epoch"].as_u64().unwrap());
        let n = case["n"].as_u64().unwrap() as usize;
        assert_eq!(Json::from(sampler.indices(n)), case["indices"], "{case}");
        assert_eq!(sampler.num_samples(n) as u64, case["len"].as_u64().unwrap());
    }
    let session = Session::default();
    let data = Tensor::zeros(&session, &[4], DType::Float32, Device::CPU).unwrap();
    let options = LoaderOptions {
        shuffle: true,
        sampler: Some(Rc::new(DistributedSampler::new(2, 0, true, 0, false))),
        ..LoaderOptions::default()
    };
    let error = DataLoader::new(&session, TensorDataset::new(vec![data]).unwrap(), options)
        .err()
        .unwrap();
    common::assert_pytorch_error(&error, &GOLDEN["errors"]["sampler_with_shuffle"], "sampler");
}

#[test]
fn collectives_complete_when_every_rank_calls_them() {
    let session = Session::default();
    let world = World::new(&session, 2);
    let results = spawn(&world, |rank| {
        let (world, session) = (world.clone(), session.clone());
        Box::pin(async move {
            world.init_process_group("nccl")?;
            session.set_device(rank)?;
            assert_eq!(world.rank(), Some(rank));
            let device = Device::cuda(rank as i8);
            let t = Tensor::full(
                &session,
                &[2],
                Scalar::Int(rank as i64 + 1),
                DType::Float32,
                device,
            )?;
            world.all_reduce(&t, ReduceOp::Sum).await?;
            assert_eq!(common::values(&t), [3.0, 3.0], "rank {rank}");
            assert_eq!(t.device(), device, "in place, on the rank's GPU");
            let u = Tensor::full(
                &session,
                &[1],
                Scalar::Int(10 * rank as i64),
                DType::Float32,
                device,
            )?;
            world.broadcast(&u, 1).await?;
            assert_eq!(common::values(&u), [10.0]);
            world.barrier().await?;
            assert_eq!(
                session.current_device()?,
                rank,
                "each rank keeps its own current GPU"
            );
            Ok(())
        })
    });
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(
        session.current_device().unwrap(),
        0,
        "the launcher's own state is untouched"
    );
}

#[test]
fn forgetting_set_device_puts_every_rank_on_cuda0() {
    for backend in ["gloo", "nccl"] {
        let session = Session::default();
        let world = World::new(&session, 2);
        let kept: Rc<RefCell<Vec<Tensor>>> = Rc::default();
        let results = spawn(&world, |rank| {
            let (world, session, kept) = (world.clone(), session.clone(), kept.clone());
            Box::pin(async move {
                world.init_process_group(backend)?;
                // `torch.ones(256, device="cuda")` without `torch.cuda.set_device(rank)`.
                let cuda = Device {
                    kind: tolab_engine::DeviceType::Cuda,
                    index: None,
                };
                let t = Tensor::ones(&session, &[256], DType::Float32, cuda)?;
                assert_eq!(t.device(), Device::cuda(0), "rank {rank}");
                kept.borrow_mut().push(t.clone());
                world.all_reduce(&t, ReduceOp::Sum).await?;
                Ok(())
            })
        });
        match backend {
            "gloo" => {
                assert!(results.iter().all(Result::is_ok));
                let used = |d| session.memory_stats(Device::cuda(d)).allocated;
                assert_eq!(
                    (used(0), used(1)),
                    (2048, 0),
                    "both ranks' tensors on GPU 0"
                );
            }
            _ => {
                let error = results[0].as_ref().unwrap_err();
                assert_eq!(
                    error.to_string(),
                    "NCCL error in: ProcessGroupNCCL.cpp, invalid usage (run with NCCL_DEBUG=WARN for details)\nncclInvalidUsage: This usually reflects invalid usage of NCCL library.\nLast error:\nDuplicate GPU detected : rank 1 and rank 0 both on CUDA device 0"
                );
                assert_eq!(
                    error.python_type().name(),
                    "torch.distributed.DistBackendError"
                );
            }
        }
    }
}

#[test]
fn ranks_waiting_on_each_other_end_with_the_watchdog_timeout() {
    let session = Session::default();
    let world = World::new(&session, 2);
    let results = spawn(&world, |rank| {
        let (world, session) = (world.clone(), session.clone());
        Box::pin(async move {
            world.init_process_group("gloo")?;
            if rank == 0 {
                let t = Tensor::ones(&session, &[3], DType::Float32, Device::CPU)?;
                world.all_reduce(&t, ReduceOp::Sum).await?;
            }
            Ok(())
        })
    });
    assert!(results[1].is_ok(), "rank 1 finished without the collective");
    assert_eq!(
        results[0].as_ref().unwrap_err().to_string(),
        "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=3, NumelOut=3, Timeout(ms)=600000) ran for 600000 milliseconds before timing out."
    );

    let world = World::new(&session, 2);
    let uninitialised = spawn(&world, |_| {
        let world = world.clone();
        Box::pin(async move { world.barrier().await })
    });
    assert_eq!(
        uninitialised[0].as_ref().unwrap_err().to_string(),
        "Default process group has not been initialized, please make sure to call init_process_group."
    );
}

/// Full-batch SGD on one process: the reference DDP must match.
fn train_single(session: &Session, x: &Tensor, y: &Tensor, steps: usize) -> Vec<Vec<f64>> {
    session.manual_seed(0);
    let model = linear(session, 3, 1, true);
    let optimizer = sgd(&model);
    for _ in 0..steps {
        optimizer.zero_grad(true).unwrap();
        let out = model.forward(std::slice::from_ref(x)).unwrap();
        let loss = functional::mse_loss(&out, y, Reduction::Mean).unwrap();
        loss.backward(None, false).unwrap();
        optimizer.step().unwrap();
    }
    model
        .parameters()
        .iter()
        .map(|p| values(&p.tensor()))
        .collect()
}

fn sgd(model: &Module) -> Optimizer {
    Optimizer::new(
        Algorithm::Sgd,
        vec![(model.parameters(), Vec::new())],
        &[("lr".to_owned(), Hyper::Float(0.1))],
    )
    .unwrap()
}

#[test]
fn ddp_averages_gradients_so_every_rank_trains_the_full_batch_model() {
    let session = Session::default();
    let xs: Vec<f64> = (0..24).map(|i| (i as f64 * 0.7).cos()).collect();
    let ys: Vec<f64> = (0..8).map(|i| (i as f64 * 0.3).sin()).collect();
    let x = common::tensor(&session, &xs, &[8, 3], DType::Float32);
    let y = common::tensor(&session, &ys, &[8, 1], DType::Float32);
    let expected = train_single(&session, &x, &y, 5);

    let world = World::new(&session, 2);
    let finals: Rc<RefCell<Vec<Vec<Vec<f64>>>>> = Rc::default();
    let results = spawn(&world, |rank| {
        let (world, session, finals) = (world.clone(), session.clone(), finals.clone());
        let (x, y) = (x.clone(), y.clone());
        Box::pin(async move {
            world.init_process_group("nccl")?;
            session.set_device(rank)?;
            let device = tolab_engine::To::device(format!("cuda:{rank}"));
            // Each rank starts from its own seed; DDP broadcasts rank 0's weights.
            session.manual_seed(if rank == 0 { 0 } else { 99 });
            let model = linear(&session, 3, 1, true);
            model.to(&device)?;
            let ddp = world.data_parallel(&model, Some(vec![rank])).await?;
            let optimizer = sgd(&model);
            let sampler = Rc::new(DistributedSampler::new(2, rank, false, 0, false));
            let dataset = TensorDataset::new(vec![x, y])?;
            let options = LoaderOptions {
                batch_size: Some(8),
                sampler: Some(sampler),
                ..LoaderOptions::default()
            };
            let loader = DataLoader::new(&session, dataset, options)?;
            for _ in 0..5 {
                let mut batches = loader.iter();
                while let Some(batch) = batches.next_batch(None) {
                    let Value::List(columns) = batch? else {
                        return Err(Error::NoTensorOperand);
                    };
                    let (Value::Tensor(bx), Value::Tensor(by)) = (&columns[0], &columns[1]) else {
                        return Err(Error::NoTensorOperand);
                    };
                    optimizer.zero_grad(true)?;
                    let out = ddp.forward(&[bx.to(device.clone())?])?;
                    let loss =
                        functional::mse_loss(&out, &by.to(device.clone())?, Reduction::Mean)?;
                    loss.backward(None, false)?;
                    world.average_gradients(&ddp).await?;
                    optimizer.step()?;
                }
            }
            finals.borrow_mut().push(
                model
                    .parameters()
                    .iter()
                    .map(|p| values(&p.tensor()))
                    .collect(),
            );
            Ok(())
        })
    });
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let finals = finals.borrow();
    assert_eq!(finals[0], finals[1], "the replicas stay identical");
    for (got, want) in finals[0].iter().zip(&expected) {
        assert!(
            got.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-5),
            "{got:?} vs {want:?}"
        );
    }
}
