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
enum Pool {
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
    /// Where each live allocation sits: (segment, block offset).
    live: HashMap<BlockId, (usize, u64)>,
    next_id: u64,
    /// Where the next segment is placed in the simulated address space.
    next_base: u64,
    stats: MemoryStats,
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
            stats: MemoryStats::default(),
        }
    }

    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    pub fn stats(&self) -> MemoryStats {
        self.stats
    }

    /// `torch.cuda.reset_peak_memory_stats`: peaks restart from the current figures.
    pub fn reset_peak_stats(&mut self) {
        self.stats.max_allocated = self.stats.allocated;
        self.stats.max_reserved = self.stats.reserved;
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
                if self.stats.reserved + segment_size > self.capacity {
                    // PyTorch frees its cached blocks and tries once more before giving up.
                    released_for_retry = self.empty_cache();
                    self.stats.alloc_retries += 1;
                    if self.stats.reserved + segment_size > self.capacity {
                        self.stats.ooms += 1;
                        return Err(self.out_of_memory(segment_size));
                    }
                }
                new_segment = segment_size;
                (self.add_segment(pool, segment_size), 0)
            }
        };
        let block = self.take_block(segment, offset, size);
        let address = self.address_of(segment, offset);
        Ok(Allocation {
            block,
            address,
            size,
            new_segment,
            released_for_retry,
        })
    }

    fn allocate_exact(&mut self, bytes: u64) -> Result<Allocation, OutOfMemory> {
        if self.stats.reserved + bytes > self.capacity {
            self.stats.ooms += 1;
            return Err(self.out_of_memory(bytes));
        }
        let segment = self.add_segment(Pool::Large, bytes);
        let block = self.take_block(segment, 0, bytes);
        let address = self.address_of(segment, 0);
        Ok(Allocation {
            block,
            address,
            size: bytes,
            new_segment: bytes,
            released_for_retry: 0,
        })
    }

    /// Frees an allocation; returns the bytes it held. The memory stays reserved (cached) on a
    /// caching allocator.
    pub fn free(&mut self, block: BlockId) -> Option<u64> {
        let (segment_index, offset) = self.live.remove(&block)?;
        let segment = self.segments.get_mut(segment_index)?.as_mut()?;
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
        self.stats.allocated -= size;
        self.stats.frees += 1;
        if !self.caching {
            self.release_segment(segment_index);
        }
        Some(size)
    }

    /// `torch.cuda.empty_cache`: gives every entirely free segment back. Returns the bytes released.
    pub fn empty_cache(&mut self) -> u64 {
        let free: Vec<usize> = (0..self.segments.len())
            .filter(|&i| self.segments[i].as_ref().is_some_and(Segment::is_free))
            .collect();
        free.into_iter().map(|i| self.release_segment(i)).sum()
    }

    fn release_segment(&mut self, index: usize) -> u64 {
        let size = self.segments[index].take().map_or(0, |s| s.size);
        self.stats.reserved -= size;
        size
    }

    fn add_segment(&mut self, pool: Pool, size: u64) -> usize {
        self.stats.reserved += size;
        self.stats.max_reserved = self.stats.max_reserved.max(self.stats.reserved);
        self.stats.segments += 1;
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
    fn take_block(&mut self, segment_index: usize, offset: u64, size: u64) -> BlockId {
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
            self.stats.allocated += segment.blocks[position].size;
        }
        self.stats.max_allocated = self.stats.max_allocated.max(self.stats.allocated);
        self.stats.allocations += 1;
        self.live.insert(id, (segment_index, offset));
        id
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
            free: self.capacity - self.stats.reserved.min(self.capacity),
            allocated: self.stats.allocated,
            reserved: self.stats.reserved,
        }
    }
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
    fn sizes_print_as_pytorch_prints_them() {
        assert_eq!(Size(512).to_string(), "512 bytes");
        assert_eq!(Size(1536).to_string(), "1.50 KiB");
        assert_eq!(Size(20 * MIB).to_string(), "20.00 MiB");
        assert_eq!(Size(3 << 29).to_string(), "1.50 GiB");
    }
}
