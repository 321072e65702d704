//! What `torch.cuda` reports beyond tensors: lazy initialisation, the allocator's counters under
//! PyTorch's keys, device properties, and the sync debug mode, which warns or raises at every
//! synchronizing operation (c10/cuda/CUDAFunctions.cpp `warn_or_error_on_sync`) but not at an
//! explicit `torch.cuda.synchronize()`.

use tolab_engine::cuda::SyncDebugMode;
use tolab_engine::{DType, Device, Error, Session, SessionConfig, Tensor, To};

fn cuda_tensor(session: &Session) -> Tensor {
    Tensor::zeros(session, &[256], DType::Float32, Device::cuda(0)).unwrap()
}

#[test]
fn cuda_initialises_at_its_first_use_not_at_a_count() {
    let session = Session::default();
    assert_eq!(session.device_count(), 2);
    assert!(!session.is_cuda_initialized());
    cuda_tensor(&session);
    assert!(session.is_cuda_initialized());
}

#[test]
fn a_machine_without_gpus_cannot_initialise_cuda() {
    let session = Session::new(SessionConfig {
        gpu_count: 0,
        ..SessionConfig::default()
    });
    assert!(matches!(session.cuda_init(), Err(Error::NoCudaGpus)));
    assert!(!session.is_cuda_initialized());
}

#[test]
fn memory_stats_has_pytorchs_122_keys_with_active_counters_equal_to_allocated_ones() {
    let session = Session::default();
    let _x = cuda_tensor(&session);
    let entries = session.detailed_memory_stats(Device::cuda(0)).entries();
    assert_eq!(entries.len(), 122);
    let get = |key: &str| entries.iter().find(|(k, _)| k == key).unwrap().1;
    assert_eq!(get("allocated_bytes.all.current"), 1024);
    assert_eq!(get("allocated_bytes.small_pool.current"), 1024);
    assert_eq!(get("active_bytes.all.current"), 1024);
    assert_eq!(get("allocation.all.current"), 1);
    assert_eq!(get("num_device_alloc"), 1);
    assert_eq!(get("max_split_size"), -1);
    // The C++ binding's order: the scalar counters first, then the pools.
    assert_eq!(entries[0].0, "num_alloc_retries");
    assert_eq!(entries[6].0, "allocation.all.current");
}

#[test]
fn empty_cache_counts_as_a_sync_of_all_streams() {
    let session = Session::default();
    drop(cuda_tensor(&session));
    session.empty_cache(Device::cuda(0));
    let stats = session.detailed_memory_stats(Device::cuda(0));
    assert_eq!(stats.num_sync_all_streams, 1);
    assert_eq!(stats.segment.all.freed, 1);
}

#[test]
fn device_properties_report_the_cap_and_compute_capability_8_0() {
    let session = Session::default();
    let properties = session.device_properties(1).unwrap();
    assert_eq!((properties.major, properties.minor), (8, 0));
    assert_eq!(
        properties.total_memory,
        SessionConfig::default().gpu_capacity
    );
    assert_eq!(
        properties.to_string(),
        "_CudaDeviceProperties(name='to(device) lab simulated GPU 1', major=8, minor=0, \
         total_memory=1024MB, multi_processor_count=1, \
         uuid=00000000-0000-0000-0000-000000000001, pci_bus_id=1, pci_device_id=0, \
         pci_domain_id=0, L2_cache_size=0MB)"
    );
    let (free, total) = session.mem_get_info(Device::cuda(1)).unwrap();
    assert_eq!(free, total);
}

#[test]
fn warn_mode_warns_at_item_and_at_blocking_copies_both_ways_only() {
    let session = Session::default();
    let x = cuda_tensor(&session);
    session.set_sync_debug_mode(SyncDebugMode::Warn).unwrap();
    let count = |session: &Session| {
        let warnings = session.take_warnings();
        session.warnings().reset_registry();
        warnings.len()
    };
    let one = Tensor::zeros(&session, &[1], DType::Float32, Device::cuda(0)).unwrap();
    one.item().unwrap();
    assert_eq!(count(&session), 1, "item()");
    x.to(To::device("cpu")).unwrap();
    assert_eq!(count(&session), 1, "a blocking copy to the host");
    let host = Tensor::zeros(&session, &[2], DType::Float32, Device::CPU).unwrap();
    host.to(To::device("cuda")).unwrap();
    assert_eq!(count(&session), 1, "a blocking copy from the host");
    host.to(To {
        non_blocking: true,
        ..To::device("cuda")
    })
    .unwrap();
    session.synchronize(None).unwrap();
    assert_eq!(count(&session), 0, "non_blocking, and synchronize()");
}

#[test]
fn error_mode_refuses_a_read_and_default_mode_allows_it_again() {
    let session = Session::default();
    let x = cuda_tensor(&session);
    session.set_sync_debug_mode(SyncDebugMode::Error).unwrap();
    assert!(matches!(x.scalars(), Err(Error::SynchronizingOperation)));
    assert_eq!(
        Error::SynchronizingOperation.to_string(),
        "called a synchronizing CUDA operation"
    );
    session
        .set_sync_debug_mode(SyncDebugMode::Disabled)
        .unwrap();
    assert_eq!(x.scalars().unwrap().len(), 256);
}
