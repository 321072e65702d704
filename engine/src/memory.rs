//! The memory model: one allocator per device, as PyTorch's CUDA caching allocator behaves
//! (c10/cuda/CUDACachingAllocator.cpp), with the statistics `torch.cuda.memory_*` report.
//!
//! - Requests are rounded up to 512-byte blocks.
//! - Requests up to 1 MiB come from the small pool, whose segments are 2 MiB; larger ones from the
//!   large pool, whose segments are 20 MiB for requests under 10 MiB and the request rounded up to
//!   2 MiB otherwise.
//! - A free block that fits is reused (best fit: the smallest, then the lowest address) and split
//!   when the rest is worth keeping (small pool: at least 512 bytes; large pool: over 1 MiB).
//! - Freed blocks stay reserved (cached) and merge with free neighbours; `empty_cache` gives whole
//!   free segments back. When a new segment would pass the device's capacity, cached segments are
//!   released and the request retried before it fails with PyTorch's out-of-memory text.
//!
//! The CPU has no cache in PyTorch: its allocator here reserves exactly what is allocated.

use std::collections::HashMap;
use std::fmt;

const MIN_BLOCK_SIZE: u64 = 512;
const SMALL_SIZE: u64 = 1 << 20;
const SMALL_BUFFER: u64 = 2 << 20;
const LARGE_BUFFER: u64 = 20 << 20;
const MIN_LARGE_ALLOC: u64 = 10 << 20;
const ROUND_LARGE: u64 = 2 << 20;

/// Identifies one live allocation on one device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(u64);

/// How the allocator met a request: what the trace and the memory timeline show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allocation {
    pub block: BlockId,
    /// Where the block starts: a simulated device address, the same for a reused cached block.
    pub address: u64,
    /// Where the block's segment starts: the key of the real buffer behind it on a GPU backend
    /// (the block lives `address - segment_base` bytes into that buffer).
    pub segment_base: u64,
    /// The request rounded up to the allocator's block size: what `memory_allocated` counts.
    pub size: u64,
    /// Bytes of a new segment reserved for it; 0 when a cached block was reused.
    pub new_segment: u64,
    /// Bytes of cached segments released to make room (an allocation retry), if any.
    pub released_for_retry: u64,
}

/// The numbers behind `torch.cuda.memory_allocated`, `memory_reserved` and their peaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemoryStats {
    pub allocated: u64,
    pub reserved: u64,
    pub max_allocated: u64,
    pub max_reserved: u64,
    pub allocations: u64,
    pub frees: u64,
    pub segments: u64,
    pub alloc_retries: u64,
    pub ooms: u64,
}

/// One of the allocator's counters, as `torch.cuda.memory_stats()` keeps them: the current value,
/// its peak, and the totals ever added and removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stat {
    pub current: u64,
    pub peak: u64,
    pub allocated: u64,
    pub freed: u64,
}

impl Stat {
    fn increase(&mut self, n: u64) {
        self.current += n;
        self.allocated += n;
        self.peak = self.peak.max(self.current);
    }

    fn decrease(&mut self, n: u64) {
        self.current -= n;
        self.freed += n;
    }

    /// Moves the current value to `value`, counting the change.
    fn set(&mut self, value: u64) {
        if value > self.current {
            self.increase(value - self.current);
        } else {
            self.decrease(self.current - value);
        }
    }
}

/// A counter for all pools together and for each pool ("small" ≤ 1 MiB, "large").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PoolStat {
    pub all: Stat,
    pub small: Stat,
    pub large: Stat,
}

impl PoolStat {
    fn pool(&mut self, pool: Pool) -> &mut Stat {
        match pool {
            Pool::Small => &mut self.small,
            Pool::Large => &mut self.large,
        }
    }

    fn increase(&mut self, pool: Pool, n: u64) {
        self.all.increase(n);
        self.pool(pool).increase(n);
    }

    fn decrease(&mut self, pool: Pool, n: u64) {
        self.all.decrease(n);
        self.pool(pool).decrease(n);
    }

    fn reset_peak(&mut self) {
        for stat in [&mut self.all, &mut self.small, &mut self.large] {
            stat.peak = stat.current;
        }
    }
}

/// Everything `torch.cuda.memory_stats()` reports that the lab models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DetailedStats {
    pub allocated_bytes: PoolStat,
    pub requested_bytes: PoolStat,
    pub reserved_bytes: PoolStat,
    /// Free bytes inside segments that also hold live blocks: cached, but not releasable.
    pub inactive_split_bytes: PoolStat,
    pub allocation: PoolStat,
    pub segment: PoolStat,
    pub inactive_split: PoolStat,
    pub num_alloc_retries: u64,
    pub num_ooms: u64,
    /// Times the allocator released its cache (`empty_cache()`, or before a retry), each of
    /// which first waits on every stream's events.
    pub num_sync_all_streams: u64,
}

impl DetailedStats {
    /// Every counter under its dotted key, in the order torch/csrc/cuda/Module.cpp builds
    /// them (`torch.cuda.memory_stats()` sorts them). Without streams
    /// a freed block is inactive at once, so the "active" counters are the allocated ones; the
    /// lab sets no `max_split_size` (-1: none), so nothing is oversize.
    pub fn entries(&self) -> Vec<(String, i64)> {
        let int = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        let mut entries = vec![
            ("num_alloc_retries".to_owned(), int(self.num_alloc_retries)),
            ("num_ooms".to_owned(), int(self.num_ooms)),
            ("max_split_size".to_owned(), -1),
            (
                "num_sync_all_streams".to_owned(),
                int(self.num_sync_all_streams),
            ),
            (
                "num_device_alloc".to_owned(),
                int(self.segment.all.allocated),
            ),
            ("num_device_free".to_owned(), int(self.segment.all.freed)),
        ];
        let stat = |entries: &mut Vec<(String, i64)>, prefix: &str, stat: &Stat| {
            for (metric, n) in [
                ("current", stat.current),
                ("peak", stat.peak),
                ("allocated", stat.allocated),
                ("freed", stat.freed),
            ] {
                entries.push((format!("{prefix}.{metric}"), int(n)));
            }
        };
        for (name, pools) in [
            ("allocation", &self.allocation),
            ("segment", &self.segment),
            ("active", &self.allocation),
            ("inactive_split", &self.inactive_split),
            ("allocated_bytes", &self.allocated_bytes),
            ("reserved_bytes", &self.reserved_bytes),
            ("active_bytes", &self.allocated_bytes),
            ("inactive_split_bytes", &self.inactive_split_bytes),
            ("requested_bytes", &self.requested_bytes),
        ] {
            for (pool, s) in [
                ("all", &pools.all),
                ("small_pool", &pools.small),
                ("large_pool", &pools.large),
            ] {
                stat(&mut entries, &format!("{name}.{pool}"), s);
            }
        }
        let none = Stat::default();
        stat(&mut entries, "oversize_allocations", &none);
        stat(&mut entries, "oversize_segments", &none);
        entries
    }
}

/// A failed allocation, with what PyTorch's message reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfMemory {
    /// The segment size that could not be reserved ("Tried to allocate …").
    pub tried: u64,
    pub capacity: u64,
    pub free: u64,
    pub allocated: u64,
    pub reserved: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pool {
    Small,
    Large,
}

#[derive(Debug)]
struct Block {
    offset: u64,
    size: u64,
    allocated: Option<BlockId>,
}

#[derive(Debug)]
struct Segment {
    pool: Pool,
    base: u64,
    size: u64,
    /// Blocks in address order; together they cover the segment.
    blocks: Vec<Block>,
}

impl Segment {
    fn is_free(&self) -> bool {
        self.blocks.iter().all(|b| b.allocated.is_none())
    }
}

/// The allocator of one device.
#[derive(Debug)]
pub struct DeviceAllocator {
    capacity: u64,
    caching: bool,
    segments: Vec<Option<Segment>>,
    /// Where each live allocation sits (segment, block offset) and the bytes it asked for.
    live: HashMap<BlockId, (usize, u64, u64)>,
    next_id: u64,
    /// Where the next segment is placed in the simulated address space.
    next_base: u64,
    stats: DetailedStats,
}

impl DeviceAllocator {
    /// PyTorch's caching allocator for a GPU with `capacity` bytes.
    /// `base_address` only shapes the simulated `data_ptr()` values.
    pub fn caching(capacity: u64, base_address: u64) -> Self {
        Self::new(capacity, true, base_address)
    }

    /// The CPU's allocator: exact sizes, nothing cached.
    pub fn exact(capacity: u64, base_address: u64) -> Self {
        Self::new(capacity, false, base_address)
    }

    fn new(capacity: u64, caching: bool, base_address: u64) -> Self {
        Self {
            capacity,
            caching,
            segments: Vec::new(),
            live: HashMap::new(),
            next_id: 0,
            next_base: base_address,
            stats: DetailedStats::default(),
        }
    }

    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// The figures behind `memory_allocated`, `memory_reserved` and their peaks.
    pub fn stats(&self) -> MemoryStats {
        let s = &self.stats;
        MemoryStats {
            allocated: s.allocated_bytes.all.current,
            reserved: s.reserved_bytes.all.current,
            max_allocated: s.allocated_bytes.all.peak,
            max_reserved: s.reserved_bytes.all.peak,
            allocations: s.allocation.all.allocated,
            frees: s.allocation.all.freed,
            segments: s.segment.all.allocated,
            alloc_retries: s.num_alloc_retries,
            ooms: s.num_ooms,
        }
    }

    /// Every counter, as `torch.cuda.memory_stats()` has them.
    pub fn detailed_stats(&self) -> &DetailedStats {
        &self.stats
    }

    /// `torch.cuda.reset_peak_memory_stats`: peaks restart from the current figures.
    pub fn reset_peak_stats(&mut self) {
        let s = &mut self.stats;
        for stat in [
            &mut s.allocated_bytes,
            &mut s.requested_bytes,
            &mut s.reserved_bytes,
            &mut s.inactive_split_bytes,
            &mut s.allocation,
            &mut s.segment,
            &mut s.inactive_split,
        ] {
            stat.reset_peak();
        }
    }

    /// Allocates `bytes`, reusing a cached block where one fits.
    pub fn allocate(&mut self, bytes: u64) -> Result<Allocation, OutOfMemory> {
        if !self.caching {
            return self.allocate_exact(bytes);
        }
        let size = round_size(bytes);
        let pool = if size <= SMALL_SIZE {
            Pool::Small
        } else {
            Pool::Large
        };
        let mut new_segment = 0;
        let mut released_for_retry = 0;
        let (segment, offset) = match self.best_fit(pool, size) {
            Some(found) => found,
            None => {
                let segment_size = allocation_size(size);
                if self.stats.reserved_bytes.all.current + segment_size > self.capacity {
                    // PyTorch frees its cached blocks and tries once more before giving up.
                    released_for_retry = self.empty_cache();
                    self.stats.num_alloc_retries += 1;
                    if self.stats.reserved_bytes.all.current + segment_size > self.capacity {
                        self.stats.num_ooms += 1;
                        return Err(self.out_of_memory(segment_size));
                    }
                }
                new_segment = segment_size;
                (self.add_segment(pool, segment_size), 0)
            }
        };
        let block = self.take_block(segment, offset, size, bytes);
        let address = self.address_of(segment, offset);
        Ok(Allocation {
            block,
            address,
            segment_base: address - offset,
            size,
            new_segment,
            released_for_retry,
        })
    }

    fn allocate_exact(&mut self, bytes: u64) -> Result<Allocation, OutOfMemory> {
        if self.stats.reserved_bytes.all.current + bytes > self.capacity {
            self.stats.num_ooms += 1;
            return Err(self.out_of_memory(bytes));
        }
        let segment = self.add_segment(Pool::Large, bytes);
        let block = self.take_block(segment, 0, bytes, bytes);
        let address = self.address_of(segment, 0);
        Ok(Allocation {
            block,
            address,
            segment_base: address,
            size: bytes,
            new_segment: bytes,
            released_for_retry: 0,
        })
    }

    /// Frees an allocation; returns the bytes it held. The memory stays reserved (cached) on a
    /// caching allocator.
    pub fn free(&mut self, block: BlockId) -> Option<u64> {
        let (segment_index, offset, requested) = self.live.remove(&block)?;
        let segment = self.segments.get_mut(segment_index)?.as_mut()?;
        let pool = segment.pool;
        let position = segment.blocks.iter().position(|b| b.offset == offset)?;
        segment.blocks[position].allocated = None;
        let size = segment.blocks[position].size;
        // Merge with free neighbours so the space can serve larger requests again.
        if position + 1 < segment.blocks.len() && segment.blocks[position + 1].allocated.is_none() {
            let next = segment.blocks.remove(position + 1);
            segment.blocks[position].size += next.size;
        }
        if position > 0 && segment.blocks[position - 1].allocated.is_none() {
            let this = segment.blocks.remove(position);
            segment.blocks[position - 1].size += this.size;
        }
        self.stats.allocated_bytes.decrease(pool, size);
        self.stats.requested_bytes.decrease(pool, requested);
        self.stats.allocation.decrease(pool, 1);
        if !self.caching {
            self.release_segment(segment_index);
        }
        self.update_inactive_split();
        Some(size)
    }

    /// The bases of the segments reserved now: a GPU backend keeps one buffer for each.
    pub fn segment_bases(&self) -> impl Iterator<Item = u64> + '_ {
        self.segments.iter().flatten().map(|s| s.base)
    }

    /// `torch.cuda.empty_cache`: gives every entirely free segment back. Returns the bytes released.
    pub fn empty_cache(&mut self) -> u64 {
        self.stats.num_sync_all_streams += 1;
        let free: Vec<usize> = (0..self.segments.len())
            .filter(|&i| self.segments[i].as_ref().is_some_and(Segment::is_free))
            .collect();
        free.into_iter().map(|i| self.release_segment(i)).sum()
    }

    fn release_segment(&mut self, index: usize) -> u64 {
        let Some(segment) = self.segments[index].take() else {
            return 0;
        };
        self.stats
            .reserved_bytes
            .decrease(segment.pool, segment.size);
        self.stats.segment.decrease(segment.pool, 1);
        segment.size
    }

    /// Recounts the free blocks stranded in segments that still hold live blocks.
    fn update_inactive_split(&mut self) {
        let mut bytes = [0u64; 2];
        let mut count = [0u64; 2];
        for segment in self
            .segments
            .iter()
            .flatten()
            .filter(|s| s.blocks.len() > 1)
        {
            let i = segment.pool as usize;
            for block in segment.blocks.iter().filter(|b| b.allocated.is_none()) {
                bytes[i] += block.size;
                count[i] += 1;
            }
        }
        for (stat, values) in [
            (&mut self.stats.inactive_split_bytes, bytes),
            (&mut self.stats.inactive_split, count),
        ] {
            stat.small.set(values[Pool::Small as usize]);
            stat.large.set(values[Pool::Large as usize]);
            stat.all.set(values[0] + values[1]);
        }
    }

    fn add_segment(&mut self, pool: Pool, size: u64) -> usize {
        self.stats.reserved_bytes.increase(pool, size);
        self.stats.segment.increase(pool, 1);
        let base = self.next_base;
        // Segments are placed 2 MiB-aligned, like a driver's allocations.
        self.next_base += size.div_ceil(SMALL_BUFFER).max(1) * SMALL_BUFFER;
        let segment = Segment {
            pool,
            base,
            size,
            blocks: vec![Block {
                offset: 0,
                size,
                allocated: None,
            }],
        };
        match self.segments.iter().position(Option::is_none) {
            Some(slot) => {
                self.segments[slot] = Some(segment);
                slot
            }
            None => {
                self.segments.push(Some(segment));
                self.segments.len() - 1
            }
        }
    }

    /// The smallest free block of `pool` that holds `size`, lowest address first among equals.
    fn best_fit(&self, pool: Pool, size: u64) -> Option<(usize, u64)> {
        self.segments
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().filter(|s| s.pool == pool).map(|s| (i, s)))
            .flat_map(|(i, s)| {
                s.blocks
                    .iter()
                    .filter(|b| b.allocated.is_none() && b.size >= size)
                    .map(move |b| (b.size, s.base + b.offset, i, b.offset))
            })
            .min()
            .map(|(_, _, i, offset)| (i, offset))
    }

    /// Marks the free block at (`segment`, `offset`) allocated, splitting off the rest when the
    /// rest is worth keeping.
    fn take_block(
        &mut self,
        segment_index: usize,
        offset: u64,
        size: u64,
        requested: u64,
    ) -> BlockId {
        let id = BlockId(self.next_id);
        self.next_id += 1;
        if let Some(segment) = self.segments[segment_index].as_mut()
            && let Some(position) = segment.blocks.iter().position(|b| b.offset == offset)
        {
            let remaining = segment.blocks[position].size - size;
            let split = match segment.pool {
                Pool::Small => remaining >= MIN_BLOCK_SIZE,
                Pool::Large => remaining > SMALL_SIZE,
            };
            if split {
                segment.blocks[position].size = size;
                segment.blocks.insert(
                    position + 1,
                    Block {
                        offset: offset + size,
                        size: remaining,
                        allocated: None,
                    },
                );
            }
            segment.blocks[position].allocated = Some(id);
            let (pool, taken) = (segment.pool, segment.blocks[position].size);
            self.stats.allocated_bytes.increase(pool, taken);
            self.stats.requested_bytes.increase(pool, requested);
            self.stats.allocation.increase(pool, 1);
        }
        self.live.insert(id, (segment_index, offset, requested));
        self.update_inactive_split();
        id
    }

    /// The out-of-memory error a request of `bytes` would meet even on an empty device: checked
    /// before an op builds a result that large in host memory.
    pub fn never_fits(&self, bytes: u64) -> Option<OutOfMemory> {
        let needed = if self.caching {
            allocation_size(round_size(bytes))
        } else {
            bytes
        };
        (needed > self.capacity).then(|| self.out_of_memory(needed))
    }

    fn address_of(&self, segment: usize, offset: u64) -> u64 {
        self.segments[segment]
            .as_ref()
            .map_or(0, |s| s.base + offset)
    }

    fn out_of_memory(&self, tried: u64) -> OutOfMemory {
        OutOfMemory {
            tried,
            capacity: self.capacity,
            free: self.capacity - self.stats.reserved_bytes.all.current.min(self.capacity),
            allocated: self.stats.allocated_bytes.all.current,
            reserved: self.stats.reserved_bytes.all.current,
        }
    }
}

/// `torch.cuda.memory_summary(device)`: PyTorch's table (torch/cuda/memory.py), from the counters
/// the lab keeps. Oversize allocations do not occur in the lab (no `max_split_size`), so those rows
/// are zeros, as they are in PyTorch by default.
pub fn summary(stats: &DetailedStats, device_index: i64) -> String {
    let mut lines = vec![
        "=".repeat(75),
        format!(
            " {:16} PyTorch CUDA memory summary, device ID {:<17} ",
            "", device_index
        ),
        "-".repeat(75),
        format!(
            "  {:9} CUDA OOMs: {:<12} | {:6} cudaMalloc retries: {:<8}  ",
            "", stats.num_ooms, "", stats.num_alloc_retries
        ),
        "=".repeat(75),
        "        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ".to_owned(),
    ];
    let bytes: Column = size_column;
    let counts: Column = count_column;
    let rows: [(&PoolStat, &str, Column); 9] = [
        (&stats.allocated_bytes, "Allocated memory", bytes),
        // No streams in the lab: every allocated block is active.
        (&stats.allocated_bytes, "Active memory", bytes),
        (&stats.requested_bytes, "Requested memory", bytes),
        (&stats.reserved_bytes, "GPU reserved memory", bytes),
        (&stats.inactive_split_bytes, "Non-releasable memory", bytes),
        (&stats.allocation, "Allocations", counts),
        (&stats.allocation, "Active allocs", counts),
        (&stats.segment, "GPU reserved segments", counts),
        (&stats.inactive_split, "Non-releasable allocs", counts),
    ];
    for (stat, name, format) in rows {
        lines.push("-".repeat(75));
        let reference = stat.all;
        for (sub, label) in [
            (stat.all, name),
            (stat.large, "      from large pool"),
            (stat.small, "      from small pool"),
        ] {
            lines.push(format!(
                " {label:<21} | {} | {} | {} | {} ",
                format(sub.current, reference.current),
                format(sub.peak, reference.peak),
                format(sub.allocated, reference.allocated),
                format(sub.freed, reference.freed)
            ));
        }
    }
    for name in ["Oversize allocations", "Oversize GPU segments"] {
        lines.push("-".repeat(75));
        let zero = count_column(0, 0);
        lines.push(format!(" {name:<21} | {zero} | {zero} | {zero} | {zero} "));
    }
    lines.push("=".repeat(75));
    format!("|{}|\n", lines.join("|\n|"))
}

/// Formats one cell of the summary, scaled to its row's reference value.
type Column = fn(u64, u64) -> String;

/// `_format_size`: a size scaled to the unit its row's first value needs.
fn size_column(size: u64, reference: u64) -> String {
    let mut size = size;
    let mut reference = reference as f64;
    let mut unit = "B  ";
    for next in ["KiB", "MiB", "GiB", "TiB", "PiB"] {
        if reference < 768.0 * 1024.0 {
            break;
        }
        unit = next;
        size /= 1024;
        reference /= 1024.0;
    }
    format!("{size:6} {unit}")
}

/// `_format_count`: a count scaled to K or M the same way.
fn count_column(count: u64, reference: u64) -> String {
    let mut count = count;
    let mut reference = reference as f64;
    let mut unit = " ";
    for next in ["K", "M"] {
        if reference < 750.0 * 1000.0 {
            break;
        }
        unit = next;
        count /= 1000;
        reference /= 1000.0;
    }
    format!("{count:7} {unit} ")
}

/// Requests rounded up to whole 512-byte blocks (at least one).
pub fn round_size(bytes: u64) -> u64 {
    bytes.max(1).div_ceil(MIN_BLOCK_SIZE) * MIN_BLOCK_SIZE
}

/// The segment reserved for a rounded request that no cached block can serve.
pub fn allocation_size(size: u64) -> u64 {
    if size <= SMALL_SIZE {
        SMALL_BUFFER
    } else if size < MIN_LARGE_ALLOC {
        LARGE_BUFFER
    } else {
        size.div_ceil(ROUND_LARGE) * ROUND_LARGE
    }
}

/// Bytes as PyTorch's allocator prints them: `512 bytes`, `2.00 MiB`, `1.50 GiB`.
pub struct Size(pub u64);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0 as f64;
        match self.0 {
            0..=1024 => write!(f, "{} bytes", self.0),
            1025..=1_048_576 => write!(f, "{:.2} KiB", b / 1024.0),
            1_048_577..=1_073_741_824 => write!(f, "{:.2} MiB", b / 1_048_576.0),
            _ => write!(f, "{:.2} GiB", b / 1_073_741_824.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    #[test]
    fn a_tiny_tensor_takes_one_block_of_a_fresh_2_mib_segment() {
        let mut gpu = DeviceAllocator::caching(1 << 30, 0);
        let a = gpu.allocate(4).unwrap();
        assert_eq!((a.size, a.new_segment), (512, 2 * MIB));
        assert_eq!(
            (gpu.stats().allocated, gpu.stats().reserved),
            (512, 2 * MIB)
        );
        // The next small request is served from the same segment.
        let b = gpu.allocate(1000).unwrap();
        assert_eq!((b.size, b.new_segment), (1024, 0));
        assert_eq!(
            (gpu.stats().allocated, gpu.stats().reserved),
            (1536, 2 * MIB)
        );
    }

    #[test]
    fn segment_sizes_follow_the_request_size() {
        assert_eq!(allocation_size(round_size(MIB)), 2 * MIB);
        assert_eq!(allocation_size(round_size(MIB + 1)), 20 * MIB);
        assert_eq!(allocation_size(round_size(10 * MIB - 512)), 20 * MIB);
        assert_eq!(
            allocation_size(round_size(10 * MIB - 1)),
            10 * MIB,
            "rounds up to exactly 10 MiB"
        );
        assert_eq!(allocation_size(round_size(10 * MIB)), 10 * MIB);
        assert_eq!(allocation_size(round_size(11 * MIB)), 12 * MIB);
    }

    #[test]
    fn freed_memory_stays_reserved_and_is_reused() {
        let mut gpu = DeviceAllocator::caching(1 << 30, 0);
        let a = gpu.allocate(4 * MIB).unwrap();
        assert_eq!(a.new_segment, 20 * MIB);
        gpu.free(a.block);
        assert_eq!((gpu.stats().allocated, gpu.stats().reserved), (0, 20 * MIB));
        let b = gpu.allocate(4 * MIB).unwrap();
        assert_eq!(b.new_segment, 0, "served from the cache");
        assert_eq!(b.address, a.address, "the same memory again");
        assert_eq!(b.address, a.address, "the same memory again");
        assert_eq!(gpu.stats().max_allocated, 4 * MIB);
        gpu.free(b.block);
        assert_eq!(gpu.empty_cache(), 20 * MIB);
        assert_eq!(gpu.stats().reserved, 0);
    }

    #[test]
    fn large_blocks_split_only_when_more_than_1_mib_remains() {
        let mut gpu = DeviceAllocator::caching(1 << 30, 0);
        // 19.5 MiB out of a 20 MiB segment: the 0.5 MiB rest is not split off.
        let a = gpu.allocate(19 * MIB + MIB / 2).unwrap();
        assert_eq!(gpu.stats().allocated, 20 * MIB);
        gpu.free(a.block);
        // 4 MiB out of it: the 16 MiB rest is split off and serves the next request.
        let b = gpu.allocate(4 * MIB).unwrap();
        let c = gpu.allocate(8 * MIB).unwrap();
        assert_eq!((b.new_segment, c.new_segment), (0, 0));
        assert_eq!(gpu.stats().allocated, 12 * MIB);
        // Freeing both merges them back into one 20 MiB block.
        gpu.free(b.block);
        gpu.free(c.block);
        assert_eq!(gpu.allocate(20 * MIB).unwrap().new_segment, 0);
    }

    #[test]
    fn cached_segments_are_released_before_giving_up() {
        let mut gpu = DeviceAllocator::caching(40 * MIB, 0);
        let a = gpu.allocate(30 * MIB).unwrap();
        gpu.free(a.block);
        // 30 MiB is cached; a 36 MiB segment only fits once the cache is released.
        let b = gpu.allocate(36 * MIB).unwrap();
        assert_eq!((b.new_segment, b.released_for_retry), (36 * MIB, 30 * MIB));
        let oom = gpu.allocate(6 * MIB).unwrap_err();
        assert_eq!(
            oom,
            OutOfMemory {
                tried: 20 * MIB,
                capacity: 40 * MIB,
                free: 4 * MIB,
                allocated: 36 * MIB,
                reserved: 36 * MIB
            }
        );
        assert_eq!(gpu.stats().ooms, 1);
    }

    #[test]
    fn the_cpu_reserves_exactly_what_it_allocates() {
        let mut cpu = DeviceAllocator::exact(1 << 30, 0);
        let a = cpu.allocate(12).unwrap();
        assert_eq!((cpu.stats().allocated, cpu.stats().reserved), (12, 12));
        cpu.free(a.block);
        assert_eq!((cpu.stats().allocated, cpu.stats().reserved), (0, 0));
    }

    #[test]
    fn the_summary_table_reports_pools_and_totals() {
        let mut gpu = DeviceAllocator::caching(1 << 30, 0);
        let a = gpu.allocate(4).unwrap();
        gpu.allocate(2 * MIB).unwrap();
        gpu.free(a.block);
        let table = summary(gpu.detailed_stats(), 0);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 47);
        assert!(lines.iter().all(|l| l.len() == 77), "{table}");
        assert_eq!(
            lines[1],
            "|                  PyTorch CUDA memory summary, device ID 0                 |"
        );
        assert_eq!(
            lines[3],
            "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |"
        );
        assert_eq!(
            lines[7],
            "| Allocated memory      |   2048 KiB |   2048 KiB |   2048 KiB |    512 B   |"
        );
        assert_eq!(
            lines[8],
            "|       from large pool |   2048 KiB |   2048 KiB |   2048 KiB |      0 B   |"
        );
        assert_eq!(
            lines[9],
            "|       from small pool |      0 KiB |      0 KiB |      0 KiB |    512 B   |"
        );
        assert!(
            table.contains(
                "| GPU reserved memory   |  22528 KiB |  22528 KiB |  22528 KiB |      0 B   |"
            ),
            "{table}"
        );
        assert!(
            table.contains(
                "| Allocations           |       1    |       2    |       2    |       1    |"
            ),
            "{table}"
        );
    }

    #[test]
    fn sizes_print_as_pytorch_prints_them() {
        assert_eq!(Size(512).to_string(), "512 bytes");
        assert_eq!(Size(1536).to_string(), "1.50 KiB");
        assert_eq!(Size(20 * MIB).to_string(), "20.00 MiB");
        assert_eq!(Size(3 << 29).to_string(), "1.50 GiB");
    }
}
